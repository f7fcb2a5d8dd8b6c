#include "noc/routing/turn_model.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>
#include <utility>

namespace collnoc {

TurnModelRouting::TurnModelRouting(const KaryNCube& topo, unsigned vcs_per_class,
                                   TurnModel model, const char* name)
    : topo_(topo), vcs_(vcs_per_class), model_(model) {
  if (topo.torus())
    throw ParamError("routing.algorithm", name,
                     "is a turn model for meshes; on a torus the wrap-around links close cycles "
                     "that forbidden turns cannot break (use dor or adaptive)");
  if (model != TurnModel::negative_first && topo.dimensions() != 2)
    throw ParamError("routing.algorithm", name,
                     "needs a 2-D mesh (x = dimension 0, y = dimension 1), not " +
                         std::to_string(topo.dimensions()) +
                         "-D; negative_first works in any number of dimensions");
}

void TurnModelRouting::route(const RouteRequest& req, RouteResult& out) const {
  const RouterId target = topo_.router_of(req.dst);
  if (target == req.router) {
    out.add(topo_.local_port_of(req.dst), 0, vcs_);
    return;
  }
  // Signed hops left per dimension (a mesh: at most 16 dimensions are routed here).
  const unsigned dims = topo_.dimensions();
  std::array<int, 16> off{};
  for (unsigned d = 0; d < dims && d < off.size(); ++d)
    off[d] = static_cast<int>(topo_.coord(target, d)) - static_cast<int>(topo_.coord(req.router, d));
  // allowed[d]: the productive hop of dimension d is allowed now.
  std::array<bool, 16> allowed{};
  for (unsigned d = 0; d < dims && d < off.size(); ++d) allowed[d] = off[d] != 0;
  const int dx = off[0], dy = off[1];
  switch (model_) {
    case TurnModel::west_first:  // west before anything else
      if (dx < 0) allowed[1] = false;
      break;
    case TurnModel::north_last:  // north only when nothing else is left
      if (dy > 0 && dx != 0) allowed[1] = false;
      break;
    case TurnModel::negative_first: {  // every - hop before any + hop
      const bool negative_left = std::any_of(off.begin(), off.begin() + dims,
                                             [](int o) { return o < 0; });
      if (negative_left)
        for (unsigned d = 0; d < dims; ++d) allowed[d] = off[d] < 0;
      break;
    }
    case TurnModel::odd_even: {  // Chiu's ROUTE: c = here, s = source column, d = destination
      const unsigned cx = topo_.coord(req.router, 0), tx = topo_.coord(target, 0);
      const unsigned sx = topo_.coord(topo_.router_of(req.hdr.src), 0);
      if (dx > 0 && dy != 0) {
        // North/south now would be an east-to-north/south turn unless here is an odd column
        // (or the source: no turn). East now must not leave the last turn to an even column.
        allowed[1] = cx % 2 == 1 || cx == sx;
        allowed[0] = tx % 2 == 1 || dx != 1;
      } else if (dx < 0 && dy != 0) {
        allowed[1] = cx % 2 == 0;  // a later turn to west happens in an even column
      }
      break;
    }
  }
  std::array<std::pair<int, unsigned>, 16> dirs{};
  unsigned n = 0;
  for (unsigned d = 0; d < dims && d < off.size(); ++d)
    if (allowed[d]) dirs[n++] = {std::abs(off[d]), topo_.port_toward(d, off[d])};
  std::stable_sort(dirs.begin(), dirs.begin() + n,
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (unsigned i = 0; i < n; ++i) out.add(dirs[i].second, 0, vcs_);
  if (selection()) out.set_alternatives(n);  // (else the order above stands)
}

}  // namespace collnoc
