// The network clock and the activity-driven evaluation every clocked block shares.
//
// One Clock per simulated system (no global state). Routers and NIs are ClockedModules: the
// clock's one SC_METHOD evaluates, on each cycle, the blocks that are awake, in the order they
// were built. A block that has nothing to do goes to sleep and is woken for the cycle a flit is
// due (Link::send wakes its receiver) or for a timer of its own. Links are delay lines, so the
// order of evaluation within a cycle never changes a result. One kernel activation per cycle
// instead of one per block per cycle: at this granularity the activation costs more than most
// blocks' work.
#pragma once
#include <cstdint>
#include <queue>
#include <vector>

#include <systemc>

#include "noc/types.hpp"

namespace collnoc {

class ClockedModule;

class Clock : public sc_core::sc_module {
 public:
  Clock(sc_core::sc_module_name name, sc_core::sc_time period);

  const sc_core::sc_time& period() const { return period_; }
  Cycle now() const { return static_cast<Cycle>(sc_core::sc_time_stamp().value() / period_ticks_); }
  sc_core::sc_time delay(Cycle cycles) const { return period_ * static_cast<double>(cycles); }
  sc_core::sc_time at(Cycle cycle) const { return period_ * static_cast<double>(cycle); }

  // Block bookkeeping, used by ClockedModule.
  unsigned attach(ClockedModule* block);
  // Inline: most wake-ups find the block already due by then (every flit of a busy link).
  void wake(unsigned block, Cycle cycle) {
    if (!awake(block) && cycle < due_[block]) wake_earlier(block, cycle);
  }
  void keep_awake(unsigned block);
  bool awake(unsigned block) const { return (awake_[block >> 6] >> (block & 63)) & 1u; }

 private:
  void wake_earlier(unsigned block, Cycle cycle);
  void on_edge();
  void schedule_edge(Cycle cycle);

  sc_core::sc_time period_;
  sc_core::sc_time::value_type period_ticks_;
  sc_core::sc_event edge_;
  Cycle edge_cycle_ = 0;  // the cycle edge_ is pending for (kNever: none)
  std::vector<ClockedModule*> blocks_;
  std::vector<unsigned> order_;       // this edge's awake blocks, in index order
  std::vector<std::uint64_t> awake_;  // bit per block: evaluate on the next edge
  std::vector<Cycle> due_;            // per sleeping block: the cycle it is to be woken
  // Wake-ups of the next kWheel cycles: a timing wheel of block bit sets (a block may be woken
  // once too often, when an earlier wake-up overtook a later one: evaluating a block with
  // nothing to do changes nothing). Later ones wait in a heap.
  static constexpr Cycle kWheel = 64;
  static constexpr std::size_t kPrefetchBlocks = 1024;
  std::vector<std::uint64_t> wheel_;  // kWheel slots of awake_.size() words
  Cycle last_edge_ = 0;
  using Wakeup = std::pair<Cycle, unsigned>;
  std::priority_queue<Wakeup, std::vector<Wakeup>, std::greater<Wakeup>> later_;
  void enqueue(unsigned block, Cycle cycle);
  Cycle next_wakeup() const;
};

class ClockedModule : public sc_core::sc_module {
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

  // Called by links: a flit for input `port` is due in `cycle`; a credit for output `port` was
  // sent. Blocks look only at the ports flagged here, not at every link every cycle. A credit
  // wakes nobody: a block with flits to send is awake, and an idle one collects its credits
  // when it next evaluates, with the same result.
  void flit_sent(unsigned port, Cycle cycle) {
    flit_pending_ |= std::uint64_t{1} << port;
    wake_at(cycle);
  }
  void credit_sent(unsigned port) { credit_pending_ |= std::uint64_t{1} << port; }

 protected:
  friend class Clock;
  // One cycle of the block's hardware.
  virtual void evaluate(Cycle now) = 0;
  // Earliest cycle after `now` at which the block has work of its own (a timer, a queued
  // message, flits due on its links); kNever if only a new arrival can give it work.
  // now + 1 keeps it awake.
  virtual Cycle next_work_cycle(Cycle now) const = 0;
  // Asks the memory system for what evaluate() will read; called a little before it. Large
  // networks do not fit in cache, and the clock knows which block comes next.
  virtual void prefetch() const {}

  std::uint64_t flit_pending_ = 0;    // bit per input port whose link holds flits
  std::uint64_t credit_pending_ = 0;  // bit per output port whose link holds credits
  // Calls f(port) for every flagged port; f returns true when the port's link is now empty.
  template <typename F>
  static void for_each_pending(std::uint64_t& mask, F&& f) {
    for (std::uint64_t bits = mask; bits; bits &= bits - 1) {
      const unsigned port = static_cast<unsigned>(__builtin_ctzll(bits));
      if (f(port)) mask &= ~(std::uint64_t{1} << port);
    }
  }

 private:
  Clock& clock_;
  unsigned index_;
  bool always_on_ = false;
};

}  // namespace collnoc
