#include "platforms/platform.hpp"

#include <algorithm>

#include "noc/topology/hdn.hpp"
#include "platforms/tilepro.hpp"
#include "noc/topology/kary_ncube.hpp"
#include "noc/topology/random_regular.hpp"

namespace collnoc {

namespace {

constexpr unsigned kSccBufferBytes = 8192;

// topology.k as it was given: "8", or "[8, 4]" with one per dimension.
std::string k_text(const std::vector<unsigned>& k) {
  if (k.size() == 1) return std::to_string(k[0]);
  std::string s;
  for (unsigned e : k) s += (s.empty() ? "[" : ", ") + std::to_string(e);
  return s + "]";
}

std::vector<unsigned> expand_k(const TopologyParams& p) {
  check_range("topology.n", p.n, TopologyParams::n_range);
  if (p.k.size() == 1) return std::vector<unsigned>(p.n, p.k[0]);
  if (p.k.size() != p.n)
    throw ParamError("topology.k", k_text(p.k),
                     "give one k, or one per dimension (topology.n = " + std::to_string(p.n) + ")");
  return p.k;
}

// The fixed chip's topology: topology.* must be left at its defaults (they describe nothing
// here).
TopologyParams fixed_chip(const PlatformParams& p, const PlatformEntry& chip) {
  const TopologyParams untouched;
  std::string shape;
  for (unsigned k : chip.chip_k) shape += (shape.empty() ? "" : "x") + std::to_string(k);
  const std::string why = std::string("platform ") + p.name + " is a fixed " + shape +
                          " mesh chip: leave topology.* at its defaults";
  if (p.topology.kind != untouched.kind) throw ParamError("topology.kind", p.topology.kind, why);
  if (p.topology.k != untouched.k)
    throw ParamError("topology.k", k_text(p.topology.k), why);
  if (p.topology.n != untouched.n) throw ParamError("topology.n", std::to_string(p.topology.n), why);
  TopologyParams t;
  t.kind = "mesh";
  t.k = chip.chip_k;
  t.n = static_cast<unsigned>(chip.chip_k.size());
  t.endpoints_per_router = chip.chip_cores_per_router;
  return t;
}

// TilePro-like chip: 8x8 mesh without wrap-around, 700 MHz; dynamic network (UDN) with X-then-Y
// dimension-order wormhole routing, udn.hop_latency_cycles per hop; static network (SN).
std::unique_ptr<NocSystem> make_tilepro(const PlatformParams& p) {
  SystemParams sys = p.system;
  sys.routing = "dor";
  sys.routing_params = RoutingParams{};  // X then Y
  sys.router.switching = Switching::wormhole;
  sys.router.hop_latency_cycles = p.udn_hop_latency_cycles;
  sys.clock_period_ns = 1000.0 / 700.0;
  check_range("udn.hop_latency_cycles", p.udn_hop_latency_cycles,
              PlatformParams::udn_hop_latency_cycles_range);
  return std::make_unique<TileProSystem>(p.instance.c_str(), make_topology(platform_topology(p)),
                                         sys, p.sn);
}

// SCC-like chip: 6x4 mesh of routers, two cores per router (each on a local port of its own;
// they contend for the router), X-then-Y routing, an 8 KB message-passing buffer per core
// (16 KB per tile, 384 KB in all) reached by put / get, mesh clock 1066 MHz.
std::unique_ptr<NocSystem> make_scc(const PlatformParams& p) {
  SystemParams sys = p.system;
  sys.routing = "dor";
  sys.routing_params = RoutingParams{};  // X then Y
  sys.ni.mpb_bytes = platform_mpb_bytes(p);
  sys.clock_period_ns = 1000.0 / 1066.0;
  return std::make_unique<NocSystem>(p.instance.c_str(), make_topology(platform_topology(p)), sys);
}

// A platform of free shape (kary_ncube, irregular, hdn): a router, NI and core per node of
// topology.*.
std::unique_ptr<NocSystem> make_free_shape(const PlatformParams& p) {
  return std::make_unique<NocSystem>(p.instance.c_str(), make_topology(platform_topology(p)),
                                     p.system);
}

}  // namespace

static_assert(TopologyParams::hdn_levels_range.max == static_cast<std::uint64_t>(HdnSpec::kMaxLevels));

void validate(const TopologyParams& p) {
  for (unsigned k : p.k) check_range("topology.k", k, TopologyParams::k_range);
  check_range("topology.n", p.n, TopologyParams::n_range);
  check_range("topology.directions", p.directions, TopologyParams::directions_range);
  if (p.directions == 1 && p.kind != "torus" && p.kind != "mesh")  // (KaryNCube words a mesh's)
    throw ParamError("topology.directions", "1",
                     "one-way links only on a torus (topology.kind = " + p.kind + ")");
  check_range("topology.nodes", p.nodes, TopologyParams::nodes_range);
  check_range("topology.degree", p.degree, TopologyParams::degree_range);
  check_range("hdn.levels", p.hdn_levels, TopologyParams::hdn_levels_range);
}

void validate(const PlatformParams& p) {
  validate(p.topology);
  check_range("udn.hop_latency_cycles", p.udn_hop_latency_cycles,
              PlatformParams::udn_hop_latency_cycles_range);
  validate(p.sn);
  validate(p.system);
}

std::uint64_t topology_routers(const TopologyParams& t) {
  if (t.kind == "mesh" || t.kind == "torus") {
    std::uint64_t routers = 1;
    for (unsigned k : expand_k(t)) {
      routers *= k;
      // Beyond the k-ary n-cube's own limit its constructor refuses it, before wiring.
      if (routers > kMaxKaryNCubeRouters) return make_topology(t)->num_routers();
    }
    return routers;
  }
  if (t.kind == "random") return t.nodes;
  if (t.kind == "hdn") {
    const HdnProperties h = hdn_properties(HdnSpec::parse(t.hdn_base, t.hdn_levels, t.hdn_supernodes));
    // Beyond the HDN build limit its constructor refuses it, before building.
    if (!h.nodes || *h.nodes > HdnTopology::kMaxBuildNodes) return make_topology(t)->num_routers();
    return *h.nodes;
  }
  return make_topology(t)->num_routers();
}

TopologyParams platform_topology(const PlatformParams& p) {
  const PlatformEntry& entry = platform_entry(p.name);
  if (!entry.chip_k.empty()) return fixed_chip(p, entry);
  const std::string& kind = p.topology.kind;
  const std::vector<std::string>& kinds = entry.topology_kinds;
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
    std::string allowed;
    for (const std::string& k : kinds) allowed += (allowed.empty() ? "" : " or ") + k;
    std::string elsewhere;  // the platform that is built on this kind, if one is
    for (const PlatformEntry& other : platforms())
      for (const std::string& k : other.topology_kinds)
        if (k == kind) elsewhere = " (" + kind + ": platform = " + other.name + ")";
    throw ParamError("topology.kind", kind, "platform " + p.name + " needs " + allowed + elsewhere);
  }
  return p.topology;
}

