#include "collectives/mpb_collective.hpp"

namespace collnoc {

namespace {

// The reduce and the allreduce on the message-passing buffers: up the mesh tree rooted at the
// root chunk by chunk (MpbCollective::tree_up: a leader folds its mate's, then its children's
// chunks into its own and passes each on as soon as it has it), and for the allreduce the
// result back down the same tree (tree_down).
class MpbReduction : public MpbCollective {
 public:
  MpbReduction(const FirmwareParams& p, const Topology& t, bool all)
      : MpbCollective(p, t, all ? 6 : 5, 1), red_(p), want_(red_.expected(p.seed, n_, 0)), all_(all) {
    copies_ = CopyBuffers::user(4ull * red_.words());
  }
  void run_mpb(MessageLayer& ml, unsigned me, unsigned run) override {
    Words acc = red_.contribution(p_.seed, me, 0);
    tree_up(ml, me, run, acc, [&](Words& part, const Words& in) {
      if (in.size() != part.size()) return;  // check() reports the short result
      red_.combine(part, in);
      ml.reduced(part.size() * red_.elements() / red_.words());
    });
    if (all_) {
      if (me != p_.root) acc.assign(want_.size(), 0);
      tree_down(ml, me, run, acc, 5);
      check(acc, want_, "allreduce result at rank " + std::to_string(me));
    } else if (me == p_.root) {
      check(acc, want_, "reduce result at root " + std::to_string(me));
    }
  }
  void report_more(Report& out) const override {
    MpbCollective::report_more(out);
    out.set("collective.reduce_op", p_.reduce_op);
    out.set("collective.element_type", p_.element_type);
  }

 private:
  Reduction red_;
  Words want_;
  bool all_;
};

}  // namespace

std::unique_ptr<Firmware> make_mpb_reduction(const FirmwareParams& p, const Topology& t, bool all) {
  return std::make_unique<MpbReduction>(p, t, all);
}

std::unique_ptr<Firmware> make_reduce_nocmsg_mpb(const FirmwareParams& p, const Topology& t) {
  return make_mpb_reduction(p, t, false);
}

}  // namespace collnoc
