// The network interface's parameters (ni.* keys), shared by its blocks.
#pragma once
#include "ni/compression.hpp"
#include "ni/multicast_shape.hpp"
#include "ni/xor_engine.hpp"
#include "noc/router/router.hpp"

namespace collnoc {

struct NetworkInterfaceParams {
  unsigned flit_width_bits = 128;      // payload bits per flit (multiple of 32, <= 256)
  unsigned max_packet_flits = 16;      // the packetizer's longest packet
  unsigned ejection_buffer_flits = 0;  // per VC at the ejection port; 0 = router.buffer_flits
  unsigned send_overhead_cycles = 1;   // core hands a message to the NI
  unsigned recv_overhead_cycles = 1;   // NI hands a message to the core
  CompressionParams compression;       // policy never: no codec on the path
  XorEngineParams xor_engine;          // network coding (nc.xor_latency_cycles)
  unsigned mpb_bytes = 0;              // message-passing buffer beside the NI (SCC); 0 = none
  // Injection limits of synthetic sources when the traffic has multicast (SPEC 5): messages of
  // each kind a source queue holds at once. A message the source draws while its kind is at
  // the limit is not created (ni.messages_throttled).
  unsigned max_unicast_in_queue = 3;
  unsigned max_multicast_in_queue = 1;
  // Ejection channels from the router to the NI, each a link of its own (1 flit a cycle, the
  // router's VCs): a node takes up to this many flits a cycle (SPEC 5's sink channels).
  unsigned sink_channels = 1;

  static constexpr UintRange flit_width_bits_range{32, 32 * kMaxFlitWords};  // multiples of 32
  static constexpr UintRange max_packet_flits_range{1, 65535};
  static constexpr UintRange ejection_buffer_flits_range{0, 65535};
  static constexpr UintRange overhead_cycles_range{1, kU32Max};  // send and receive
  static constexpr UintRange max_in_queue_range{1, kU32Max};     // both injection limits
  static constexpr UintRange sink_channels_range{1, 32};  // and the router's ports <= 64

  unsigned words_per_flit() const { return flit_width_bits / 32; }
  unsigned ejection_buffer(const RouterParams& router) const {
    return ejection_buffer_flits ? ejection_buffer_flits : router.buffer_flits;
  }
};

void validate(const NetworkInterfaceParams& p);

// How the NIs cut firmware multicasts on routers `router` (none unless router.hta.enabled): a
// packet and its headers fit a multicast VC, its data ni.max_packet_flits and an ejection VC.
inline MulticastShape multicast_shape(const NetworkInterfaceParams& ni, const RouterParams& router) {
  if (!router.hta.enabled || router.vc_classes < 2) return {};
  return {router.buffer_flits, std::min(ni.max_packet_flits, ni.ejection_buffer(router)),
          ni.words_per_flit()};
}

}  // namespace collnoc
