#include "collectives/mpb_collective.hpp"

namespace collnoc {

namespace {

// The mesh tree rooted at the root, on the message-passing buffers: each leader puts every
// chunk into its children's leaders' buffers (a slot each, refilled once the child has
// acknowledged the one before: one chunk per link at a time, so a chunk held up at the child's
// ejection port by an acknowledgement holds up no other), then hands the whole message to its
// mate chunk by chunk in turns (MpbCollective::tree_down). Every tree link carries one stream
// down and its acknowledgements up.
class MpbBroadcast : public MpbCollective {
 public:
  MpbBroadcast(const FirmwareParams& p, const Topology& t) : MpbCollective(p, t, 1, 1) {
    copies_ = CopyBuffers::user(4ull * message_words(p));
  }
  void run_mpb(MessageLayer& ml, unsigned me, unsigned run) override {
    const Words want = broadcast_data(p_);
    Words data = me == p_.root ? want : Words(want.size(), 0);
    tree_down(ml, me, run, data, 0);
    check(data, want, "broadcast data at rank " + std::to_string(me));
  }
};

}  // namespace

// The data is made inside the cores' threads: workload.message_bytes is checked here.
std::unique_ptr<Firmware> make_broadcast_nocmsg_mpb(const FirmwareParams& p, const Topology& t) {
  message_words(p);
  return std::make_unique<MpbBroadcast>(p, t);
}

}  // namespace collnoc
