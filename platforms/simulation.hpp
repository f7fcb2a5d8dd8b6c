// Runs a built system: warm-up, measurement and drain phases for synthetic traffic, or until
// every core's firmware has finished; checks conservation, payload integrity and forward
// progress; and gathers the results.
#pragma once
#include <atomic>
#include <string>

#include "collectives/firmware.hpp"
#include "noc/report.hpp"
#include "platforms/energy_model.hpp"
#include "platforms/noc_system.hpp"

namespace collnoc {

struct RunParams {
  Cycle warmup_cycles = 1000;     // synthetic: packets created before this are not measured
  Cycle measure_cycles = 10000;   // synthetic: the measurement window after warm-up
  Cycle max_cycles = 1000000;     // hard stop (drain included)
  Cycle max_drain_cycles = 50000; // synthetic: give up draining measured packets after this
  Cycle watchdog_cycles = 20000;  // no flit moved this long with flits in flight: deadlock
  // Synthetic: the warm-up lasts until the accepted throughput (flits delivered per node and
  // cycle) of two successive intervals differs by less than the tolerance (SPEC 5: 1000
  // cycles, 0.005), at least warmup_cycles and at most steady_state_max_warmup_cycles.
  bool steady_state = false;
  bool warmup_auto = false;  // sim.warmup = auto: the same as steady_state
  bool steady_warmup() const { return steady_state || warmup_auto; }
  Cycle steady_state_interval_cycles = 1000;
  double steady_state_tolerance = 0.005;  // flits/node/cycle
  Cycle steady_state_max_warmup_cycles = 100000;
  // The accepted throughput over time (throughput.series_*): flits delivered per node and cycle
  // in each interval of this many cycles; 0: none.
  Cycle series_interval_cycles = 1000;
  // Per source-destination flow (stats.per_flow): the `per_flow_top` flows of highest mean
  // latency in the results (0: every flow that delivered a measured packet).
  bool per_flow = false;
  std::uint32_t per_flow_top = 20;
  // Per output VC of every link, the share of cycles a packet held it (stats.per_vc).
  bool per_vc = false;
  // Firmware: per round, the flits and contention events of every router-to-router link
  // (stats.per_round_links: the links_by_round rows).
  bool per_round_links = false;
  std::uint64_t seed = 1;
  EnergyParams energy;            // power.*: energy and power estimates (energy.* results)
  bool progress = true;           // print progress on stderr for runs longer than a few seconds
  // Nonzero stops the run at its next check (every 256 cycles at most) with the results so far
  // (sim.interrupted): the program points it at its SIGINT / SIGTERM note.
  const std::atomic<int>* interrupt = nullptr;

  // Warm-up, window and drain add up to cycle numbers: validate() also checks their sums.
  static constexpr UintRange warmup_cycles_range{0, kU64Max};
  static constexpr UintRange measure_cycles_range{1, kU64Max};
  static constexpr UintRange max_cycles_range{1, kU64Max};
  static constexpr UintRange max_drain_cycles_range{0, kU64Max};
  static constexpr UintRange watchdog_cycles_range{1, kU64Max};
  static constexpr UintRange seed_range{0, kU64Max};
  static constexpr UintRange steady_state_interval_cycles_range{1, kU32Max};
  static constexpr RealRange steady_state_tolerance_range{0.0, 1.0};
  static constexpr UintRange steady_state_max_warmup_cycles_range{0, kU64Max};
  static constexpr UintRange series_interval_cycles_range{0, kU32Max};
  static constexpr UintRange per_flow_top_range{0, kU32Max};
};

void validate(const RunParams& p);

enum class RunStatus {
  ok, deadlock, conservation_error, data_error, firmware_deadlock, firmware_fault, timeout,
  stalled,  // the run stopped (end of drain, max_cycles) with no flit moved for a watchdog period
};
const char* to_string(RunStatus s);

struct RunOutcome {
  RunStatus status = RunStatus::ok;
  std::string diagnosis;  // what went wrong, for a human
  Report report;
};

class Simulation {
 public:
  // `firmware` null: synthetic traffic (attach_traffic must have been called).
  Simulation(NocSystem& system, const RunParams& params, Firmware* firmware);
  RunOutcome run();

 private:
  bool finished(Cycle now) const;
  void gather(RunOutcome& out, double wall_seconds, bool completed) const;
  void report_round_links(Report& r) const;
  // The measurement window starts at `begin` (sets the NIs').
  void open_window(Cycle begin);
  // Steady-state warm-up: at an interval's end, whether the window opens now.
  bool steady(Cycle now);

  NocSystem& sys_;
  RunParams params_;
  Firmware* firmware_;
  const TraceFeed* trace_;  // trace-driven traffic (NocSystem::attach_trace), else null
  // The measurement window (kNever until the warm-up ends: sim.steady_state).
  Cycle window_begin_ = kNever, window_end_ = kNever;
  // Steady-state detection: flits delivered at the last interval's end, its throughput.
  std::uint64_t sampled_flits_ = 0;
  double sampled_throughput_ = -1.0;
  bool steady_reached_ = false;
  // The throughput series: flits delivered at each interval's end, and where the last one ended.
  std::vector<std::uint64_t> series_flits_;
  Cycle series_last_cycle_ = 0;
  void sample_series(Cycle now);
  void report_flows(Report& r, double window_cycles) const;
};

}  // namespace collnoc
