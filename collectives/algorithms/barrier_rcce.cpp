#include "collectives/scc_libraries.hpp"

namespace collnoc {

namespace {

// RCCE_barrier: linear, through the communicator's first member. Each other rank raises its
// arrival flag; the master sweeps the flags until every rank has arrived, counting them in
// whatever order they come, then writes each rank's release flag in rank order, and each rank
// waits for its own. Here a flag is a one-word message on the buffers (msg.protocol = mpb).
class RcceBarrier : public MeshCollective {
 public:
  using MeshCollective::MeshCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    if (me != 0) {
      send(ml, 0, Words{1});
      check(recv(ml, 0), Words{n_}, "barrier release at rank " + std::to_string(me));
      return;
    }
    Words count{1};
    for (unsigned arrivals = 1; arrivals < n_; ++arrivals) {
      const Message m = ml.recv_any();
      if (comm_.rank_of(m.src) < 0) fail("barrier arrival from a core outside the grid");
      if (!m.words.empty()) count[0] += m.words[0];
    }
    for (unsigned r = 1; r < n_; ++r) send(ml, r, count);
    check(count, Words{n_}, "barrier arrivals at rank 0");
  }
};

}  // namespace

std::unique_ptr<Firmware> make_barrier_rcce(const FirmwareParams& p, const Topology& t) {
  require_library_transport(p);
  return std::make_unique<RcceBarrier>(p, t);
}

}  // namespace collnoc
