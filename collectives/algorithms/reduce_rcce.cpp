#include "collectives/scc_libraries.hpp"

namespace collnoc {

namespace {

// RCCE_reduce and RCCE_allreduce (one routine in RCCE_comm): every other rank sends its vector
// to the root, which takes them in rank order and folds each in as it arrives; for the
// allreduce (root rank 0) the root then sends the result to every other rank in rank order.
class RcceReduction : public ReductionCollective {
 public:
  RcceReduction(const FirmwareParams& p, const Topology& t, bool all)
      : ReductionCollective(p, t), all_(all) {}
  void run_rank(MessageLayer& ml, unsigned me) override {
    const unsigned root = all_ ? 0 : p_.root;
    Words acc = mine(me);
    if (me != root) {
      ml.mark_round(1);
      send(ml, root, acc);
      if (!all_) return;
      ml.mark_round(2);
      acc = recv(ml, root);
    } else {
      ml.mark_round(1);
      for (unsigned r = 0; r < n_; ++r)
        if (r != root) fold(ml, acc, recv(ml, r));
      ml.mark_round(2);
      if (all_)
        for (unsigned r = 0; r < n_; ++r)
          if (r != root) send(ml, r, acc);
    }
    check(acc, want_, std::string(all_ ? "allreduce" : "reduce") + " result at rank " + std::to_string(me));
  }

 private:
  bool all_;
};

}  // namespace

std::unique_ptr<Firmware> make_rcce_reduction(const FirmwareParams& p, const Topology& t, bool all) {
  require_library_transport(p);
  return std::make_unique<RcceReduction>(p, t, all);
}

std::unique_ptr<Firmware> make_reduce_rcce(const FirmwareParams& p, const Topology& t) {
  return make_rcce_reduction(p, t, false);
}

}  // namespace collnoc
