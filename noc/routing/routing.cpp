#include "noc/routing/routing.hpp"

#include "noc/routing/adaptive.hpp"
#include "noc/routing/dimension_order.hpp"
#include "noc/routing/hdn.hpp"
#include "noc/routing/updown.hpp"
#include "noc/topology/kary_ncube.hpp"


namespace collnoc {

const KaryNCube& require_kary_ncube(const Topology& topo, const char* name) {
  const auto* cube = dynamic_cast<const KaryNCube*>(&topo);
  if (!cube)
    throw ParamError("routing.algorithm", name,
                     "needs a mesh or torus topology, not " + topo.kind());
  return *cube;
}

const std::vector<RoutingEntry>& routing_functions() {
  static const std::vector<RoutingEntry> table = {
      {"dor", "dimension-order (XY / e-cube) for meshes and tori; dateline VCs on tori",
       [](const Topology& t, unsigned vcs) {
         return std::make_unique<DimensionOrderRouting>(require_kary_ncube(t, "dor"), vcs);
       }},
      {"adaptive", "Duato minimal adaptive with dimension-order escape VCs (meshes and tori)",
       [](const Topology& t, unsigned vcs) {
         return std::make_unique<MinimalAdaptiveRouting>(require_kary_ncube(t, "adaptive"), vcs);
       }},
      {"updown", "Up*/Down* on a BFS spanning tree (any connected topology, 1 VC suffices)",
       [](const Topology& t, unsigned vcs) { return std::make_unique<UpDownRouting>(t, vcs); }},
      {"hdn", "recursive hierarchical dual-net routing (SPEC 4.2), VCs per level and phase",
       HdnRouting::make},
  };
  return table;
}

std::unique_ptr<RoutingFunction> make_routing(const std::string& name, const Topology& topo,
                                              unsigned vcs_per_class) {
  return lookup(routing_functions(), name, "routing.algorithm").make(topo, vcs_per_class);
}

}  // namespace collnoc
