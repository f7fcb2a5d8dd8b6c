#include "collectives/mesh_collective.hpp"

namespace collnoc {

namespace {

// The static network's broadcast tree (one route configuration per tile). Without a static
// network (kary_ncube, scc) the same tree shape on the dynamic network: down the mesh tree
// rooted at the root, each link once.
class TreeBroadcast : public MeshCollective {
 public:
  TreeBroadcast(const FirmwareParams& p, const Topology& t) : MeshCollective(p, t) {
    copies_ = CopyBuffers::user(4ull * message_words(p));
  }
  void run_rank(MessageLayer& ml, unsigned me) override {
    Words data;
    if (me == p_.root) data = broadcast_data(p_);
    if (use_static_network(ml)) {
      sn_route_broadcast(ml, me, p_.root);
      data.resize(broadcast_data(p_).size());
      sn_broadcast(ml, me, p_.root, data, copies_);
    } else {
      scatter(ml, MeshTree(comm_, p_.root), me, data);
    }
    check(data, broadcast_data(p_), "broadcast data at rank " + std::to_string(me));
  }
};

}  // namespace

// The data is made inside the cores' threads: workload.message_bytes is checked here.
std::unique_ptr<Firmware> make_broadcast_nocmsg(const FirmwareParams& p, const Topology& t) {
  message_words(p);
  return std::make_unique<TreeBroadcast>(p, t);
}

}  // namespace collnoc
