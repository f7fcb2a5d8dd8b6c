#include "ni/column_path.hpp"

#include <algorithm>
#include <cstdlib>

namespace collnoc {

int ColumnPaths::offset(unsigned from, unsigned to) const {
  const unsigned last = topo_.dimensions() - 1;
  const int k = static_cast<int>(topo_.k(last));
  int d = static_cast<int>(to) - static_cast<int>(from);
  if (!topo_.torus()) return d;
  if (d < 0) d += k;                             // 0 .. k-1 in the + direction
  if (topo_.directions() == 1) return d;         // one way round
  return 2 * d > k ? d - k : d;                  // the shorter way; k/2 goes + (as routing does)
}

std::vector<std::vector<NodeId>> ColumnPaths::paths(NodeId src,
                                                    const std::vector<NodeId>& dsts) const {
  const unsigned last = topo_.dimensions() - 1;
  const RouterId from = topo_.router_of(src);
  const unsigned row = topo_.coord(from, last);
  // A column: the router's coordinates but the last (dimension 0 fastest, so the last
  // coordinate is r / routers_per_row and the rest is r % routers_per_row).
  RouterId routers_per_row = 1;
  for (unsigned d = 0; d < last; ++d) routers_per_row *= topo_.k(d);
  struct Stop {
    int offset;
    NodeId node;
  };
  std::vector<RouterId> columns;          // in order of first appearance
  std::vector<std::vector<Stop>> stops;   // per column
  for (NodeId n : dsts) {
    const RouterId c = topo_.router_of(n) % routers_per_row;
    auto it = std::find(columns.begin(), columns.end(), c);
    if (it == columns.end()) {
      columns.push_back(c);
      stops.emplace_back();
      it = columns.end() - 1;
    }
    stops[static_cast<std::size_t>(it - columns.begin())].push_back(
        Stop{offset(row, topo_.coord(topo_.router_of(n), last)), n});
  }
  std::vector<std::vector<NodeId>> out;
  for (std::vector<Stop>& col : stops) {
    std::sort(col.begin(), col.end(), [](const Stop& a, const Stop& b) {
      const bool ap = a.offset >= 0, bp = b.offset >= 0;
      if (ap != bp) return ap;  // the + path first
      if (std::abs(a.offset) != std::abs(b.offset)) return std::abs(a.offset) < std::abs(b.offset);
      return a.node < b.node;
    });
    std::vector<NodeId> plus, minus;
    for (const Stop& s : col) (s.offset >= 0 ? plus : minus).push_back(s.node);
    if (!plus.empty()) out.push_back(std::move(plus));
    if (!minus.empty()) out.push_back(std::move(minus));
  }
  return out;
}

}  // namespace collnoc
