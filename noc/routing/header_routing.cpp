#include "noc/routing/header_routing.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>

#include "noc/routing/dimension_order.hpp"

namespace collnoc {

HeaderDecision HeaderRouting::route(const HeaderRoutingInput& in) const {
  using Action = HeaderDecision::Action;
  const RouterId target = topo_.router_of(in.dst);
  if (target == in.router) {
    const unsigned local = topo_.local_port_of(in.dst);
    const std::uint64_t bit = std::uint64_t{1} << local;
    if ((in.allocated | in.free) & bit) return HeaderDecision{Action::consume, local};
    return HeaderDecision{Action::blocked, local};
  }
  // Productive dimensions: (distance, port), greatest distance first.
  struct Dir {
    unsigned distance, port;
  };
  std::array<Dir, 16> dirs{};
  unsigned n = 0;
  for (unsigned d = 0; d < topo_.dimensions() && n < dirs.size(); ++d) {
    const int off = minimal_offset(topo_, d, topo_.coord(in.router, d), topo_.coord(target, d));
    if (off != 0) dirs[n++] = Dir{static_cast<unsigned>(std::abs(off)), topo_.port_toward(d, off)};
  }
  std::stable_sort(dirs.begin(), dirs.begin() + n,
                   [](const Dir& a, const Dir& b) { return a.distance > b.distance; });
  // Ties: rotate each run of equal distances by the random bits.
  for (unsigned begin = 0; begin < n;) {
    unsigned end = begin + 1;
    while (end < n && dirs[end].distance == dirs[begin].distance) ++end;
    if (end - begin > 1)
      std::rotate(dirs.begin() + begin, dirs.begin() + begin + in.random % (end - begin),
                  dirs.begin() + end);
    begin = end;
  }
  for (unsigned i = 0; i < n; ++i)
    if ((in.allocated >> dirs[i].port) & 1u) return HeaderDecision{Action::forward, dirs[i].port};
  for (unsigned i = 0; i < n; ++i)
    if ((in.free >> dirs[i].port) & 1u) return HeaderDecision{Action::forward, dirs[i].port};
  return HeaderDecision{Action::blocked, n ? dirs[0].port : 0u};
}

}  // namespace collnoc
