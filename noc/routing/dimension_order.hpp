// Dimension-order routing (`dor`).
#pragma once
#include <cstdint>
#include <memory>

#include "noc/random.hpp"
#include "noc/routing/routing.hpp"
#include "noc/topology/kary_ncube.hpp"
#include "noc/topology/topology.hpp"

namespace collnoc {

// Signed minimal offset along dimension `dim` from coordinate `from` to `to` (on a torus the
// shorter way round; on ties, k/2 away, + unless `tie_minus`; on a unidirectional torus the +
// way, 0 .. k-1).
int minimal_offset(const KaryNCube& topo, unsigned dim, unsigned from, unsigned to,
                   bool tie_minus = false);
// routing.torus_ties = balanced: whether packet `packet` goes - at a tie in dimension `dim`
// (a bit of a hash of its id: half the packets each way, the same at every router).
inline bool balanced_tie_minus(PacketId packet, unsigned dim) {
  return (hash64(packet, 0x746965u) >> (dim % 64)) & 1u;
}

// Dimension-order routing on meshes and tori (e-cube: dimension 0 first; or, with
// DimensionOrder::decreasing, the highest dimension first). On a torus the VCs of a class split
// into two halves around a dateline: the lower half while the packet has still to cross its
// dimension's wrap-around link, the upper half after (or if it never will).
class DimensionOrderRouting : public RoutingFunction {
 public:
  DimensionOrderRouting(const KaryNCube& topo, unsigned vcs_per_class,
                        DimensionOrder order = DimensionOrder::increasing,
                        TorusTies ties = TorusTies::balanced);
  void route(const RouteRequest& req, RouteResult& out) const override;

  // The escape channel of packet `packet` (shared with the adaptive routing).
  void escape(RouterId router, NodeId dst, PacketId packet, unsigned vc_lo, unsigned vc_hi,
              RouteResult& out) const;
  // One hop of dimension-order routing from `router` toward router `target` (!= router), on
  // the VCs [vc_lo, vc_hi) (split around the dateline on a torus).
  void step(RouterId router, RouterId target, PacketId packet, unsigned vc_lo, unsigned vc_hi,
            RouteResult& out) const;
  // Its minimal offset in dimension `d` (routing.torus_ties at a tie).
  int offset(unsigned d, unsigned from, unsigned to, PacketId packet) const {
    return minimal_offset(topo_, d, from, to, balanced_ && balanced_tie_minus(packet, d));
  }

 private:
  const KaryNCube& topo_;
  unsigned vcs_;
  bool decreasing_;
  bool balanced_;
};

}  // namespace collnoc
