#include "platforms/platform.hpp"

#include "noc/hdn.hpp"
#include "platforms/tilepro.hpp"

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
  if (p.n < 1 || p.n > 8) throw ParamError("topology.n", std::to_string(p.n), "must be in 1..8");
  if (p.k.size() == 1) return std::vector<unsigned>(p.n, p.k[0]);
  if (p.k.size() != p.n)
    throw ParamError("topology.k", k_text(p.k),
                     "give one k, or one per dimension (topology.n = " + std::to_string(p.n) + ")");
  return p.k;
}

// A chip of fixed shape: topology.* must be left at its defaults (they describe nothing here).
TopologyParams fixed_chip(const PlatformParams& p, const char* shape, std::vector<unsigned> k,
                          unsigned endpoints_per_router) {
  const TopologyParams untouched;
  const std::string why = std::string("platform ") + p.name + " is a fixed " + shape +
                          " chip: leave topology.* at its defaults";
  if (p.topology.kind != untouched.kind) throw ParamError("topology.kind", p.topology.kind, why);
  if (p.topology.k != untouched.k)
    throw ParamError("topology.k", k_text(p.topology.k), why);
  if (p.topology.n != untouched.n) throw ParamError("topology.n", std::to_string(p.topology.n), why);
  TopologyParams t;
  t.kind = "mesh";
  t.k = std::move(k);
  t.n = 2;
  t.endpoints_per_router = endpoints_per_router;
  return t;
}

// TilePro-like chip: 8x8 mesh without wrap-around, 700 MHz; dynamic network (UDN) with X-then-Y
// dimension-order wormhole routing, udn.hop_latency_cycles per hop; static network (SN).
std::unique_ptr<NocSystem> make_tilepro(const PlatformParams& p) {
  SystemParams sys = p.system;
  sys.routing = "dor";
  sys.router.switching = Switching::wormhole;
  sys.router.hop_latency_cycles = p.udn_hop_latency_cycles;
  sys.clock_period_ns = 1000.0 / 700.0;
  if (p.udn_hop_latency_cycles < 1 || p.udn_hop_latency_cycles > 1000)
    throw ParamError("udn.hop_latency_cycles", std::to_string(p.udn_hop_latency_cycles),
                     "must be in 1..1000");
  return std::make_unique<TileProSystem>(p.instance.c_str(), make_topology(platform_topology(p)),
                                         sys, p.sn);
}

// SCC-like chip: 6x4 mesh of routers, two cores per router (each on a local port of its own;
// they contend for the router), X-then-Y routing, an 8 KB message-passing buffer per core
// (16 KB per tile, 384 KB in all) reached by put / get, mesh clock 1066 MHz.
std::unique_ptr<NocSystem> make_scc(const PlatformParams& p) {
  SystemParams sys = p.system;
  sys.routing = "dor";
  sys.ni.mpb_bytes = kSccBufferBytes;
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

TopologyParams platform_topology(const PlatformParams& p) {
  if (p.name == "tilepro") return fixed_chip(p, "8x8 mesh", {8, 8}, 1);
  if (p.name == "scc") return fixed_chip(p, "6x4 mesh", {6, 4}, 2);
  const std::string& kind = p.topology.kind;
  if (p.name == "kary_ncube" && kind != "mesh" && kind != "torus")
    throw ParamError("topology.kind", kind,
                     "platform kary_ncube needs mesh or torus (irregular graphs: platform = "
                     "irregular)");
  if (p.name == "irregular" && kind != "random")
    throw ParamError("topology.kind", kind, "platform irregular needs random");
  if (p.name == "hdn" && kind != "hdn")
    throw ParamError("topology.kind", kind, "platform hdn needs hdn");
  return p.topology;
}

unsigned platform_mpb_bytes(const PlatformParams& p) {
  return p.name == "scc" ? kSccBufferBytes : p.system.ni.mpb_bytes;
}

std::string default_application_grid(const std::string& platform) {
  return platform == "tilepro" ? "7x7" : "";
}

const std::vector<TopologyEntry>& topologies() {
  static const std::vector<TopologyEntry> table = {
      {"mesh", "k-ary n-mesh (k may differ per dimension), no wrap-around links",
       [](const TopologyParams& p) {
         return std::make_unique<KaryNCube>(expand_k(p), false, p.endpoints_per_router);
       }},
      {"torus", "k-ary n-cube with wrap-around links (k may differ per dimension)",
       [](const TopologyParams& p) {
         return std::make_unique<KaryNCube>(expand_k(p), true, p.endpoints_per_router);
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
  static const std::vector<PlatformEntry> table = {
      {"kary_ncube", "mesh or torus of routers, one NI (and core) per router", make_free_shape},
      {"irregular", "irregular graph of routers (topology.kind = random), one NI and core each",
       make_free_shape},
      {"hdn", "hierarchical dual-net HDN(B,k,S) (topology.kind = hdn, hdn.*), one NI and core each",
       make_free_shape},
      {"tilepro", "TilePro-like 8x8 mesh of tiles at 700 MHz; dynamic network UDN (DOR wormhole, "
                  "udn.hop_latency_cycles per hop); applications on workload.grid (7x7)",
       make_tilepro},
      {"scc", "SCC-like 6x4 mesh, 2 cores per router, 8 KB message-passing buffer per core "
              "(put / get), 1066 MHz",
       make_scc},
  };
  return table;
}

std::unique_ptr<NocSystem> make_platform(const PlatformParams& p) {
  return lookup(platforms(), p.name, "platform").make(p);
}

}  // namespace collnoc
