// The network clock and the activity-driven evaluation every clocked block shares.
//
// One Clock per simulated system (no global state): its `tick` event fires once per cycle.
// A ClockedModule evaluates on ticks while it has work and otherwise sleeps, to be woken by a
// timed event when a flit is due (Link::send wakes its receiver). Links are delay lines, so the
// order in which modules evaluate within a cycle never changes a result.
#pragma once
#include <systemc>

#include "noc/types.hpp"

namespace collnoc {

class Clock : public sc_core::sc_module {
 public:
  Clock(sc_core::sc_module_name name, sc_core::sc_time period);

  const sc_core::sc_time& period() const { return period_; }
  const sc_core::sc_event& tick() const { return tick_; }
  Cycle now() const { return static_cast<Cycle>(sc_core::sc_time_stamp().value() / period_ticks_); }
  sc_core::sc_time delay(Cycle cycles) const { return period_ * static_cast<double>(cycles); }
  sc_core::sc_time at(Cycle cycle) const;  // absolute time of a cycle's edge

 private:
  void on_tick();
  sc_core::sc_time period_;
  sc_core::sc_time::value_type period_ticks_;
  sc_core::sc_event tick_;
};

class ClockedModule : public sc_core::sc_module {
 public:
  ClockedModule(sc_core::sc_module_name name, Clock& clock);

  // Schedules an evaluation at `cycle` (> now) if the module sleeps; a no-op when it is awake.
  void wake_at(Cycle cycle);
  // Evaluate every cycle instead of sleeping (tracing, or checking the optimisation).
  void set_always_on(bool on) { always_on_ = on; }
  Clock& clock() const { return clock_; }
  bool asleep() const { return asleep_; }

  // Called by links: a flit for input `port` is due in `cycle`; a credit for output `port` was
  // sent. Blocks look only at the ports flagged here, not at every link every cycle.
  void flit_sent(unsigned port, Cycle cycle) {
    flit_pending_ |= std::uint64_t{1} << port;
    wake_at(cycle);
  }
  void credit_sent(unsigned port) { credit_pending_ |= std::uint64_t{1} << port; }

 protected:
  // One cycle of the block's hardware.
  virtual void evaluate(Cycle now) = 0;
  // Earliest cycle after `now` at which the block has work of its own (a timer, a queued
  // message); kNever if only an arriving flit can give it work. now + 1 keeps it awake.
  virtual Cycle next_work_cycle(Cycle now) const = 0;

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
  void process();
  Clock& clock_;
  sc_core::sc_event wake_;
  Cycle last_eval_ = kNever;
  Cycle wake_pending_ = kNever;
  bool asleep_ = false;
  bool always_on_ = false;
};

}  // namespace collnoc
