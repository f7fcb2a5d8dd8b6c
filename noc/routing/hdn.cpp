#include "noc/routing/hdn.hpp"

#include <string>

namespace collnoc {

namespace {

// One hop of dimension-order routing along a ring of `size` nodes from x toward y (x != y):
// the minimal direction (+ on ties: routing.torus_ties applies to dor and adaptive only) and
// the dateline half, by DimensionOrderRouting's rule: the lower half while the packet has yet
// to take the wrap link (size-1 -> 0 going +, 0 -> size-1 going -), the upper half on it and
// after it.
struct RingHop {
  bool minus;
  bool upper;
};
RingHop ring_hop(std::uint64_t size, std::uint64_t x, std::uint64_t y) {
  const std::uint64_t delta = (y + size - x) % size;  // hops going +
  const bool plus = delta * 2 <= size;
  const bool takes_wrap_now = plus ? x == size - 1 : x == 0;
  const bool wraps_later = plus ? x > y : x < y;
  return {!plus, !(wraps_later && !takes_wrap_now)};
}

}  // namespace

unsigned HdnRouting::vcs_per_segment(const HdnSpec& spec) {
  for (const HdnFactor& f : spec.base.factors)
    if (f.ring && f.size >= 4) return 2;
  return 1;
}

unsigned HdnRouting::vcs_needed(const HdnSpec& spec) {
  return (spec.levels >= 31 ? ~0u : (1u << spec.levels) * vcs_per_segment(spec));
}

std::uint64_t HdnRouting::path_bound(const HdnSpec& spec) {
  const unsigned k = spec.levels;
  std::int64_t r = (std::int64_t{1} << k) * spec.base.diameter() + (std::int64_t{2} << k) - 2;
  for (unsigned j = 0; j < k; ++j)
    r -= (std::int64_t{1} << j) * spec.supernodes[k - j - 1].diameter(spec.base);
  return static_cast<std::uint64_t>(r);
}

std::unique_ptr<RoutingFunction> HdnRouting::make(const Topology& topo, unsigned vcs_per_class) {
  const auto* h = dynamic_cast<const HdnTopology*>(&topo);
  if (!h)
    throw ParamError("routing.algorithm", "hdn", "needs an hdn topology, not " + topo.kind());
  return std::make_unique<HdnRouting>(*h, vcs_per_class);
}

HdnRouting::HdnRouting(const HdnTopology& topo, unsigned vcs_per_class)
    : topo_(topo), vcs_(vcs_per_class), factors_(topo.spec().base.size()),
      levels_(topo.levels()) {
  const HdnSpec& spec = topo.spec();
  const unsigned need = vcs_needed(spec);
  if (vcs_per_class < need)
    throw ParamError("routing.algorithm", "hdn",
                     "on " + spec.describe() + " needs >= " + std::to_string(need) +
                         " VCs per class (2^" + std::to_string(levels_) + " segments x " +
                         std::to_string(vcs_per_segment(spec)) +
                         (vcs_per_segment(spec) == 2 ? " dateline VCs" : " VC") +
                         "); router.vcs / router.vc_classes = " + std::to_string(vcs_per_class));
  width_ = vcs_per_class >> levels_;
  dateline_ = vcs_per_segment(spec) == 2;
  // The digit layouts of HdnTopology (noc/topology/hdn.hpp): coordinates x_0..x_{r-1}, U_1..U_k,
  // C_1..C_k; layout_0 = base factors; layout_i = SN_i factors ++ (layout_{i-1} without them)
  // ++ U_i ++ C_i. The SN part of level i is the middle piece.
  std::vector<Slot> layout;
  for (unsigned f = 0; f < factors_; ++f) layout.push_back({f, spec.base.factors[f].size});
  sn_part_.resize(levels_ + 1);
  sn_mask_.assign(levels_ + 1, 0);
  for (unsigned i = 1; i <= levels_; ++i) {
    const HdnSuperNode& sn = spec.supernodes[i - 1];
    std::vector<Slot> next;
    for (unsigned f : sn.factors) {
      next.push_back({f, spec.base.factors[f].size});
      sn_mask_[i] |= std::uint64_t{1} << f;
    }
    for (const Slot& s : layout)
      if (!(s.coord < factors_ && sn.contains(s.coord))) sn_part_[i].push_back(s);
    next.insert(next.end(), sn_part_[i].begin(), sn_part_[i].end());
    next.push_back({u_coord(i), topo.n(i)});
    next.push_back({c_coord(i), 2});
    layout = std::move(next);
  }
}

// The first hop from `cur` toward `target` inside their common level-`level` sub-network,
// ignoring the base coordinates in `free` at the final base segment. Sets bit i-1 of `seg` for
// every level i at which `cur` is already in the target's cluster.
HdnRouting::Step HdnRouting::step(unsigned level, const Coords& cur, const Coords& target,
                                  std::uint64_t free, unsigned& seg) const {
  if (level == 0) {
    const HdnBase& b = topo_.spec().base;
    for (unsigned f = 0; f < factors_; ++f) {
      if ((free >> f & 1) || cur[f] == target[f]) continue;
      Step s;
      s.arrived = false;
      if (!b.factors[f].ring) {
        s.port = topo_.base_port(f, false);
        return s;
      }
      const RingHop h = ring_hop(b.factors[f].size, cur[f], target[f]);
      s.port = topo_.base_port(f, h.minus);
      s.upper = h.upper;
      return s;
    }
    return Step{};
  }
  const unsigned ci = c_coord(level), ui = u_coord(level);
  Step cross;
  cross.arrived = false;
  cross.port = topo_.cross_port(level);
  cross.level = level;
  if (cur[ci] == target[ci] && cur[ui] == target[ui]) {  // same cluster
    seg |= 1u << (level - 1);
    return step(level - 1, cur, target, free, seg);
  }
  if (cur[ci] == target[ci]) return cross;  // same class, other cluster: change class first
  // Other class: go to the super-node target.U of my cluster (any node in it: the SN_level
  // coordinates are free), then take the cross edge into the target's cluster.
  Coords m = cur;
  std::uint64_t v = target[ui];
  for (const Slot& s : sn_part_[level]) {
    m[s.coord] = v % s.radix;
    v /= s.radix;
  }
  const Step s = step(level - 1, cur, m, sn_mask_[level], seg);
  return s.arrived ? cross : s;
}

unsigned HdnRouting::segment(RouterId router, RouterId target) const {
  unsigned seg = 0;
  step(levels_, topo_.coords(router), topo_.coords(target), 0, seg);
  return seg;
}

HdnRouting::Hop HdnRouting::next_hop(RouterId router, RouterId target) const {
  unsigned seg = 0;
  const Step s = step(levels_, topo_.coords(router), topo_.coords(target), 0, seg);
  Hop h;
  h.arrived = s.arrived;
  h.port = s.port;
  h.level = s.level;
  h.upper = s.upper;
  h.segment = s.level == 0 ? seg : segment(topo_.cross_partner(router, s.level), target);
  return h;
}

void HdnRouting::route(const RouteRequest& req, RouteResult& out) const {
  const RouterId target = topo_.router_of(req.dst);
  const Hop h = next_hop(req.router, target);
  if (h.arrived) {
    out.add(topo_.local_port_of(req.dst), 0, vcs_);
    return;
  }
  const unsigned lo = h.segment * width_, hi = lo + width_;
  // Dateline halves only where a ring needs them; a segment's other links use all its VCs.
  if (h.level != 0 || width_ < 2 || !dateline_) {
    out.add(h.port, lo, hi);
    return;
  }
  const unsigned mid = lo + width_ / 2;
  if (h.upper) out.add(h.port, mid, hi);
  else out.add(h.port, lo, mid);
}

}  // namespace collnoc
