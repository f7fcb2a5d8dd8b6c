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

#include <yaml-cpp/yaml.h>

#include "collectives/all_to_all_plan.hpp"
#include "collectives/collective.hpp"
#include "collectives/message_protocol.hpp"
#include "noc/input_file.hpp"

namespace collnoc::cli {

namespace {

constexpr std::uint64_t kU32Max = UINT32_MAX;
constexpr std::uint64_t kU64Max = UINT64_MAX;

template <typename Table>
std::vector<std::string> names_of(const Table& table) {
  std::vector<std::string> names;
  for (const auto& e : table) names.emplace_back(e.name);
  return names;
}

std::vector<std::string> switching_names() {
  std::vector<std::string> names;
  for (Switching s : {Switching::wormhole, Switching::virtual_cut_through,
                      Switching::store_and_forward})
    names.emplace_back(to_string(s));
  return names;
}

std::vector<std::string> workload_names() {
  std::vector<std::string> names{"synthetic"};
  for (const auto& e : firmware_programs()) names.emplace_back(e.name);
  return names;
}

unsigned u32(const ConfigValue& v) { return static_cast<unsigned>(std::get<std::uint64_t>(v)); }
std::uint64_t u64(const ConfigValue& v) { return std::get<std::uint64_t>(v); }
double real(const ConfigValue& v) { return std::get<double>(v); }
bool flag(const ConfigValue& v) { return std::get<bool>(v); }
const std::string& text(const ConfigValue& v) { return std::get<std::string>(v); }
template <typename T>
std::vector<T> list(const ConfigValue& v) {
  const auto& l = std::get<std::vector<std::uint64_t>>(v);
  return std::vector<T>(l.begin(), l.end());
}

Switching switching_of(const std::string& name) {
  for (Switching s : {Switching::wormhole, Switching::virtual_cut_through,
                      Switching::store_and_forward})
    if (name == to_string(s)) return s;
  throw InputError("router.switching = " + name + ": not a switching mode");  // schema prevents
}

// Builders that keep the table below one entry per key.
using Apply = std::function<void(RunConfig&, const ConfigValue&)>;
using Allowed = std::function<std::vector<std::string>()>;

KeySpec spec(std::string key, ValueType type, ConfigValue def, std::string unit,
             std::string meaning, Apply apply) {
  KeySpec s;
  s.key = std::move(key);
  s.type = type;
  s.default_value = std::move(def);
  s.unit = std::move(unit);
  s.meaning = std::move(meaning);
  s.apply = std::move(apply);
  return s;
}

KeySpec uint_key(std::string key, std::uint64_t def, std::uint64_t min, std::uint64_t max,
                 std::string unit, std::string meaning, Apply apply) {
  KeySpec s = spec(std::move(key), ValueType::uint, def, std::move(unit), std::move(meaning),
                   std::move(apply));
  s.uint_min = min;
  s.uint_max = max;
  return s;
}

KeySpec list_key(std::string key, ValueType type, std::vector<std::uint64_t> def, std::uint64_t min,
                 std::string unit, std::string meaning, Apply apply) {
  KeySpec s = uint_key(std::move(key), 0, min, kU32Max, std::move(unit), std::move(meaning),
                       std::move(apply));
  s.type = type;
  s.default_value = std::move(def);
  return s;
}

KeySpec real_key(std::string key, double def, double min, double max, bool min_open,
                 std::string unit, std::string meaning, Apply apply) {
  KeySpec s = spec(std::move(key), ValueType::double_, def, std::move(unit), std::move(meaning),
                   std::move(apply));
  s.real_min = min;
  s.real_max = max;
  s.real_min_open = min_open;
  s.real_bounded = true;
  return s;
}

KeySpec bool_key(std::string key, bool def, std::string meaning, Apply apply) {
  return spec(std::move(key), ValueType::bool_, def, "", std::move(meaning), std::move(apply));
}

KeySpec enum_key(std::string key, std::string def, std::string meaning, Allowed allowed,
                 Apply apply) {
  KeySpec s = spec(std::move(key), ValueType::string, std::move(def), "", std::move(meaning),
                   std::move(apply));
  s.allowed = std::move(allowed);
  return s;
}

std::vector<KeySpec> build_schema() {
  using V = const ConfigValue&;
  using T = ValueType;
  return {
      enum_key("platform", "kary_ncube", "platform builder that wires the system",
               [] { return names_of(platforms()); },
               [](RunConfig& c, V v) { c.platform.name = text(v); }),
      enum_key("topology.kind", "mesh", "topology graph of the routers",
               [] { return names_of(topologies()); },
               [](RunConfig& c, V v) { c.platform.topology.kind = text(v); }),
      list_key("topology.k", T::uint_or_list, {8}, 2, "routers",
               "routers per dimension: one value for all dimensions, or one per dimension",
               [](RunConfig& c, V v) { c.platform.topology.k = list<unsigned>(v); }),
      uint_key("topology.n", 2, 1, 8, "dimensions", "number of dimensions",
               [](RunConfig& c, V v) { c.platform.topology.n = u32(v); }),
      uint_key("topology.nodes", 64, 3, 65536, "routers", "random: number of routers",
               [](RunConfig& c, V v) { c.platform.topology.nodes = u32(v); }),
      uint_key("topology.degree", 4, 2, kMaxRouterPorts - 1, "ports",
               "random: network ports (neighbours) per router",
               [](RunConfig& c, V v) { c.platform.topology.degree = u32(v); }),
      uint_key("topology.seed", 1, 0, kU64Max, "", "random: which graph is drawn",
               [](RunConfig& c, V v) { c.platform.topology.seed = u64(v); }),
      spec("hdn.base", T::string, std::string("torus:2x3x5"), "",
           "hdn: base network, torus:AxBx... or hypercube:N",
           [](RunConfig& c, V v) { c.platform.topology.hdn_base = text(v); }),
      uint_key("hdn.levels", 1, 0, 16, "levels", "hdn: k, the number of dual-net levels",
               [](RunConfig& c, V v) { c.platform.topology.hdn_levels = u32(v); }),
      spec("hdn.supernodes", T::string, std::string("1"), "",
           "hdn: super-node set per level (1, a size or factors like C2xC3), comma-separated",
           [](RunConfig& c, V v) { c.platform.topology.hdn_supernodes = text(v); }),

      uint_key("udn.hop_latency_cycles", 2, 1, 1000, "cycles",
               "tilepro: dynamic network (UDN) cycles per hop",
               [](RunConfig& c, V v) { c.platform.udn_hop_latency_cycles = u32(v); }),
      uint_key("sn.config_cycles", 10, 0, 1000000, "cycles",
               "tilepro: static network, cycles until a new switch route is in force",
               [](RunConfig& c, V v) { c.platform.sn.config_cycles = u32(v); }),
      uint_key("sn.buffer_flits", 4, 1, 65535, "flits", "tilepro: static switch input buffer",
               [](RunConfig& c, V v) { c.platform.sn.buffer_flits = u32(v); }),

      uint_key("router.vcs", 4, 1, 32, "VCs", "virtual channels per input port",
               [](RunConfig& c, V v) { c.platform.system.router.vcs = u32(v); }),
      uint_key("router.vc_classes", 1, 1, kU32Max, "classes",
               "virtual networks; each gets router.vcs / router.vc_classes VCs",
               [](RunConfig& c, V v) { c.platform.system.router.vc_classes = u32(v); }),
      uint_key("router.buffer_flits", 4, 1, 65535, "flits", "depth of each VC input buffer",
               [](RunConfig& c, V v) { c.platform.system.router.buffer_flits = u32(v); }),
      uint_key("router.hop_latency_cycles", 3, 1, 1000, "cycles",
               "router pipeline depth: head flit arrival to departure + 1",
               [](RunConfig& c, V v) { c.platform.system.router.hop_latency_cycles = u32(v); }),
      enum_key("router.switching", "wormhole",
               "flow control: wormhole, virtual cut-through (vct) or store-and-forward (saf)",
               switching_names,
               [](RunConfig& c, V v) {
                 c.platform.system.router.switching = switching_of(text(v));
               }),
      enum_key("router.vc_realloc", "auto",
               "when an output VC is offered to the next packet: tail (once the last packet's "
               "tail left), empty (once the downstream buffer is empty too), auto (tail, but "
               "empty for VCs an adaptive routing function takes under wormhole)",
               [] {
                 std::vector<std::string> names;
                 for (VcRealloc r : vc_realloc_modes()) names.emplace_back(to_string(r));
                 return names;
               },
               [](RunConfig& c, V v) {
                 for (VcRealloc r : vc_realloc_modes())
                   if (text(v) == to_string(r)) c.platform.system.router.vc_realloc = r;
               }),
      enum_key("router.vc_allocator", "round_robin", "VC allocator of every router",
               [] { return names_of(vc_allocators()); },
               [](RunConfig& c, V v) { c.platform.system.router.vc_allocator = text(v); }),
      enum_key("router.switch_allocator", "round_robin", "switch allocator of every router",
               [] { return names_of(switch_allocators()); },
               [](RunConfig& c, V v) { c.platform.system.router.switch_allocator = text(v); }),

      uint_key("link.latency_cycles", 1, 1, kU32Max, "cycles",
               "router-to-router link: flit sent to flit in the next router's buffer",
               [](RunConfig& c, V v) { c.platform.system.link.latency_cycles = u32(v); }),
      uint_key("link.credit_latency_cycles", 1, 1, kU32Max, "cycles",
               "router-to-router link: credit return latency",
               [](RunConfig& c, V v) { c.platform.system.link.credit_latency_cycles = u32(v); }),
      uint_key("ni_link.latency_cycles", 1, 1, kU32Max, "cycles",
               "injection and ejection channels (NI <-> router): flit latency",
               [](RunConfig& c, V v) { c.platform.system.ni_link.latency_cycles = u32(v); }),
      uint_key("ni_link.credit_latency_cycles", 1, 1, kU32Max, "cycles",
               "injection and ejection channels (NI <-> router): credit return latency",
               [](RunConfig& c, V v) { c.platform.system.ni_link.credit_latency_cycles = u32(v); }),

      uint_key("ni.flit_width_bits", 128, 32, 32 * kMaxFlitWords, "bits",
               "payload bits per flit (a multiple of 32)",
               [](RunConfig& c, V v) { c.platform.system.ni.flit_width_bits = u32(v); }),
      uint_key("ni.max_packet_flits", 16, 1, 65535, "flits",
               "longest packet the NI's packetizer makes",
               [](RunConfig& c, V v) { c.platform.system.ni.max_packet_flits = u32(v); }),
      uint_key("ni.ejection_buffer_flits", 0, 0, 65535, "flits",
               "NI ejection buffer depth per VC; 0 = router.buffer_flits",
               [](RunConfig& c, V v) { c.platform.system.ni.ejection_buffer_flits = u32(v); }),
      uint_key("ni.send_overhead_cycles", 1, 1, kU32Max, "cycles",
               "core hands a message to its NI",
               [](RunConfig& c, V v) { c.platform.system.ni.send_overhead_cycles = u32(v); }),
      uint_key("ni.recv_overhead_cycles", 1, 1, kU32Max, "cycles",
               "NI hands a received message to its core",
               [](RunConfig& c, V v) { c.platform.system.ni.recv_overhead_cycles = u32(v); }),
      enum_key("ni.compression.policy", "never",
               "when the NI compresses a packet's payload (by its element type)",
               [] { return names_of(compression_policies()); },
               [](RunConfig& c, V v) { c.platform.system.ni.compression.policy = text(v); }),
      enum_key("ni.compression.size_mode", "real",
               "real: size from the codec's bits; fixed_ratio: every compressed packet shrinks "
               "by ni.fixed_ratio",
               [] { return std::vector<std::string>{"real", "fixed_ratio"}; },
               [](RunConfig& c, V v) {
                 c.platform.system.ni.compression.size_mode =
                     text(v) == "real" ? CompressedSize::real : CompressedSize::fixed_ratio;
               }),
      real_key("ni.fixed_ratio", 2.0, 1.0, 1e9, true, "",
               "fixed_ratio size mode, and C of the break-even model (must be > 1)",
               [](RunConfig& c, V v) { c.platform.system.ni.compression.fixed_ratio = real(v); }),
      uint_key("ni.codec_latency_cycles", 100, 0, kU32Max, "cycles",
               "compression + decompression latency D, charged once per compressed packet",
               [](RunConfig& c, V v) {
                 c.platform.system.ni.compression.codec_latency_cycles = u32(v);
               }),
      uint_key("ni.congestion_window_cycles", 1000, 1, kU32Max, "cycles",
               "selective policy: the window over which received flits (N) are counted",
               [](RunConfig& c, V v) {
                 c.platform.system.ni.compression.congestion_window_cycles = u32(v);
               }),
      uint_key("ni.compression.threshold_flits", 0, 0, kU32Max, "flits",
               "selective policy: L_th; 0 = break-even length of the zero-load model",
               [](RunConfig& c, V v) { c.platform.system.ni.compression.threshold_flits = u32(v); }),
      uint_key("nc.xor_latency_cycles", 1, 0, kMaxXorLatencyCycles, "cycles",
               "network coding: the NI's XOR engine, packet pair in to coded packet out "
               "(0 = combinational; pipelined, one pair per cycle)",
               [](RunConfig& c, V v) {
                 c.platform.system.ni.xor_engine.xor_latency_cycles = u32(v);
               }),
      uint_key("ni.lsb_cut_bits", 28, 1, 52, "bits",
               "LSB-cut: low bits dropped from each double",
               [](RunConfig& c, V v) { c.platform.system.ni.compression.codec.lsb_cut_bits = u32(v); }),
      uint_key("core.quantum_cycles", 1000, 1, kU32Max, "cycles",
               "how far a core's firmware may run ahead of simulated time",
               [](RunConfig& c, V v) { c.platform.system.core.quantum_cycles = u64(v); }),

      enum_key("routing.algorithm", "dor", "routing function of every router",
               [] { return names_of(routing_functions()); },
               [](RunConfig& c, V v) { c.platform.system.routing = text(v); }),

      enum_key("traffic.pattern", "uniform", "synthetic traffic: destination pattern",
               [] { return names_of(traffic_patterns()); },
               [](RunConfig& c, V v) { c.traffic.pattern = text(v); }),
      enum_key("traffic.payload", "random",
               "synthetic traffic: payload generator (random, random_ints, small_ints, "
               "sorted_keys, smooth_doubles, random_doubles) or file:PATH:int32|double",
               nullptr, [](RunConfig& c, V v) { c.traffic.payload = text(v); }),
      real_key("traffic.injection_rate", 0.1, 0.0, 1.0, false, "flits/node/cycle",
               "synthetic traffic: offered load (Bernoulli packet arrivals)",
               [](RunConfig& c, V v) { c.traffic.injection_rate = real(v); }),
      uint_key("traffic.packet_flits", 4, 1, 65535, "flits",
               "synthetic traffic: packet length (when min and max are 0)",
               [](RunConfig& c, V v) { c.traffic.packet_flits = u32(v); }),
      uint_key("traffic.packet_flits_min", 0, 0, 65535, "flits",
               "synthetic traffic: shortest packet, with max; 0 = fixed length",
               [](RunConfig& c, V v) { c.traffic.packet_flits_min = u32(v); }),
      uint_key("traffic.packet_flits_max", 0, 0, 65535, "flits",
               "synthetic traffic: longest packet, with min; 0 = fixed length",
               [](RunConfig& c, V v) { c.traffic.packet_flits_max = u32(v); }),
      real_key("traffic.hotspot_fraction", 0.2, 0.0, 1.0, false, "",
               "hotspot pattern: share of packets sent to the hotspot nodes",
               [](RunConfig& c, V v) { c.traffic.hotspot_fraction = real(v); }),
      list_key("traffic.hotspot_nodes", T::uint_list, {0}, 0, "nodes",
               "hotspot pattern: the hotspot nodes",
               [](RunConfig& c, V v) { c.traffic.hotspot_nodes = list<NodeId>(v); }),

      enum_key("workload.kind", "synthetic",
               "synthetic traffic, or the firmware program every core runs",
               workload_names, [](RunConfig& c, V v) { c.workload_kind = text(v); }),
      uint_key("workload.message_words", 16, 1, kMaxMessageWords, "words",
               "firmware: 32-bit payload words per message",
               [](RunConfig& c, V v) { c.firmware.message_words = u32(v); }),
      uint_key("workload.iterations", 1, 1, kU32Max, "",
               "firmware: repetitions (round trips, exchange rounds)",
               [](RunConfig& c, V v) { c.firmware.iterations = u32(v); }),
      enum_key("workload.collective", "", "collective: which collective operation",
               collective_names, [](RunConfig& c, V v) { c.firmware.collective = text(v); }),
      spec("workload.algorithm", T::string, std::string(""), "",
           "collective: its algorithm (empty: the collective's first; collnoc list shows all)",
           [](RunConfig& c, V v) { c.firmware.algorithm = text(v); }),
      enum_key("workload.scheme", "hierarchical_nc",
               "all_to_all_broadcast: plain, hierarchical_nc (SPEC 3.2) or combining",
               [] { return names_of(kA2aSchemes); },
               [](RunConfig& c, V v) { c.firmware.all_to_all.scheme = text(v); }),
      enum_key("workload.base", "tree", "all_to_all_broadcast: base multicast over unicasts",
               [] { return names_of(kA2aBases); },
               [](RunConfig& c, V v) { c.firmware.all_to_all.base = text(v); }),
      spec("workload.group", T::string, std::string("auto"), "",
           "all_to_all_broadcast: group shape GxH (tiles the network), or auto",
           [](RunConfig& c, V v) { c.firmware.all_to_all.group = text(v); }),
      enum_key("workload.variant", "intermediate",
               "hierarchical_nc: intermediate (one coder per group), every_node or recursive",
               [] { return names_of(kA2aVariants); },
               [](RunConfig& c, V v) { c.firmware.all_to_all.variant = text(v); }),
      spec("workload.subgroup", T::string, std::string("auto"), "",
           "recursive variant: subgroup shape inside a group, or auto",
           [](RunConfig& c, V v) { c.firmware.all_to_all.subgroup = text(v); }),
      enum_key("workload.intermediate", "center",
               "hierarchical schemes: which node of a group codes (center: shortest longest path)",
               [] { return std::vector<std::string>{"center", "corner"}; },
               [](RunConfig& c, V v) { c.firmware.all_to_all.intermediate = text(v); }),
      uint_key("workload.sources", 0, 0, kU32Max, "nodes",
               "all_to_all_broadcast: sources (many-to-all), 0 = every node",
               [](RunConfig& c, V v) { c.firmware.all_to_all.sources = u32(v); }),
      uint_key("workload.peer", 1, 0, kU32Max, "node", "ping_pong: the partner of core 0",
               [](RunConfig& c, V v) { c.firmware.peer = u32(v); }),
      spec("workload.grid", T::string, std::string(""), "tiles",
           "mesh collectives: ranks' sub-grid AxB or a square task count (empty: tilepro 7x7, "
           "else the whole mesh)",
           [](RunConfig& c, V v) {
             c.firmware.grid = text(v).empty() ? default_application_grid(c.platform.name) : text(v);
           }),
      uint_key("workload.message_bytes", 128, 1, 1u << 20, "bytes",
               "mesh collectives: bytes per message (per rank pair, or the reduced vector)",
               [](RunConfig& c, V v) { c.firmware.message_bytes = u64(v); }),
      uint_key("workload.root", 0, 0, kU32Max, "rank", "mesh collectives: root of broadcast, reduce",
               [](RunConfig& c, V v) { c.firmware.root = u32(v); }),
      uint_key("workload.fanout", 1, 1, 47, "children",
               "broadcast onesided: children per core in its tree (1: a pipelined chain)",
               [](RunConfig& c, V v) { c.firmware.fanout = u32(v); }),
      enum_key("workload.reduce_op", "sum", "reductions: the operator",
               [] { return std::vector<std::string>{"sum", "max", "min"}; },
               [](RunConfig& c, V v) { c.firmware.reduce_op = text(v); }),
      enum_key("workload.element_type", "int32", "reductions: what the elements are",
               [] { return std::vector<std::string>{"int32", "double"}; },
               [](RunConfig& c, V v) { c.firmware.element_type = text(v); }),
      uint_key("workload.repetitions", 1, 1, 1000000, "",
               "collective: runs of it (variance over them), back to back",
               [](RunConfig& c, V v) { c.firmware.repetitions = u32(v); }),
      uint_key("workload.start_skew_cycles", 0, 0, 100000000, "cycles",
               "collective: each core starts each run after a random delay in 0..this",
               [](RunConfig& c, V v) { c.firmware.start_skew_cycles = u64(v); }),
      enum_key("msg.protocol", "eager",
               "firmware: how messages travel: eager, rendezvous (RTS/CTS flow control), "
               "mpb (message-passing buffers, platform scc)",
               [] { return names_of(message_protocols()); },
               [](RunConfig& c, V v) { c.firmware.protocol.name = text(v); }),

      uint_key("sim.warmup_cycles", 1000, 0, kU64Max, "cycles",
               "synthetic: packets created before this are not measured",
               [](RunConfig& c, V v) { c.run.warmup_cycles = u64(v); }),
      uint_key("sim.measure_cycles", 10000, 1, kU64Max, "cycles",
               "synthetic: measurement window after the warm-up",
               [](RunConfig& c, V v) { c.run.measure_cycles = u64(v); }),
      uint_key("sim.max_cycles", 1000000, 1, kU64Max, "cycles",
               "hard stop, drain included (firmware not finished by then: timeout, exit 1)",
               [](RunConfig& c, V v) { c.run.max_cycles = u64(v); }),
      uint_key("sim.max_drain_cycles", 50000, 0, kU64Max, "cycles",
               "synthetic: after the window, stop waiting for measured packets after this "
               "(sim.completed = false: the load is past saturation)",
               [](RunConfig& c, V v) { c.run.max_drain_cycles = u64(v); }),
      uint_key("sim.watchdog_cycles", 20000, 1, kU64Max, "cycles",
               "no flit moved this long with flits in flight: deadlock",
               [](RunConfig& c, V v) { c.run.watchdog_cycles = u64(v); }),
      bool_key("sim.activity_driven", true,
               "idle blocks sleep until woken (results are identical either way)",
               [](RunConfig& c, V v) { c.platform.system.activity_driven = flag(v); }),
      uint_key("sim.threads", 0, 0, kMaxThreads, "",
               "threads that evaluate the routers of a busy cycle (identical results for any "
               "number); 0 = automatic: 2 if the machine has 2 or more cores, else 1",
               [](RunConfig& c, V v) { c.platform.system.threads = u32(v); }),
      enum_key("sim.waves", "auto",
               "synthetic traffic: evaluate the network in waves, a band of its rows several "
               "cycles ahead of the rows behind it, so that each row's state is fetched once for "
               "several cycles (identical results). auto: on one thread (sim.threads = 1, or a "
               "1-core machine) in networks of 512 routers or more; on: whenever the run allows; "
               "off: cycle by cycle",
               [] { return std::vector<std::string>{"auto", "on", "off"}; },
               [](RunConfig& c, V v) {
                 const std::string w = text(v);
                 c.platform.system.waves = w == "on" ? WaveMode::on
                                           : w == "off" ? WaveMode::off : WaveMode::automatic;
               }),
      real_key("sim.clock_period_ns", 1.0, 0.001, 1e6, false, "ns",
               "network clock period, one cycle (rounded to 1 ps)",
               [](RunConfig& c, V v) { c.platform.system.clock_period_ns = real(v); }),
      uint_key("sim.max_memory_mb", 0, 0, kU64Max, "MB",
               "refuse a run whose estimated memory is above this (collnoc run --check shows "
               "the estimate); 0 = 80 % of the machine's physical memory",
               [](RunConfig& c, V v) { c.max_memory_mb = u64(v); }),
      bool_key("sim.progress", true, "progress lines on stderr during long runs",
               [](RunConfig& c, V v) { c.run.progress = flag(v); }),
      uint_key("seed", 1, 0, kU64Max, "", "random seed of synthetic traffic and firmware data",
               [](RunConfig& c, V v) {
                 c.run.seed = u64(v);
                 c.firmware.seed = u64(v);
               }),
  };
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

bool parse_real(const std::string& s, double& out) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return false;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v)) return false;
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

// Shortest text that reads back as the same double; whole numbers without exponent or ".0".
std::string plain_number(double x) {
  char buf[40];
  if (x == std::trunc(x) && std::fabs(x) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", x);
    return buf;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  return buf;
}

std::string with_unit(const std::string& s, const KeySpec& k) {
  return k.unit.empty() ? s : s + " " + k.unit;
}

// "in 1..8": both bounds, even a 64-bit key's, so that a value too large to read is told what
// the largest is.
std::string uint_range(const KeySpec& k) {
  return "in " + std::to_string(k.uint_min) + ".." + std::to_string(k.uint_max);
}

std::string real_range(const KeySpec& k) {
  if (!k.real_bounded) return "";
  return std::string("in ") + (k.real_min_open ? "(" : "[") + plain_number(k.real_min) + ", " +
         plain_number(k.real_max) + "]";
}

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
  const std::string range = with_unit(uint_range(k), k);
  // Not an unsigned integer (or a list of them): what is, with the range of each. `element`: one
  // item of a list (or the single value a list key was given).
  auto not_uint = [&](const char* what, bool element) {
    return fail(std::string("must be ") + what + (element ? " (each " + range + ")" : " " + range));
  };
  auto check_uint = [&](const YAML::Node& n, const char* what, bool element) -> std::uint64_t {
    std::uint64_t v = 0;
    if (!n.IsScalar() || !parse_uint(n.Scalar(), v)) throw not_uint(what, element);
    if (v < k.uint_min || v > k.uint_max)
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
        throw fail(with_unit("must be a number" + (real.empty() ? "" : " " + real), k));
      const bool low_ok = k.real_min_open ? v > k.real_min : v >= k.real_min;
      if (k.real_bounded && !(low_ok && v <= k.real_max))
        throw fail(with_unit("must be " + real, k));
      return v;
    }
    case ValueType::bool_: {
      bool v = false;
      if (!node.IsScalar() || !parse_bool(node.Scalar(), v)) throw fail("must be true or false");
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
  // What firmware needs of the system it runs on.
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
  return rc;
}

MemoryEstimate estimate_run_memory(const RunConfig& rc) {
  WorkloadFootprint w;
  const std::uint64_t nodes = make_topology(platform_topology(rc.platform))->num_endpoints();
  if (rc.synthetic()) {
    const TrafficParams& t = rc.traffic;
    const double mean_flits = t.variable_length()
                                  ? (t.packet_flits_min + t.packet_flits_max) / 2.0
                                  : static_cast<double>(t.packet_flits);
    w.measured_packets = static_cast<std::uint64_t>(
        static_cast<double>(nodes) * t.injection_rate / mean_flits *
        static_cast<double>(std::min(rc.run.measure_cycles, rc.run.max_cycles)));
  } else {
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
  }
  return estimate_memory(rc.platform, w);
}

std::uint64_t memory_limit_mb(const RunConfig& rc) {
  return rc.max_memory_mb ? rc.max_memory_mb : automatic_memory_limit_mb();
}

void check_buildable(const RunConfig& rc) {
  const SystemParams& sys = rc.platform.system;
  const std::unique_ptr<Topology> topo = make_topology(platform_topology(rc.platform));
  validate(sys.router);
  validate(sys.ni);
  check_vc_realloc(sys.router, *make_routing(sys.routing, *topo, sys.router.vcs_per_class()),
                   sys.routing);
  const AllocatorShape shape{topo->radix(), sys.router.vcs};
  make_vc_allocator(sys.router.vc_allocator, shape);
  make_switch_allocator(sys.router.switch_allocator, shape);
  validate(sys.link, "link");
  validate(sys.ni_link, "ni_link");
  validate(rc.run);
  if (rc.synthetic()) {
    validate(rc.traffic, *topo);
    const bool variable = rc.traffic.variable_length();
    check_whole_packets(sys, variable ? rc.traffic.packet_flits_max : rc.traffic.packet_flits,
                        variable ? "traffic.packet_flits_max" : "traffic.packet_flits");
  } else {
    if (rc.firmware.protocol.name == "mpb" && rc.firmware.protocol.mpb_bytes == 0)
      throw ParamError("msg.protocol", "mpb",
                       "eager or rendezvous: mpb runs on the message-passing buffers of platform "
                       "scc (not " + rc.platform.name + ")");
    make_firmware(rc.workload_kind, rc.firmware, *topo);
    check_whole_packets(sys, sys.ni.max_packet_flits, "ni.max_packet_flits");
  }
  const MemoryEstimate memory = estimate_run_memory(rc);
  const std::uint64_t limit = memory_limit_mb(rc);
  if (memory.total_bytes() > (limit << 20))
    throw ParamError("sim.max_memory_mb", std::to_string(limit) + (rc.max_memory_mb ? "" : " (automatic)"),
                     "the configured run needs about " + memory.describe() +
                         "; shrink it or raise sim.max_memory_mb");
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
