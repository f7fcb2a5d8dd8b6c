#include "collectives/mesh_collective.hpp"

namespace collnoc {

namespace {

// Tree reduce to the root, then the result broadcast on the static network (tilepro); without
// one, back down the same tree on the dynamic network (links used in the opposite direction,
// after every upward message has arrived).
class ReduceBroadcastAllreduce : public ReductionCollective {
 public:
  using ReductionCollective::ReductionCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    const MeshTree tree(comm_, p_.root);
    const bool sn = use_static_network(ml);
    if (sn) sn_route_broadcast(ml, me, p_.root);
    Words acc = reduce_to_root(ml, tree, me);
    if (sn) sn_broadcast(ml, me, p_.root, acc, copies_);
    else scatter(ml, tree, me, acc);
    check(acc, want_, "allreduce result at rank " + std::to_string(me));
  }
};

}  // namespace

std::unique_ptr<Firmware> make_allreduce_reduce_broadcast(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<ReduceBroadcastAllreduce>(p, t);
}

}  // namespace collnoc
