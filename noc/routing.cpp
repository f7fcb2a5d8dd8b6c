#include "noc/routing.hpp"

#include "noc/hdn_routing.hpp"

#include <algorithm>
#include <deque>

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

namespace collnoc {

UpDownRouting::UpDownRouting(const Topology& topo, unsigned vcs_per_class)
    : topo_(topo), vcs_(vcs_per_class), routers_(topo.num_routers()), ports_(topo.network_ports()) {
  if (routers_ > 4096)
    throw ParamError("routing.algorithm", "updown",
                     "keeps a table per router and destination: at most 4096 routers");
  // Levels of the BFS tree from router 0.
  constexpr unsigned kUnseen = ~0u;
  std::vector<unsigned> level(routers_, kUnseen);
  std::deque<RouterId> queue{0};
  level[0] = 0;
  while (!queue.empty()) {
    const RouterId r = queue.front();
    queue.pop_front();
    for (unsigned p = 0; p < ports_; ++p) {
      const PortPeer& q = topo.peer(r, p);
      if (q.connected() && level[q.router] == kUnseen) {
        level[q.router] = level[r] + 1;
        queue.push_back(q.router);
      }
    }
  }
  for (RouterId r = 0; r < routers_; ++r)
    if (level[r] == kUnseen)
      throw ParamError("routing.algorithm", "updown", "needs a connected topology");
  up_.assign(static_cast<std::size_t>(routers_) * ports_, 0);
  for (RouterId r = 0; r < routers_; ++r)
    for (unsigned p = 0; p < ports_; ++p) {
      const PortPeer& q = topo.peer(r, p);
      if (!q.connected()) continue;
      up_[r * ports_ + p] = level[q.router] < level[r] || (level[q.router] == level[r] && q.router < r);
    }
  // Legal hops left, per destination, by breadth-first search backwards over the states
  // (router, phase): phase 0 may still go up, phase 1 (arrived over a down link) may not.
  constexpr std::uint16_t kFar = 0xffff;
  dist_.assign(static_cast<std::size_t>(routers_) * routers_ * 2, kFar);
  std::vector<std::pair<RouterId, unsigned>> frontier, next;
  for (RouterId t = 0; t < routers_; ++t) {
    std::uint16_t* d = &dist_[static_cast<std::size_t>(t) * routers_ * 2];
    d[t * 2] = d[t * 2 + 1] = 0;
    frontier = {{t, 0}, {t, 1}};
    for (std::uint16_t hops = 1; !frontier.empty(); ++hops) {
      next.clear();
      for (const auto& [v, phase_v] : frontier) {
        // Predecessors u -> v: u's port p leads to v. Taking an up link needs phase 0 at u and
        // gives phase 0 at v; a down link gives phase 1 at v, from either phase at u.
        for (unsigned pv = 0; pv < ports_; ++pv) {
          const PortPeer& back = topo.peer(v, pv);
          if (!back.connected()) continue;
          const RouterId u = back.router;
          const unsigned pu = back.port;  // u's port toward v (links are symmetric)
          const bool going_up = up_[u * ports_ + pu];
          if (going_up != (phase_v == 0)) continue;
          for (unsigned phase_u : {0u, 1u}) {
            if (going_up && phase_u == 1) continue;
            std::uint16_t& du = d[u * 2 + phase_u];
            if (du == kFar) {
              du = hops;
              next.emplace_back(u, phase_u);
            }
          }
        }
      }
      frontier.swap(next);
    }
  }
}

void UpDownRouting::route(const RouteRequest& req, RouteResult& out) const {
  const RouterId target = topo_.router_of(req.dst);
  if (target == req.router) {
    out.add(topo_.local_port_of(req.dst), 0, vcs_);
    return;
  }
  // Arrived over a down link: only down from here.
  unsigned phase = 0;
  if (!topo_.is_local_port(req.in_port)) {
    const PortPeer& from = topo_.peer(req.router, req.in_port);
    phase = up_[from.router * ports_ + from.port] ? 0 : 1;
  }
  const std::uint16_t* d = &dist_[static_cast<std::size_t>(target) * routers_ * 2];
  const unsigned here = d[req.router * 2 + phase];
  for (unsigned p = 0; p < ports_; ++p) {
    const PortPeer& q = topo_.peer(req.router, p);
    if (!q.connected()) continue;
    const bool going_up = up_[req.router * ports_ + p];
    if (going_up && phase == 1) continue;
    if (d[q.router * 2 + (going_up ? 0 : 1)] + 1u == here) out.add(p, 0, vcs_);
  }
}

}  // namespace collnoc
