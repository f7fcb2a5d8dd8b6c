#include "platforms/run_config.hpp"

#include <algorithm>

#include "collectives/all_to_all_plan.hpp"
#include "collectives/collective.hpp"
#include "noc/router/allocator.hpp"
#include "noc/routing/routing.hpp"

namespace collnoc {

double uniform_capacity(const PlatformParams& p) {
  const TopologyParams t = platform_topology(p);
  if ((t.kind != "mesh" && t.kind != "torus") || t.k.empty()) return 0.0;
  const double k = *std::max_element(t.k.begin(), t.k.end());
  if (t.kind == "mesh") return 4.0 / k;
  return t.directions == 1 ? 2.0 / (k - 1.0) : 8.0 / k;
}

double normalized_injection_rate(const TrafficParams& t, double capacity) {
  const double f = t.multicast_fraction;
  const double destinations = 0.5 * (t.multicast_destinations_min + t.multicast_destinations_max);
  return t.normalized_load * capacity / ((1.0 - f) + f * destinations);
}

void derive_params(RunConfig& rc) {
  AllToAllParams& a2a = rc.firmware.all_to_all;
  const SystemParams& sys = rc.platform.system;
  a2a.packet_flits = rc.traffic.packet_flits;
  a2a.words_per_flit = sys.ni.words_per_flit();
  a2a.vc_classes = sys.router.vc_classes;
  a2a.max_packet_flits = sys.ni.max_packet_flits;
  a2a.xor_latency_cycles = sys.ni.xor_engine.xor_latency_cycles;
  // Closed forms of collectives (SPEC 4.3's t_s, t_w) follow the configured network.
  rc.firmware.neighbour_cost = neighbour_message_cost(rc.platform.system);
  rc.firmware.protocol.mpb_bytes = platform_mpb_bytes(rc.platform);
  if (rc.firmware.grid.empty()) rc.firmware.grid = default_application_grid(rc.platform.name);
  rc.firmware.software.platform_preset = platform_entry(rc.platform.name).mpi_software;
  rc.firmware.software.platform_cache_resident_bytes =
      static_cast<double>(platform_entry(rc.platform.name).cache_resident_bytes);
  // Hardware multicast: the routers replicate (SPEC 5), with the run's seed for their ties,
  // for synthetic multicast traffic of scheme hta and for an algorithm that multicasts.
  HtaParams& hta = rc.platform.system.router.hta;
  hta.enabled = rc.synthetic() ? rc.traffic.multicast() && rc.traffic.multicast_scheme == "hta"
                               : needs_hta_routers(rc.workload_kind, rc.firmware);
  hta.seed = rc.run.seed;
  // traffic.normalized_load stands for an injection rate (checked in check_buildable).
  if (rc.traffic.normalized_load > 0) {
    const double capacity = uniform_capacity(rc.platform);
    if (capacity > 0) rc.traffic.injection_rate = normalized_injection_rate(rc.traffic, capacity);
  }
}

MemoryEstimate estimate_run_memory(const RunConfig& rc) {
  WorkloadFootprint w;
  const std::uint64_t nodes = make_topology(platform_topology(rc.platform))->num_endpoints();
  if (rc.firmware_workload()) {
    // Messages held at once (measured): the all-to-all exchanges hold every core's message for
    // every other core at some point, total exchange three times over (held, packed, received),
    // the mesh alltoall half as much again (sent and received); ping-pong four in all; other
    // workloads a few per core.
    const FirmwareParams& f = rc.firmware;
    const std::string& c = f.collective;
    const bool collective = rc.workload_kind == "collective";
    const bool by_bytes = collective && c != "total_exchange";
    const std::uint64_t message = by_bytes ? f.message_bytes : 4ull * (f.message_words + 1);
    double copies = 4.0 / static_cast<double>(nodes);  // of p^2 messages
    if (rc.workload_kind == "ping_pong") copies = 4.0 / static_cast<double>(nodes * nodes);
    if (rc.workload_kind == "all_pairs" || rc.workload_kind == "all_to_all_broadcast") copies = 1;
    if (collective && (c == "alltoall" || c == "alltoallv")) copies = 1.5;
    if (collective && c == "total_exchange") copies = 3;
    w.firmware = true;
    w.message_bytes =
        static_cast<std::uint64_t>(copies * static_cast<double>(nodes * nodes * message));
  } else if (rc.trace_driven()) {
    // The delivery cycles of the last messages, as far back as a dependency may reach (an
    // index and a cycle each); what else the feed holds is a few messages (docs/traffic.md).
    w.trace_bytes = TraceLimits{}.max_dependency_distance * 2 * sizeof(std::uint64_t);
  }
  return estimate_memory(rc.platform, w);
}

std::uint64_t memory_limit_mb(const RunConfig& rc) {
  return rc.max_memory_mb ? rc.max_memory_mb : automatic_memory_limit_mb();
}

void check_buildable(const RunConfig& rc) {
  const SystemParams& sys = rc.platform.system;
  // A network too large for the limit is refused before it is built (a 16M-router mesh takes
  // half a gigabyte and most of a second just to wire).
  const std::uint64_t limit = memory_limit_mb(rc);
  const std::uint64_t routers = topology_routers(platform_topology(rc.platform));
  if (limit < (kU64Max >> 20) && minimum_network_bytes(routers) > (limit << 20))
    throw ParamError("sim.max_memory_mb",
                     std::to_string(limit) + (rc.max_memory_mb ? "" : " (automatic)"),
                     "the configured network has " + std::to_string(routers) +
                         " routers, more than " + std::to_string(minimum_network_bytes(routers) >> 20) +
                         " MB before any buffer; shrink it or raise sim.max_memory_mb");
  const std::unique_ptr<Topology> topo = make_topology(platform_topology(rc.platform));
  validate(sys.router);
  validate(sys.ni);
  check_vc_realloc(sys.router,
                   *make_routing(sys.routing, *topo, sys.router.vcs_per_class(),
                                 sys.routing_params),
                   sys.routing);
  check_router_ports(*topo, sys.ni);
  const AllocatorShape shape{router_ports(*topo, sys.ni), sys.router.vcs};
  make_vc_allocator(sys.router.vc_allocator, shape);
  make_switch_allocator(sys.router.switch_allocator, shape);
  validate(sys.link, "link");
  validate(sys.ni_link, "ni_link");
  validate(rc.run);
  if (rc.run.per_round_links && !rc.firmware_workload())
    throw ParamError("stats.per_round_links", "true",
                     "must be false with synthetic traffic or a trace, which have no rounds (a "
                     "firmware workload: workload.kind other than synthetic and trace)");
  // Every parameter's range, used by this run or not (the ones above again, cheaply).
  validate(rc.platform);
  if (rc.synthetic() && rc.traffic.normalized_load > 0) {  // (before the rate it stands for)
    const std::string load = plain_number(rc.traffic.normalized_load);
    const double capacity = uniform_capacity(rc.platform);
    if (capacity <= 0)
      throw ParamError("traffic.normalized_load", load,
                       "needs a mesh or torus (its capacity under uniform traffic); on " +
                           topo->kind() + " set traffic.injection_rate");
    const double rate = normalized_injection_rate(rc.traffic, capacity);
    if (rate > 1.0)
      throw ParamError("traffic.normalized_load", load,
                       "asks for " + plain_number(rate) +
                           " flits/node/cycle, more than an NI injects (1)");
  }
  validate(rc.traffic);
  validate(rc.firmware);
  if (rc.synthetic()) {
    validate(rc.traffic, *topo);
    const bool variable = rc.traffic.variable_length();
    check_whole_packets(sys, variable ? rc.traffic.packet_flits_max : rc.traffic.packet_flits,
                        variable ? "traffic.packet_flits_max" : "traffic.packet_flits");
    check_multicast(sys, *topo, rc.traffic);
  } else if (rc.trace_driven()) {
    check_whole_packets(sys, sys.ni.max_packet_flits, "ni.max_packet_flits: trace messages");
    make_payload_generator(rc.traffic.payload);
    // The whole file, line by line, before anything runs: a bad line is refused up front.
    if (check_trace(rc.trace.file, trace_limits(sys, *topo)) == 0)
      throw TraceError(rc.trace.file, 0, "holds no messages");
  } else {
    if (rc.firmware.protocol.name == "mpb" && rc.firmware.protocol.mpb_bytes == 0)
      throw ParamError("msg.protocol", "mpb",
                       "eager or rendezvous: mpb runs on the message-passing buffers of platform "
                       "scc (not " + rc.platform.name + ")");
    if (needs_hta_routers(rc.workload_kind, rc.firmware)) {  // (the network before the grid)
      const std::string user = "workload.algorithm = " + rc.firmware.algorithm;
      check_firmware_multicast(sys, *topo, user);
      if (rc.firmware.protocol.name != "eager")  // (its copies bypass the handshakes)
        throw ParamError("msg.protocol", rc.firmware.protocol.name,
                         "eager for hardware multicast (" + user + ")");
    }
    make_firmware(rc.workload_kind, rc.firmware, *topo);
    check_whole_packets(sys, sys.ni.max_packet_flits, "ni.max_packet_flits");
  }
  const MemoryEstimate memory = estimate_run_memory(rc);
  // A limit of 2^44 MB or more is no limit (and would overflow in bytes).
  if (limit < (kU64Max >> 20) && memory.total_bytes() > (limit << 20))
    throw ParamError("sim.max_memory_mb", std::to_string(limit) + (rc.max_memory_mb ? "" : " (automatic)"),
                     "the configured run needs about " + memory.describe() +
                         "; shrink it or raise sim.max_memory_mb");
}

BuiltRun build_run(const RunConfig& rc) {
  BuiltRun built;
  built.system = make_platform(rc.platform);
  if (rc.synthetic()) {
    built.system->attach_traffic(rc.traffic, rc.run.seed);
  } else if (rc.trace_driven()) {
    built.system->attach_trace(rc.trace, rc.traffic);
  } else {
    built.firmware = make_firmware(rc.workload_kind, rc.firmware, built.system->topology());
    built.system->attach_firmware(*built.firmware);
  }
  return built;
}

}  // namespace collnoc
