// Pin-level XOR engine (SPEC 3.1): two 32-bit words in, their XOR out, one word pair per cycle.
// Functional twin: collnoc::XorEngine (ni/xor_engine.hpp) with packets one word long;
// tests/test_rtl_xor.cpp checks it bit- and cycle-exact against it. Ports, handshake and timing
// as in the other blocks: rtl_models/README.md.
//
// kPipelineDepth is not fixed: the depth D is the configured latency, latency_cycles = 1..1024
// (XorEngineParams::xor_latency_cycles). The XOR gates sit in front of stage 1; stages 2..D are
// registers that carry the word on; stage D is the output register (out_valid, out_word). A pair
// accepted at edge t leaves at edge t + D at the earliest, as XorEngine's result is ready
// L = D cycles after submit. Latency 0 (XorEngine's combinational case) has no register stage
// and is not built here: the constructor throws ParamError("nc.xor_latency_cycles", ...); in
// hardware the gates then fold into the stage that takes the word (the NI's injection register).
//
// in_ready = !rst && (some stage is empty || out_ready): a stage loads when it is empty or its
// word moves on, so one bubble anywhere lets the input in. The registered `full` (every stage
// holds a word) makes this one gate, combinational from out_ready.
#pragma once
#include <cstdint>
#include <vector>

#include <systemc>

namespace collnoc {

namespace rtl_detail {
// A base checked before sc_module is built, so a bad latency throws before any SystemC object
// exists.
struct CheckedXorLatency {
  explicit CheckedXorLatency(unsigned latency_cycles);
  unsigned latency_cycles_;
};
}  // namespace rtl_detail

class XorEngineRtl : private rtl_detail::CheckedXorLatency, public sc_core::sc_module {
 public:
  static constexpr unsigned kMaxLatencyCycles = 1024;

  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_in<bool> rst{"rst"};  // synchronous, active high

  sc_core::sc_in<bool> in_valid{"in_valid"};
  sc_core::sc_out<bool> in_ready{"in_ready"};
  sc_core::sc_in<sc_dt::sc_uint<32>> in_a{"in_a"};  // a word of packet A
  sc_core::sc_in<sc_dt::sc_uint<32>> in_b{"in_b"};  // the word of packet B at the same place

  sc_core::sc_out<bool> out_valid{"out_valid"};
  sc_core::sc_in<bool> out_ready{"out_ready"};
  sc_core::sc_out<sc_dt::sc_uint<32>> out_word{"out_word"};  // in_a ^ in_b

  // `latency_cycles` = pipeline depth, 1..1024, else ParamError("nc.xor_latency_cycles", ...).
  XorEngineRtl(sc_core::sc_module_name name, unsigned latency_cycles);

  unsigned pipeline_depth() const { return latency_cycles_; }
  // Adds the ports and the `full` / `occupancy` registers to `tf` as "<this module's
  // name>.<signal>"; call before the simulation starts. Names: rtl_models/xor_engine_rtl.gtkw.
  void trace(sc_core::sc_trace_file* tf) const;

 private:
  void on_clock();         // clocked: every stage
  void update_in_ready();  // combinational: in_ready from rst, full and out_ready

  // Stages 1..D-1 (stage D is the output register on the ports): valid bits and words.
  std::vector<bool> valid_;
  std::vector<std::uint32_t> word_;
  sc_core::sc_signal<bool> full_{"full"};                        // all D stages hold a word
  sc_core::sc_signal<sc_dt::sc_uint<11>> occupancy_{"occupancy"};  // words inside, 0..D
};

}  // namespace collnoc
