// Routing functions: strategies chosen by name. A routing function maps a head flit at a router
// to an ordered list of candidate output ports, each with the VCs (relative to the packet's VC
// class) it may take there. The router's VC allocator takes the first candidate it can.
#pragma once
#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "noc/flit.hpp"
#include "noc/registry.hpp"
#include "noc/topology.hpp"

namespace collnoc {

struct RouteCandidate {
  std::uint8_t port = 0;
  std::uint8_t vc_begin = 0;  // [vc_begin, vc_end) within the packet's VC class
  std::uint8_t vc_end = 0;
};

class RouteResult {
 public:
  static constexpr unsigned kMax = 8;
  void clear() { size_ = 0; }
  void add(unsigned port, unsigned vc_begin, unsigned vc_end) {
    if (size_ < kMax)
      c_[size_++] = RouteCandidate{static_cast<std::uint8_t>(port),
                                   static_cast<std::uint8_t>(vc_begin),
                                   static_cast<std::uint8_t>(vc_end)};
  }
  unsigned size() const { return size_; }
  const RouteCandidate& operator[](unsigned i) const { return c_[i]; }

 private:
  std::array<RouteCandidate, kMax> c_{};
  unsigned size_ = 0;
};

struct RouteRequest {
  RouterId router;
  unsigned in_port;
  unsigned in_vc;  // relative to the packet's class
  NodeId dst;
  const PacketHeader& hdr;  // the whole header, for routing functions that need more than dst
};

class RoutingFunction {
 public:
  virtual ~RoutingFunction() = default;
  virtual void route(const RouteRequest& req, RouteResult& out) const = 0;
  // The VCs of a class (a bit each) that packets may take adaptively between routers. Duato's
  // theory for wormhole needs such a VC empty before it is given to another packet (atomic
  // reallocation): a head given a VC that still holds another packet's tail is committed to it
  // and can no longer turn to the escape channel, and such heads can wait on each other in a
  // cycle of adaptive VCs (see docs/routing.md). Routers apply it (RouterParams::vc_realloc).
  virtual std::uint32_t adaptive_vcs() const { return 0; }
};

// Registry entry: a factory that checks the routing function fits the topology and the VCs per
// class, throwing ParamError("routing.algorithm", ...) when it does not.
using RoutingEntry = Registered<
    std::function<std::unique_ptr<RoutingFunction>(const Topology&, unsigned vcs_per_class)>>;

const std::vector<RoutingEntry>& routing_functions();
std::unique_ptr<RoutingFunction> make_routing(const std::string& name, const Topology& topo,
                                              unsigned vcs_per_class);

// Dimension-order routing on meshes and tori (e-cube: dimension 0 first). On a torus the VCs of a
// class split into two halves around a dateline: the lower half while the packet has still to
// cross its dimension's wrap-around link, the upper half after (or if it never will).
class DimensionOrderRouting : public RoutingFunction {
 public:
  DimensionOrderRouting(const KaryNCube& topo, unsigned vcs_per_class);
  void route(const RouteRequest& req, RouteResult& out) const override;

  // The escape channel of `req` (shared with the adaptive routing).
  void escape(RouterId router, NodeId dst, unsigned vc_lo, unsigned vc_hi, RouteResult& out) const;

 private:
  const KaryNCube& topo_;
  unsigned vcs_;
};

// Duato-style minimal adaptive routing: the first `escape` VCs of a class form a deadlock-free
// dimension-order escape network (1 VC on a mesh, 2 on a torus); the rest are adaptive and may
// take any productive direction. Candidates: productive adaptive ports first (the one with the
// most hops left in its dimension first), then the escape channel.
class MinimalAdaptiveRouting : public RoutingFunction {
 public:
  MinimalAdaptiveRouting(const KaryNCube& topo, unsigned vcs_per_class);
  void route(const RouteRequest& req, RouteResult& out) const override;
  std::uint32_t adaptive_vcs() const override;

 private:
  const KaryNCube& topo_;
  DimensionOrderRouting dor_;
  unsigned vcs_;
  unsigned escape_vcs_;
};

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
