// Column-path multicast (traffic.multicast_scheme = column_path), SPEC 5's second baseline: a
// message's destinations are grouped by column, and each column gets a path through its
// destinations in order; every destination on a path absorbs the message and sends it on to
// the next (absorb-and-forward), as unicast packets on the same network.
#pragma once
#include <vector>

#include "noc/topology/kary_ncube.hpp"
#include "noc/types.hpp"

namespace collnoc {

class ColumnPaths {
 public:
  // On a mesh or torus: a column is the routers that share every coordinate but the last
  // dimension's (in 2-D, x), a path runs along the last dimension (y).
  explicit ColumnPaths(const KaryNCube& topo) : topo_(topo) {}

  // The paths of a message from `src` to `dsts` (distinct, not src), each a list of
  // destinations in the order the message visits them; columns in the order their first
  // destination appears in `dsts`. Along a path, destinations go by their distance from the
  // source's row in the direction the path takes: on a unidirectional torus one path per
  // column in the + direction; on a mesh or bidirectional torus up to two, one each way (the
  // source's row, distance 0, starts the + path), as column-path routing was defined (Boppana,
  // Chalasani and Raghavendra). Endpoints of one router follow each other by number.
  std::vector<std::vector<NodeId>> paths(NodeId src, const std::vector<NodeId>& dsts) const;

 private:
  // Signed hops from row `from` to row `to` along the last dimension, the way a path takes.
  int offset(unsigned from, unsigned to) const;
  const KaryNCube& topo_;
};

}  // namespace collnoc
