// Recursive routing on a hierarchical dual-net HDN(B, k, S) (SPEC 4.2), deadlock-free with
// virtual channels per segment. docs/routing.md ("hdn") has the recursion, the VC assignment and
// the acyclicity argument.
//
// A route is a sequence of base segments (dimension-order inside one copy of B) joined by cross
// edges. Each base segment has an index j in 0..2^k-1: bit i-1 of j is 1 when the packet is
// already inside the level-i cluster of its level-i target (the destination, or the super-node
// the level above routes it to). j depends only on the current router and the destination, so
// the memoryless router recomputes it; along a path j never decreases and every cross edge that
// completes a level's first half raises it. Segment j owns VCs [j w, (j+1) w) of the packet's
// class, w = floor(VCs per class / 2^k), split around a dateline on rings of 4 or more nodes.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "noc/topology/hdn.hpp"
#include "noc/routing/routing.hpp"

namespace collnoc {

class HdnRouting : public RoutingFunction {
 public:
  // Throws ParamError("routing.algorithm", "hdn", ...) when vcs_per_class < vcs_needed(spec).
  HdnRouting(const HdnTopology& topo, unsigned vcs_per_class);
  // The registry's factory: also refuses a topology that is not an HDN.
  static std::unique_ptr<RoutingFunction> make(const Topology& topo, unsigned vcs_per_class);
  void route(const RouteRequest& req, RouteResult& out) const override;

  // VCs one segment needs: 2 when a ring factor has 4 or more nodes (dateline), else 1.
  static unsigned vcs_per_segment(const HdnSpec& spec);
  // 2^k segments x vcs_per_segment.
  static unsigned vcs_needed(const HdnSpec& spec);
  // SPEC 4.2's bound R_k = 2^k R(B) - sum_{j<k} 2^j R(SN_{k-j}) + 2^(k+1) - 2, with R the
  // dimension-order path bound (= diameter) of the base and of each super-node.
  static std::uint64_t path_bound(const HdnSpec& spec);

  // The next hop from `router` toward router `target`.
  struct Hop {
    bool arrived = false;  // router == target
    unsigned port = 0;     // network port (base or cross)
    unsigned level = 0;    // 0: base link; i >= 1: level-i cross edge
    unsigned segment = 0;  // segment index of the channel taken (that of the router it leads to)
    bool upper = true;     // dateline half within the segment (base links of rings)
  };
  Hop next_hop(RouterId router, RouterId target) const;
  // Segment index of `router` on its way to `target` (see above).
  unsigned segment(RouterId router, RouterId target) const;

 private:
  using Coords = std::vector<std::uint64_t>;
  struct Step {
    bool arrived = true;
    unsigned port = 0, level = 0;
    bool upper = true;
  };
  Step step(unsigned level, const Coords& cur, const Coords& target, std::uint64_t free,
            unsigned& seg) const;
  unsigned c_coord(unsigned level) const { return factors_ + levels_ + level - 1; }
  unsigned u_coord(unsigned level) const { return factors_ + level - 1; }

  const HdnTopology& topo_;
  unsigned vcs_, factors_, levels_, width_;
  bool dateline_;  // rings of 4 or more nodes: split each segment's VCs in two halves
  struct Slot {
    unsigned coord;
    std::uint64_t radix;
  };
  std::vector<std::vector<Slot>> sn_part_;  // per level i >= 1: layout_{i-1} without SN_i
  std::vector<std::uint64_t> sn_mask_;       // per level i >= 1: SN_i factors as a bit mask
};

}  // namespace collnoc
