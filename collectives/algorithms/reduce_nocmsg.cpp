#include "collectives/mesh_collective.hpp"

namespace collnoc {

namespace {

// Two steps over the tree rooted at the root, its columns into the root's row and the row into
// the root: by default each tile sends directly to its row tile and the row tiles directly to
// the root, farthest first (workload.schedule = distance); or folded link by link (chain).
// ReductionCollective::reduce_to_root.
class TreeReduce : public ReductionCollective {
 public:
  using ReductionCollective::ReductionCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    const Words acc = reduce_to_root(ml, MeshTree(comm_, p_.root), me);
    if (me == p_.root) check(acc, want_, "reduce result at root " + std::to_string(me));
  }
};

}  // namespace

std::unique_ptr<Firmware> make_reduce_nocmsg(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<TreeReduce>(p, t);
}

}  // namespace collnoc
