// A whole run in the library's own parameter structs: the platform, the workload (synthetic
// traffic or a firmware program) and the run control. `collnoc run` fills one from its
// configuration; a user's own sc_main can fill one directly (its defaults are the documented
// defaults of every configuration key), check it and build the system from it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "collectives/firmware.hpp"
#include "ni/traffic.hpp"
#include "platforms/memory_estimate.hpp"
#include "platforms/platform.hpp"
#include "platforms/simulation.hpp"

namespace collnoc {

struct RunConfig {
  PlatformParams platform;
  RunParams run;
  std::string workload_kind = "synthetic";  // workload.kind: "synthetic", "trace" or a firmware program
  TrafficParams traffic;
  TraceParams trace;  // workload.kind = trace
  FirmwareParams firmware;
  std::uint64_t max_memory_mb = 0;  // sim.max_memory_mb; 0: automatic_memory_limit_mb()

  bool synthetic() const { return workload_kind == "synthetic"; }
  bool trace_driven() const { return workload_kind == "trace"; }
  bool firmware_workload() const { return !synthetic() && !trace_driven(); }

  static constexpr UintRange max_memory_mb_range{0, kU64Max};
};

// Fills the fields that follow from others, once the rest is set: what firmware needs of the
// system it runs on (packet and flit sizes, VC classes, XOR latency, a neighbour message's t_s
// and t_w, the message-passing buffers) and the platform's application grid when
// firmware.grid is empty.
void derive_params(RunConfig& rc);

// Flits per node and cycle that saturate the channels of the configured mesh or torus under
// uniform unicast traffic (Dally and Towles' bound: 4/k for a mesh, 8/k for a torus, 2/(k-1)
// for a unidirectional one, k the longest dimension); 0 for other topologies.
double uniform_capacity(const PlatformParams& p);
// The injection rate traffic.normalized_load stands for: load x capacity / the unicast-
// equivalent flits per offered flit ((1 - f) + f x mean destinations, f the multicast share).
double normalized_injection_rate(const TrafficParams& t, double capacity);

// Checks that the run can be built, without elaborating SystemC: every parameter's range, then
// the topology, the routing function, the allocators, the traffic or firmware and the memory
// the run needs. Throws ParamError naming the configuration key at fault.
void check_buildable(const RunConfig& rc);

// The memory the run is expected to take (platforms/memory_estimate.hpp), and the limit it is
// held to (max_memory_mb, or the automatic one), in MB.
MemoryEstimate estimate_run_memory(const RunConfig& rc);
std::uint64_t memory_limit_mb(const RunConfig& rc);

// The system of a run with its workload attached, ready for Simulation(*system, rc.run,
// firmware.get()). The firmware is null for synthetic traffic; the system's cores refer to it,
// so it is declared after the system (and destroyed before it).
struct BuiltRun {
  std::unique_ptr<NocSystem> system;
  std::unique_ptr<Firmware> firmware;
};
// Elaborates the run's system (once per process). Call check_buildable first for a clear
// refusal of bad parameters.
BuiltRun build_run(const RunConfig& rc);

}  // namespace collnoc
