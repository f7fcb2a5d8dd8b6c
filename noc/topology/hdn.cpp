#include "noc/topology/hdn.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace collnoc {

// ------------------------------------------------------------------------------ topology

HdnTopology::HdnTopology(HdnSpec spec, unsigned endpoints_per_router) : spec_(std::move(spec)) {
  const HdnBase& b = spec_.base;
  const unsigned k = spec_.levels;
  n_.push_back(b.nodes());
  nodes_.push_back(b.nodes());
  if (nodes_[0] > kMaxBuildNodes)
    throw ParamError("hdn.base", b.text, "more than 2^21 base routers to build");
  for (unsigned i = 1; i <= k; ++i) {
    const std::uint64_t s_i = s(i), prev = nodes_[i - 1];
    n_.push_back(prev / s_i);
    const long double next =
        2.0L * static_cast<long double>(n_[i]) * static_cast<long double>(prev);
    if (next > static_cast<long double>(kMaxBuildNodes)) {
      const HdnProperties p = hdn_properties(spec_);
      const std::string count =
          p.nodes ? std::to_string(*p.nodes) : "2^" + std::to_string(double(p.log2_nodes));
      throw ParamError("hdn.levels", std::to_string(k),
                       spec_.describe() + " has " + count +
                           " routers, more than the build limit 2^21 = " +
                           std::to_string(kMaxBuildNodes));
    }
    nodes_.push_back(2 * n_[i] * prev);
  }

  // Digit layouts (see the header).
  layout_.resize(k + 1);
  n_part_.resize(k + 1);
  sn_part_.resize(k + 1);
  for (unsigned f = 0; f < b.size(); ++f) layout_[0].push_back({f, b.factors[f].size});
  for (unsigned i = 1; i <= k; ++i) {
    const HdnSuperNode& sn = spec_.supernodes[i - 1];
    for (unsigned f : sn.factors) n_part_[i].push_back({f, b.factors[f].size});
    for (const Slot& slot : layout_[i - 1])
      if (!(slot.coord < b.size() && sn.contains(slot.coord))) sn_part_[i].push_back(slot);
    layout_[i] = n_part_[i];
    layout_[i].insert(layout_[i].end(), sn_part_[i].begin(), sn_part_[i].end());
    layout_[i].push_back({u_coord(i), n_[i]});
    layout_[i].push_back({c_coord(i), 2});
  }

  // Stride of each base factor in the router id (the level-k serial).
  std::vector<std::uint64_t> stride(b.size() + 2 * k, 0);
  std::uint64_t st = 1;
  for (const Slot& slot : layout_[k]) {
    stride[slot.coord] = st;
    st *= slot.radix;
  }

  base_ports_ = b.degree();
  const RouterId routers = static_cast<RouterId>(nodes_[k]);
  init(routers, base_ports_ + k, endpoints_per_router);
  std::vector<std::uint64_t> c;
  for (RouterId r = 0; r < routers; ++r) {
    c.assign(b.size() + 2 * k, 0);
    decode(layout_[k], r, c);
    for (unsigned f = 0; f < b.size(); ++f) {
      const std::uint64_t x = c[f], size = b.factors[f].size;
      const RouterId up = static_cast<RouterId>(r - x * stride[f] + ((x + 1) % size) * stride[f]);
      if (!b.factors[f].ring) {
        connect(r, base_port(f, false), up, base_port(f, false));
        continue;
      }
      const RouterId down =
          static_cast<RouterId>(r - x * stride[f] + ((x + size - 1) % size) * stride[f]);
      connect(r, base_port(f, false), up, base_port(f, true));
      connect(r, base_port(f, true), down, base_port(f, false));
    }
    for (unsigned i = 1; i <= k; ++i) connect(r, cross_port(i), cross_partner(r, i), cross_port(i));
  }
}

std::string HdnTopology::describe() const {
  return spec_.describe();  // (the routers are counted beside it: sim.routers)
}

std::string HdnTopology::port_name(unsigned port) const {
  if (is_local_port(port)) return Topology::port_name(port);
  if (port >= base_ports_) return "X" + std::to_string(port - base_ports_ + 1);
  unsigned p = 0;
  for (unsigned f = 0; f < spec_.base.size(); ++f) {
    const HdnFactor& fac = spec_.base.factors[f];
    if (!fac.ring && port == p) return "d" + std::to_string(f);
    if (fac.ring && port == p) return "+d" + std::to_string(f);
    if (fac.ring && port == p + 1) return "-d" + std::to_string(f);
    p += fac.ports();
  }
  return Topology::port_name(port);
}

std::uint64_t HdnTopology::s(unsigned level) const {
  return spec_.supernodes[level - 1].size(spec_.base);
}

unsigned HdnTopology::base_port(unsigned factor, bool minus) const {
  unsigned p = 0;
  for (unsigned f = 0; f < factor; ++f) p += spec_.base.factors[f].ports();
  return p + (minus && spec_.base.factors[factor].ring ? 1 : 0);
}

