// Closed form of a packet's zero-load latency, for the pipeline the Router and NI implement.
//
// Definitions (all in cycles): H = router.hop_latency_cycles, L = link.latency_cycles,
// Li / Le = injection / ejection channel latency (ni_link.latency_cycles), F = packet length in
// flits, D = router-to-router hops (D + 1 routers on the path).
//   wormhole, VCT:     T = Li + D*(H + L - 1) + (H - 1) + Le + (F - 1)
//   store-and-forward: T = Li + (D + 1)*(H - 1 + F - 1) + D*L + Le + (F - 1)
// measured from the cycle the packet enters the source queue to the cycle its tail is in the
// destination NI. The NI adds nothing for synthetic packets; for a message sent by a core,
// add ni.send_overhead_cycles before injection.
#pragma once
#include "noc/types.hpp"

namespace collnoc {

struct ZeroLoadInputs {
  unsigned hops;                 // D
  unsigned packet_flits;         // F
  unsigned hop_latency_cycles;   // H
  unsigned link_latency_cycles;  // L
  unsigned inject_latency_cycles = 1;  // Li
  unsigned eject_latency_cycles = 1;   // Le
  Switching switching = Switching::wormhole;
};

inline Cycle zero_load_latency(const ZeroLoadInputs& in) {
  const Cycle D = in.hops, F = in.packet_flits, H = in.hop_latency_cycles,
              L = in.link_latency_cycles;
  if (in.switching == Switching::store_and_forward)
    return in.inject_latency_cycles + (D + 1) * (H - 1 + F - 1) + D * L + in.eject_latency_cycles +
           (F - 1);
  return in.inject_latency_cycles + D * (H + L - 1) + (H - 1) + in.eject_latency_cycles + (F - 1);
}

}  // namespace collnoc
