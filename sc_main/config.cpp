#include "sc_main/config.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>
#include <utility>

#include <yaml-cpp/yaml.h>

#include "collectives/all_to_all_plan.hpp"
#include "collectives/collective.hpp"
#include "collectives/message_protocol.hpp"
#include "noc/input_file.hpp"
#include "sc_main/power_table.hpp"

namespace collnoc::cli {

namespace {

template <typename Table>
std::vector<std::string> names_of(const Table& table) {
  std::vector<std::string> names;
  for (const auto& e : table) names.emplace_back(e.name);
  return names;
}

template <std::size_t N>
std::vector<std::string> words(const char* const (&list)[N]) {
  return std::vector<std::string>(list, list + N);
}

std::vector<std::string> workload_names() {
  std::vector<std::string> names{"synthetic", "trace"};
  for (const auto& e : firmware_programs()) names.emplace_back(e.name);
  return names;
}

const std::string& text(const ConfigValue& v) { return std::get<std::string>(v); }

// A value into the library field that holds it, and back. The schema's types fit the fields
// (a uint key's range is within its field's type).
void store(unsigned& f, const ConfigValue& v) { f = static_cast<unsigned>(std::get<std::uint64_t>(v)); }
void store(std::uint64_t& f, const ConfigValue& v) { f = std::get<std::uint64_t>(v); }
void store(double& f, const ConfigValue& v) { f = std::get<double>(v); }
void store(bool& f, const ConfigValue& v) { f = std::get<bool>(v); }
void store(std::string& f, const ConfigValue& v) { f = text(v); }
void store(std::vector<unsigned>& f, const ConfigValue& v) {
  const auto& l = std::get<std::vector<std::uint64_t>>(v);
  f.assign(l.begin(), l.end());
}
ConfigValue value_of(unsigned f) { return std::uint64_t{f}; }
ConfigValue value_of(std::uint64_t f) { return f; }
ConfigValue value_of(double f) { return f; }
ConfigValue value_of(bool f) { return f; }
ConfigValue value_of(const std::string& f) { return f; }
ConfigValue value_of(const std::vector<unsigned>& f) {
  return std::vector<std::uint64_t>(f.begin(), f.end());
}

using Apply = std::function<void(RunConfig&, const ConfigValue&)>;
using Read = std::function<ConfigValue(const RunConfig&)>;
using Allowed = std::function<std::vector<std::string>()>;

// Where a key's value lives in a RunConfig: one reference to the field gives both directions,
// so that the path to it is written once.
struct Access {
  Apply apply;
  Read read;
};

template <typename Ref>  // Ref: RunConfig& -> the field&
Access field(Ref ref) {
  return {[ref](RunConfig& c, const ConfigValue& v) { store(ref(c), v); },
          // Only reads the field: the reference is taken through a non-const path to share `ref`.
          [ref](const RunConfig& c) { return value_of(ref(const_cast<RunConfig&>(c))); }};
}

// An enumeration the library holds as an enum: its names, each with its value.
template <typename E>
using Names = std::vector<std::pair<std::string, E>>;

template <typename E>
Names<E> named_by_to_string(const std::vector<E>& values) {
  Names<E> names;
  for (E e : values) names.emplace_back(to_string(e), e);
  return names;
}

template <typename E>
Allowed names_allowed(const Names<E>& names) {
  return [names] {
    std::vector<std::string> out;
    for (const auto& n : names) out.push_back(n.first);
    return out;
  };
}

template <typename Ref, typename E>
Access enum_field(Ref ref, Names<E> names) {
  return {[ref, names](RunConfig& c, const ConfigValue& v) {
            for (const auto& n : names)
              if (n.first == text(v)) return void(ref(c) = n.second);
            throw InputError(text(v) + ": not a value this key can hold");  // the schema prevents
          },
          [ref, names](const RunConfig& c) -> ConfigValue {
            for (const auto& n : names)
              if (n.second == ref(const_cast<RunConfig&>(c))) return n.first;
            throw std::logic_error("an enumeration value without a name");
          }};
}

// Builders that keep the table below one entry per key.
KeySpec spec(std::string key, ValueType type, std::string unit, std::string meaning, Access a) {
  KeySpec s;
  s.key = std::move(key);
  s.type = type;
  s.unit = std::move(unit);
  s.meaning = std::move(meaning);
  s.apply = std::move(a.apply);
  s.read = std::move(a.read);
  return s;
}

KeySpec uint_key(std::string key, UintRange range, std::string unit, std::string meaning,
                 Access a) {
  KeySpec s = spec(std::move(key), ValueType::uint, std::move(unit), std::move(meaning),
                   std::move(a));
  s.uint_range = range;
  return s;
}

KeySpec list_key(std::string key, ValueType type, UintRange range, std::string unit,
                 std::string meaning, Access a) {
  KeySpec s = uint_key(std::move(key), range, std::move(unit), std::move(meaning), std::move(a));
  s.type = type;
  return s;
}

KeySpec real_key(std::string key, RealRange range, std::string unit, std::string meaning,
                 Access a) {
  KeySpec s = spec(std::move(key), ValueType::double_, std::move(unit), std::move(meaning),
                   std::move(a));
  s.real_range = range;
  s.real_bounded = true;
  return s;
}

KeySpec bool_key(std::string key, std::string meaning, Access a) {
  return spec(std::move(key), ValueType::bool_, "", std::move(meaning), std::move(a));
}

KeySpec text_key(std::string key, std::string unit, std::string meaning, Access a) {
  return spec(std::move(key), ValueType::string, std::move(unit), std::move(meaning), std::move(a));
}

// core.software.<cost> (kSoftwareCostKeys[i]): a number in its range, or true / false for the
// channel switch, or empty for the model's value; held as text in SoftwareModelParams.
KeySpec software_cost_key(std::size_t i) {
  const SoftwareCostKey& cost = kSoftwareCostKeys[i];
  const bool is_switch = i == kChannelSetup;
  const Access a{
      [i](RunConfig& c, const ConfigValue& v) {
        std::string& text = c.firmware.software.overrides[i];
        if (const auto* d = std::get_if<double>(&v)) {
          char buf[32];
          std::snprintf(buf, sizeof buf, "%.17g", *d);
          text = buf;
        } else if (const auto* b = std::get_if<bool>(&v)) {
          text = *b ? "true" : "false";
        } else {
          text = std::get<std::string>(v);
        }
      },
      [i, is_switch](const RunConfig& c) -> ConfigValue {
        const std::string& text = c.firmware.software.overrides[i];
        if (text.empty()) return text;
        if (is_switch) return text == "true";
        return std::strtod(text.c_str(), nullptr);
      }};
  const std::string meaning = std::string("software model: ") + cost.meaning + " (empty: the model's)";
  KeySpec s = is_switch ? spec(std::string("core.software.") + cost.name, ValueType::bool_, "",
                               meaning, a)
                        : real_key(std::string("core.software.") + cost.name,
                                   i == kJitterPercent ? SoftwareCosts::jitter_percent_range
                                                       : SoftwareCosts::cost_range,
                                   cost.unit, meaning, a);
  s.empty_allowed = true;
  return s;
}

KeySpec enum_key(std::string key, std::string meaning, Allowed allowed, Access a) {
  KeySpec s = text_key(std::move(key), "", std::move(meaning), std::move(a));
  s.allowed = std::move(allowed);
  return s;
}

std::vector<KeySpec> build_schema() {
  using T = ValueType;
  using Router = RouterParams;
  using Ni = NetworkInterfaceParams;
  using Compression = CompressionParams;
  using Traffic = TrafficParams;
  using Fw = FirmwareParams;
  using Run = RunParams;
  using Topo = TopologyParams;
  // Each entry: key, range (from the struct), unit, meaning, field.
#define COLLNOC_FIELD(path) field([](RunConfig& c) -> auto& { return c.path; })
  std::vector<KeySpec> schema{
      enum_key("platform", "platform builder that wires the system",
               [] { return names_of(platforms()); }, COLLNOC_FIELD(platform.name)),
      enum_key("topology.kind", "topology graph of the routers",
               [] { return names_of(topologies()); }, COLLNOC_FIELD(platform.topology.kind)),
      list_key("topology.k", T::uint_or_list, Topo::k_range, "routers",
               "routers per dimension: one value for all dimensions, or one per dimension",
               COLLNOC_FIELD(platform.topology.k)),
      uint_key("topology.n", Topo::n_range, "dimensions", "number of dimensions",
               COLLNOC_FIELD(platform.topology.n)),
      uint_key("topology.directions", Topo::directions_range, "directions",
               "torus: 2 for links both ways, 1 for one channel per dimension, the + way "
               "(SPEC 5's network)",
               COLLNOC_FIELD(platform.topology.directions)),
      uint_key("topology.nodes", Topo::nodes_range, "routers", "random: number of routers",
               COLLNOC_FIELD(platform.topology.nodes)),
      uint_key("topology.degree", Topo::degree_range, "ports",
               "random: network ports (neighbours) per router",
               COLLNOC_FIELD(platform.topology.degree)),
      uint_key("topology.seed", Topo::seed_range, "", "random: which graph is drawn",
               COLLNOC_FIELD(platform.topology.seed)),
      text_key("hdn.base", "", "hdn: base network, torus:AxBx... or hypercube:N",
               COLLNOC_FIELD(platform.topology.hdn_base)),
      uint_key("hdn.levels", Topo::hdn_levels_range, "levels",
               "hdn: k, the number of dual-net levels", COLLNOC_FIELD(platform.topology.hdn_levels)),
      text_key("hdn.supernodes", "",
               "hdn: super-node set per level (1, a size or factors like C2xC3), comma-separated",
               COLLNOC_FIELD(platform.topology.hdn_supernodes)),

      uint_key("udn.hop_latency_cycles", PlatformParams::udn_hop_latency_cycles_range, "cycles",
               "tilepro: dynamic network (UDN) cycles per hop",
               COLLNOC_FIELD(platform.udn_hop_latency_cycles)),
      uint_key("sn.config_cycles", StaticSwitchParams::config_cycles_range, "cycles",
               "tilepro: static network, cycles until a new switch route is in force",
               COLLNOC_FIELD(platform.sn.config_cycles)),
      uint_key("sn.buffer_flits", StaticSwitchParams::buffer_flits_range, "flits",
               "tilepro: static switch input buffer", COLLNOC_FIELD(platform.sn.buffer_flits)),

      uint_key("router.vcs", Router::vcs_range, "VCs", "virtual channels per input port",
               COLLNOC_FIELD(platform.system.router.vcs)),
      uint_key("router.vc_classes", Router::vc_classes_range, "classes",
               "virtual networks; each gets router.vcs / router.vc_classes VCs",
               COLLNOC_FIELD(platform.system.router.vc_classes)),
      uint_key("router.buffer_flits", Router::buffer_flits_range, "flits",
               "depth of each VC input buffer", COLLNOC_FIELD(platform.system.router.buffer_flits)),
      uint_key("router.hop_latency_cycles", Router::hop_latency_cycles_range, "cycles",
               "router pipeline depth: head flit arrival to departure + 1",
               COLLNOC_FIELD(platform.system.router.hop_latency_cycles)),
  };
  // Enumerations the library holds as enums: their names are the table the field is read with.
  const auto switching = named_by_to_string<Switching>(
      {Switching::wormhole, Switching::virtual_cut_through, Switching::store_and_forward});
  const auto vc_realloc = named_by_to_string(vc_realloc_modes());
  const auto header_timing = named_by_to_string(header_timings());
  const Names<CompressedSize> size_modes{{"real", CompressedSize::real},
                                         {"fixed_ratio", CompressedSize::fixed_ratio}};
  const Names<bool> warmup_modes{{"cycles", false}, {"auto", true}};
  const Names<WaveMode> wave_modes{
      {"auto", WaveMode::automatic}, {"on", WaveMode::on}, {"off", WaveMode::off}};
  const auto orders = named_by_to_string(dimension_orders());
  const auto ties = named_by_to_string(torus_ties_values());
  const auto torus_layout_names = named_by_to_string(torus_layouts());
  std::vector<KeySpec> rest{
      enum_key("router.switching",
               "flow control: wormhole, virtual cut-through (vct) or store-and-forward (saf)",
               names_allowed(switching),
               enum_field([](RunConfig& c) -> auto& { return c.platform.system.router.switching; },
                          switching)),
      enum_key("router.vc_realloc",
               "when an output VC is offered to the next packet: tail (once the last packet's "
               "tail left), empty (once the downstream buffer is empty too), auto (tail, but "
               "empty for VCs an adaptive routing function takes under wormhole)",
               names_allowed(vc_realloc),
               enum_field([](RunConfig& c) -> auto& { return c.platform.system.router.vc_realloc; },
                          vc_realloc)),
      enum_key("router.vc_allocator", "VC allocator of every router",
               [] { return names_of(vc_allocators()); },
               COLLNOC_FIELD(platform.system.router.vc_allocator)),
      enum_key("router.switch_allocator", "switch allocator of every router",
               [] { return names_of(switch_allocators()); },
               COLLNOC_FIELD(platform.system.router.switch_allocator)),
      uint_key("router.islip_iterations", Router::islip_iterations_range, "iterations",
               "request-grant-accept iterations per cycle of the islip allocators",
               COLLNOC_FIELD(platform.system.router.islip_iterations)),

      uint_key("link.latency_cycles", LinkParams::latency_range, "cycles",
               "router-to-router link: flit sent to flit in the next router's buffer",
               COLLNOC_FIELD(platform.system.link.latency_cycles)),
      uint_key("link.credit_latency_cycles", LinkParams::latency_range, "cycles",
               "router-to-router link: credit return latency",
               COLLNOC_FIELD(platform.system.link.credit_latency_cycles)),
      uint_key("ni_link.latency_cycles", LinkParams::latency_range, "cycles",
               "injection and ejection channels (NI <-> router): flit latency",
               COLLNOC_FIELD(platform.system.ni_link.latency_cycles)),
      uint_key("ni_link.credit_latency_cycles", LinkParams::latency_range, "cycles",
               "injection and ejection channels (NI <-> router): credit return latency",
               COLLNOC_FIELD(platform.system.ni_link.credit_latency_cycles)),

      uint_key("ni.flit_width_bits", Ni::flit_width_bits_range, "bits",
               "payload bits per flit (a multiple of 32)",
               COLLNOC_FIELD(platform.system.ni.flit_width_bits)),
      uint_key("ni.max_packet_flits", Ni::max_packet_flits_range, "flits",
               "longest packet the NI's packetizer makes",
               COLLNOC_FIELD(platform.system.ni.max_packet_flits)),
      uint_key("ni.max_unicast_in_queue", Ni::max_in_queue_range, "messages",
               "synthetic traffic with multicast: unicast messages a source queue holds; one "
               "drawn beyond it is not created (SPEC 5)",
               COLLNOC_FIELD(platform.system.ni.max_unicast_in_queue)),
      uint_key("ni.max_multicast_in_queue", Ni::max_in_queue_range, "messages",
               "synthetic traffic with multicast: multicast messages a source queue holds",
               COLLNOC_FIELD(platform.system.ni.max_multicast_in_queue)),
      uint_key("ni.sink_channels", Ni::sink_channels_range, "channels",
               "ejection channels from the router to each NI (1 flit a cycle each, with the "
               "router's VCs): SPEC 5's sink channels",
               COLLNOC_FIELD(platform.system.ni.sink_channels)),
      uint_key("ni.ejection_buffer_flits", Ni::ejection_buffer_flits_range, "flits",
               "NI ejection buffer depth per VC; 0 = router.buffer_flits",
               COLLNOC_FIELD(platform.system.ni.ejection_buffer_flits)),
      uint_key("ni.send_overhead_cycles", Ni::overhead_cycles_range, "cycles",
               "core hands a message to its NI",
               COLLNOC_FIELD(platform.system.ni.send_overhead_cycles)),
      uint_key("ni.recv_overhead_cycles", Ni::overhead_cycles_range, "cycles",
               "NI hands a received message to its core",
               COLLNOC_FIELD(platform.system.ni.recv_overhead_cycles)),
      enum_key("ni.compression.policy",
               "when the NI compresses a packet's payload (by its element type)",
               [] { return names_of(compression_policies()); },
               COLLNOC_FIELD(platform.system.ni.compression.policy)),
      enum_key("ni.compression.size_mode",
               "real: size from the codec's bits; fixed_ratio: every compressed packet shrinks "
               "by ni.fixed_ratio",
               names_allowed(size_modes),
               enum_field(
                   [](RunConfig& c) -> auto& { return c.platform.system.ni.compression.size_mode; },
                   size_modes)),
      real_key("ni.fixed_ratio", Compression::fixed_ratio_range, "",
               "fixed_ratio size mode, and C of the break-even model (must be > 1)",
               COLLNOC_FIELD(platform.system.ni.compression.fixed_ratio)),
      uint_key("ni.codec_latency_cycles", Compression::codec_latency_cycles_range, "cycles",
               "compression + decompression latency D, charged once per compressed packet",
               COLLNOC_FIELD(platform.system.ni.compression.codec_latency_cycles)),
      uint_key("ni.congestion_window_cycles", Compression::congestion_window_cycles_range,
               "cycles", "selective policy: the window over which received flits (N) are counted",
               COLLNOC_FIELD(platform.system.ni.compression.congestion_window_cycles)),
      uint_key("ni.compression.threshold_flits", Compression::threshold_flits_range, "flits",
               "selective policy: L_th; 0 = break-even length of the zero-load model",
               COLLNOC_FIELD(platform.system.ni.compression.threshold_flits)),
      uint_key("ni.compression.n_threshold_flits", Compression::n_threshold_flits_range, "flits",
               "selective policy: a short packet is compressed when N (flits received in the "
               "window) exceeds this (0 = any flit, SPEC 2.4 read literally)",
               COLLNOC_FIELD(platform.system.ni.compression.n_threshold_flits)),
      uint_key("ni.compression.q_threshold_packets", Compression::q_threshold_packets_range,
               "packets",
               "selective policy: ... or when Q (packets waiting behind it) exceeds this (0 = "
               "any packet)",
               COLLNOC_FIELD(platform.system.ni.compression.q_threshold_packets)),
      bool_key("ni.codec_pipelined",
               "true: encoder and decoder take a packet every cycle (D is latency only); false: "
               "one encoder and one decoder per NI, each busy D cycles per compressed packet",
               COLLNOC_FIELD(platform.system.ni.compression.codec_pipelined)),
      uint_key("nc.xor_latency_cycles", XorEngineParams::xor_latency_cycles_range, "cycles",
               "network coding: the NI's XOR engine, packet pair in to coded packet out "
               "(0 = combinational)",
               COLLNOC_FIELD(platform.system.ni.xor_engine.xor_latency_cycles)),
      bool_key("nc.xor_pipelined",
               "network coding: true, the XOR engine takes a pair every cycle; false, one "
               "datapath busy max(1, nc.xor_latency_cycles) cycles per pair (pairs queue)",
               COLLNOC_FIELD(platform.system.ni.xor_engine.xor_pipelined)),
      uint_key("ni.lsb_cut_bits", CodecParams::lsb_cut_bits_range, "bits",
               "LSB-cut: low bits dropped from each double",
               COLLNOC_FIELD(platform.system.ni.compression.codec.lsb_cut_bits)),
      uint_key("core.quantum_cycles", CoreParams::quantum_cycles_range, "cycles",
               "how far a core's firmware may run ahead of simulated time",
               COLLNOC_FIELD(platform.system.core.quantum_cycles)),
      enum_key("core.software_model",
               "what the software on the cores costs per message (docs/software_model.md): auto (nocmsg "
               "for the NoCMsg collectives, the platform's MPI-style preset for the baselines), "
               "none (the hardware alone), or a preset",
               software_model_names, COLLNOC_FIELD(firmware.software.model)),

      enum_key("routing.algorithm", "routing function of every router",
               [] { return names_of(routing_functions()); },
               COLLNOC_FIELD(platform.system.routing)),
      enum_key("routing.dimension_order",
               "dor and adaptive (its escape channels): the dimension taken first, 0 "
               "(increasing, XY) or the highest (decreasing, SPEC 5's unicast escape network)",
               names_allowed(orders),
               enum_field([](RunConfig& c) -> auto& {
                 return c.platform.system.routing_params.dimension_order;
               }, orders)),

      enum_key("routing.torus_ties",
               "dor and adaptive on a torus, a destination k/2 away: balanced (each packet one "
               "way, half each way, by its id) or positive (always +)",
               names_allowed(ties),
               enum_field([](RunConfig& c) -> auto& {
                 return c.platform.system.routing_params.torus_ties;
               }, ties)),
      text_key("routing.table", "",
               "routing.algorithm = table: the file of allowed output ports per router and "
               "destination (docs/routing.md#table-driven-routing)",
               COLLNOC_FIELD(platform.system.routing_params.table)),
      enum_key("routing.selection",
               "among an adaptive routing function's candidate ports, which to ask for first",
               [] { return names_of(selection_strategies()); },
               COLLNOC_FIELD(platform.system.routing_params.selection)),

      enum_key("traffic.pattern", "synthetic traffic: destination pattern",
               [] { return names_of(traffic_patterns()); }, COLLNOC_FIELD(traffic.pattern)),
      text_key("traffic.payload", "",
               "synthetic traffic: payload generator (random, random_ints, small_ints, "
               "sorted_keys, smooth_doubles, random_doubles) or file:PATH:int32|double",
               COLLNOC_FIELD(traffic.payload)),
      real_key("traffic.injection_rate", Traffic::injection_rate_range, "flits/node/cycle",
               "synthetic traffic: offered load (Bernoulli packet arrivals)",
               COLLNOC_FIELD(traffic.injection_rate)),
      uint_key("traffic.packet_flits", Traffic::packet_flits_range, "flits",
               "synthetic traffic: packet length (when min and max are 0)",
               COLLNOC_FIELD(traffic.packet_flits)),
      uint_key("traffic.packet_flits_min", Traffic::packet_flits_bound_range, "flits",
               "synthetic traffic: shortest packet, with max; 0 = fixed length",
               COLLNOC_FIELD(traffic.packet_flits_min)),
      uint_key("traffic.packet_flits_max", Traffic::packet_flits_bound_range, "flits",
               "synthetic traffic: longest packet, with min; 0 = fixed length",
               COLLNOC_FIELD(traffic.packet_flits_max)),
      bool_key("traffic.uniform_include_self",
               "uniform and hotspot patterns: the source may be its own destination (a packet "
               "that goes into its router and straight out to its NI), as some simulators do",
               COLLNOC_FIELD(traffic.uniform_include_self)),
      real_key("traffic.hotspot_fraction", Traffic::hotspot_fraction_range, "",
               "hotspot pattern: share of packets sent to the hotspot nodes",
               COLLNOC_FIELD(traffic.hotspot_fraction)),
      list_key("traffic.hotspot_nodes", T::uint_list, Traffic::hotspot_node_range, "nodes",
               "hotspot pattern: the hotspot nodes", COLLNOC_FIELD(traffic.hotspot_nodes)),
      real_key("traffic.multicast_fraction", Traffic::multicast_fraction_range, "",
               "synthetic traffic: share of messages sent to a set of destinations (multicast); "
               "0 = unicast only",
               COLLNOC_FIELD(traffic.multicast_fraction)),
      uint_key("traffic.multicast_destinations_min", Traffic::multicast_destinations_range,
               "nodes", "multicast: fewest destinations of a message (distinct, not the source)",
               COLLNOC_FIELD(traffic.multicast_destinations_min)),
      uint_key("traffic.multicast_destinations_max", Traffic::multicast_destinations_range,
               "nodes", "multicast: most destinations of a message (below the node count)",
               COLLNOC_FIELD(traffic.multicast_destinations_max)),
      real_key("traffic.normalized_load", Traffic::normalized_load_range, "",
               "synthetic traffic: offered load as a share of the mesh's or torus's capacity "
               "under uniform traffic, multicast counted once per destination; sets "
               "traffic.injection_rate (0: not used)",
               COLLNOC_FIELD(traffic.normalized_load)),
      enum_key("traffic.multicast_scheme",
               "how multicast messages travel: hta (routers replicate them, SPEC 5)",
               [] { return multicast_schemes(); }, COLLNOC_FIELD(traffic.multicast_scheme)),
      enum_key("hta.header_routing",
               "multicast header flits at the next router: delayed (once every header of the "
               "message is routed here) or immediate",
               names_allowed(header_timing),
               enum_field([](RunConfig& c) -> auto& {
                 return c.platform.system.router.hta.header_routing;
               }, header_timing)),
      uint_key("hta.timeout_cycles", HtaParams::timeout_cycles_range, "cycles",
               "deadlock detection: a header not routable this long leaves with its message "
               "for the router's deadlock queue",
               COLLNOC_FIELD(platform.system.router.hta.timeout_cycles)),
      uint_key("hta.reinjection_delay_cycles", HtaParams::reinjection_delay_cycles_range,
               "cycles", "deadlock recovery: a message in the deadlock queue is re-injected "
               "this long after it is whole there",
               COLLNOC_FIELD(platform.system.router.hta.reinjection_delay_cycles)),

      enum_key("workload.kind",
               "synthetic traffic, a trace (trace.file), or the firmware program every core runs",
               workload_names, COLLNOC_FIELD(workload_kind)),
      text_key("trace.file", "",
               "workload.kind = trace: the messages to replay, plain text or gzip "
               "(docs/traffic.md#traces)",
               COLLNOC_FIELD(trace.file)),
      uint_key("workload.message_words", Fw::message_words_range, "words",
               "firmware: 32-bit payload words per message", COLLNOC_FIELD(firmware.message_words)),
      uint_key("workload.iterations", Fw::iterations_range, "",
               "firmware: repetitions (round trips, exchange rounds)",
               COLLNOC_FIELD(firmware.iterations)),
      enum_key("workload.collective", "collective: which collective operation", collective_names,
               COLLNOC_FIELD(firmware.collective)),
      text_key("workload.algorithm", "",
               "collective: its algorithm (empty: the collective's first; collnoc list shows all)",
               COLLNOC_FIELD(firmware.algorithm)),
      text_key("workload.schedule", "",
               "collective: how the algorithm orders its messages, for those that have a choice "
               "(alltoall, alltoallv nocmsg: greedy, modulo; reduce nocmsg, allreduce "
               "reduce_broadcast: distance, chain; empty: the first)",
               COLLNOC_FIELD(firmware.schedule)),
      enum_key("workload.scheme",
               "all_to_all_broadcast: plain, hierarchical_nc (SPEC 3.2) or combining",
               [] { return names_of(kA2aSchemes); }, COLLNOC_FIELD(firmware.all_to_all.scheme)),
      enum_key("workload.base", "all_to_all_broadcast: base multicast over unicasts",
               [] { return names_of(kA2aBases); }, COLLNOC_FIELD(firmware.all_to_all.base)),
      text_key("workload.group", "",
               "all_to_all_broadcast: group shape GxH (tiles the network), or auto",
               COLLNOC_FIELD(firmware.all_to_all.group)),
      enum_key("workload.variant",
               "hierarchical_nc: intermediate (one coder per group), every_node or recursive",
               [] { return names_of(kA2aVariants); }, COLLNOC_FIELD(firmware.all_to_all.variant)),
      text_key("workload.subgroup", "", "recursive variant: subgroup shape inside a group, or auto",
               COLLNOC_FIELD(firmware.all_to_all.subgroup)),
      enum_key("workload.intermediate",
               "hierarchical schemes: which node of a group codes (center: shortest longest path)",
               [] { return words(kA2aIntermediates); },
               COLLNOC_FIELD(firmware.all_to_all.intermediate)),
      enum_key("workload.decoding",
               "hierarchical_nc: chain (one XOR after another from the plain datum, both ways) "
               "or tree (also XORs chain segments of 2, 4, 8, ... links as they arrive)",
               [] { return words(kA2aDecodings); }, COLLNOC_FIELD(firmware.all_to_all.decoding)),
      uint_key("workload.sources", Fw::sources_range, "nodes",
               "all_to_all_broadcast: sources (many-to-all), 0 = every node",
               COLLNOC_FIELD(firmware.all_to_all.sources)),
      uint_key("workload.peer", Fw::rank_range, "node", "ping_pong: the partner of core 0",
               COLLNOC_FIELD(firmware.peer)),
      text_key("workload.grid", "tiles",
               "mesh collectives: ranks' sub-grid AxB or a square task count (empty: tilepro 7x7, "
               "else the whole mesh)",
               COLLNOC_FIELD(firmware.grid)),
      uint_key("workload.message_bytes", Fw::message_bytes_range, "bytes",
               "mesh collectives: bytes per message (per rank pair, or the reduced vector)",
               COLLNOC_FIELD(firmware.message_bytes)),
      uint_key("workload.root", Fw::rank_range, "rank", "mesh collectives: root of broadcast, reduce",
               COLLNOC_FIELD(firmware.root)),
      uint_key("workload.fanout", Fw::fanout_range, "children",
               "broadcast onesided: children per core in its tree (1: a pipelined chain)",
               COLLNOC_FIELD(firmware.fanout)),
      bool_key("workload.nocmsg_mpb",
               "scc: the nocmsg set runs on the message-passing buffers (put/get with flags); "
               "false: over the router network",
               COLLNOC_FIELD(firmware.nocmsg_mpb)),
      enum_key("workload.reduce_op", "reductions: the operator", [] { return words(kReduceOps); },
               COLLNOC_FIELD(firmware.reduce_op)),
      enum_key("workload.element_type", "reductions: what the elements are",
               [] { return words(kElementTypes); }, COLLNOC_FIELD(firmware.element_type)),
      uint_key("workload.repetitions", Fw::repetitions_range, "",
               "collective: runs of it (variance over them), back to back",
               COLLNOC_FIELD(firmware.repetitions)),
      uint_key("workload.start_skew_cycles", Fw::start_skew_cycles_range, "cycles",
               "collective: each core starts each run after a random delay in 0..this",
               COLLNOC_FIELD(firmware.start_skew_cycles)),
      enum_key("msg.protocol",
               "firmware: how messages travel: eager, rendezvous (RTS/CTS flow control), "
               "mpb (message-passing buffers, platform scc)",
               [] { return names_of(message_protocols()); }, COLLNOC_FIELD(firmware.protocol.name)),

      uint_key("sim.warmup_cycles", Run::warmup_cycles_range, "cycles",
               "synthetic: packets created before this are not measured",
               COLLNOC_FIELD(run.warmup_cycles)),
      uint_key("sim.measure_cycles", Run::measure_cycles_range, "cycles",
               "synthetic: measurement window after the warm-up", COLLNOC_FIELD(run.measure_cycles)),
      uint_key("sim.max_cycles", Run::max_cycles_range, "cycles",
               "hard stop, drain included (firmware not finished by then: timeout, exit 1)",
               COLLNOC_FIELD(run.max_cycles)),
      uint_key("sim.max_drain_cycles", Run::max_drain_cycles_range, "cycles",
               "synthetic: after the window, stop waiting for measured packets after this "
               "(sim.completed = false: the load is past saturation)",
               COLLNOC_FIELD(run.max_drain_cycles)),
      uint_key("sim.watchdog_cycles", Run::watchdog_cycles_range, "cycles",
               "no flit moved this long with flits in flight: deadlock",
               COLLNOC_FIELD(run.watchdog_cycles)),
      bool_key("sim.steady_state",
               "synthetic: the warm-up ends when the accepted throughput of two successive "
               "intervals differs by less than sim.steady_state_tolerance (SPEC 5), after at "
               "least sim.warmup_cycles and at most sim.steady_state_max_warmup_cycles",
               COLLNOC_FIELD(run.steady_state)),
      uint_key("sim.steady_state_interval_cycles", Run::steady_state_interval_cycles_range,
               "cycles", "steady state: the throughput is sampled over intervals of this",
               COLLNOC_FIELD(run.steady_state_interval_cycles)),
      real_key("sim.steady_state_tolerance", Run::steady_state_tolerance_range,
               "flits/node/cycle",
               "steady state: largest difference of two successive intervals' throughput",
               COLLNOC_FIELD(run.steady_state_tolerance)),
      uint_key("sim.steady_state_max_warmup_cycles", Run::steady_state_max_warmup_cycles_range,
               "cycles",
               "steady state: the window opens here if the throughput has not settled "
               "(sim.steady_state_reached = false)",
               COLLNOC_FIELD(run.steady_state_max_warmup_cycles)),
      enum_key("sim.warmup",
               "synthetic: how the warm-up ends: cycles (after sim.warmup_cycles) or auto (when "
               "the throughput is steady: the same as sim.steady_state = true)",
               names_allowed(warmup_modes),
               enum_field([](RunConfig& c) -> auto& { return c.run.warmup_auto; }, warmup_modes)),
      uint_key("stats.series_interval_cycles", Run::series_interval_cycles_range, "cycles",
               "the accepted throughput over time: flits delivered per node and cycle in "
               "intervals of this (throughput.series_flits_per_node_cycle); 0 = none",
               COLLNOC_FIELD(run.series_interval_cycles)),
      bool_key("stats.per_flow",
               "per source-destination flow: packets, flits, latency and throughput of the "
               "measured packets (the flows list)",
               COLLNOC_FIELD(run.per_flow)),
      uint_key("stats.per_flow_top", Run::per_flow_top_range, "flows",
               "stats.per_flow: the flows of highest mean latency listed; 0 = every flow",
               COLLNOC_FIELD(run.per_flow_top)),
      bool_key("stats.per_vc",
               "per output VC of every link, the cycles a packet held it (links' vc_busy_cycles "
               "and vc_utilization)",
               COLLNOC_FIELD(run.per_vc)),
      bool_key("stats.per_round_links",
               "firmware: per round, the flits and contention events of every router-to-router "
               "link (links_by_round; collnoc plot heatmap --round)",
               COLLNOC_FIELD(run.per_round_links)),
      bool_key("sim.activity_driven",
               "idle blocks sleep until woken (results are identical either way)",
               COLLNOC_FIELD(platform.system.activity_driven)),
      uint_key("sim.threads", SystemParams::threads_range, "",
               "threads that evaluate the routers of a busy cycle (identical results for any "
               "number); 0 = automatic: 2 if the machine has 2 or more cores, else 1",
               COLLNOC_FIELD(platform.system.threads)),
      enum_key("sim.waves",
               "synthetic traffic: evaluate the network in waves, a band of its rows several "
               "cycles ahead of the rows behind it, so that each row's state is fetched once for "
               "several cycles (identical results). auto: on one thread (sim.threads = 1, or a "
               "1-core machine) in networks of 512 routers or more; on: whenever the run allows; "
               "off: cycle by cycle",
               names_allowed(wave_modes),
               enum_field([](RunConfig& c) -> auto& { return c.platform.system.waves; },
                          wave_modes)),
      real_key("sim.clock_period_ns", SystemParams::clock_period_ns_range, "ns",
               "network clock period, one cycle (rounded to 1 ps)",
               COLLNOC_FIELD(platform.system.clock_period_ns)),
      text_key("power.table", "",
               "energy and power estimates (energy.* results) with this YAML table of "
               "coefficients, e.g. configs/power/45nm.yaml (docs/energy.md); empty = none",
               COLLNOC_FIELD(run.energy.table_file)),
      real_key("power.tile_pitch_mm", EnergyParams::tile_pitch_mm_range, "mm",
               "a tile's side: a one-tile link's length (every link outside mesh and torus)",
               COLLNOC_FIELD(run.energy.tile_pitch_mm)),
      enum_key("power.torus_layout",
               "torus links' lengths: folded (every link 2 tiles) or flat (1 tile, the "
               "wrap-around link k-1)",
               names_allowed(torus_layout_names),
               enum_field([](RunConfig& c) -> auto& { return c.run.energy.torus_layout; },
                          torus_layout_names)),
      uint_key("sim.max_memory_mb", RunConfig::max_memory_mb_range, "MB",
               "refuse a run whose estimated memory is above this (collnoc run --check shows "
               "the estimate); 0 = 80 % of the machine's physical memory",
               COLLNOC_FIELD(max_memory_mb)),
      bool_key("sim.progress", "progress lines on stderr during long runs",
               COLLNOC_FIELD(run.progress)),
      // One seed for both: the traffic's and the firmware's data.
      uint_key("seed", Run::seed_range, "", "random seed of synthetic traffic and firmware data",
               {[](RunConfig& c, const ConfigValue& v) {
                  store(c.run.seed, v);
                  store(c.firmware.seed, v);
                },
                [](const RunConfig& c) { return value_of(c.run.seed); }}),
  };
#undef COLLNOC_FIELD
  // core.software.<cost>, after core.software_model: empty for the model's own value.
  auto at = std::find_if(rest.begin(), rest.end(),
                         [](const KeySpec& s) { return s.key == "core.software_model"; });
  for (std::size_t i = 0; i < kSoftwareCostCount; ++i) at = rest.insert(at + 1, software_cost_key(i));
  // router.switching and router.vc_realloc come after router.hop_latency_cycles.
  for (KeySpec& s : rest) schema.push_back(std::move(s));
  // The defaults are the library's: what a RunConfig holds before anything is set.
  const RunConfig defaults;
  for (KeySpec& s : schema) s.default_value = s.read(defaults);
  return schema;
}

std::size_t index_of(const std::string& key) {
  const auto& schema = config_schema();
  for (std::size_t i = 0; i < schema.size(); ++i)
    if (schema[i].key == key) return i;
  throw std::logic_error("no configuration key " + key);
}

bool is_group(const std::string& prefix) {
  for (const KeySpec& s : config_schema())
    if (s.key.size() > prefix.size() && s.key.compare(0, prefix.size(), prefix) == 0 &&
        s.key[prefix.size()] == '.')
      return true;
  return false;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string unknown_key_message(const std::string& key) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, key.size() / 4) + 1;
  for (const KeySpec& s : config_schema()) {
    // The distance is at least the difference in length: a long key costs nothing to rule out
    // (a 1 MB key took 4 s to refuse when every key was measured in full).
    const std::size_t longer = std::max(key.size(), s.key.size());
    if (longer - std::min(key.size(), s.key.size()) >= best_distance) continue;
    const std::size_t d = edit_distance(key, s.key);
    if (d < best_distance) best_distance = d, best = s.key;
  }
  std::string msg = "unknown configuration key " + shown_value(key);
  if (!best.empty()) msg += " (did you mean " + best + "?)";
  return msg + "; `collnoc run --dump-config` lists every key";
}

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) s += (i ? sep : "") + items[i];
  return s;
}

