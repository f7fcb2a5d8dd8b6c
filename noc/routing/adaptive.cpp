#include "noc/routing/adaptive.hpp"
#include "noc/topology/kary_ncube.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <utility>

namespace collnoc {

MinimalAdaptiveRouting::MinimalAdaptiveRouting(const KaryNCube& topo, unsigned vcs_per_class,
                                               DimensionOrder order, TorusTies ties)
    : topo_(topo), dor_(topo, topo.torus() ? 2 : 1, order, ties), vcs_(vcs_per_class),
      escape_vcs_(topo.torus() ? 2 : 1), decreasing_(order == DimensionOrder::decreasing) {
  if (vcs_per_class <= escape_vcs_)
    throw ParamError("routing.algorithm", "adaptive",
                     "needs > " + std::to_string(escape_vcs_) + " VCs per class on a " +
                         topo.kind() + " (escape + adaptive); have " +
                         std::to_string(vcs_per_class));
}

std::uint32_t MinimalAdaptiveRouting::adaptive_vcs() const {
  // [escape_vcs_, vcs_): vcs_ <= 32 (router.vcs)
  const std::uint32_t all = vcs_ >= 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << vcs_) - 1;
  return all & ~((std::uint32_t{1} << escape_vcs_) - 1);
}

void MinimalAdaptiveRouting::route(const RouteRequest& req, RouteResult& out) const {
  const RouterId target = topo_.router_of(req.dst);
  if (target == req.router) {
    out.add(topo_.local_port_of(req.dst), 0, vcs_);
    return;
  }
  // Productive directions, furthest first (ties: the dimension the escape order takes first).
  std::array<std::pair<int, unsigned>, 16> dirs{};
  unsigned n = 0;
  const unsigned dims = topo_.dimensions();
  for (unsigned i = 0; i < dims && n < dirs.size(); ++i) {
    const unsigned d = decreasing_ ? dims - 1 - i : i;
    // (At a tie, the way the escape channel goes: one way per packet.)
    const int off = dor_.offset(d, topo_.coord(req.router, d), topo_.coord(target, d),
                                req.hdr.packet_id);
    if (off == 0) continue;
    dirs[n++] = {std::abs(off), topo_.port_toward(d, off)};
  }
  std::stable_sort(dirs.begin(), dirs.begin() + n,
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (unsigned i = 0; i < n; ++i) out.add(dirs[i].second, escape_vcs_, vcs_);
  if (selection()) out.set_alternatives(n);  // (else the order above stands)
  dor_.escape(req.router, req.dst, req.hdr.packet_id, 0, escape_vcs_, out);
}

}  // namespace collnoc