unsigned platform_mpb_bytes(const PlatformParams& p) {
  const unsigned chip = platform_entry(p.name).mpb_bytes;
  return chip ? chip : p.system.ni.mpb_bytes;
}

std::string default_application_grid(const std::string& platform) {
  return platform_entry(platform).default_grid;
}

const std::vector<TopologyEntry>& topologies() {
  static const std::vector<TopologyEntry> table = {
      {"mesh", "k-ary n-mesh (k may differ per dimension), no wrap-around links",
       [](const TopologyParams& p) {
         return std::make_unique<KaryNCube>(expand_k(p), false, p.endpoints_per_router,
                                            p.directions);
       }},
      {"torus", "k-ary n-cube with wrap-around links (k may differ per dimension)",
       [](const TopologyParams& p) {
         return std::make_unique<KaryNCube>(expand_k(p), true, p.endpoints_per_router,
                                            p.directions);
       }},
      {"random", "connected random regular graph (topology.nodes, topology.degree, topology.seed)",
       [](const TopologyParams& p) {
         return std::make_unique<RandomRegularGraph>(p.nodes, p.degree, p.seed,
                                                     p.endpoints_per_router);
       }},
      {"hdn", "hierarchical dual-net HDN(B, k, S) (hdn.base, hdn.levels, hdn.supernodes)",
       [](const TopologyParams& p) {
         return std::make_unique<HdnTopology>(
             HdnSpec::parse(p.hdn_base, p.hdn_levels, p.hdn_supernodes), p.endpoints_per_router);
       }},
  };
  return table;
}

std::unique_ptr<Topology> make_topology(const TopologyParams& p) {
  return lookup(topologies(), p.kind, "topology.kind").make(p);
}

const std::vector<PlatformEntry>& platforms() {
  static const std::vector<PlatformEntry> table = [] {
    std::vector<PlatformEntry> t;
    PlatformEntry e{"kary_ncube", "mesh or torus of routers, one NI (and core) per router",
                    make_free_shape};
    e.topology_kinds = {"mesh", "torus"};
    t.push_back(e);
    e = {"irregular", "irregular graph of routers (topology.kind = random), one NI and core each",
         make_free_shape};
    e.topology_kinds = {"random"};
    t.push_back(e);
    e = {"hdn", "hierarchical dual-net HDN(B,k,S) (topology.kind = hdn, hdn.*), one NI and core each",
         make_free_shape};
    e.topology_kinds = {"hdn"};
    t.push_back(e);
    e = {"tilepro", "TilePro-like 8x8 mesh of tiles at 700 MHz; dynamic network UDN (DOR wormhole, "
                    "udn.hop_latency_cycles per hop); applications on workload.grid (7x7)",
         make_tilepro};
    e.chip_k = {8, 8};
    e.default_grid = "7x7";
    e.static_network = true;
    e.mpi_software = "ilib_mpi";
    e.cache_resident_bytes = 64 * 1024;  // L2 per tile
    t.push_back(e);
    e = {"scc", "SCC-like 6x4 mesh, 2 cores per router, 8 KB message-passing buffer per core "
                "(put / get), 1066 MHz",
         make_scc};
    e.chip_k = {6, 4};
    e.chip_cores_per_router = 2;
    e.mpb_bytes = kSccBufferBytes;
    e.mpi_software = "rckmpi";
    e.cache_resident_bytes = 256 * 1024;  // L2 per core
    t.push_back(e);
    return t;
  }();
  return table;
}

const PlatformEntry& platform_entry(const std::string& name) {
  return lookup(platforms(), name, "platform");
}

std::unique_ptr<NocSystem> make_platform(const PlatformParams& p) {
  return platform_entry(p.name).make(p);
}

}  // namespace collnoc
