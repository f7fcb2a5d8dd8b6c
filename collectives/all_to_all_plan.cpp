#include "collectives/all_to_all_plan.hpp"
#include "noc/topology/kary_ncube.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace collnoc {

const char* to_string(A2aScheme s) {
  switch (s) {
    case A2aScheme::plain: return "plain";
    case A2aScheme::hierarchical_nc: return "hierarchical_nc";
    case A2aScheme::combining: return "combining";
  }
  return "?";
}
const char* to_string(A2aBase b) { return b == A2aBase::tree ? "tree" : "all_at_once"; }
const char* to_string(A2aVariant v) {
  switch (v) {
    case A2aVariant::intermediate: return "intermediate";
    case A2aVariant::every_node: return "every_node";
    case A2aVariant::recursive: return "recursive";
  }
  return "?";
}

unsigned step_vc_class(std::uint8_t kind) {
  switch (kind % kInnerLevel) {
    case kStepInter: return 1;
    case kStepDeliver: return 2;
    case kStepPartner: return 3;
    default: return 0;  // broadcast, intra-group
  }
}

const char* step_name(std::uint8_t kind) {
  switch (kind % kInnerLevel) {
    case kStepBroadcast: return "broadcast";
    case kStepIntra: return "intra_group";
    case kStepInter: return "inter_group";
    case kStepDeliver: return "group_delivery";
    case kStepPartner: return "partner_unicasts";
    case kStepDecode: return "decoding";
  }
  return "?";
}

namespace {

template <typename E, std::size_t N>
E parse_enum(const std::string& key, const std::string& text, const E (&values)[N]) {
  std::string allowed = "one of:";
  for (E v : values) {
    if (text == to_string(v)) return v;
    allowed += std::string(" ") + to_string(v);
  }
  throw ParamError(key, text, allowed);
}

unsigned product(const std::vector<unsigned>& s) {
  unsigned p = 1;
  for (unsigned e : s) p *= e;
  return p;
}

// What a group's size must be, for messages: 2..N-1 of the N nodes, which no N below 3 has.
std::string group_size_rule(unsigned total) {
  if (total < 3) return "a group has 2..N-1 nodes, and N = " + std::to_string(total) + " leaves none";
  return "a group must have 2.." + std::to_string(total - 1) + " nodes (not 1, not all " +
         std::to_string(total) + ")";
}

// Distance along one dimension of the topology (the DOR path's share of it).
unsigned dim_distance(const KaryNCube& t, unsigned d, unsigned a, unsigned b) {
  unsigned delta = a > b ? a - b : b - a;
  if (t.torus() && t.k(d) - delta < delta) delta = t.k(d) - delta;
  return delta;
}

}  // namespace

std::vector<std::vector<unsigned>> tiling_shapes(const std::vector<unsigned>& extent) {
  std::vector<std::vector<unsigned>> out;
  const unsigned total = product(extent);
  std::vector<unsigned> s(extent.size(), 1);
  for (;;) {
    if (product(s) > 1 && product(s) < total) out.push_back(s);
    unsigned d = 0;  // next shape: the divisors of each extent, odometer-wise
    for (; d < s.size(); ++d) {
      unsigned next = s[d] + 1;
      while (next <= extent[d] && extent[d] % next) ++next;
      if (next <= extent[d]) {
        s[d] = next;
        break;
      }
      s[d] = 1;
    }
    if (d == s.size()) return out;
  }
}

std::string shape_text(const std::vector<unsigned>& s) {
  std::string out;
  for (unsigned e : s) out += (out.empty() ? "" : "x") + std::to_string(e);
  return out;
}

