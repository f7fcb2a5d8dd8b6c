#include "collectives/scc_libraries.hpp"

namespace collnoc {

namespace {

// RCCE_bcast: linear. The root sends the whole message to every other rank in rank order (each
// RCCE_send waits for its receiver); the others receive it from the root.
class RcceBroadcast : public MeshCollective {
 public:
  RcceBroadcast(const FirmwareParams& p, const Topology& t) : MeshCollective(p, t) {
    copies_ = CopyBuffers::user(4ull * message_words(p));
  }
  void run_rank(MessageLayer& ml, unsigned me) override {
    Words data;
    if (me == p_.root) {
      data = broadcast_data(p_);
      for (unsigned r = 0; r < n_; ++r)
        if (r != me) send(ml, r, data);
    } else {
      data = recv(ml, p_.root);
    }
    check(data, broadcast_data(p_), "broadcast data at rank " + std::to_string(me));
  }
};

}  // namespace

std::unique_ptr<Firmware> make_broadcast_rcce(const FirmwareParams& p, const Topology& t) {
  require_library_transport(p);
  message_words(p);
  return std::make_unique<RcceBroadcast>(p, t);
}

}  // namespace collnoc
