// How an NI cuts a firmware multicast (MessageLayer::multicast) for HTA routers (docs/hta.md,
// "Firmware"): into packets of the routers' multicast class, each its header flits (one per
// destination) then up to data_flits(destinations) data flits, so that a packet fits one
// multicast VC (SPEC 5: a VC holds a whole message). The NI cuts by it; firmware plans by it.
#pragma once
#include <algorithm>

namespace collnoc {

struct MulticastShape {
  unsigned vc_flits = 0;        // what a multicast VC holds (0: the network has no HTA routers)
  unsigned max_data_flits = 0;  // data flits a packet carries at most (a packet, an ejection VC)
  unsigned words_per_flit = 0;

  bool available() const { return vc_flits > 0; }
  // Data flits per packet of a multicast to `destinations` (0: more headers than a VC holds
  // beside a data flit).
  unsigned data_flits(unsigned destinations) const {
    return destinations < vc_flits ? std::min(max_data_flits, vc_flits - destinations) : 0;
  }
};

}  // namespace collnoc
