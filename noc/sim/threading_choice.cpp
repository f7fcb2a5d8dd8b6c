#include "noc/sim/threading_choice.hpp"

#include <algorithm>

namespace collnoc {

bool ThreadingChoice::choose(bool& timed) {
  ++phase_cycles_;
  if (phase_ == Phase::hold) {
    if (phase_cycles_ >= hold_cycles_) {
      phase_ = Phase::time_serial;
      phase_cycles_ = 0;
    }
    return use_parallel_;
  }
  const bool parallel = phase_ == Phase::time_parallel;
  // The first cycles of each way bring its state into the caches: not timed.
  const bool done =
      phase_cycles_ >= kSettleCycles + kTimedCycles ||
      (phase_cycles_ > kSettleCycles + kMinTimedCycles && timed_ns_[parallel] >= kTimedNs);
  timed = phase_cycles_ > kSettleCycles && !done;
  if (!done) return parallel;
  phase_cycles_ = 0;
  if (!parallel) {
    phase_ = Phase::time_parallel;
    return false;
  }
  // All threads only if clearly faster (timings are noisy).
  const bool faster = 1.05f * median(1) < median(0);
  // The same answer again: ask less often.
  hold_cycles_ = faster == use_parallel_ ? std::min(2 * hold_cycles_, kMaxHold) : kFirstHold;
  use_parallel_ = faster;
  timed_ns_[0] = timed_ns_[1] = 0;
  timed_count_[0] = timed_count_[1] = 0;
  phase_ = Phase::hold;
  return true;
}

float ThreadingChoice::median(unsigned way) {
  float* first = ns_per_block_[way];
  float* mid = first + timed_count_[way] / 2;
  std::nth_element(first, mid, first + timed_count_[way]);
  return *mid;
}

void ThreadingChoice::record(bool parallel, double ns, unsigned blocks) {
  timed_ns_[parallel] += ns;
  // (At most kTimedCycles - 1 per way: choose() stops timing it then.)
  ns_per_block_[parallel][timed_count_[parallel]++] = static_cast<float>(ns / blocks);
}

}  // namespace collnoc
