#include "collectives/all_to_all_hops.hpp"
#include "noc/topology/kary_ncube.hpp"

namespace collnoc {

A2aCount count_unicasts_by_walking(const AllToAllPlan& plan) {
  A2aCount c;
  const KaryNCube& t = plan.topology();
  plan.for_each_unicast([&](const Unicast& u) {
    ++c.unicasts;
    c.hops += t.distance(u.src, u.dst);
  });
  return c;
}

namespace {

// Nodes as coordinates, for sums of distances over many pairs.
class Points {
 public:
  Points(const KaryNCube& t, const std::vector<NodeId>& nodes) : t_(t), n_(t.dimensions()) {
    coords_.reserve(nodes.size() * n_);
    for (NodeId v : nodes)
      for (unsigned d = 0; d < n_; ++d) coords_.push_back(t.coord(v, d));
  }
  std::uint64_t size() const { return coords_.size() / n_; }
  std::uint64_t distance(std::uint64_t a, std::uint64_t b) const {
    std::uint64_t h = 0;
    for (unsigned d = 0; d < n_; ++d) h += dim(d, coords_[a * n_ + d], coords_[b * n_ + d]);
    return h;
  }
  // Sum over ordered pairs: distances add up per dimension, so per-dimension histograms do.
  std::uint64_t all_pairs() const {
    std::uint64_t sum = 0;
    for (unsigned d = 0; d < n_; ++d) {
      std::vector<std::uint64_t> count(t_.k(d), 0);
      for (std::uint64_t i = 0; i < size(); ++i) ++count[coords_[i * n_ + d]];
      for (unsigned u = 0; u < t_.k(d); ++u)
        for (unsigned v = 0; v < t_.k(d); ++v) sum += count[u] * count[v] * dim(d, u, v);
    }
    return sum;
  }
  // Sum over every root of one multicast each, participants in rotated order.
  std::uint64_t every_root(A2aBase base) const {
    if (base == A2aBase::all_at_once) return all_pairs();
    // Tree edges join ranks i and i + 2^j (i < 2^j); summed over roots, each such edge
    // contributes F(2^j) = sum over p of distance(p, p + 2^j mod P).
    const std::uint64_t p = size();
    std::uint64_t sum = 0;
    for (std::uint64_t step = 1; step < p; step <<= 1) {
      std::uint64_t f = 0;
      for (std::uint64_t i = 0; i < p; ++i) f += distance(i, (i + step) % p);
      sum += std::min(step, p - step) * f;
    }
    return sum;
  }
  // One multicast from `root`.
  std::uint64_t from_root(const AllToAllPlan& plan, unsigned root) const {
    std::uint64_t sum = 0;
    const auto p = static_cast<unsigned>(size());
    for (unsigned i = 0; i < p; ++i)
      for (unsigned c : plan.children(p, root, i)) sum += distance(i, c);
    return sum;
  }

 private:
  std::uint64_t dim(unsigned d, unsigned a, unsigned b) const {
    unsigned delta = a > b ? a - b : b - a;
    if (t_.torus() && t_.k(d) - delta < delta) delta = t_.k(d) - delta;
    return delta;
  }
  const KaryNCube& t_;
  unsigned n_;
  std::vector<unsigned> coords_;
};

std::vector<NodeId> nodes_of(const Box& b) {
  std::vector<NodeId> v(b.size());
  for (unsigned i = 0; i < b.size(); ++i) v[i] = b.node(i);
  return v;
}

A2aCount level_count(const AllToAllPlan& plan, const AllToAllPlan::Level& l, bool outer) {
  const KaryNCube& t = plan.topology();
  const std::uint64_t tiles = l.region.tiles(l.tile);
  const Box tile0 = l.region.tile(l.tile, 0);
  const std::uint64_t m = tile0.size();
  const Points members(t, nodes_of(tile0));
  std::vector<NodeId> inter, origins;
  for (unsigned g = 0; g < tiles; ++g) {
    inter.push_back(plan.intermediate(l, static_cast<unsigned>(g)));
    origins.push_back(l.region.tile(l.tile, g).node(0));
  }
  const Points intermediates(t, inter), corners(t, origins);
  A2aCount c;
  // Intra-group: a broadcast in every tile, or the scheme again one level down.
  if (outer && plan.variant() == A2aVariant::recursive) {
    const A2aCount in = level_count(plan, plan.inner(tile0.node(0)), false);
    c.unicasts += tiles * in.unicasts;
    c.hops += tiles * in.hops;
  } else {
    c.unicasts += tiles * m * (m - 1);
    c.hops += tiles * members.every_root(plan.base());
  }
  const std::uint64_t delivered = tiles * (tiles - 1);  // (receiving tile, sending tile) pairs
  const std::uint64_t deliver_hops = members.from_root(plan, l.intermediate_local);
  if (plan.scheme() == A2aScheme::combining) {
    c.unicasts += tiles * (tiles - 1) + delivered * (m - 1);
    c.hops += intermediates.every_root(plan.base()) + delivered * deliver_hops;
    return c;
  }
  if (outer && plan.variant() == A2aVariant::every_node) {
    c.unicasts += (m - 1) * m * tiles * (tiles - 1);
    c.hops += (m - 1) * m * corners.all_pairs();
  } else {
    c.unicasts += (m - 1) * (tiles * (tiles - 1) + delivered * (m - 1));
    c.hops += (m - 1) * (intermediates.every_root(plan.base()) + delivered * deliver_hops);
  }
  c.unicasts += m * tiles * (tiles - 1);  // step 6: each node to its counterpart elsewhere
  c.hops += m * corners.all_pairs();
  return c;
}

}  // namespace

A2aCount count_unicasts(const AllToAllPlan& plan) {
  if (plan.sources().size() != plan.nodes()) return count_unicasts_by_walking(plan);
  if (plan.scheme() == A2aScheme::plain) {
    std::vector<NodeId> all(plan.nodes());
    for (NodeId v = 0; v < plan.nodes(); ++v) all[v] = v;
    const std::uint64_t n = plan.nodes();
    return A2aCount{n * (n - 1), Points(plan.topology(), all).every_root(plan.base())};
  }
  return level_count(plan, plan.outer(), true);
}

}  // namespace collnoc
