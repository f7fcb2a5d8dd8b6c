#include "collectives/mesh_collective.hpp"

namespace collnoc {

namespace {

// N-1 stages; in stage s rank r sends to r + s and receives from r - s (mod N).
class PairwiseAlltoall : public AlltoallBase {
 public:
  PairwiseAlltoall(const FirmwareParams& p, const Topology& t, bool varying)
      : AlltoallBase(p, t, varying) {}
  void run_rank(MessageLayer& ml, unsigned me) override {
    for (unsigned s = 1; s < n_; ++s) {
      ml.mark_round(s);
      const unsigned dst = (me + s) % n_, src = (me + n_ - s) % n_;
      send(ml, dst, message(me, dst), copies_of(me, dst));
      check(recv(ml, src, copies_of(src, me)), message(src, me), "message " + std::to_string(src) + " -> " + std::to_string(me));
    }
  }
};

}  // namespace

std::unique_ptr<Firmware> make_alltoall_pairwise(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<PairwiseAlltoall>(p, t, false);
}

// alltoallv pairwise: the same class with a size per pair (its own line in algorithms.def).
std::unique_ptr<Firmware> make_alltoallv_pairwise(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<PairwiseAlltoall>(p, t, true);
}

}  // namespace collnoc
