#include "collectives/mesh_collective.hpp"

namespace collnoc {

namespace {

// Recursive doubling; for a rank count that is not a power of two, the first 2 * rem ranks
// pair up first (the even one hands its data to the odd one and gets the result at the end).
class RecursiveDoublingAllreduce : public ReductionCollective {
 public:
  using ReductionCollective::ReductionCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    unsigned pof2 = 1, exchanges = 0;
    while (pof2 * 2 <= n_) pof2 *= 2, ++exchanges;
    const unsigned rem = n_ - pof2;
    Words acc = mine(me);
    int newrank;
    // Rounds: 1 the pairing, 2 .. log2(pof2) + 1 the exchanges, then the hand-back.
    unsigned round = 1;
    ml.mark_round(round);
    if (me < 2 * rem) {
      if (me % 2 == 0) {
        send(ml, me + 1, acc);
        newrank = -1;
      } else {
        fold(ml, acc, recv(ml, me - 1));
        newrank = static_cast<int>(me / 2);
      }
    } else {
      newrank = static_cast<int>(me - rem);
    }
    if (newrank >= 0)
      for (unsigned mask = 1; mask < pof2; mask <<= 1) {
        ml.mark_round(++round);
        const unsigned peer_new = static_cast<unsigned>(newrank) ^ mask;
        const unsigned peer = peer_new < rem ? peer_new * 2 + 1 : peer_new + rem;
        send(ml, peer, acc);
        fold(ml, acc, recv(ml, peer));
      }
    ml.mark_round(exchanges + 2);
    if (me < 2 * rem) {
      if (me % 2 == 0) acc = recv(ml, me + 1);
      else send(ml, me - 1, acc);
    }
    check(acc, want_, "allreduce result at rank " + std::to_string(me));
  }
};

}  // namespace

std::unique_ptr<Firmware> make_allreduce_recursive_doubling(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<RecursiveDoublingAllreduce>(p, t);
}

}  // namespace collnoc
