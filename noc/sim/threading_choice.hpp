// The clock's choice between one thread and all for the busy cycles of a network.
#pragma once
#include <cstdint>

namespace collnoc {

// Whether a busy cycle is evaluated on one thread or on all: hold the way chosen for a number of
// busy cycles, then time some cycles on one thread, then some on all, and hold the faster. Each
// way is timed for kTimedCycles cycles, or fewer (at least kMinTimedCycles) once kTimedNs have
// been timed: a large network's cycles are long, and the slower way costs while it is timed.
// The ways are compared by their median time per block evaluated, not by their sums: on a
// shared machine one parallel cycle whose other thread lost its core for a time slice would
// otherwise outweigh the rest and hold a 32x32 mesh on one thread, at half the speed, for a
// thousand cycles or more (5 runs in 30 did, docs/performance_log.md, thirteenth session).
class ThreadingChoice {
 public:
  // For a busy cycle: true to evaluate it on all threads. `timed`: time it, and record().
  bool choose(bool& timed);
  void record(bool parallel, double ns, unsigned blocks);

  static constexpr unsigned kSettleCycles = 8, kTimedCycles = 64, kMinTimedCycles = 4;
  static constexpr double kTimedNs = 5e6;
  static constexpr unsigned kFirstHold = 1024, kMaxHold = 32768;

 private:
  enum class Phase : std::uint8_t { hold, time_serial, time_parallel };
  float median(unsigned way);
  Phase phase_ = Phase::time_serial;
  bool use_parallel_ = false;
  unsigned phase_cycles_ = 0;
  unsigned hold_cycles_ = kFirstHold;
  double timed_ns_[2] = {0, 0};          // [parallel]: wall time of the timed cycles
  unsigned timed_count_[2] = {0, 0};     // how many were timed
  float ns_per_block_[2][kTimedCycles];  // each one's time per block evaluated
};

}  // namespace collnoc
