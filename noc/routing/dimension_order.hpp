// Dimension-order routing (`dor`).
#pragma once
#include <cstdint>
#include <memory>

#include "noc/routing/routing.hpp"
#include "noc/topology/kary_ncube.hpp"
#include "noc/topology/topology.hpp"

namespace collnoc {

// Signed minimal offset along dimension `dim` from coordinate `from` to `to` (on a torus the
// shorter way round, + on ties, so routes are deterministic; on a unidirectional torus the +
// way, 0 .. k-1).
int minimal_offset(const KaryNCube& topo, unsigned dim, unsigned from, unsigned to);

// Dimension-order routing on meshes and tori (e-cube: dimension 0 first; or, with
// DimensionOrder::decreasing, the highest dimension first). On a torus the VCs of a class split
// into two halves around a dateline: the lower half while the packet has still to cross its
// dimension's wrap-around link, the upper half after (or if it never will).
class DimensionOrderRouting : public RoutingFunction {
 public:
  DimensionOrderRouting(const KaryNCube& topo, unsigned vcs_per_class,
                        DimensionOrder order = DimensionOrder::increasing);
  void route(const RouteRequest& req, RouteResult& out) const override;

  // The escape channel of `req` (shared with the adaptive routing).
  void escape(RouterId router, NodeId dst, unsigned vc_lo, unsigned vc_hi, RouteResult& out) const;

 private:
  const KaryNCube& topo_;
  unsigned vcs_;
  bool decreasing_;
};

}  // namespace collnoc
