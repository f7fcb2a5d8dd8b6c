// A clocked block: what the clock evaluates, and the API a model is written against. A model
// derives from Clocked<Model> and writes one cycle of its hardware, cycle(At at), as a template
// over the cycle it evaluates (SerialCycle or ParallelCycle); it reaches its links through
// them (noc/link.hpp), its ports with work through for_each_input_with_flits and
// for_each_output_with_credits, and the clock through wake_at.
#pragma once
#include <cstdint>

#include <systemc>

#include "noc/sim/clock.hpp"
#include "noc/sim/lane.hpp"
#include "noc/sim/port_marks.hpp"
#include "noc/types.hpp"

namespace collnoc {

// The cycle a block is evaluating and how it reaches its links in it: on the clock's own thread
// (SerialCycle), or on one of the threads of a parallel cycle (ParallelCycle), when the block
// at a link's other end may be evaluating at the same time. A block is written once, as a
// template over this (Clocked), and hands it to its links (Link) and to its network's
// per-thread state (NetworkContext::lane); it never asks which one it is.
struct SerialCycle {
  static constexpr bool kParallel = false;
  Cycle now;
  unsigned thread() const { return 0; }
};
struct ParallelCycle {
  static constexpr bool kParallel = true;
  Cycle now;
  Lane& lane;  // the thread's (wake-ups are applied after the parallel part)
  unsigned thread() const { return lane.index; }
};

// What the clock calls on every evaluation of a block, and the block's port marks, apart from
// the sc_module: an sc_module's own fields fill several cache lines, so a block's virtual table
// pointer (at the sc_module's start) would be a line of its own that each evaluation misses. As
// the second base of ClockedModule, this part sits at the end of the sc_module, on one line with
// the first fields of the block's own class (put its hot fields first).
class alignas(64) ClockedBlock {
 protected:
  friend class Clock;
  ~ClockedBlock() = default;  // (not deleted through this base)
  // One cycle of the block's hardware.
  virtual void evaluate(Cycle now) = 0;
  // Earliest cycle after `now` at which the block has work of its own (a timer, a queued
  // message, flits due on its links); kNever if only a new arrival can give it work.
  // now + 1 keeps it awake.
  virtual Cycle next_work_cycle(Cycle now) const = 0;
  // Asks the memory system for what evaluate() will read; called a little before it. Large
  // networks do not fit in cache, and the clock knows which block comes next. (The block's own
  // fields, up to set_prefetch_end's, were asked for earlier.)
  virtual void prefetch() const {}

  // The ports with work, as the block knows them: an input port whose link holds flits (due
  // now or later), an output port whose link holds credits. Its own: nobody else writes them.
  // They come from the marks its links leave (PortMarks, taken by take_marks()). Blocks look
  // only at these ports, not at every link every cycle. A credit wakes nobody: a block with
  // flits to send is awake, and an idle one collects its credits when it next evaluates, with
  // the same result.
  std::uint64_t flit_pending_ = 0;
  std::uint64_t credit_pending_ = 0;
  PortMarks marks_;
  // Set while the block is evaluated on a parallel cycle: its thread's Lane.
  Lane* lane_ = nullptr;
  bool always_on_ = false;  // evaluated every cycle (ClockedModule::set_always_on)
};

class ClockedModule : public sc_core::sc_module, public ClockedBlock {
 public:
  ClockedModule(sc_core::sc_module_name name, Clock& clock);

  // Schedules an evaluation at `cycle` (> now) if the block sleeps; a no-op when it is awake.
  void wake_at(Cycle cycle) { clock_.wake(index_, cycle); }
  // Evaluate every cycle instead of sleeping (tracing, or checking the optimisation).
  void set_always_on(bool on) {
    always_on_ = on;
    if (on) clock_.keep_awake(index_);
  }
  Clock& clock() const { return clock_; }

  unsigned block_index() const { return index_; }
  // The marks, for the links attached to the block (PortMarks): the byte for a flit due on
  // input `port`, and for a credit on output `port`.
  std::uint8_t* flit_mark(unsigned port) { return marks_.flit_mark(port); }
  std::uint8_t* credit_mark(unsigned port) { return marks_.credit_mark(port); }

 protected:
  // May be evaluated on any thread of a parallel cycle (see Clock::mark_parallel).
  void set_parallel(unsigned affinity) { clock_.mark_parallel(index_, affinity); }
  void set_parallel() { set_parallel(index_); }
  // The block's hot fields run from ClockedBlock's to `end` (a member's address).
  void set_prefetch_end(const void* end);
  // And its hot state outside the object, in an allocation of its own: [begin, end) (none if
  // that is not an ordered range of at most kMaxPrefetchRegionBytes).
  static constexpr std::size_t kMaxPrefetchRegionBytes = 256 * 1024;
  void set_prefetch_region(const void* begin, const void* end);

  // Ports up to `ports` (before links are attached; 8 without).
  void set_ports(unsigned ports) { marks_.resize(ports); }
  // The ports with work: an input port whose link holds flits (due now or later), an output
  // port whose link holds credits. A block that looks only at these, not at every link every
  // cycle, collects them at the start of its evaluation (its links leave marks; a block that
  // polls its one or two links, an NI, need not). Then for_each_* call f(port) for each; f
  // returns true when the port's link is now empty.
  void collect_ports_with_work(Cycle now) { marks_.take(now, flit_pending_, credit_pending_); }
  template <typename F>
  void for_each_input_with_flits(F&& f) { for_each_pending(flit_pending_, f); }
  template <typename F>
  void for_each_output_with_credits(F&& f) { for_each_pending(credit_pending_, f); }
  std::uint64_t outputs_with_credits() const { return credit_pending_; }
  // For next_work_cycle at `now`: the inputs whose links hold flits, those marked during this
  // cycle too (a sender evaluated before the block in this cycle woke it while it was awake,
  // which does nothing).
  std::uint64_t inputs_with_flits(Cycle now) const {
    return flit_pending_ | marks_.flits_marked(now);
  }
  // For prefetch(): the ports the next evaluation will find with work (no store).
  void peek_ports_with_work(std::uint64_t& inputs, std::uint64_t& outputs) const {
    inputs = flit_pending_;
    outputs = credit_pending_;
    marks_.peek(inputs, outputs);
  }

 private:
  template <typename F>
  static void for_each_pending(std::uint64_t& mask, F&& f) {
    for (std::uint64_t bits = mask; bits; bits &= bits - 1) {
      const unsigned port = static_cast<unsigned>(__builtin_ctzll(bits));
      if (f(port)) mask &= ~(std::uint64_t{1} << port);
    }
  }
  Clock& clock_;
  unsigned index_;
};

// The base of a block class `Block` (CRTP): the clock's evaluation calls
// Block::cycle(At) with the SerialCycle or ParallelCycle the block is evaluated in.
template <class Block>
class Clocked : public ClockedModule {
 public:
  using ClockedModule::ClockedModule;

 protected:
  void evaluate(Cycle now) final {
    if (lane_) static_cast<Block*>(this)->cycle(ParallelCycle{now, *lane_});
    else static_cast<Block*>(this)->cycle(SerialCycle{now});
  }
};

}  // namespace collnoc
