#include "noc/routing/routing.hpp"

#include "noc/routing/adaptive.hpp"
#include "noc/routing/dimension_order.hpp"
#include "noc/routing/hdn.hpp"
#include "noc/routing/table.hpp"
#include "noc/routing/turn_model.hpp"
#include "noc/routing/two_phase.hpp"
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

const char* to_string(DimensionOrder o) {
  switch (o) {
    case DimensionOrder::increasing: return "increasing";
    case DimensionOrder::decreasing: return "decreasing";
  }
  return "?";
}

const std::vector<DimensionOrder>& dimension_orders() {
  static const std::vector<DimensionOrder> orders{DimensionOrder::increasing,
                                                  DimensionOrder::decreasing};
  return orders;
}

const char* to_string(TorusTies t) {
  return t == TorusTies::balanced ? "balanced" : "positive";
}

const std::vector<TorusTies>& torus_ties_values() {
  static const std::vector<TorusTies> values{TorusTies::balanced, TorusTies::positive};
  return values;
}

namespace {

// Routing functions that take no dimensions in order refuse an order other than the default.
void refuse_dimension_order(const RoutingParams& p, const char* name) {
  if (p.dimension_order != DimensionOrder::increasing)
    throw ParamError("routing.dimension_order", to_string(p.dimension_order),
                     std::string("applies to routing.algorithm = dor, adaptive, valiant or "
                                 "romm only, not ") +
                         name + "; leave it at increasing");
}

std::unique_ptr<RoutingFunction> turn_model(const Topology& t, unsigned vcs,
                                            const RoutingParams& p, TurnModel model,
                                            const char* name) {
  refuse_dimension_order(p, name);
  return std::make_unique<TurnModelRouting>(require_kary_ncube(t, name), vcs, model, name);
}

}  // namespace

const std::vector<RoutingEntry>& routing_functions() {
  static const std::vector<RoutingEntry> table = {
      {"dor", "dimension-order (XY / e-cube) for meshes and tori; dateline VCs on tori",
       [](const Topology& t, unsigned vcs, const RoutingParams& p) {
         return std::make_unique<DimensionOrderRouting>(require_kary_ncube(t, "dor"), vcs,
                                                        p.dimension_order, p.torus_ties);
       }},
      {"adaptive", "Duato minimal adaptive with dimension-order escape VCs (meshes and tori)",
       [](const Topology& t, unsigned vcs, const RoutingParams& p) {
         return std::make_unique<MinimalAdaptiveRouting>(require_kary_ncube(t, "adaptive"), vcs,
                                                         p.dimension_order, p.torus_ties);
       }},
      {"west_first", "turn model (Glass and Ni), 2-D meshes: west hops first, then adaptive",
       [](const Topology& t, unsigned vcs, const RoutingParams& p) {
         return turn_model(t, vcs, p, TurnModel::west_first, "west_first");
       }},
      {"north_last", "turn model (Glass and Ni), 2-D meshes: adaptive, north hops last",
       [](const Topology& t, unsigned vcs, const RoutingParams& p) {
         return turn_model(t, vcs, p, TurnModel::north_last, "north_last");
       }},
      {"negative_first", "turn model (Glass and Ni), meshes: - hops first, then + hops, each "
                         "adaptively",
       [](const Topology& t, unsigned vcs, const RoutingParams& p) {
         return turn_model(t, vcs, p, TurnModel::negative_first, "negative_first");
       }},
      {"odd_even", "odd-even turn model (Chiu), 2-D meshes: minimal, adaptive, no VCs needed",
       [](const Topology& t, unsigned vcs, const RoutingParams& p) {
         return turn_model(t, vcs, p, TurnModel::odd_even, "odd_even");
       }},
      {"valiant", "Valiant: dimension order to a random router, then to the destination "
                  "(meshes >= 2 VCs, tori >= 4)",
       [](const Topology& t, unsigned vcs, const RoutingParams& p) {
         return std::make_unique<TwoPhaseRouting>(require_kary_ncube(t, "valiant"), vcs,
                                                  TwoPhaseKind::valiant, "valiant",
                                                  p.dimension_order, p.torus_ties);
       }},
      {"romm", "two-phase ROMM: dimension order to a random router of the minimal box, then "
               "on (meshes >= 2 VCs, tori >= 4)",
       [](const Topology& t, unsigned vcs, const RoutingParams& p) {
         return std::make_unique<TwoPhaseRouting>(require_kary_ncube(t, "romm"), vcs,
                                                  TwoPhaseKind::romm, "romm", p.dimension_order,
                                                  p.torus_ties);
       }},
      {"table", "table-driven: per router and destination, the ports of routing.table (any "
                "topology; acyclic channel graph, or an escape sub-network meeting Duato's condition)",
       [](const Topology& t, unsigned vcs, const RoutingParams& p) {
         refuse_dimension_order(p, "table");
         return std::make_unique<TableRouting>(t, vcs, p.table);
       }},
      {"updown", "Up*/Down* on a BFS spanning tree (any connected topology, 1 VC suffices)",
       [](const Topology& t, unsigned vcs, const RoutingParams& p) {
         refuse_dimension_order(p, "updown");
         return std::make_unique<UpDownRouting>(t, vcs);
       }},
      {"hdn", "recursive hierarchical dual-net routing (SPEC 4.2), VCs per level and phase",
       [](const Topology& t, unsigned vcs, const RoutingParams& p) {
         refuse_dimension_order(p, "hdn");
         return HdnRouting::make(t, vcs);
       }},
  };
  return table;
}

std::unique_ptr<RoutingFunction> make_routing(const std::string& name, const Topology& topo,
                                              unsigned vcs_per_class,
                                              const RoutingParams& params) {
  const RoutingEntry& entry = lookup(routing_functions(), name, "routing.algorithm");
  if (!params.table.empty() && name != "table")
    throw ParamError("routing.table", params.table,
                     "is read by routing.algorithm = table only, not " + name);
  std::unique_ptr<RoutingFunction> rf = entry.make(topo, vcs_per_class, params);
  if (std::unique_ptr<SelectionStrategy> selection = make_selection(params.selection)) {
    if (!rf->offers_alternatives())
      throw ParamError("routing.selection", params.selection,
                       "chooses among adaptive alternatives, which routing.algorithm = " + name +
                           " does not offer (adaptive, west_first, north_last, negative_first, "
                           "odd_even and table do); leave it at first_free");
    rf->set_selection(std::move(selection));
  }
  return rf;
}

}  // namespace collnoc
