#include "collectives/mesh_collective.hpp"

namespace collnoc {

namespace {

// The tree barrier of mesh links rooted at the grid centre (MeshCollective::tree_barrier).
class TreeBarrier : public MeshCollective {
 public:
  using MeshCollective::MeshCollective;
  void run_rank(MessageLayer& ml, unsigned me) override { tree_barrier(ml, me); }
};

}  // namespace

std::unique_ptr<Firmware> make_barrier_nocmsg(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<TreeBarrier>(p, t);
}

}  // namespace collnoc
