#include "collectives/scc_libraries.hpp"

namespace collnoc {

namespace {

// MPICH2's barrier (RCKMPI's): dissemination. In round k (distance d = 2^k) every rank sends
// to rank + d and receives from rank - d (mod n); after ceil(log2 n) rounds every rank has
// heard, directly or through others, from every rank. The message is the set of ranks its
// sender has heard from (a bit per rank), so each rank checks that all n reached it.
class DisseminationBarrier : public MeshCollective {
 public:
  using MeshCollective::MeshCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    Words heard((n_ + 31) / 32, 0);
    heard[me / 32] |= 1u << (me % 32);
    unsigned round = 0;
    for (unsigned d = 1; d < n_; d <<= 1) {
      ml.mark_round(++round);
      send(ml, (me + d) % n_, heard);
      const Words in = recv(ml, (me + n_ - d) % n_);
      for (std::size_t i = 0; i < heard.size() && i < in.size(); ++i) heard[i] |= in[i];
    }
    Words all(heard.size(), ~0u);
    if (n_ % 32 != 0) all.back() = (1u << (n_ % 32)) - 1;
    check(heard, all, "barrier: ranks heard from at rank " + std::to_string(me));
  }
};

}  // namespace

std::unique_ptr<Firmware> make_barrier_rckmpi(const FirmwareParams& p, const Topology& t) {
  require_library_transport(p);
  return with_variant(std::make_unique<DisseminationBarrier>(p, t), "dissemination");
}

}  // namespace collnoc
