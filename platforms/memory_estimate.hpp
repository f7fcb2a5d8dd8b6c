// What a configured system will occupy in memory, estimated before it is built, so that a run
// that cannot fit is refused (sim.max_memory_mb) instead of failing minutes into elaboration.
// Buffers, delay lines and message storage are counted from the parameters; the fixed cost of
// each SystemC module (router, NI, link, core: objects, processes, names) is a constant measured
// on this build (docs/reliability.md has the measurements and the model's accuracy).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "platforms/platform.hpp"

namespace collnoc {

struct MemoryEstimate {
  struct Part {
    std::string what;     // "router buffers", ...
    std::uint64_t bytes;
  };
  std::vector<Part> parts;
  std::uint64_t total_bytes() const;
  // "412 MB: 14 MB program, 300 MB router buffers, ..." (parts of at least 1 MB, largest first)
  std::string describe() const;
};

// What the workload keeps in memory besides the network.
struct WorkloadFootprint {
  bool firmware = false;             // a core (an SC_THREAD and its stack) per NI
  std::uint64_t message_bytes = 0;   // firmware: messages held at once, all cores together
  std::uint64_t trace_bytes = 0;     // trace replay: the feed's ring of recent deliveries, at most
  // (Past saturation a source queue grows by about 120 bytes per waiting packet: not counted,
  // since how far it grows depends on what the network accepts.)
};

// Estimated peak resident memory of platform `p` running a workload of `w`. Throws ParamError
// for a topology that cannot be built (as make_topology does).
MemoryEstimate estimate_memory(const PlatformParams& p, const WorkloadFootprint& w);

// The least memory `routers` routers take (their state alone, without buffers): what
// check_buildable compares with the limit before it builds anything.
std::uint64_t minimum_network_bytes(std::uint64_t routers);

// What sim.max_memory_mb = 0 means: 80 % of the machine's physical memory, in MB.
std::uint64_t automatic_memory_limit_mb();

}  // namespace collnoc