std::vector<unsigned> parse_group_shape(const std::string& key, const std::string& text,
                                        const std::vector<unsigned>& extent) {
  const unsigned total = product(extent);
  if (text == "auto") {  // nearest sqrt(total) nodes, then the squarest
    std::vector<unsigned> best;
    double best_score = 1e300;
    for (const std::vector<unsigned>& s : tiling_shapes(extent)) {
      const auto [lo, hi] = std::minmax_element(s.begin(), s.end());
      const double score =
          std::fabs(std::log(static_cast<double>(product(s))) - 0.5 * std::log(double(total))) * 1e3 +
          static_cast<double>(*hi) / *lo;
      if (score < best_score - 1e-9) best_score = score, best = s;
    }
    if (best.empty())
      throw ParamError(key, text, "no group shape tiles the network (" + shape_text(extent) +
                                      "): " + group_size_rule(total));
    return best;
  }
  std::vector<unsigned> shape;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, 'x')) {
    char* end = nullptr;
    const unsigned long v = part.empty() ? 0 : std::strtoul(part.c_str(), &end, 10);
    if (part.empty() || *end || v == 0 || v > 65535)
      throw ParamError(key, text, "must be auto or extents like 8x4 (one per dimension, >= 1)");
    shape.push_back(static_cast<unsigned>(v));
  }
  if (shape.size() != extent.size())
    throw ParamError(key, text, "needs " + std::to_string(extent.size()) +
                                    " extents (one per dimension), to tile " + shape_text(extent));
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (extent[d] % shape[d])
      throw ParamError(key, text, "does not tile " + shape_text(extent) + ": extent " +
                                      std::to_string(shape[d]) + " does not divide " +
                                      std::to_string(extent[d]));
  const unsigned size = product(shape);
  if (size == 1 || size == total)
    throw ParamError(key, text, group_size_rule(total));
  return shape;
}

Box::Box(const KaryNCube& topo, std::vector<unsigned> origin, std::vector<unsigned> extent)
    : topo_(&topo), origin_(std::move(origin)), extent_(std::move(extent)),
      size_(product(extent_)) {}

NodeId Box::node(unsigned local) const {
  std::vector<unsigned> c(extent_.size());
  for (std::size_t d = 0; d < extent_.size(); ++d) {
    c[d] = origin_[d] + local % extent_[d];
    local /= extent_[d];
  }
  return topo_->router_at(c);
}

bool Box::contains(NodeId n) const {
  for (unsigned d = 0; d < extent_.size(); ++d) {
    const unsigned c = topo_->coord(n, d);
    if (c < origin_[d] || c >= origin_[d] + extent_[d]) return false;
  }
  return true;
}

unsigned Box::local(NodeId n) const {
  unsigned local = 0, stride = 1;
  for (unsigned d = 0; d < extent_.size(); ++d) {
    local += (topo_->coord(n, d) - origin_[d]) * stride;
    stride *= extent_[d];
  }
  return local;
}

unsigned Box::tiles(const std::vector<unsigned>& shape) const { return size_ / product(shape); }

Box Box::tile(const std::vector<unsigned>& shape, unsigned t) const {
  std::vector<unsigned> o(extent_.size());
  for (std::size_t d = 0; d < extent_.size(); ++d) {
    const unsigned across = extent_[d] / shape[d];
    o[d] = origin_[d] + (t % across) * shape[d];
    t /= across;
  }
  return Box(*topo_, std::move(o), shape);
}

unsigned Box::tile_of(const std::vector<unsigned>& shape, NodeId n) const {
  unsigned t = 0, stride = 1;
  for (unsigned d = 0; d < extent_.size(); ++d) {
    t += ((topo_->coord(n, d) - origin_[d]) / shape[d]) * stride;
    stride *= extent_[d] / shape[d];
  }
  return t;
}

namespace {
const KaryNCube& as_cube(const Topology& t) {
  const auto* cube = dynamic_cast<const KaryNCube*>(&t);
  if (!cube || t.endpoints_per_router() != 1)
    throw ParamError("workload.kind", "all_to_all_broadcast",
                     "runs on a mesh or torus (platform kary_ncube) with one node per router");
  return *cube;
}
}  // namespace

