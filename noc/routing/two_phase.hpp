// Two-phase routing through an intermediate router (`valiant`, `romm`).
#pragma once
#include <cstdint>

#include "noc/routing/dimension_order.hpp"
#include "noc/routing/routing.hpp"
#include "noc/topology/kary_ncube.hpp"

namespace collnoc {

// A packet goes by dimension order to an intermediate router, then by dimension order to its
// destination. Phase 0 takes the lower half of its class's VCs, phase 1 the upper half, so
// each phase is dimension-order routing on VCs of its own and phase 0 only ever waits on
// phase 1: the channel graph stays acyclic (on a torus each half splits again at the dateline).
// The phase is read from the flit, not stored: a head that arrived on an upper-half VC, or is
// at its intermediate router, is in phase 1.
//   valiant  the intermediate is any router, uniformly (Valiant and Brebner): every pattern
//            becomes two uniform ones, so adversarial permutations lose their hot spots at the
//            cost of twice the mean path length
//   romm     the intermediate is uniform in the minimal box of source and destination, each
//            coordinate on its own (Nesson and Johnsson's two-phase ROMM): minimal paths, spread
//            over the box
// The choice is a hash of the packet's id (the same at every router; deterministic per run).
enum class TwoPhaseKind : std::uint8_t { valiant, romm };

class TwoPhaseRouting : public RoutingFunction {
 public:
  // Refuses fewer than 2 VCs per class (4 on a torus) and unidirectional tori.
  TwoPhaseRouting(const KaryNCube& topo, unsigned vcs_per_class, TwoPhaseKind kind,
                  const char* name, DimensionOrder order = DimensionOrder::increasing,
                  TorusTies ties = TorusTies::balanced);
  void route(const RouteRequest& req, RouteResult& out) const override;
  // The intermediate router of the packet with this header.
  RouterId intermediate(const PacketHeader& hdr) const;

 private:
  const KaryNCube& topo_;
  DimensionOrderRouting dor_;
  unsigned vcs_;
  TwoPhaseKind kind_;
};

}  // namespace collnoc
