#include "noc/routing/two_phase.hpp"

#include <cstdlib>
#include <string>

#include "noc/random.hpp"

namespace collnoc {

namespace {
constexpr std::uint64_t kValiantSalt = 0x76616c69616e74ULL;  // "valiant"
constexpr std::uint64_t kRommSalt = 0x726f6d6dULL;           // "romm"
}  // namespace

TwoPhaseRouting::TwoPhaseRouting(const KaryNCube& topo, unsigned vcs_per_class,
                                 TwoPhaseKind kind, const char* name, DimensionOrder order,
                                 TorusTies ties)
    // (dor_ only takes hops on the VC ranges given to it: 2 VCs pass its torus check.)
    : topo_(topo), dor_(topo, 2, order, ties), vcs_(vcs_per_class), kind_(kind) {
  const unsigned need = topo.torus() ? 4 : 2;
  if (topo.torus() && topo.directions() == 1)
    throw ParamError("routing.algorithm", name,
                     "needs links both ways; a unidirectional torus takes dor or adaptive");
  if (vcs_per_class < need)
    throw ParamError("routing.algorithm", name,
                     "needs >= " + std::to_string(need) + " VCs per class on a " + topo.kind() +
                         " (a half per phase" + (topo.torus() ? ", each split at the dateline" : "") +
                         "); have " + std::to_string(vcs_per_class));
}

RouterId TwoPhaseRouting::intermediate(const PacketHeader& hdr) const {
  if (kind_ == TwoPhaseKind::valiant)
    return static_cast<RouterId>(hash64(hdr.packet_id, kValiantSalt) % topo_.num_routers());
  // ROMM: per dimension, a coordinate uniform among the 1 + |offset| on the minimal way.
  const RouterId from = topo_.router_of(hdr.src), to = topo_.router_of(hdr.dst);
  RouterId via = 0, stride = 1;  // (router id: dimension 0 fastest)
  for (unsigned d = 0; d < topo_.dimensions(); ++d) {
    const unsigned a = topo_.coord(from, d);
    const int off = dor_.offset(d, a, topo_.coord(to, d), hdr.packet_id);
    const auto span = static_cast<std::uint64_t>(std::abs(off)) + 1;
    const int step = static_cast<int>(hash64(hdr.packet_id, kRommSalt + d) % span);
    const int k = static_cast<int>(topo_.k(d));
    via += stride * static_cast<RouterId>(((static_cast<int>(a) + (off < 0 ? -step : step)) % k + k) % k);
    stride *= topo_.k(d);
  }
  return via;
}

void TwoPhaseRouting::route(const RouteRequest& req, RouteResult& out) const {
  const unsigned half = vcs_ / 2;
  const RouterId via = intermediate(req.hdr);
  const bool second = req.router == via || (!topo_.is_local_port(req.in_port) && req.in_vc >= half);
  if (second) dor_.escape(req.router, req.dst, req.hdr.packet_id, half, vcs_, out);
  else dor_.step(req.router, via, req.hdr.packet_id, 0, half, out);
}

}  // namespace collnoc
