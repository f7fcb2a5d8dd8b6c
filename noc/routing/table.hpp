// Table-driven routing (`table`): the allowed output ports per router and destination, read
// from a file (routing.table).
#pragma once
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "noc/routing/routing.hpp"
#include "noc/topology/topology.hpp"

namespace collnoc {

// The file: one line per (router, destination) pair, `ROUTER DESTINATION [PORT ...] [escape
// PORT]`, routers and destination nodes by id, ports by number or by the topology's port name
// (E, W, N, S on 2-D meshes and tori); `#` starts a comment. Every router needs a line for every
// destination not attached to it (at the destination's router the packet leaves by its local
// port). The ports are candidates in the order given (the VC allocator takes the first it can).
// Every route must be loop-free (a packet reaches its destination whatever it chooses).
// - Without `escape`: each port on every VC of the packet's class, so the table is deadlock-free
//   only if its channel dependency graph is acyclic.
// - With `escape` on every line: the escape ports form an escape sub-network on VC 0 of the
//   class, the other ports take the remaining VCs adaptively (Duato). Its extended channel
//   dependency graph (direct dependencies, and indirect ones through adaptive channels) must be
//   acyclic.
// Checked on load, with the cycle named if there is one. Every problem is a ParamError naming
// routing.table and the line.
class TableRouting : public RoutingFunction {
 public:
  TableRouting(const Topology& topo, unsigned vcs_per_class, const std::string& path);
  // The table's text from `in`; errors name `path` as the file.
  TableRouting(const Topology& topo, unsigned vcs_per_class, std::istream& in,
               const std::string& path);
  void route(const RouteRequest& req, RouteResult& out) const override;
  bool offers_alternatives() const override { return true; }
  std::uint32_t adaptive_vcs() const override;
  bool has_escape() const { return !escape_.empty(); }

 private:
  void load(std::istream& in, const std::string& path);
  const Topology& topo_;
  unsigned vcs_;
  // Per (router, destination): [begin_[i], begin_[i + 1]) in ports_, and the escape port (when
  // the table names an escape sub-network).
  std::vector<std::uint32_t> begin_;
  std::vector<std::uint8_t> ports_;
  std::vector<std::uint8_t> escape_;
};

}  // namespace collnoc
