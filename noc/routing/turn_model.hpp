// Turn-model routing on meshes (`west_first`, `north_last`, `negative_first`, `odd_even`).
#pragma once
#include <cstdint>

#include "noc/routing/routing.hpp"
#include "noc/topology/kary_ncube.hpp"

namespace collnoc {

// Minimal, partially adaptive routing on a mesh that forbids just enough turns to break every
// cycle of the channel dependency graph, so it is deadlock-free on any number of VCs (all of
// a class may be taken, and a VC may be reallocated at the tail). Dimension 0 is x (east = +,
// west = -), dimension 1 is y (north = +, south = -).
//   west_first      (Glass and Ni) all west hops first; then east, north and south adaptively
//   north_last      (Glass and Ni) north hops last; before them east, west and south adaptively
//   negative_first  (Glass and Ni) all - hops first (adaptively), then all + hops; any n
//   odd_even        (Chiu) no east-to-north/south turn in even columns and no north/south-to-
//                   west turn in odd columns: adaptive in more places than the three above,
//                   and evenly so
// Candidates are the allowed productive ports, the one with the most hops left first (ties:
// the lower dimension).
enum class TurnModel : std::uint8_t { west_first, north_last, negative_first, odd_even };

class TurnModelRouting : public RoutingFunction {
 public:
  // Refuses (ParamError naming routing.algorithm) a torus, and a mesh of other than 2
  // dimensions for all but negative_first.
  TurnModelRouting(const KaryNCube& topo, unsigned vcs_per_class, TurnModel model,
                   const char* name);
  void route(const RouteRequest& req, RouteResult& out) const override;
  bool offers_alternatives() const override { return true; }

 private:
  const KaryNCube& topo_;
  unsigned vcs_;
  TurnModel model_;
};

}  // namespace collnoc