// ---------------------------------------------------------------- parsing values

std::string node_text(const YAML::Node& node) {
  if (node.IsScalar()) return node.Scalar();
  YAML::Emitter e;
  e.SetSeqFormat(YAML::Flow);
  e.SetMapFormat(YAML::Flow);
  e << node;
  return e.c_str();
}

bool parse_uint(const std::string& s, std::uint64_t& out) {
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (*end != '\0' || errno == ERANGE) return false;
  out = v;
  return true;
}

bool parse_bool(std::string s, bool& out) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  if (s == "true" || s == "yes" || s == "on") out = true;
  else if (s == "false" || s == "no" || s == "off") out = false;
  else return false;
  return true;
}

std::string with_unit(const std::string& s, const KeySpec& k) {
  return k.unit.empty() ? s : s + " " + k.unit;
}

// "in 1..8": both bounds, even a 64-bit key's, so that a value too large to read is told what
// the largest is.
std::string uint_range(const KeySpec& k) { return range_text(k.uint_range); }

std::string real_range(const KeySpec& k) { return k.real_bounded ? range_text(k.real_range) : ""; }

// The ALLOWED column of `--dump-config`.
std::string allowed_text(const KeySpec& k) {
  if (k.allowed) return "one of: " + join(k.allowed(), ", ");
  if (k.type == ValueType::double_) return real_range(k);
  if (k.type == ValueType::uint || k.type == ValueType::uint_or_list ||
      k.type == ValueType::uint_list)
    return uint_range(k);
  return "";
}

