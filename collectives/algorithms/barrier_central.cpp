#include "collectives/mesh_collective.hpp"

namespace collnoc {

namespace {

// Every rank reports to rank 0, which releases them all in rank order. Rank 0 takes the
// arrivals in rank order, or (`any_order`, RCCE's barrier sweeping its flags) as they come.
class CentralBarrier : public MeshCollective {
 public:
  CentralBarrier(const FirmwareParams& p, const Topology& t, bool any_order)
      : MeshCollective(p, t), any_order_(any_order) {}
  void run_rank(MessageLayer& ml, unsigned me) override {
    if (me != 0) {
      send(ml, 0, Words{1});
      check(recv(ml, 0), Words{n_}, "barrier release at rank " + std::to_string(me));
      return;
    }
    Words count{1};
    for (unsigned r = 1; r < n_; ++r) count[0] += arrival(ml, r);
    for (unsigned r = 1; r < n_; ++r) send(ml, r, count);
    check(count, Words{n_}, "barrier arrivals at rank 0");
  }

 private:
  std::uint32_t arrival(MessageLayer& ml, unsigned r) {
    if (!any_order_) return recv(ml, r).at(0);
    const Message m = ml.recv_any();
    if (comm_.rank_of(m.src) < 0) fail("barrier arrival from a core outside the grid");
    return m.words.empty() ? 0 : m.words[0];
  }
  bool any_order_;
};

}  // namespace

std::unique_ptr<Firmware> make_central_barrier(const FirmwareParams& p, const Topology& t,
                                               bool any_order) {
  return std::make_unique<CentralBarrier>(p, t, any_order);
}

std::unique_ptr<Firmware> make_barrier_central(const FirmwareParams& p, const Topology& t) {
  return make_central_barrier(p, t, false);
}

}  // namespace collnoc
