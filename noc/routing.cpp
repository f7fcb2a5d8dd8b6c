#include "noc/routing.hpp"

#include <algorithm>

namespace collnoc {

namespace {

const KaryNCube& require_kary_ncube(const Topology& topo, const char* name) {
  const auto* cube = dynamic_cast<const KaryNCube*>(&topo);
  if (!cube)
    throw ParamError("routing.algorithm", name,
                     "needs a mesh or torus topology, not " + topo.kind());
  return *cube;
}

// Signed minimal offset along one dimension (+ on ties, so routes are deterministic).
int offset(const KaryNCube& topo, unsigned dim, unsigned from, unsigned to) {
  int delta = static_cast<int>(to) - static_cast<int>(from);
  if (!topo.torus()) return delta;
  const int k = static_cast<int>(topo.k(dim));
  if (delta < 0) delta += k;            // 0 .. k-1 going +
  return delta * 2 <= k ? delta : delta - k;
}

}  // namespace

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
  };
  return table;
}

std::unique_ptr<RoutingFunction> make_routing(const std::string& name, const Topology& topo,
                                              unsigned vcs_per_class) {
  return lookup(routing_functions(), name, "routing.algorithm").make(topo, vcs_per_class);
}

DimensionOrderRouting::DimensionOrderRouting(const KaryNCube& topo, unsigned vcs_per_class)
    : topo_(topo), vcs_(vcs_per_class) {
  if (topo.torus() && vcs_per_class < 2)
    throw ParamError("routing.algorithm", "dor",
                     "on a torus needs >= 2 VCs per class for the dateline (router.vcs / "
                     "router.vc_classes = " + std::to_string(vcs_per_class) + ")");
}

void DimensionOrderRouting::escape(RouterId router, NodeId dst, unsigned vc_lo, unsigned vc_hi,
                                   RouteResult& out) const {
  const RouterId target = topo_.router_of(dst);
  for (unsigned d = 0; d < topo_.dimensions(); ++d) {
    const unsigned cur = topo_.coord(router, d), to = topo_.coord(target, d);
    if (cur == to) continue;
    const int off = offset(topo_, d, cur, to);
    const unsigned port = off > 0 ? KaryNCube::plus_port(d) : KaryNCube::minus_port(d);
    if (!topo_.torus()) {
      out.add(port, vc_lo, vc_hi);
      return;
    }
    // Dateline: lower half of the VCs while the packet has yet to take the wrap link of this
    // dimension, upper half from the wrap link on (and for packets that never wrap). The lower
    // half then never crosses the wrap link and the upper half never reaches it again.
    const unsigned k = topo_.k(d);
    const bool takes_wrap_now = off > 0 ? cur == k - 1 : cur == 0;
    const bool wraps_later = off > 0 ? cur > to : cur < to;
    const unsigned mid = vc_lo + (vc_hi - vc_lo) / 2;
    if (wraps_later && !takes_wrap_now) out.add(port, vc_lo, mid);
    else out.add(port, mid, vc_hi);
    return;
  }
  out.add(topo_.local_port_of(dst), vc_lo, vc_hi);
}

void DimensionOrderRouting::route(const RouteRequest& req, RouteResult& out) const {
  escape(req.router, req.dst, 0, vcs_, out);
}

MinimalAdaptiveRouting::MinimalAdaptiveRouting(const KaryNCube& topo, unsigned vcs_per_class)
    : topo_(topo), dor_(topo, topo.torus() ? 2 : 1), vcs_(vcs_per_class),
      escape_vcs_(topo.torus() ? 2 : 1) {
  if (vcs_per_class <= escape_vcs_)
    throw ParamError("routing.algorithm", "adaptive",
                     "needs > " + std::to_string(escape_vcs_) + " VCs per class on a " +
                         topo.kind() + " (escape + adaptive); have " +
                         std::to_string(vcs_per_class));
}

void MinimalAdaptiveRouting::route(const RouteRequest& req, RouteResult& out) const {
  const RouterId target = topo_.router_of(req.dst);
  if (target == req.router) {
    out.add(topo_.local_port_of(req.dst), 0, vcs_);
    return;
  }
  // Productive directions, furthest first (ties: lower dimension first).
  std::array<std::pair<int, unsigned>, 16> dirs{};
  unsigned n = 0;
  for (unsigned d = 0; d < topo_.dimensions() && n < dirs.size(); ++d) {
    const int off = offset(topo_, d, topo_.coord(req.router, d), topo_.coord(target, d));
    if (off == 0) continue;
    dirs[n++] = {std::abs(off), off > 0 ? KaryNCube::plus_port(d) : KaryNCube::minus_port(d)};
  }
  std::stable_sort(dirs.begin(), dirs.begin() + n,
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (unsigned i = 0; i < n; ++i) out.add(dirs[i].second, escape_vcs_, vcs_);
  dor_.escape(req.router, req.dst, 0, escape_vcs_, out);
}

}  // namespace collnoc
