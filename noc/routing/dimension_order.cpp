#include "noc/routing/dimension_order.hpp"
#include "noc/topology/kary_ncube.hpp"

namespace collnoc {

int minimal_offset(const KaryNCube& topo, unsigned dim, unsigned from, unsigned to,
                   bool tie_minus) {
  int delta = static_cast<int>(to) - static_cast<int>(from);
  if (!topo.torus()) return delta;
  const int k = static_cast<int>(topo.k(dim));
  if (delta < 0) delta += k;            // 0 .. k-1 going +
  if (topo.directions() == 1) return delta;
  if (delta * 2 == k) return tie_minus ? delta - k : delta;
  return delta * 2 < k ? delta : delta - k;
}

DimensionOrderRouting::DimensionOrderRouting(const KaryNCube& topo, unsigned vcs_per_class,
                                             DimensionOrder order, TorusTies ties)
    : topo_(topo), vcs_(vcs_per_class), decreasing_(order == DimensionOrder::decreasing),
      balanced_(ties == TorusTies::balanced) {
  if (topo.torus() && vcs_per_class < 2)
    throw ParamError("routing.algorithm", "dor",
                     "on a torus needs >= 2 VCs per class for the dateline (router.vcs / "
                     "router.vc_classes = " + std::to_string(vcs_per_class) + ")");
}

void DimensionOrderRouting::escape(RouterId router, NodeId dst, PacketId packet, unsigned vc_lo,
                                   unsigned vc_hi, RouteResult& out) const {
  const RouterId target = topo_.router_of(dst);
  if (router == target) out.add(topo_.local_port_of(dst), vc_lo, vc_hi);
  else step(router, target, packet, vc_lo, vc_hi, out);
}

void DimensionOrderRouting::step(RouterId router, RouterId target, PacketId packet,
                                 unsigned vc_lo, unsigned vc_hi, RouteResult& out) const {
  const unsigned n = topo_.dimensions();
  for (unsigned i = 0; i < n; ++i) {
    const unsigned d = decreasing_ ? n - 1 - i : i;
    const unsigned cur = topo_.coord(router, d), to = topo_.coord(target, d);
    if (cur == to) continue;
    const int off = offset(d, cur, to, packet);
    const unsigned port = topo_.port_toward(d, off);
    if (!topo_.torus()) {
      out.add(port, vc_lo, vc_hi);
      return;
    }
    // Dateline: lower half of the VCs while the packet has yet to take the wrap link of this
    // dimension, upper half from the wrap link on (and for packets that never wrap). The lower
    // half then never crosses the wrap link and the upper half never reaches it again.
    const unsigned k = topo_.k(d);
    const bool takes_wrap_now = off > 0 ? cur == k - 1 : cur == 0;
    const bool wraps_later = off > 0 ? cur > to : cur < to;
    const unsigned mid = vc_lo + (vc_hi - vc_lo) / 2;
    if (wraps_later && !takes_wrap_now) out.add(port, vc_lo, mid);
    else out.add(port, mid, vc_hi);
    return;
  }
}

void DimensionOrderRouting::route(const RouteRequest& req, RouteResult& out) const {
  escape(req.router, req.dst, req.hdr.packet_id, 0, vcs_, out);
}

}  // namespace collnoc
