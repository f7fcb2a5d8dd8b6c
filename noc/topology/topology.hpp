// Topology graphs: which router port connects to which, and where the endpoints (NIs) attach.
//
// Router ports are numbered network ports first (0 .. network_ports-1), then one local port per
// endpoint attached to the router (concentration). Every router of a topology has the same radix.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "noc/types.hpp"

namespace collnoc {

struct PortPeer {
  static constexpr RouterId kNone = ~RouterId{0};
  RouterId router = kNone;  // router at the other end, kNone if the port is unconnected
  unsigned port = 0;        // its input port
  bool connected() const { return router != kNone; }
};

class Topology {
 public:
  virtual ~Topology() = default;
  virtual std::string kind() const = 0;        // registry name, e.g. "mesh"
  virtual std::string describe() const = 0;    // e.g. "8x8 mesh"
  virtual std::string port_name(unsigned port) const;  // "E", "W", ... for traces and reports

  unsigned num_routers() const { return num_routers_; }
  unsigned network_ports() const { return network_ports_; }
  unsigned endpoints_per_router() const { return endpoints_per_router_; }
  unsigned radix() const { return network_ports_ + endpoints_per_router_; }
  unsigned num_endpoints() const { return num_routers() * endpoints_per_router_; }

  const PortPeer& peer(RouterId r, unsigned port) const {
    return peers_[std::size_t{r} * network_ports_ + port];
  }
  RouterId router_of(NodeId e) const { return e / endpoints_per_router_; }
  unsigned local_port_of(NodeId e) const { return network_ports_ + e % endpoints_per_router_; }
  NodeId endpoint_at(RouterId r, unsigned local_index) const {
    return r * endpoints_per_router_ + local_index;
  }
  bool is_local_port(unsigned port) const { return port >= network_ports_; }

  // Shortest path length in router-to-router hops (breadth-first search unless overridden).
  virtual unsigned distance(RouterId a, RouterId b) const;

 protected:
  void init(unsigned num_routers, unsigned network_ports, unsigned endpoints_per_router);
  void connect(RouterId a, unsigned port_a, RouterId b, unsigned port_b);  // one direction

 private:
  // Router r's ports from r * network_ports_ on: one block, not a vector per router (a 16M-router
  // mesh took 1.2 GB that way).
  std::vector<PortPeer> peers_;
  unsigned num_routers_ = 0;
  unsigned network_ports_ = 0;
  unsigned endpoints_per_router_ = 1;
};

}  // namespace collnoc