std::uint64_t HdnTopology::encode(const Layout& layout, const std::vector<std::uint64_t>& c) {
  std::uint64_t v = 0;
  for (auto it = layout.rbegin(); it != layout.rend(); ++it) v = v * it->radix + c[it->coord];
  return v;
}

void HdnTopology::decode(const Layout& layout, std::uint64_t value, std::vector<std::uint64_t>& c) {
  for (const Slot& slot : layout) {
    c[slot.coord] = value % slot.radix;
    value /= slot.radix;
  }
}

std::vector<std::uint64_t> HdnTopology::coords(RouterId r) const {
  std::vector<std::uint64_t> c(spec_.base.size() + 2 * spec_.levels, 0);
  decode(layout_[spec_.levels], r, c);
  return c;
}

RouterId HdnTopology::router_at(const std::vector<std::uint64_t>& c) const {
  return static_cast<RouterId>(encode(layout_[spec_.levels], c));
}

std::vector<unsigned> HdnTopology::base_coords(RouterId r) const {
  const std::vector<std::uint64_t> c = coords(r);
  return std::vector<unsigned>(c.begin(), c.begin() + spec_.base.size());
}

HdnTopology::LevelId HdnTopology::level_id(RouterId r, unsigned level) const {
  const std::vector<std::uint64_t> c = coords(r);
  return LevelId{static_cast<unsigned>(c[c_coord(level)]), c[u_coord(level)],
                 encode(sn_part_[level], c), encode(n_part_[level], c)};
}

std::uint64_t HdnTopology::serial(RouterId r, unsigned level) const {
  return encode(layout_[level], coords(r));
}

RouterId HdnTopology::cross_partner(RouterId r, unsigned level) const {
  // (C, U, SN, N) -> (1-C, SN, U, N); coordinates of higher levels stay.
  std::vector<std::uint64_t> c = coords(r);
  const std::uint64_t u = c[u_coord(level)], sn = encode(sn_part_[level], c);
  c[c_coord(level)] ^= 1;
  c[u_coord(level)] = sn;
  decode(sn_part_[level], u, c);
  return router_at(c);
}

// A generator applied to the level-`level` sub-network a coordinate vector lies in. At level i
// the map acts on the cluster part (the level-(i-1) node) and, through the super-node it
// induces, on the cluster id U_i: (C, U, SN, N) -> (C, pi(U), pi(SN), sigma(N)), which keeps
// cross edges because pi is the same map on U and SN and sigma does not depend on the super-node.
void HdnTopology::apply(unsigned level, unsigned g, std::vector<std::uint64_t>& c) const {
  const unsigned r = spec_.base.size();
  if (g >= r) {  // class flip of level g - r + 1
    const unsigned j = g - r + 1;
    if (j == level) {
      c[c_coord(j)] ^= 1;
      return;
    }
    if (j > level) return;
  } else if (level == 0) {
    c[g] = (c[g] + 1) % spec_.base.factors[g].size;
    return;
  }
  std::vector<std::uint64_t> rep = c;  // the first node of super-node U
  decode(sn_part_[level], c[u_coord(level)], rep);
  for (const Slot& slot : n_part_[level]) rep[slot.coord] = 0;
  apply(level - 1, g, rep);
  apply(level - 1, g, c);
  c[u_coord(level)] = encode(sn_part_[level], rep);
}

RouterId HdnTopology::apply_automorphism(RouterId r, unsigned generator) const {
  std::vector<std::uint64_t> c = coords(r);
  apply(spec_.levels, generator, c);
  return router_at(c);
}

HdnBfsResult hdn_bfs_diameter(const HdnTopology& t, bool use_symmetry) {
  const RouterId n = t.num_routers();
  std::vector<RouterId> sources;
  if (use_symmetry) {
    std::vector<RouterId> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    const auto find = [&](RouterId a) {
      while (parent[a] != a) a = parent[a] = parent[parent[a]];
      return a;
    };
    for (RouterId r = 0; r < n; ++r)
      for (unsigned g = 0; g < t.automorphism_generators(); ++g) {
        const RouterId a = find(r), b = find(t.apply_automorphism(r, g));
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
      }
    for (RouterId r = 0; r < n; ++r)
      if (find(r) == r) sources.push_back(r);
  } else {
    sources.resize(n);
    std::iota(sources.begin(), sources.end(), 0);
  }
  HdnBfsResult res;
  std::vector<std::uint32_t> dist(n);
  std::vector<RouterId> queue(n);
  for (RouterId src : sources) {
    std::fill(dist.begin(), dist.end(), ~0u);
    std::size_t head = 0, tail = 0;
    queue[tail++] = src;
    dist[src] = 0;
    while (head < tail) {
      const RouterId r = queue[head++];
      for (unsigned p = 0; p < t.network_ports(); ++p) {
        const PortPeer& q = t.peer(r, p);
        if (q.connected() && dist[q.router] == ~0u) {
          dist[q.router] = dist[r] + 1;
          queue[tail++] = q.router;
        }
      }
    }
    if (tail != n) res.connected = false;
    res.diameter = std::max<std::uint64_t>(res.diameter, dist[queue[tail - 1]]);
  }
  res.sources = sources.size();
  return res;
}

}  // namespace collnoc
