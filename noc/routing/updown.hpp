// Up*/Down* routing (`updown`).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "noc/routing/routing.hpp"
#include "noc/topology/topology.hpp"

namespace collnoc {

// Up*/Down* routing for any connected topology (irregular graphs in particular). A breadth-first
// spanning tree from router 0 orients every link: "up" toward the root (to a lower level, or to
// a lower id on the same level), "down" otherwise. A legal route takes up links, then down links,
// never up after down, which breaks every cycle of channel dependencies with a single VC. The
// candidates are the ports on the shortest legal paths (lowest port first); the VC allocator
// takes the first with a free VC.
class UpDownRouting : public RoutingFunction {
 public:
  UpDownRouting(const Topology& topo, unsigned vcs_per_class);
  void route(const RouteRequest& req, RouteResult& out) const override;
  // Whether the link leaving `router` through `port` goes up.
  bool up(RouterId router, unsigned port) const { return up_[router * ports_ + port]; }
  // Hops of the shortest legal path from a freshly injected packet at `from` to `to`.
  unsigned legal_distance(RouterId from, RouterId to) const {
    return dist_[(static_cast<std::size_t>(to) * routers_ + from) * 2];
  }

 private:
  const Topology& topo_;
  unsigned vcs_, routers_, ports_;
  std::vector<std::uint8_t> up_;       // per (router, network port)
  std::vector<std::uint16_t> dist_;    // per (destination, router, phase): legal hops left
};

}  // namespace collnoc
