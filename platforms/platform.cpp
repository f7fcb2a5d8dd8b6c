#include "platforms/platform.hpp"

#include "noc/hdn.hpp"

namespace collnoc {

namespace {

std::vector<unsigned> expand_k(const TopologyParams& p) {
  if (p.n < 1 || p.n > 8) throw ParamError("topology.n", std::to_string(p.n), "must be in 1..8");
  if (p.k.size() == 1) return std::vector<unsigned>(p.n, p.k[0]);
  if (p.k.size() != p.n)
    throw ParamError("topology.k", std::to_string(p.k.size()) + " values",
                     "give one k, or one per dimension (topology.n = " + std::to_string(p.n) + ")");
  return p.k;
}

}  // namespace

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
      {"kary_ncube", "mesh or torus of routers, one NI (and core) per router",
       [](const PlatformParams& p) {
         if (p.topology.kind != "mesh" && p.topology.kind != "torus")
           throw ParamError("topology.kind", p.topology.kind,
                            "platform kary_ncube needs mesh or torus (irregular graphs: "
                            "platform = irregular)");
         return std::make_unique<NocSystem>("system", make_topology(p.topology), p.system);
       }},
      {"irregular", "irregular graph of routers (topology.kind = random), one NI and core each",
       [](const PlatformParams& p) {
         if (p.topology.kind != "random")
           throw ParamError("topology.kind", p.topology.kind, "platform irregular needs random");
         return std::make_unique<NocSystem>("system", make_topology(p.topology), p.system);
       }},
      {"hdn", "hierarchical dual-net HDN(B,k,S) (topology.kind = hdn, hdn.*), one NI and core each",
       [](const PlatformParams& p) {
         if (p.topology.kind != "hdn")
           throw ParamError("topology.kind", p.topology.kind, "platform hdn needs hdn");
         return std::make_unique<NocSystem>("system", make_topology(p.topology), p.system);
       }},
  };
  return table;
}

std::unique_ptr<NocSystem> make_platform(const PlatformParams& p) {
  return lookup(platforms(), p.name, "platform").make(p);
}

}  // namespace collnoc
