#include "collectives/mesh_collective.hpp"

namespace collnoc {

namespace {

// Two steps over the tree rooted at the root: each column folds into the root's row, far
// tiles first (a tile adds its own contribution to what came from further out and passes it
// one link on), then the row folds into the root. Every link carries one message, once.
class TreeReduce : public ReductionCollective {
 public:
  using ReductionCollective::ReductionCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    const Words acc = tree_reduce(ml, MeshTree(comm_, p_.root), me);
    if (me == p_.root) check(acc, want_, "reduce result at root " + std::to_string(me));
  }
};

}  // namespace

std::unique_ptr<Firmware> make_reduce_nocmsg(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<TreeReduce>(p, t);
}

}  // namespace collnoc
