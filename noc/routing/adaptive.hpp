// Duato-style minimal adaptive routing (`adaptive`).
#pragma once
#include <cstdint>
#include <memory>

#include "noc/routing/dimension_order.hpp"
#include "noc/routing/routing.hpp"
#include "noc/topology/kary_ncube.hpp"
#include "noc/topology/topology.hpp"

namespace collnoc {

// Duato-style minimal adaptive routing: the first `escape` VCs of a class form a deadlock-free
// dimension-order escape network (1 VC on a mesh, 2 on a torus); the rest are adaptive and may
// take any productive direction. Candidates: productive adaptive ports first (the one with the
// most hops left in its dimension first; ties in the escape network's dimension order), then the
// escape channel. `order` is the escape network's dimension order.
class MinimalAdaptiveRouting : public RoutingFunction {
 public:
  MinimalAdaptiveRouting(const KaryNCube& topo, unsigned vcs_per_class,
                         DimensionOrder order = DimensionOrder::increasing,
                         TorusTies ties = TorusTies::balanced);
  void route(const RouteRequest& req, RouteResult& out) const override;
  std::uint32_t adaptive_vcs() const override;
  bool offers_alternatives() const override { return true; }

 private:
  const KaryNCube& topo_;
  DimensionOrderRouting dor_;
  unsigned vcs_;
  unsigned escape_vcs_;
  bool decreasing_;
};

}  // namespace collnoc