ConfigValue parse_value(const KeySpec& k, const YAML::Node& node, const std::string& where) {
  if (!node || node.IsNull()) throw InputError(k.key + " has no value" + where);
  const std::string shown = shown_value(node_text(node));
  auto fail = [&](const std::string& why) -> InputError {
    return InputError(k.key + " = " + shown + ": " + why + where);
  };
  if (k.empty_allowed && node.IsScalar() && node.Scalar().empty()) return std::string();
  // What an empty-allowed key adds to the values it takes.
  const std::string or_empty = k.empty_allowed ? ", or empty for the model's value" : "";
  const std::string range = with_unit(uint_range(k), k);
  // Not an unsigned integer (or a list of them): what is, with the range of each. `element`: one
  // item of a list (or the single value a list key was given).
  auto not_uint = [&](const char* what, bool element) {
    return fail(std::string("must be ") + what + (element ? " (each " + range + ")" : " " + range));
  };
  auto check_uint = [&](const YAML::Node& n, const char* what, bool element) -> std::uint64_t {
    std::uint64_t v = 0;
    if (!n.IsScalar() || !parse_uint(n.Scalar(), v)) throw not_uint(what, element);
    if (!k.uint_range.contains(v))
      throw fail(std::string(element && !node.IsScalar() ? "every value must be " : "must be ") +
                 range);
    return v;
  };
  switch (k.type) {
    case ValueType::uint:
      return check_uint(node, "an unsigned integer", false);
    case ValueType::int_: {
      std::int64_t v = 0;
      if (!node.IsScalar() || !parse_int(node.Scalar(), v)) throw fail("must be an integer");
      return v;
    }
    case ValueType::double_: {
      double v = 0;
      const std::string real = real_range(k);
      if (!node.IsScalar() || !parse_real(node.Scalar(), v))
        throw fail(with_unit("must be a number" + (real.empty() ? "" : " " + real), k) + or_empty);
      if (k.real_bounded && !k.real_range.contains(v))
        throw fail(with_unit((k.empty_allowed ? "must be a number " : "must be ") + real, k) +
                   or_empty);
      return v;
    }
    case ValueType::bool_: {
      bool v = false;
      if (!node.IsScalar() || !parse_bool(node.Scalar(), v))
        throw fail("must be true or false" + or_empty);
      return v;
    }
    case ValueType::string: {
      if (!node.IsScalar()) throw fail("must be a single word, not a list or map");
      // The default is allowed even when it names nothing (workload.collective ""), so that the
      // configuration a results file records reads back.
      if (k.allowed && node.Scalar() != text(k.default_value)) {
        const auto names = k.allowed();
        if (std::find(names.begin(), names.end(), node.Scalar()) == names.end())
          throw fail("must be one of: " + join(names, ", "));
      }
      return node.Scalar();
    }
    case ValueType::uint_or_list:
    case ValueType::uint_list: {
      const char* what = k.type == ValueType::uint_or_list
                             ? "an unsigned integer or a list of them"
                             : "a list of unsigned integers";
      std::vector<std::uint64_t> values;
      if (node.IsScalar()) {
        values.push_back(check_uint(node, what, true));
      } else if (node.IsSequence()) {
        for (const YAML::Node& item : node) values.push_back(check_uint(item, what, true));
        if (values.empty()) throw fail("must not be an empty list");
      } else {
        throw not_uint(what, true);
      }
      return values;
    }
  }
  throw std::logic_error("unhandled value type");
}

}  // namespace

