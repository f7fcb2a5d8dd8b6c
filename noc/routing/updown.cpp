#include "noc/routing/updown.hpp"

#include <deque>

namespace collnoc {

UpDownRouting::UpDownRouting(const Topology& topo, unsigned vcs_per_class)
    : topo_(topo), vcs_(vcs_per_class), routers_(topo.num_routers()), ports_(topo.network_ports()) {
  if (routers_ > 4096)
    throw ParamError("routing.algorithm", "updown",
                     "keeps a table per router and destination: at most 4096 routers");
  // The spanning tree orients links, so every link must have its way back (not so on a
  // unidirectional torus, whose rings go one way).
  for (RouterId r = 0; r < routers_; ++r)
    for (unsigned p = 0; p < ports_; ++p) {
      const PortPeer& q = topo.peer(r, p);
      if (q.connected() && topo.peer(q.router, q.port).router != r)
        throw ParamError("routing.algorithm", "updown",
                         "needs links both ways (" + topo.describe() + " has one-way links)");
    }
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
