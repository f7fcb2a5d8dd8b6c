// A network of routers, links and NIs wired from any Topology, with optional cores: the system
// every platform builds. Owns its clock and counters, so two systems can live in one process.
#pragma once
#include <deque>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "collectives/core.hpp"
#include "ni/network_interface.hpp"
#include "noc/router/router.hpp"

namespace collnoc {

// sim.waves: when the clock may evaluate a synthetic-traffic network in waves
// (Clock::set_wave_rows).
enum class WaveMode : std::uint8_t { automatic, on, off };

struct SystemParams {
  RouterParams router;
  LinkParams link;     // router to router
  LinkParams ni_link;  // NI to router and back (injection and ejection channels)
  NetworkInterfaceParams ni;
  CoreParams core;
  std::string routing = "dor";
  RoutingParams routing_params;  // routing.* options beside the name (dimension order)
  double clock_period_ns = 1.0;
  bool activity_driven = true;  // idle blocks sleep; false evaluates every block every cycle
  unsigned threads = 0;         // evaluating the routers of a busy cycle; 0: automatic
  WaveMode waves = WaveMode::automatic;  // synthetic traffic: evaluation in waves (Clock)

  static constexpr RealRange clock_period_ns_range{0.001, 1e6};  // 1 ps (SystemC's unit) up
  static constexpr UintRange threads_range{0, kMaxThreads};
};

// Throws ParamError naming the router.*, link.*, ni_link.*, ni.*, nc.*, core.* or sim.* key at
// fault (the routing function and the allocators are checked when they are made).
void validate(const SystemParams& p);

// What sim.threads = 0 means on this machine: 2 threads if it has 2 or more cores, else 1.
unsigned automatic_threads();
// A router's ports: the topology's, and one per extra sink channel of each of its endpoints
// (ni.sink_channels); check_router_ports refuses more than a router has (ParamError).
unsigned router_ports(const Topology& topo, const NetworkInterfaceParams& ni);
void check_router_ports(const Topology& topo, const NetworkInterfaceParams& ni);

// Hardware multicast (traffic.multicast_scheme = hta, params.router.hta.enabled): header
// routing needs a mesh or torus, a VC class of its own, and VCs that hold a whole message
// (SPEC 5). Throws ParamError naming the key at fault.
void check_multicast(const SystemParams& params, const Topology& topo, const TrafficParams& traffic);
// Firmware that multicasts in hardware (`user` names it, for the message): the same network,
// and VCs of a header and a data flit at least (the NIs cut longer messages into packets that
// fit, ni/multicast_shape.hpp). Throws ParamError naming the key at fault.
void check_firmware_multicast(const SystemParams& params, const Topology& topo,
                              const std::string& user);

// VCT and store-and-forward move whole packets: every buffer must hold the longest one
// (`packet_flits`, named by `why`). Throws ParamError.
void check_whole_packets(const SystemParams& params, unsigned packet_flits, const std::string& why);

// SPEC 4.3's t_s and t_w for a message between neighbours (one router-to-router hop), from the
// pipeline of noc/zero_load.hpp plus the NI overheads: a message of F flits (one packet) takes
// send overhead + zero-load latency + 1 (delivery) + receive overhead, which grows by one flit
// time per store-and-forward stage (3 with saf: both routers and the NI; 1 otherwise) per flit.
// So t_w = stages / words per flit and t_s = that latency for one flit minus `stages`: a message
// of m words (a multiple of the flit) costs exactly t_s + m t_w without contention.
MessageCost neighbour_message_cost(const SystemParams& params);

// What a router did (energy estimates): its own counts, and the flits written into its input
// buffers (what the senders of its input links sent) and read out of them (written, less those
// still there or on their way at the end).
struct RouterActivity {
  RouterEvents events;
  std::uint64_t buffer_writes = 0, buffer_reads = 0;
};

// What a trace may hold on this system (node count, unicast VC classes) and how its messages
// become packets (ni.flit_width_bits, ni.max_packet_flits).
TraceLimits trace_limits(const SystemParams& params, const Topology& topo);
TracePacketShape trace_packet_shape(const SystemParams& params);

class NocSystem : public sc_core::sc_module {
 public:
  // `routing` overrides params.routing with a routing function of the caller's own (it must
  // have been made for `topology`).
  NocSystem(sc_core::sc_module_name name, std::unique_ptr<Topology> topology,
            const SystemParams& params, std::unique_ptr<RoutingFunction> routing = nullptr);
  ~NocSystem() override;