bool parse_real(const std::string& s, double& out) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return false;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v)) return false;
  out = v;
  return true;
}

bool parse_int(const std::string& s, std::int64_t& out) {
  const std::size_t digits = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (s.size() <= digits || !std::isdigit(static_cast<unsigned char>(s[digits]))) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (*end != '\0' || errno == ERANGE) return false;
  out = v;
  return true;
}

const char* to_string(ValueType t) {
  switch (t) {
    case ValueType::int_: return "int";
    case ValueType::uint: return "uint";
    case ValueType::double_: return "double";
    case ValueType::bool_: return "bool";
    case ValueType::string: return "string";
    case ValueType::uint_or_list: return "uint|uint[]";
    case ValueType::uint_list: return "uint[]";
  }
  return "?";
}

const std::vector<KeySpec>& config_schema() {
  static const std::vector<KeySpec> schema = build_schema();
  return schema;
}

const KeySpec* find_key(const std::string& key) {
  for (const KeySpec& s : config_schema())
    if (s.key == key) return &s;
  return nullptr;
}

std::string format_value(const ConfigValue& v) {
  struct Formatter {
    std::string operator()(std::int64_t x) const { return std::to_string(x); }
    std::string operator()(std::uint64_t x) const { return std::to_string(x); }
    std::string operator()(bool x) const { return x ? "true" : "false"; }
    std::string operator()(const std::string& x) const { return x; }
    std::string operator()(double x) const {
      std::string s = plain_number(x);
      if (s.find_first_of(".eEni") == std::string::npos) s += ".0";  // still reads as a real
      return s;
    }
    std::string operator()(const std::vector<std::uint64_t>& l) const {
      std::string s = "[";
      for (std::size_t i = 0; i < l.size(); ++i) s += (i ? ", " : "") + std::to_string(l[i]);
      return s + "]";
    }
  };
  return std::visit(Formatter{}, v);
}

