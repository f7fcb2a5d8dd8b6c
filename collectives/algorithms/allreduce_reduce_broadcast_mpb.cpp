#include "collectives/mpb_collective.hpp"

namespace collnoc {

// The reduce on the message-passing buffers, then its result back down the same tree
// (MpbReduction in reduce_nocmsg_mpb.cpp).
std::unique_ptr<Firmware> make_allreduce_reduce_broadcast_mpb(const FirmwareParams& p, const Topology& t) {
  return make_mpb_reduction(p, t, true);
}

}  // namespace collnoc
