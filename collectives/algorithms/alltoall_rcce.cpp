#include "collectives/scc_libraries.hpp"

namespace collnoc {

namespace {

// RCCE has no alltoall: a user of RCCE writes one out of RCCE_send and RCCE_recv, and since
// RCCE_send returns only once its receiver has taken the data, a shift in which every rank
// first sends deadlocks. The usual way is exchanges between pairs, the lower rank sending
// first: here the round-robin tournament (circle method), n - 1 rounds in which every rank has
// one partner (n odd: n rounds, each rank idle in one), every pair meeting once.
class RcceAlltoall : public AlltoallBase {
 public:
  RcceAlltoall(const FirmwareParams& p, const Topology& t, bool varying)
      : AlltoallBase(p, t, varying) {}
  void run_rank(MessageLayer& ml, unsigned me) override {
    const unsigned rounds = n_ % 2 == 0 ? n_ - 1 : n_;
    for (unsigned k = 0; k < rounds; ++k) {
      const int partner = partner_in(k, me, rounds);
      if (partner < 0) continue;
      ml.mark_round(k + 1);
      const unsigned other = static_cast<unsigned>(partner);
      const std::string what = "message " + std::to_string(other) + " -> " + std::to_string(me);
      if (me < other) {
        send(ml, other, message(me, other));
        check(recv(ml, other), message(other, me), what);
      } else {
        check(recv(ml, other), message(other, me), what);
        send(ml, other, message(me, other));
      }
    }
  }

 private:
  // Rank me's partner in round k of `rounds` (-1: idle). Ranks below `rounds` pair as
  // k - me (mod rounds); with n even, the one that would pair with itself meets rank n - 1.
  int partner_in(unsigned k, unsigned me, unsigned rounds) const {
    if (me == rounds) {  // rank n - 1, n even: the rank i with 2i = k (mod rounds)
      for (unsigned i = 0; i < rounds; ++i)
        if ((2 * i) % rounds == k) return static_cast<int>(i);
      return -1;
    }
    const unsigned p = (k + rounds - me) % rounds;
    if (p != me) return static_cast<int>(p);
    return n_ % 2 == 0 ? static_cast<int>(n_ - 1) : -1;
  }
};

}  // namespace

std::unique_ptr<Firmware> make_alltoall_rcce(const FirmwareParams& p, const Topology& t) {
  require_library_transport(p);
  return std::make_unique<RcceAlltoall>(p, t, false);
}

// alltoallv rcce: the same exchanges with a size per pair (its own line in algorithms.def).
std::unique_ptr<Firmware> make_alltoallv_rcce(const FirmwareParams& p, const Topology& t) {
  require_library_transport(p);
  return std::make_unique<RcceAlltoall>(p, t, true);
}

}  // namespace collnoc