  // Workloads: synthetic traffic at every NI, or a firmware program on a core per NI.
  void attach_traffic(const TrafficParams& traffic, std::uint64_t seed);
  void attach_firmware(Firmware& program);
  // Trace-driven traffic (workload.kind = trace): the messages of `trace`'s file at the NIs,
  // their payload from `traffic.payload`. Throws TraceError for a file that cannot be read.
  void attach_trace(const TraceParams& trace, const TrafficParams& traffic);
  TraceFeed* trace_feed() { return trace_feed_.get(); }
  const TraceFeed* trace_feed() const { return trace_feed_.get(); }
  // `collnoc trace record`: the NIs tell `recorder` every message they create.
  void record_trace(TraceRecorder& recorder) { interfaces_.trace_recorder = &recorder; }

  // Trace the routers and NIs of the given routers into `tf` and describe the groups in a
  // GTKWave save file.
  void trace(sc_core::sc_trace_file* tf, const std::vector<RouterId>& routers,
             std::ostream& gtkw) const;

  const Topology& topology() const { return *topology_; }
  const SystemParams& params() const { return params_; }
  Clock& clock() { return clock_; }
  const Clock& clock() const { return clock_; }
  NetworkContext& context() { return net_; }
  const NetworkContext& context() const { return net_; }
  const InterfaceContext& interfaces() const { return interfaces_; }
  // Firmware runs: each round's flits and contention per output port (stats.per_round_links).
  void record_round_links() {
    interfaces_.tally_round_links();
    for (auto& r : routers_) r->report_allocations();
  }
  std::size_t num_routers() const { return routers_.size(); }
  Router& router(RouterId r) { return *routers_[r]; }
  const Router& router(RouterId r) const { return *routers_[r]; }
  NetworkInterface& ni(NodeId n) { return *nis_[n]; }
  const NetworkInterface& ni(NodeId n) const { return *nis_[n]; }
  std::size_t num_nis() const { return nis_.size(); }
  const std::vector<std::unique_ptr<Core>>& cores() const { return cores_; }

  // Flits physically present in router buffers and on links.
  std::uint64_t flits_in_network() const;
  // Flits the network made and ended itself (multicast: copies beyond the first, headers
  // consumed at their destinations): injected + replicated = delivered + consumed + present.
  std::uint64_t flits_replicated() const;
  std::uint64_t headers_consumed() const;
  // One line per blocked buffer (deadlock diagnosis), at most `max_lines`.
  std::string describe_blocked(std::size_t max_lines = 64) const;
  void finish();  // close the time integrals of every block at the current cycle
  // Synthetic payload words that arrived altered, over the NIs (an integrity check).
  std::uint64_t payload_errors() const;
  // Per router (by id), what it did.
  std::vector<RouterActivity> router_activity() const;
  // Every block's counters into the results: the NIs', the routers', then the added blocks'.
  void report(Tally& t) const;

 protected:
  // The counters of the blocks a derived system adds (a second network, ...).
  virtual void report_more(Tally&) const {}
  // Called by attach_firmware once the cores exist (to bind them to added blocks).
  virtual void on_cores_attached() {}
  // Traces the added blocks of node `r` into `tf` and lists them in its GTKWave group.
  virtual void trace_node(sc_core::sc_trace_file*, RouterId, std::ostream&) const {}

 private:
  // The rows of blocks the clock may evaluate in waves (Clock::set_wave_rows).
  std::vector<std::vector<unsigned>> wave_rows() const;

  std::unique_ptr<Topology> topology_;
  SystemParams params_;
  Clock clock_;
  NetworkContext net_{sizeof(MessageFields)};  // the NIs keep their fields beside each header
  InterfaceContext interfaces_{net_};
  std::unique_ptr<RoutingFunction> routing_;
  std::unique_ptr<HeaderRouting> header_routing_;  // multicast networks
  // The routers, links and NIs in the network's state memory (NetworkContext::state).
  std::vector<StateMemory::Owned<Router>> routers_;
  std::pmr::deque<Link> links_{net_.state.resource()};
  std::vector<StateMemory::Owned<NetworkInterface>> nis_;
  // Per router with two or more cores (scc), their injections (contention_events_cores).
  std::vector<TileInjections> tile_injections_;
  std::vector<std::unique_ptr<Core>> cores_;
  std::size_t cores_finished_ = 0;
  TrafficParams traffic_;
  std::unique_ptr<TrafficPattern> pattern_;
  std::unique_ptr<PayloadGenerator> payload_;
  std::unique_ptr<ColumnPaths> column_paths_;  // traffic.multicast_scheme = column_path
  std::unique_ptr<TraceFeed> trace_feed_;      // workload.kind = trace
};

}  // namespace collnoc
