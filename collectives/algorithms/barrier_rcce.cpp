#include "collectives/scc_libraries.hpp"

namespace collnoc {

// RCCE_barrier: linear, through the communicator's first member. Each other rank raises its
// arrival flag; the master sweeps the flags until every rank has arrived, counting them in
// whatever order they come, then writes each rank's release flag in rank order, and each rank
// waits for its own: the central barrier with arrivals taken as they come
// (collectives/algorithms/barrier_central.cpp). Here a flag is a one-word message on the
// buffers (msg.protocol = mpb).
std::unique_ptr<Firmware> make_barrier_rcce(const FirmwareParams& p, const Topology& t) {
  require_library_transport(p);
  return make_central_barrier(p, t, true);
}

}  // namespace collnoc
