#include "noc/topology/kary_ncube.hpp"

#include <string>
#include <vector>

namespace collnoc {

KaryNCube::KaryNCube(std::vector<unsigned> k, bool torus, unsigned endpoints_per_router,
                     unsigned directions)
    : k_(std::move(k)), torus_(torus), directions_(directions) {
  if (k_.empty()) throw ParamError("topology.n", "0", "must be >= 1");
  if (directions != 1 && directions != 2)
    throw ParamError("topology.directions", std::to_string(directions), "must be 1 or 2");
  if (directions == 1 && !torus)
    throw ParamError("topology.directions", "1",
                     "a mesh needs links both ways (unidirectional: topology.kind = torus)");
  unsigned routers = 1;
  for (unsigned d = 0; d < k_.size(); ++d) {
    if (k_[d] < 2)
      throw ParamError("topology.k", std::to_string(k_[d]), "every dimension needs k >= 2");
    stride_.push_back(routers);
    if (routers > kMaxKaryNCubeRouters / k_[d])
      throw ParamError("topology.k", describe(), "more than 16M routers");
    routers *= k_[d];
  }
  init(routers, directions * dimensions(), endpoints_per_router);
  if (directions == 1) {
    for (RouterId r = 0; r < routers; ++r)
      for (unsigned d = 0; d < dimensions(); ++d) {
        const unsigned c = coord(r, d);
        connect(r, d, c + 1 < k_[d] ? r + stride_[d] : r - c * stride_[d], d);
      }
    return;
  }
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
  return s + (directions_ == 1 ? " unidirectional" : "") + " " + (torus_ ? "torus" : "mesh");
}

std::string KaryNCube::port_name(unsigned port) const {
  if (is_local_port(port)) return Topology::port_name(port);
  static const char* const kNames2d[] = {"E", "W", "N", "S"};  // +x, -x, +y, -y
  if (directions_ == 1) {
    if (dimensions() <= 2) return kNames2d[2 * port];
    return "+d" + std::to_string(port);
  }
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
    if (directions_ == 1) delta = cb >= ca ? cb - ca : k_[d] - delta;  // the + way only
    else if (torus_ && k_[d] - delta < delta) delta = k_[d] - delta;
    hops += delta;
  }
  return hops;
}

}  // namespace collnoc