// ---------------------------------------------------------------- Config

Config::Config() {
  for (const KeySpec& s : config_schema()) values_.push_back(s.default_value);
}

const ConfigValue& Config::get(const std::string& key) const { return values_[index_of(key)]; }

namespace {

// Where a value came from, for messages; and the keys one file set (to refuse duplicates).
struct Origin {
  std::string file;  // empty: the command line
  std::map<std::string, int>* lines_seen = nullptr;
  std::string where(const YAML::Node& node) const {
    if (file.empty()) return "";
    return " (in " + file + ", line " + std::to_string(node.Mark().line + 1) + ")";
  }
};

// Assigns `node` to `key`, or flattens a map under a group prefix ("router" -> "router.vcs").
void assign(std::vector<ConfigValue>& values, const std::string& key, const YAML::Node& node,
            const Origin& origin) {
  if (const KeySpec* spec = find_key(key)) {
    if (origin.lines_seen) {
      const int line = node.Mark().line + 1;
      auto [it, fresh] = origin.lines_seen->emplace(key, line);
      if (!fresh)
        throw InputError(key + " is set twice in " + origin.file + " (lines " +
                         std::to_string(it->second) + " and " + std::to_string(line) + ")");
    }
    values[index_of(key)] = parse_value(*spec, node, origin.where(node));
    return;
  }
  if (is_group(key)) {
    if (!node.IsMap()) {
      std::vector<std::string> members;
      for (const KeySpec& s : config_schema())
        if (s.key.compare(0, key.size() + 1, key + ".") == 0) members.push_back(s.key);
      throw InputError(key + " is a group of keys (" + join(members, ", ") + "), not a value" +
                       origin.where(node));
    }
    for (const auto& kv : node) {
      if (!kv.first.IsScalar() || kv.first.Scalar().empty())
        throw InputError("a key under " + key + " is not a name" + origin.where(kv.first));
      assign(values, key + "." + kv.first.Scalar(), kv.second, origin);
    }
    return;
  }
  throw InputError(unknown_key_message(key) + origin.where(node));
}

}  // namespace

