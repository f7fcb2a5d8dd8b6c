#include "noc/topology.hpp"

#include <algorithm>
#include <deque>
#include <string>

#include "noc/random.hpp"

namespace collnoc {

std::string Topology::port_name(unsigned port) const {
  if (is_local_port(port)) return "L" + std::to_string(port - network_ports_);
  return "P" + std::to_string(port);
}

void Topology::init(unsigned num_routers, unsigned network_ports, unsigned endpoints_per_router) {
  if (endpoints_per_router < 1)
    throw ParamError("topology.endpoints_per_router", std::to_string(endpoints_per_router),
                     "must be >= 1");
  num_routers_ = num_routers;
  network_ports_ = network_ports;
  endpoints_per_router_ = endpoints_per_router;
  peers_.assign(std::size_t{num_routers} * network_ports, PortPeer{});
}

void Topology::connect(RouterId a, unsigned port_a, RouterId b, unsigned port_b) {
  peers_[std::size_t{a} * network_ports_ + port_a] = PortPeer{b, port_b};
}

unsigned Topology::distance(RouterId a, RouterId b) const {
  if (a == b) return 0;
  std::vector<unsigned> dist(num_routers(), ~0u);
  std::deque<RouterId> queue{a};
  dist[a] = 0;
  while (!queue.empty()) {
    RouterId r = queue.front();
    queue.pop_front();
    for (unsigned p = 0; p < network_ports_; ++p) {
      const PortPeer& q = peer(r, p);
      if (!q.connected() || dist[q.router] != ~0u) continue;
      dist[q.router] = dist[r] + 1;
      if (q.router == b) return dist[b];
      queue.push_back(q.router);
    }
  }
  return ~0u;
}

KaryNCube::KaryNCube(std::vector<unsigned> k, bool torus, unsigned endpoints_per_router)
    : k_(std::move(k)), torus_(torus) {
  if (k_.empty()) throw ParamError("topology.n", "0", "must be >= 1");
  unsigned routers = 1;
  for (unsigned d = 0; d < k_.size(); ++d) {
    if (k_[d] < 2)
      throw ParamError("topology.k", std::to_string(k_[d]), "every dimension needs k >= 2");
    stride_.push_back(routers);
    if (routers > (1u << 24) / k_[d])
      throw ParamError("topology.k", describe(), "more than 16M routers");
    routers *= k_[d];
  }
  init(routers, 2 * dimensions(), endpoints_per_router);
  for (RouterId r = 0; r < routers; ++r) {
    for (unsigned d = 0; d < dimensions(); ++d) {
      const unsigned c = coord(r, d);
      if (c + 1 < k_[d]) connect(r, plus_port(d), r + stride_[d], minus_port(d));
      else if (torus_) connect(r, plus_port(d), r - c * stride_[d], minus_port(d));
      if (c > 0) connect(r, minus_port(d), r - stride_[d], plus_port(d));
      else if (torus_) connect(r, minus_port(d), r + (k_[d] - 1) * stride_[d], plus_port(d));
    }
  }
}

std::string KaryNCube::describe() const {
  std::string s;
  for (unsigned d = 0; d < k_.size(); ++d) s += (d ? "x" : "") + std::to_string(k_[d]);
  return s + " " + (torus_ ? "torus" : "mesh");
}

std::string KaryNCube::port_name(unsigned port) const {
  if (is_local_port(port)) return Topology::port_name(port);
  static const char* const kNames2d[] = {"E", "W", "N", "S"};  // +x, -x, +y, -y
  if (dimensions() <= 2) return kNames2d[port];
  return std::string(port % 2 ? "-" : "+") + "d" + std::to_string(port / 2);
}

RouterId KaryNCube::router_at(const std::vector<unsigned>& coords) const {
  RouterId r = 0;
  for (unsigned d = 0; d < dimensions(); ++d) r += coords[d] * stride_[d];
  return r;
}

unsigned KaryNCube::distance(RouterId a, RouterId b) const {
  unsigned hops = 0;
  for (unsigned d = 0; d < dimensions(); ++d) {
    const unsigned ca = coord(a, d), cb = coord(b, d);
    unsigned delta = ca > cb ? ca - cb : cb - ca;
    if (torus_ && k_[d] - delta < delta) delta = k_[d] - delta;
    hops += delta;
  }
  return hops;
}

namespace {

bool connected(unsigned n, const std::vector<std::pair<unsigned, unsigned>>& edges) {
  std::vector<std::vector<unsigned>> adj(n);
  for (const auto& [a, b] : edges) {
    adj[a].push_back(b);
    adj[b].push_back(a);
  }
  std::vector<bool> seen(n, false);
  std::vector<unsigned> stack{0};
  seen[0] = true;
  unsigned count = 1;
  while (!stack.empty()) {
    const unsigned r = stack.back();
    stack.pop_back();
    for (unsigned q : adj[r])
      if (!seen[q]) seen[q] = true, ++count, stack.push_back(q);
  }
  return count == n;
}

}  // namespace

RandomRegularGraph::RandomRegularGraph(unsigned nodes, unsigned degree, std::uint64_t seed,
                                       unsigned endpoints_per_router)
    : degree_(degree) {
  if (nodes < 3 || nodes > (1u << 16))
    throw ParamError("topology.nodes", std::to_string(nodes), "must be in 3..65536");
  const unsigned max_degree = std::min(nodes - 1, kMaxRouterPorts - endpoints_per_router);
  if (degree < 2 || degree > max_degree)
    throw ParamError("topology.degree", std::to_string(degree),
                     "must be in 2.." + std::to_string(max_degree) +
                         " (topology.nodes - 1, and a router has at most " +
                         std::to_string(kMaxRouterPorts) + " ports with its local port)");
  if ((static_cast<std::uint64_t>(nodes) * degree) % 2)
    throw ParamError("topology.degree", std::to_string(degree),
                     "nodes x degree must be even (every link has two ends)");
  // Circulant start. Edges are looked up in their ends' neighbour lists (`degree` entries each):
  // a std::set of the 2M edges of 65536 x 64 took 145 s over the swaps below.
  std::vector<std::pair<unsigned, unsigned>> edges;
  std::vector<std::vector<unsigned>> neighbours(nodes);
  const auto linked = [&](unsigned a, unsigned b) {
    const std::vector<unsigned>& n = neighbours[a];
    return std::find(n.begin(), n.end(), b) != n.end();
  };
  const auto link = [&](unsigned a, unsigned b) {
    neighbours[a].push_back(b);
    neighbours[b].push_back(a);
  };
  const auto unlink = [&](unsigned a, unsigned b) {
    for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
      std::vector<unsigned>& n = neighbours[from];
      *std::find(n.begin(), n.end(), to) = n.back();
      n.pop_back();
    }
  };
  const auto add = [&](unsigned a, unsigned b) {
    if (linked(a, b)) return;
    link(a, b);
    edges.emplace_back(std::min(a, b), std::max(a, b));
  };
  for (unsigned i = 0; i < nodes; ++i)
    for (unsigned j = 1; j <= degree / 2; ++j) add(i, (i + j) % nodes);
  if (degree % 2)
    for (unsigned i = 0; i < nodes / 2; ++i) add(i, i + nodes / 2);
  // Degree-preserving swaps: (a,b),(c,d) -> (a,d),(c,b) when that keeps the graph simple.
  Rng rng(hash64(seed, 0x70901097ull));
  const std::size_t swaps = 10 * edges.size();
  for (int attempt = 0;; ++attempt) {
    for (std::size_t s = 0; s < swaps; ++s) {
      const std::size_t i = rng.below(edges.size()), j = rng.below(edges.size());
      if (i == j) continue;
      auto [a, b] = edges[i];
      auto [c, d] = edges[j];
      if (rng.below(2)) std::swap(c, d);
      if (a == d || c == b || linked(a, d) || linked(c, b)) continue;
      unlink(a, b);
      unlink(c, d);
      link(a, d);
      link(c, b);
      edges[i] = {std::min(a, d), std::max(a, d)};
      edges[j] = {std::min(c, b), std::max(c, b)};
    }
    if (connected(nodes, edges)) break;
    if (attempt == 100)
      throw ParamError("topology.degree", std::to_string(degree), "no connected graph found");
  }
  std::sort(edges.begin(), edges.end());
  init(nodes, degree, endpoints_per_router);
  std::vector<unsigned> next_port(nodes, 0);
  for (const auto& [a, b] : edges) {
    const unsigned pa = next_port[a]++, pb = next_port[b]++;
    connect(a, pa, b, pb);
    connect(b, pb, a, pa);
  }
}

std::string RandomRegularGraph::describe() const {
  return std::to_string(num_routers()) + "-node random graph of degree " + std::to_string(degree_);
}

}  // namespace collnoc
