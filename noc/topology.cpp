#include "noc/topology.hpp"

#include <deque>
#include <string>

namespace collnoc {

std::string Topology::port_name(unsigned port) const {
  if (is_local_port(port)) return "L" + std::to_string(port - network_ports_);
  return "P" + std::to_string(port);
}

void Topology::init(unsigned num_routers, unsigned network_ports, unsigned endpoints_per_router) {
  if (endpoints_per_router < 1)
    throw ParamError("topology.endpoints_per_router", std::to_string(endpoints_per_router),
                     "must be >= 1");
  network_ports_ = network_ports;
  endpoints_per_router_ = endpoints_per_router;
  peers_.assign(num_routers, std::vector<PortPeer>(network_ports));
}

void Topology::connect(RouterId a, unsigned port_a, RouterId b, unsigned port_b) {
  peers_[a][port_a] = PortPeer{b, port_b};
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
      const PortPeer& q = peers_[r][p];
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

}  // namespace collnoc
