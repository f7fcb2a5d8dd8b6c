// The valid/ready pipeline every pin-level block is built on (rtl_models/README.md, "Common
// rules" and "Adding a block"): the clock, reset and handshake pins, a valid bit per register
// stage, and the rule that moves words through the stages. A block adds its data pins and its
// datapath: load(stage) puts one word into a stage, clear() zeroes its data registers at reset.
//
// Stages 1..D, D = pipeline_depth(); stage D is the output register (out_valid and the block's
// output data pins). At a rising edge, from stage D back to stage 1, a stage loads when it is
// empty or its word moves on at this edge, and it takes what stage - 1 held before the edge
// (stage 0: the input pins). in_ready = !rst && (!full || out_ready): one empty stage anywhere
// lets a word in. A word taken at edge t leaves at edge t + D at the earliest.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

namespace collnoc {

class StreamBlock : public sc_core::sc_module {
 public:
  static constexpr unsigned kMaxDepth = 1024;  // `occupancy` is 11 bits wide

  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_in<bool> rst{"rst"};  // synchronous, active high: empties every stage

  sc_core::sc_in<bool> in_valid{"in_valid"};
  sc_core::sc_out<bool> in_ready{"in_ready"};

  sc_core::sc_out<bool> out_valid{"out_valid"};  // stage D holds a word
  sc_core::sc_in<bool> out_ready{"out_ready"};

  unsigned pipeline_depth() const { return depth_; }

  // Adds the six pins above, then what the block named with trace_also(), to `tf` as "<this
  // module's name>.<signal>"; call before the simulation starts. Signal names: the block's .gtkw.
  void trace(sc_core::sc_trace_file* tf) const override;

 protected:
  // depth: 1..kMaxDepth register stages (a block checks its own parameters before this).
  StreamBlock(const sc_core::sc_module_name& name, unsigned depth);

  // The datapath. Stage `stage` (1..D) takes the valid word of stage - 1 (0: the input pins),
  // which still holds its value from before the edge: a block that keeps stage data in plain
  // members can copy it directly. Not called for a bubble: a data register keeps its last word.
  virtual void load(unsigned stage) = 0;
  // Reset: every data register of the block, output data pins included, to 0.
  virtual void clear() = 0;

  // Adds the block's own pins and registers to trace(), each under its own name, in this order.
  template <class... Signals>
  void trace_also(const Signals&... signals) {
    (traced_.emplace_back([&signals](sc_core::sc_trace_file* tf) {
       sc_core::sc_trace(tf, signals, signals.name());
     }),
     ...);
  }
  // A plain register, such as stage_valid(s), traced as "<this module's name>.<name>".
  void trace_also(const bool& reg, const char* name);

  // The valid bit of inner stage 1..D-1 (stage D's is out_valid).
  const bool& stage_valid(unsigned stage) const { return valid_[stage - 1]; }

  // Registers of the pipeline control, updated at every edge; trace them with trace_also().
  sc_core::sc_signal<bool> full_{"full"};                          // all D stages hold a word
  sc_core::sc_signal<sc_dt::sc_uint<11>> occupancy_{"occupancy"};  // words inside, 0..D

 private:
  void on_clock();         // clocked: the valid bits, full_, occupancy_ and load() per stage
  void update_in_ready();  // combinational: in_ready from rst, full_ and out_ready

  unsigned depth_;
  // Stages 1..D-1 as plain registers: a 1024-stage pipeline as signals would be 1023 updates a
  // cycle. Plain bools rather than vector<bool> so that trace_also() can take one by reference.
  std::unique_ptr<bool[]> valid_;
  std::vector<std::function<void(sc_core::sc_trace_file*)>> traced_;
};

}  // namespace collnoc