void Config::load_file(const std::string& path) {
  if (const auto problem = input_file_problem(path))
    throw InputError("config file: " + *problem + " (a YAML file is expected)");
  std::ifstream in(path);
  if (!in) throw InputError("cannot read config file " + path + ": " + std::strerror(errno));
  std::stringstream buffer;
  buffer << in.rdbuf();
  load_yaml(buffer.str(), path);
}

void Config::load_yaml(const std::string& text, const std::string& source) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError("malformed YAML in " + source + ": line " + std::to_string(e.mark.line + 1) +
                     ", column " + std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
  if (!root || root.IsNull()) return;  // an empty file: defaults
  if (!root.IsMap())
    throw InputError("config file " + source + " must be a map of keys (key: value), not a " +
                     (root.IsSequence() ? "list" : "single value"));
  std::map<std::string, int> lines_seen;
  Origin origin{source, &lines_seen};
  for (const auto& kv : root) {
    if (!kv.first.IsScalar() || kv.first.Scalar().empty())
      throw InputError("a top-level key is not a name" + origin.where(kv.first));
    assign(values_, kv.first.Scalar(), kv.second, origin);
  }
}

void Config::set_text(const std::string& key, const std::string& yaml_text) {
  YAML::Node node;
  try {
    node = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw InputError(key + " = " + yaml_text + ": malformed YAML value: " + e.msg);
  }
  assign(values_, key, node, Origin{});
}

