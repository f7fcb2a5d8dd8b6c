#include "noc/topology/topology.hpp"

#include <algorithm>
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

}  // namespace collnoc