AllToAllPlan::AllToAllPlan(const Topology& topology, const AllToAllParams& p)
    : topo_(&as_cube(topology)),
      scheme_(parse_enum("workload.scheme", p.scheme, kA2aSchemes)),
      base_(parse_enum("workload.base", p.base, kA2aBases)),
      variant_(parse_enum("workload.variant", p.variant, kA2aVariants)),
      whole_(*topo_, std::vector<unsigned>(topo_->dimensions(), 0), topo_->ks()),
      corner_(p.intermediate == "corner"),
      outer_{whole_, {}, 0} {
  if (p.intermediate != "center" && p.intermediate != "corner")
    throw ParamError("workload.intermediate", p.intermediate,
                     "one of: center (the node with the shortest longest path in its group), "
                     "corner (the group's first node)");
  const unsigned n = whole_.size();
  if (p.sources == 1 || p.sources > n)
    throw ParamError("workload.sources", std::to_string(p.sources),
                     "must be 0 (every node) or 2.." + std::to_string(n));
  const unsigned s = p.sources ? p.sources : n;
  is_source_.assign(n, false);
  for (unsigned i = 0; i < s; ++i) {  // evenly spread over the node ids
    const NodeId id = static_cast<NodeId>(static_cast<std::uint64_t>(i) * n / s);
    sources_.push_back(id);
    is_source_[id] = true;
  }
  if (scheme_ == A2aScheme::plain) return;
  if (scheme_ == A2aScheme::combining && variant_ != A2aVariant::intermediate)
    throw ParamError("workload.variant", p.variant,
                     "combining has no variants: intermediate (the default) only");
  group_ = parse_group_shape("workload.group", p.group, whole_.extent());
  outer_ = Level{whole_, group_, pick_intermediate(group_)};
  if (variant_ == A2aVariant::recursive) subgroup_ = parse_group_shape("workload.subgroup", p.subgroup, group_);
}

unsigned AllToAllPlan::group_size() const { return group_.empty() ? nodes() : product(group_); }

unsigned AllToAllPlan::pick_intermediate(const std::vector<unsigned>& tile) const {
  if (corner_) return 0;
  // Tiles are translates and distances are per dimension, so the node with the shortest longest
  // path is the per-dimension best coordinate (lowest on ties), the same in every tile.
  unsigned local = 0, stride = 1;
  for (unsigned d = 0; d < tile.size(); ++d) {
    unsigned best = 0, best_ecc = ~0u;
    for (unsigned c = 0; c < tile[d]; ++c) {
      unsigned ecc = 0;
      for (unsigned o = 0; o < tile[d]; ++o) ecc = std::max(ecc, dim_distance(*topo_, d, c, o));
      if (ecc < best_ecc) best_ecc = ecc, best = c;
    }
    local += best * stride;
    stride *= tile[d];
  }
  return local;
}

AllToAllPlan::Level AllToAllPlan::inner(NodeId node) const {
  return Level{whole_.tile(group_, whole_.tile_of(group_, node)), subgroup_,
               pick_intermediate(subgroup_)};
}

std::vector<NodeId> AllToAllPlan::tile_sources(const Level& l, unsigned t) const {
  const Box box = l.region.tile(l.tile, t);
  std::vector<NodeId> out;
  for (unsigned i = 0; i < box.size(); ++i)
    if (is_source_[box.node(i)]) out.push_back(box.node(i));
  return out;
}

std::vector<unsigned> AllToAllPlan::children(unsigned count, unsigned root, unsigned me) const {
  std::vector<unsigned> out;
  const unsigned rel = (me + count - root) % count;
  if (base_ == A2aBase::all_at_once) {
    if (rel == 0)
      for (unsigned c = 1; c < count; ++c) out.push_back((root + c) % count);
    return out;
  }
  unsigned step = 1;  // the first doubling round in which `rel` holds the datum
  while (step <= rel) step <<= 1;
  for (; rel + step < count; step <<= 1) out.push_back((root + rel + step) % count);
  return out;
}

