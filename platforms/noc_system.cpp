#include "platforms/noc_system.hpp"

#include <algorithm>
#include <sstream>
#include <thread>

#include "noc/zero_load.hpp"

namespace collnoc {

using namespace sc_core;

NocSystem::NocSystem(sc_module_name name, std::unique_ptr<Topology> topology,
                     const SystemParams& params, std::unique_ptr<RoutingFunction> routing)
    : sc_module(name), topology_(std::move(topology)), params_(params),
      clock_("clock", sc_time(params.clock_period_ns, SC_NS)), routing_(std::move(routing)) {
  const Topology& topo = *topology_;
  validate(params_.ni);
  params_.router.flit_words = params_.ni.words_per_flit();  // what the routers' slots hold
  validate(params_.router);
  validate(params_.link, "link");
  validate(params_.ni_link, "ni_link");
  if (!routing_) {
    routing_ = make_routing(params_.routing, topo, params_.router.vcs_per_class(),
                            params_.routing_params);
    check_vc_realloc(params_.router, *routing_, params_.routing);
  }
  clock_.set_threads(params_.threads ? params_.threads : automatic_threads());

  clock_.set_after_parallel([this] { net_.after_parallel(); });
  // (Sink channels beyond the first: ports of their own after the topology's, per endpoint.)
  check_router_ports(topo, params_.ni);
  const unsigned extra_sinks = params_.ni.sink_channels - 1;
  const unsigned ports = router_ports(topo, params_.ni);
  for (RouterId r = 0; r < topo.num_routers(); ++r) {
    routers_.push_back(net_.state.make<Router>(("router" + std::to_string(r)).c_str(), clock_, r,
                                               ports, params_.router, *routing_, net_));
    routers_.back()->set_always_on(!params_.activity_driven);
  }
  // Router-to-router links: one per connected network port.
  for (RouterId r = 0; r < topo.num_routers(); ++r)
    for (unsigned p = 0; p < topo.network_ports(); ++p) {
      const PortPeer& q = topo.peer(r, p);
      if (!q.connected()) continue;
      Link& link = links_.emplace_back("link_r" + std::to_string(r) + "_" + topo.port_name(p),
                                       params_.link);
      routers_[r]->connect_output(p, link, params_.router.buffer_flits, true);
      routers_[q.router]->connect_input(q.port, link);
    }
  // One NI per endpoint, on its router's local port.
  for (NodeId n = 0; n < topo.num_endpoints(); ++n) {
    const RouterId r = topo.router_of(n);
    const unsigned port = topo.local_port_of(n);
    nis_.push_back(net_.state.make<NetworkInterface>(("ni" + std::to_string(n)).c_str(), clock_,
                                                     n, params_.ni, params_.router, net_,
                                                     interfaces_));
    NetworkInterface& ni = *nis_.back();
    ni.set_always_on(!params_.activity_driven);
    Link& inj = links_.emplace_back("inject" + std::to_string(n), params_.ni_link);
    Link& ej = links_.emplace_back("eject" + std::to_string(n), params_.ni_link);
    routers_[r]->connect_input(port, inj);
    routers_[r]->connect_output(port, ej, params_.ni.ejection_buffer(params_.router), false);
    ni.connect(inj, ej);
    for (unsigned j = 0; j < extra_sinks; ++j) {
      const unsigned extra = topo.radix() + (n % topo.endpoints_per_router()) * extra_sinks + j;
      Link& sink = links_.emplace_back("eject" + std::to_string(n) + "_" + std::to_string(j + 1),
                                       params_.ni_link);
      routers_[r]->connect_output(extra, sink, params_.ni.ejection_buffer(params_.router), false);
      routers_[r]->add_sink_channel(port, extra);
      ni.connect_sink_channel(sink);
    }
  }
  if (params_.router.hta.enabled) {
    const auto* cube = dynamic_cast<const KaryNCube*>(&topo);
    if (!cube)  // (check_multicast refuses the configuration)
      throw std::logic_error("NocSystem: hta.enabled on a " + topo.kind() + ", not a mesh or torus");
    header_routing_ = std::make_unique<HeaderRouting>(*cube);
    for (auto& r : routers_) r->enable_multicast(*header_routing_);
  }
}

NocSystem::~NocSystem() = default;

unsigned router_ports(const Topology& topo, const NetworkInterfaceParams& ni) {
  return topo.radix() + topo.endpoints_per_router() * (ni.sink_channels - 1);
}

void check_router_ports(const Topology& topo, const NetworkInterfaceParams& ni) {
  const unsigned ports = router_ports(topo, ni);
  if (ports > kMaxRouterPorts)
    throw ParamError("ni.sink_channels", std::to_string(ni.sink_channels),
                     "a router would have " + std::to_string(ports) + " ports (" +
                         std::to_string(topo.radix()) + " of the " + topo.describe() + " and " +
                         std::to_string(ports - topo.radix()) + " more sink channels), at most " +
                         std::to_string(kMaxRouterPorts));
}

unsigned automatic_threads() {
  // More would mostly wait for each other at the end of each cycle.
  return std::thread::hardware_concurrency() >= 2 ? 2 : 1;
}

void check_whole_packets(const SystemParams& params, unsigned packet_flits,
                         const std::string& why) {
  if (params.router.switching == Switching::wormhole) return;
  const std::string rule = std::string(to_string(params.router.switching)) +
                           " needs a VC buffer that holds a whole packet: >= " +
                           std::to_string(packet_flits) + " flits (" + why + ")";
  if (params.router.buffer_flits < packet_flits)
    throw ParamError("router.buffer_flits", std::to_string(params.router.buffer_flits), rule);
  if (params.ni.ejection_buffer(params.router) < packet_flits)
    throw ParamError("ni.ejection_buffer_flits", std::to_string(params.ni.ejection_buffer_flits), rule);
}

namespace {

// What HTA routers need of any network: dimensions to route headers in, a class of their own.
void check_multicast_network(const SystemParams& params, const Topology& topo,
                                    const std::string& user) {
  if (!dynamic_cast<const KaryNCube*>(&topo))
    throw ParamError("topology.kind", topo.kind(),
                     "hardware multicast (" + user + ") routes header flits on a mesh or torus");
  if (params.router.vc_classes < 2)
    throw ParamError("router.vc_classes", std::to_string(params.router.vc_classes),
                     "hardware multicast needs >= 2: its messages take the last class, unicast "
                     "the others (SPEC 5: 3 + 3 VCs, router.vcs = 6, router.vc_classes = 2)");
}

}  // namespace

void check_multicast(const SystemParams& params, const Topology& topo,
                     const TrafficParams& traffic) {
  const bool hta = traffic.multicast() && traffic.multicast_scheme == "hta";
  if (hta != params.router.hta.enabled)  // (derive_params sets one from the other)
    throw std::logic_error("hta.enabled does not follow traffic.multicast_scheme");
  if (!hta) return;
  check_multicast_network(params, topo, "traffic.multicast_scheme = hta");
  const unsigned data = traffic.variable_length() ? traffic.packet_flits_max : traffic.packet_flits;
  const unsigned message = traffic.multicast_destinations_max + data;
  const std::string rule = "a VC holds a whole multicast message (SPEC 5): >= " +
                           std::to_string(message) + " flits (traffic.multicast_destinations_max " +
                           "header flits + " + std::to_string(data) + " data flits)";
  if (params.router.buffer_flits < message)
    throw ParamError("router.buffer_flits", std::to_string(params.router.buffer_flits), rule);
  if (params.ni.ejection_buffer(params.router) < data)
    throw ParamError("ni.ejection_buffer_flits", std::to_string(params.ni.ejection_buffer_flits),
                     "a multicast copy's data flits must fit: >= " + std::to_string(data));
}

void check_firmware_multicast(const SystemParams& params, const Topology& topo,
                              const std::string& user) {
  check_multicast_network(params, topo, user);
  if (params.router.buffer_flits < 2)
    throw ParamError("router.buffer_flits", std::to_string(params.router.buffer_flits),
                     "hardware multicast (" + user + ") needs a VC of >= 2 flits: a header "
                     "and a data flit");
}

void validate(const SystemParams& p) {
  validate(p.router);
  validate(p.link, "link");
  validate(p.ni_link, "ni_link");
  validate(p.ni);
  validate(p.core);
  check_range("sim.clock_period_ns", p.clock_period_ns, SystemParams::clock_period_ns_range);
  check_range("sim.threads", p.threads, SystemParams::threads_range);
}

MessageCost neighbour_message_cost(const SystemParams& params) {
  ZeroLoadInputs in{1, 1, params.router.hop_latency_cycles, params.link.latency_cycles,
                    params.ni_link.latency_cycles, params.ni_link.latency_cycles,
                    params.router.switching};
  const Cycle one_flit = zero_load_latency(in);
  in.packet_flits = 2;
  const double stages = static_cast<double>(zero_load_latency(in) - one_flit);
  const double one_flit_message = params.ni.send_overhead_cycles + static_cast<double>(one_flit) +
                                  1 + params.ni.recv_overhead_cycles;
  return MessageCost{one_flit_message - stages, stages / params.ni.words_per_flit()};
}

void NocSystem::attach_traffic(const TrafficParams& traffic, std::uint64_t seed) {
  validate(traffic, *topology_);
  check_whole_packets(params_,
                      traffic.variable_length() ? traffic.packet_flits_max : traffic.packet_flits,
                      traffic.variable_length() ? "traffic.packet_flits_max" : "traffic.packet_flits");
  check_multicast(params_, *topology_, traffic);
  traffic_ = traffic;
  pattern_ = make_traffic_pattern(*topology_, traffic_);
  payload_ = make_payload_generator(traffic_.payload);
  for (auto& ni : nis_)
    ni->set_traffic(traffic_, *pattern_, *payload_, topology_->num_endpoints(), seed);
  // (Copies of a multicast message end at NIs all over the network, in one table: one thread,
  // no waves.)
  if (traffic_.multicast()) {
    clock_.set_threads(1);
    for (auto& ni : nis_) ni->enable_multicast();
  }
  if (traffic_.multicast() && traffic_.multicast_scheme == "column_path") {
    // (validate(traffic, topology) refuses other topologies)
    column_paths_ = std::make_unique<ColumnPaths>(dynamic_cast<const KaryNCube&>(*topology_));
    for (auto& ni : nis_) ni->set_column_paths(*column_paths_);
  }
  if (params_.waves != WaveMode::off && !traffic_.multicast())
    clock_.set_wave_rows(wave_rows(), params_.waves == WaveMode::on);
}

TraceLimits trace_limits(const SystemParams& params, const Topology& topo) {
  TraceLimits limits;
  limits.nodes = topo.num_endpoints();
  // (Unicast classes: an HTA network keeps its last class for multicast.)
  limits.vc_classes = params.router.vc_classes - (params.router.hta.enabled ? 1u : 0u);
  return limits;
}

TracePacketShape trace_packet_shape(const SystemParams& params) {
  return TracePacketShape{params.ni.flit_width_bits / 8, params.ni.max_packet_flits};
}

void NocSystem::attach_trace(const TraceParams& trace, const TrafficParams& traffic) {
  check_whole_packets(params_, params_.ni.max_packet_flits, "ni.max_packet_flits: trace messages");
  traffic_ = traffic;
  payload_ = make_payload_generator(traffic_.payload);
  trace_feed_ = std::make_unique<TraceFeed>(
      trace, trace_limits(params_, *topology_), trace_packet_shape(params_),
      [this](NodeId n, Cycle c) { nis_[n]->wake_at(c); },
      [this] {
        if (net_.on_workload_done) net_.on_workload_done();
      });
  for (auto& ni : nis_) ni->set_trace(*trace_feed_, *payload_);
  trace_feed_->start();
}

// The network's blocks by breadth-first level from router 0 (a link joins routers of the same
// or adjacent levels), each router with its NIs; in block order within a level.
std::vector<std::vector<unsigned>> NocSystem::wave_rows() const {
  const Topology& topo = *topology_;
  const unsigned n = topo.num_routers();
  std::vector<std::vector<RouterId>> adjacent(n);  // both directions of every link
  for (RouterId r = 0; r < n; ++r)
    for (unsigned p = 0; p < topo.network_ports(); ++p)
      if (const PortPeer& q = topo.peer(r, p); q.connected()) {
        adjacent[r].push_back(q.router);
        adjacent[q.router].push_back(r);
      }
  std::vector<unsigned> level(n, ~0u);
  std::vector<RouterId> queue{0};
  level[0] = 0;
  for (std::size_t i = 0; i < queue.size(); ++i)
    for (RouterId q : adjacent[queue[i]])
      if (level[q] == ~0u) {
        level[q] = level[queue[i]] + 1;
        queue.push_back(q);
      }
  if (queue.size() != n) return {};  // not connected: no waves
  std::vector<std::vector<unsigned>> rows(level[queue.back()] + 1);
  for (RouterId r = 0; r < n; ++r) {
    rows[level[r]].push_back(routers_[r]->block_index());
    for (unsigned i = 0; i < topo.endpoints_per_router(); ++i)
      rows[level[r]].push_back(nis_[topo.endpoint_at(r, i)]->block_index());
  }
  for (std::vector<unsigned>& row : rows) std::sort(row.begin(), row.end());
  return rows;
}

void NocSystem::attach_firmware(Firmware& program) {
  check_whole_packets(params_, params_.ni.max_packet_flits, "ni.max_packet_flits");
  interfaces_.tally_rounds();
  for (auto& r : routers_) r->track_messages();  // contention between messages, not packets
  // HTA routers: the cores may multicast. (Copies end at NIs all over the network, in one
  // table: one thread.)
  const MulticastShape shape = multicast_shape(params_.ni, params_.router);
  if (shape.available()) {
    clock_.set_threads(1);
    for (auto& ni : nis_) ni->enable_multicast();
  }
  const unsigned n = static_cast<unsigned>(nis_.size());
  for (NodeId i = 0; i < n; ++i) {
    // Cores are built after elaboration of this module, so at the top level: its name keeps
    // them apart from another system's.
    const std::string core = std::string(basename()) + "_core" + std::to_string(i);
    cores_.push_back(std::make_unique<Core>(core.c_str(), clock_, i, n,
                                            program, params_.core));
    cores_.back()->socket.bind(nis_[i]->socket);
    cores_.back()->set_multicast_shape(shape);
    cores_.back()->set_on_finish([this] {
      if (++cores_finished_ == cores_.size() && net_.on_workload_done) net_.on_workload_done();
    });
  }
  // Two or more cores per router (scc): their injections, to count the cores of a tile
  // injecting at once (report).
  const Topology& topo = *topology_;
  if (topo.endpoints_per_router() > 1) {
    tile_injections_.assign(topo.num_routers(), TileInjections(topo.endpoints_per_router()));
    for (RouterId r = 0; r < topo.num_routers(); ++r)
      for (unsigned i = 0; i < topo.endpoints_per_router(); ++i)
        nis_[topo.endpoint_at(r, i)]->count_tile_injections(&tile_injections_[r], i);
  }
  on_cores_attached();
}

std::uint64_t NocSystem::flits_in_network() const {
  std::uint64_t n = 0;
  for (const auto& r : routers_) n += r->buffered_flits() + r->held_flits();
  for (const Link& l : links_) n += l.flits_in_flight();
  return n;
}

std::uint64_t NocSystem::flits_replicated() const {
  std::uint64_t n = 0;
  for (const auto& r : routers_) n += r->flits_replicated();
  return n;
}

std::uint64_t NocSystem::headers_consumed() const {
  std::uint64_t n = 0;
  for (const auto& r : routers_) n += r->headers_consumed();
  return n;
}

std::string NocSystem::describe_blocked(std::size_t max_lines) const {
  std::ostringstream os;
  for (const auto& r : routers_) r->describe_blocked(os, *topology_);
  std::string all = os.str(), out;
  std::size_t lines = 0, pos = 0;
  while (pos < all.size() && lines < max_lines) {
    const std::size_t end = all.find('\n', pos);
    out += all.substr(pos, end - pos + 1);
    pos = end + 1;
    ++lines;
  }
  if (pos < all.size()) out += "  ... (more blocked buffers)\n";
  return out;
}

std::uint64_t NocSystem::payload_errors() const {
  std::uint64_t n = 0;
  for (const auto& ni : nis_) n += ni->reassembler().counters().payload_errors;
  return n;
}

void NocSystem::report(Tally& t) const {
  if (!tile_injections_.empty()) {
    // Core contention: the cores of one tile share its way into the router (SCC's mesh
    // interface); a pair of their packets injected in a common cycle is one event.
    std::uint64_t events = 0;
    for (const TileInjections& tile : tile_injections_) events += tile.events();
    t.count("contention_events_cores", events);
  }
  for (const auto& ni : nis_) ni->report(t);
  for (const auto& r : routers_) r->report(t, *topology_);
  if (header_routing_)  // SPEC 5: messages deadlock recovery took, per multicast delivered
    t.ratio("hta.deadlock_probability", t.total("hta.potentially_deadlocked"),
            t.total("multicast.messages_delivered"), 0.0);
  if (traffic_.normalized_load > 0)  // the rate traffic.normalized_load stood for
    t.average("throughput.injection_rate_flits_per_node_cycle", traffic_.injection_rate);
  report_more(t);
}

std::vector<RouterActivity> NocSystem::router_activity() const {
  const Topology& topo = *topology_;
  std::vector<RouterActivity> a(routers_.size());
  for (RouterId r = 0; r < topo.num_routers(); ++r)
    for (unsigned p = 0; p < topo.network_ports(); ++p)
      if (const PortPeer& q = topo.peer(r, p); q.connected())
        a[q.router].buffer_writes += routers_[r]->output_counters(p).flits;
  for (NodeId n = 0; n < nis_.size(); ++n)
    a[topo.router_of(n)].buffer_writes += nis_[n]->packetizer().counters().flits_injected;
  for (RouterId r = 0; r < routers_.size(); ++r) {
    a[r].events = routers_[r]->events();
    a[r].buffer_reads = a[r].buffer_writes - a[r].events.flits_held;
  }
  return a;
}

void NocSystem::finish() {
  const Cycle now = clock_.now();
  for (auto& r : routers_) r->finish(now);
  for (auto& ni : nis_) ni->finish(now);
}

void NocSystem::trace(sc_trace_file* tf, const std::vector<RouterId>& routers,
                      std::ostream& gtkw) const {
  // GTKWave names a signal by its VCD scopes: SystemC 2.3.4 puts everything under a top scope
  // "SystemC" and turns the dots of a traced name into nested scopes. Inside a group GTKWave
  // shows only the last name component, so a comment row names each port and NI.
  const auto label = [&](const std::string& text) { gtkw << "@200\n-" << text << "\n"; };
  const auto signal = [&](const char* format, const std::string& name) {
    gtkw << format << "\nSystemC." << name << "\n";
  };
  const char* const kBit = "@28", *const kDec = "@24";
  gtkw << "[*] collnoc waves: one group per node\n[timestart] 0\n";
  for (RouterId r : routers) {
    Router& router = *routers_[r];
    router.trace(tf, *topology_);
    gtkw << "@800200\n-node " << r << "\n";
    for (unsigned p = 0; p < router.ports(); ++p) {
      if (!router.output_connected(p) && !router.input_connected(p)) continue;
      const std::string port = std::string(router.name()) + "." + topology_->port_name(p);
      label(port.substr(port.find('.') + 1));
      if (router.output_connected(p)) {
        signal(kBit, port + ".out_valid");
        signal(kDec, port + ".out_packet[31:0]");
        signal(kDec, port + ".out_vc[7:0]");
        signal(kDec, port + ".out_credits[15:0]");
      }
      if (router.input_connected(p)) signal(kDec, port + ".in_occupancy[15:0]");
      if (router.input_connected(p) && router.replicates())
        signal("@22", port + ".mc_outputs[31:0]");  // (hexadecimal: a bit per output port)
    }
    if (router.replicates()) {  // hardware multicast: header routing, deadlock recovery
      const std::string hta = std::string(router.name()) + ".hta";
      label("hta (action 0 forwarded, 1 consumed, 2 deadlock queue)");
      signal(kDec, hta + ".headers[7:0]");
      signal(kDec, hta + ".header_packet[31:0]");
      signal(kDec, hta + ".header_dst[31:0]");
      signal(kDec, hta + ".header_port[7:0]");
      signal(kDec, hta + ".header_action[1:0]");
      signal(kDec, hta + ".deadlock_queue_flits[15:0]");
      signal(kDec, hta + ".memory_messages[15:0]");
    }
    for (unsigned i = 0; i < topology_->endpoints_per_router(); ++i) {
      NetworkInterface& ni = *nis_[topology_->endpoint_at(r, i)];
      ni.trace(tf);
      const std::string base = ni.name();
      label(base.substr(base.find('.') + 1));
      signal(kBit, base + ".inject_valid");
      signal(kDec, base + ".inject_packet[31:0]");
      signal(kBit, base + ".eject_valid");
      signal(kDec, base + ".eject_packet[31:0]");
      signal(kDec, base + ".source_queue[15:0]");
      if (!cores_.empty()) {  // which round of its collective the core is in
        Core& core = *cores_[topology_->endpoint_at(r, i)];
        core.trace(tf);
        label(core.name());
        signal(kDec, std::string(core.name()) + ".round[31:0]");
      }
    }
    trace_node(tf, r, gtkw);
    gtkw << "@1000200\n-node " << r << "\n";
  }
}

}  // namespace collnoc