void Config::apply_override(const std::string& assignment) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("--set " + assignment + ": expected key=value");
  std::string key = assignment.substr(0, eq);
  while (!key.empty() && std::isspace(static_cast<unsigned char>(key.back()))) key.pop_back();
  set_text(key, assignment.substr(eq + 1));
}

Config load_config(const std::string& path, const std::vector<std::string>& overrides) {
  Config config;
  if (!path.empty() && path != "-") config.load_file(path);
  for (const std::string& assignment : overrides) config.apply_override(assignment);
  return config;
}

RunConfig Config::to_run_config() const {
  RunConfig rc;
  const auto& schema = config_schema();
  for (std::size_t i = 0; i < schema.size(); ++i) schema[i].apply(rc, values_[i]);
  derive_params(rc);
  if (rc.run.energy.enabled()) rc.run.energy.table = load_power_table(rc.run.energy.table_file);
  return rc;
}

namespace {

// As results show it: a one-element uint_or_list as a plain number.
std::string display_value(const KeySpec& k, const ConfigValue& v) {
  const auto* l = std::get_if<std::vector<std::uint64_t>>(&v);
  if (k.type == ValueType::uint_or_list && l && l->size() == 1) return std::to_string(l->front());
  return format_value(v);
}

}  // namespace

void print_schema(std::ostream& os, const Config* effective) {
  struct Row {
    std::string key, type, def, value, unit, meaning, allowed;
  };
  std::vector<Row> rows{{"KEY", "TYPE", "DEFAULT", "VALUE", "UNIT", "MEANING", "ALLOWED"}};
  const auto& schema = config_schema();
  for (std::size_t i = 0; i < schema.size(); ++i) {
    const KeySpec& k = schema[i];
    rows.push_back({k.key, to_string(k.type), display_value(k, k.default_value),
                    effective ? display_value(k, effective->values()[i]) : "",
                    k.unit.empty() ? "-" : k.unit, k.meaning, allowed_text(k)});
  }
  std::size_t w_key = 0, w_type = 0, w_def = 0, w_value = 0, w_unit = 0, w_meaning = 0;
  for (const Row& r : rows) {
    w_key = std::max(w_key, r.key.size());
    w_type = std::max(w_type, r.type.size());
    w_def = std::max(w_def, r.def.size());
    w_value = std::max(w_value, r.value.size());
    w_unit = std::max(w_unit, r.unit.size());
    w_meaning = std::max(w_meaning, r.meaning.size());
  }
  for (const Row& r : rows) {
    std::ostringstream line;
    line << std::left << std::setw(static_cast<int>(w_key + 2)) << r.key
         << std::setw(static_cast<int>(w_type + 2)) << r.type
         << std::setw(static_cast<int>(w_def + 2)) << r.def;
    if (effective) line << std::setw(static_cast<int>(w_value + 2)) << r.value;
    line << std::setw(static_cast<int>(w_unit + 2)) << r.unit
         << std::setw(static_cast<int>(w_meaning + 2)) << r.meaning << r.allowed;
    std::string s = line.str();
    while (!s.empty() && s.back() == ' ') s.pop_back();
    os << s << "\n";
  }
}

}  // namespace collnoc::cli
