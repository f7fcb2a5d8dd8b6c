#include "noc/topology/random_regular.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "noc/random.hpp"

namespace collnoc {

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
