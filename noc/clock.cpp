#include "noc/clock.hpp"

namespace collnoc {

using namespace sc_core;

Clock::Clock(sc_module_name name, sc_time period)
    : sc_module(name), period_(period), period_ticks_(period.value()) {
  if (period_ticks_ == 0) throw ParamError("sim.clock_period_ns", period.to_string(), "must be > 0");
  SC_HAS_PROCESS(Clock);
  SC_METHOD(on_tick);
  sensitive << tick_;
  // first tick at t = 0: on_tick runs once during initialisation and notifies the next edge
}

sc_time Clock::at(Cycle cycle) const { return period_ * static_cast<double>(cycle); }

void Clock::on_tick() { tick_.notify(period_); }

ClockedModule::ClockedModule(sc_module_name name, Clock& clock) : sc_module(name), clock_(clock) {
  SC_HAS_PROCESS(ClockedModule);
  SC_METHOD(process);
  // runs once at time 0 (initialisation), then follows tick or wake_
}

void ClockedModule::wake_at(Cycle cycle) {
  if (!asleep_ || cycle >= wake_pending_) return;
  const Cycle now = clock_.now();
  wake_pending_ = cycle;
  wake_.notify(clock_.delay(cycle > now ? cycle - now : 0));
}

void ClockedModule::process() {
  const Cycle now = clock_.now();
  if (now != last_eval_) {
    last_eval_ = now;
    evaluate(now);
  }
  asleep_ = false;
  wake_pending_ = kNever;
  const Cycle next = always_on_ ? now + 1 : next_work_cycle(now);
  if (next == now + 1) {
    next_trigger(clock_.tick());
  } else {
    asleep_ = true;
    if (next != kNever) {
      wake_pending_ = next;
      wake_.notify(clock_.delay(next - now));
    }
    next_trigger(wake_);
  }
}

}  // namespace collnoc
