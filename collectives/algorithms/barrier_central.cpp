#include "collectives/mesh_collective.hpp"

namespace collnoc {

namespace {

// Every rank reports to rank 0, which releases them all.
class CentralBarrier : public MeshCollective {
 public:
  using MeshCollective::MeshCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    if (me != 0) {
      send(ml, 0, Words{1});
      check(recv(ml, 0), Words{n_}, "barrier release at rank " + std::to_string(me));
      return;
    }
    Words count{1};
    for (unsigned r = 1; r < n_; ++r) count[0] += recv(ml, r).at(0);
    for (unsigned r = 1; r < n_; ++r) send(ml, r, count);
    check(count, Words{n_}, "barrier arrivals at rank 0");
  }
};

}  // namespace

std::unique_ptr<Firmware> make_barrier_central(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<CentralBarrier>(p, t);
}

}  // namespace collnoc
