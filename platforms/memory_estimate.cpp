#include "platforms/memory_estimate.hpp"

#include <unistd.h>

#include <algorithm>

#include "noc/link.hpp"

namespace collnoc {

namespace {

// Fixed costs, measured (peak resident set of `collnoc run` on 2-D and 3-D meshes of 4 to 4096
// routers at light load, Release build): the program with SystemC before any model; per router
// (module, method process, allocators, arrays' bookkeeping), per router port (its output link
// object and port state) and per NI; per core (module, thread, the stack pages it touches).
constexpr std::uint64_t kProgramBytes = 14ull << 20;
constexpr std::uint64_t kRouterBytes = 11500;
constexpr std::uint64_t kPortBytes = 1900;
constexpr std::uint64_t kInterfaceBytes = 2000;
constexpr std::uint64_t kCoreBytes = 60000;
// Per NI: its latency counts (SampleCounts), two arrays of 8 bytes per cycle of latency up to the
// largest seen (at most 8 KB each); 4 KB covers latencies up to 128 cycles.
constexpr std::uint64_t kLatencyCountBytes = 4096;

std::uint64_t next_power_of_two(std::uint64_t n) {
  std::uint64_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

// A link's delay lines on the heap (short ones live inside the link object).
std::uint64_t link_line_bytes(const LinkParams& link, std::uint64_t credits) {
  const std::uint64_t stamps = next_power_of_two(std::uint64_t{link.latency_cycles} + 1);
  const std::uint64_t credit_stamps = next_power_of_two(std::uint64_t{link.credit_latency_cycles} + 1);
  std::uint64_t bytes = 0;
  if (link.latency_cycles >= 2) bytes += stamps * (sizeof(Cycle) + sizeof(Arrival));
  if (link.credit_latency_cycles >= 2 || credits > 16)
    bytes += credit_stamps * sizeof(Cycle) + next_power_of_two(credits);
  return bytes;
}

std::uint64_t mb(std::uint64_t bytes) { return (bytes + (1u << 19)) >> 20; }

}  // namespace

std::uint64_t MemoryEstimate::total_bytes() const {
  std::uint64_t sum = 0;
  for (const Part& p : parts) sum += p.bytes;
  return sum;
}

std::string MemoryEstimate::describe() const {
  std::vector<Part> sorted = parts;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Part& a, const Part& b) { return a.bytes > b.bytes; });
  std::string s = std::to_string(mb(total_bytes())) + " MB";
  std::string detail;
  for (const Part& p : sorted)
    if (p.bytes >= (1u << 20)) detail += (detail.empty() ? "" : ", ") + std::to_string(mb(p.bytes)) + " MB " + p.what;
  return detail.empty() ? s : s + ": " + detail;
}

MemoryEstimate estimate_memory(const PlatformParams& p, const WorkloadFootprint& w) {
  const std::unique_ptr<Topology> topo = make_topology(platform_topology(p));
  const SystemParams& sys = p.system;
  const RouterParams& r = sys.router;
  const std::uint64_t routers = topo->num_routers(), nodes = topo->num_endpoints();
  std::uint64_t router_links = 0;  // router-to-router links, one per direction
  for (RouterId id = 0; id < routers; ++id)
    for (unsigned port = 0; port < topo->network_ports(); ++port)
      router_links += topo->peer(id, port).connected();
  const std::uint64_t slot_bytes = sizeof(BufferSlot) + 4ull * sys.ni.words_per_flit();
  const std::uint64_t vc_slots = std::uint64_t{r.vcs} * r.buffer_flits;
  const std::uint64_t ejection_slots = std::uint64_t{r.vcs} * sys.ni.ejection_buffer(r);

  MemoryEstimate e;
  e.parts.push_back({"program", kProgramBytes});
  e.parts.push_back({"routers", routers * (kRouterBytes + topo->radix() * kPortBytes)});
  e.parts.push_back({"router buffers", routers * topo->radix() * vc_slots * slot_bytes});
  e.parts.push_back({"link delay lines",
                     router_links * link_line_bytes(sys.link, vc_slots) +
                         nodes * (link_line_bytes(sys.ni_link, vc_slots) +
                                  link_line_bytes(sys.ni_link, ejection_slots))});
  std::uint64_t ni = nodes * (kInterfaceBytes + ejection_slots * slot_bytes);
  if (sys.ni.compression.policy == "selective")  // a ring of arrival cycles over the window
    ni += nodes * std::uint64_t{sys.ni.compression.congestion_window_cycles} * sizeof(Cycle);
  e.parts.push_back({"network interfaces", ni});
  if (w.firmware) e.parts.push_back({"cores", nodes * kCoreBytes});
  e.parts.push_back({"messages", w.message_bytes});
  e.parts.push_back({"trace feed", w.trace_bytes});
  e.parts.push_back({"latency counts", nodes * kLatencyCountBytes});
  return e;
}

std::uint64_t minimum_network_bytes(std::uint64_t routers) {
  return routers > kU64Max / kRouterBytes ? kU64Max : routers * kRouterBytes;
}

std::uint64_t automatic_memory_limit_mb() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 4096;  // unknown: 4 GB
  return static_cast<std::uint64_t>(pages) / 10 * 8 * static_cast<std::uint64_t>(page) >> 20;
}

}  // namespace collnoc