unsigned AllToAllPlan::round(unsigned count, unsigned root, unsigned me) const {
  const unsigned rel = (me + count - root) % count;
  if (base_ == A2aBase::all_at_once || rel == 0) return 0;
  unsigned r = 0;
  while ((2u << r) <= rel) ++r;
  return r;
}

void AllToAllPlan::multicast(const std::vector<NodeId>& parts, unsigned root, std::uint8_t kind,
                             unsigned packets,
                             const std::function<void(const Unicast&)>& f) const {
  const unsigned count = static_cast<unsigned>(parts.size());
  for (unsigned i = 0; i < count; ++i)
    for (unsigned c : children(count, root, i)) f(Unicast{kind, parts[i], parts[c], packets});
}

void AllToAllPlan::plain_multicasts(const Box& region, const std::vector<NodeId>& sources,
                                    std::uint8_t kind,
                                    const std::function<void(const Unicast&)>& f) const {
  std::vector<NodeId> parts(region.size());
  for (unsigned i = 0; i < region.size(); ++i) parts[i] = region.node(i);
  for (NodeId s : sources) multicast(parts, region.local(s), kind, 1, f);
}

void AllToAllPlan::level_unicasts(const Level& l, std::uint8_t off,
                                  const std::function<void(const Unicast&)>& f) const {
  const unsigned tiles = l.region.tiles(l.tile);
  std::vector<NodeId> intermediates(tiles);
  std::vector<std::vector<NodeId>> members(tiles);
  for (unsigned t = 0; t < tiles; ++t) {
    const Box box = l.region.tile(l.tile, t);
    intermediates[t] = box.node(l.intermediate_local);
    for (unsigned i = 0; i < box.size(); ++i) members[t].push_back(box.node(i));
    if (variant_ == A2aVariant::recursive && off == 0)
      level_unicasts(inner(box.node(0)), kInnerLevel, f);
    else
      plain_multicasts(box, tile_sources(l, t), static_cast<std::uint8_t>(kStepIntra + off), f);
  }
  const auto inter = static_cast<std::uint8_t>(kStepInter + off);
  const auto deliver = static_cast<std::uint8_t>(kStepDeliver + off);
  const auto partner = static_cast<std::uint8_t>(kStepPartner + off);
  for (unsigned g = 0; g < tiles; ++g) {
    const std::vector<NodeId> src = tile_sources(l, g);
    const unsigned m = static_cast<unsigned>(src.size());
    if (scheme_ == A2aScheme::combining) {
      if (m == 0) continue;
      multicast(intermediates, g, inter, m, f);
      for (unsigned h = 0; h < tiles; ++h)
        if (h != g) multicast(members[h], l.intermediate_local, deliver, m, f);
      continue;
    }
    if (m >= 2) {
      if (variant_ == A2aVariant::every_node && off == 0) {
        for (unsigned q = 0; q < members[g].size(); ++q)
          for (unsigned h = 0; h < tiles; ++h)
            if (h != g)
              for (unsigned j = 0; j + 1 < m; ++j) f(Unicast{inter, members[g][q], members[h][q], 1});
      } else {
        for (unsigned j = 0; j + 1 < m; ++j) {
          multicast(intermediates, g, inter, 1, f);
          for (unsigned h = 0; h < tiles; ++h)
            if (h != g) multicast(members[h], l.intermediate_local, deliver, 1, f);
        }
      }
    }
    for (unsigned r = 0; r < m; ++r)
      for (unsigned h = 0; h < tiles; ++h)
        if (h != g)
          for (unsigned q = r; q < members[h].size(); q += m)
            f(Unicast{partner, src[r], members[h][q], 1});
  }
}

void AllToAllPlan::for_each_unicast(const std::function<void(const Unicast&)>& f) const {
  if (scheme_ == A2aScheme::plain) plain_multicasts(whole_, sources_, kStepBroadcast, f);
  else level_unicasts(outer_, 0, f);
}

}  // namespace collnoc
