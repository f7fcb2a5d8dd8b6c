#include "collectives/mpb_collective.hpp"

namespace collnoc {

namespace {

// The tree barrier of mesh links rooted at the grid centre, on flags in the message-passing
// buffers: a mate puts its arrival into its leader's buffer; a leader, once its mate and its
// children have arrived, puts the count into its parent's; the centre puts the release into
// its children's buffers, each leader into its children's and then its mate's. One put per
// link and direction, up then down: nothing meets on a link, and a tile's two cores inject in
// turn (the odd core is released first, then signals its sibling).
class MpbBarrier : public MpbCollective {
 public:
  MpbBarrier(const FirmwareParams& p, const Topology& t)
      : MpbCollective(p, t, 1, 1, false),
        centre_tree_(mesh_tree_tiles(comm_.rank_at((comm_.width() - 1) / 2, (comm_.height() - 1) / 2))) {}
  void run_mpb(MessageLayer& ml, unsigned me, unsigned run) override {
    ml.mark_round(1);
    const std::uint32_t released = flag_barrier(ml, me, centre_tree_, centre_tree_, run + 1);
    check(Words{released}, Words{n_}, "barrier release at rank " + std::to_string(me));
  }

 private:
  std::vector<int> centre_tree_;
};

}  // namespace

std::unique_ptr<Firmware> make_barrier_nocmsg_mpb(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<MpbBarrier>(p, t);
}

}  // namespace collnoc
