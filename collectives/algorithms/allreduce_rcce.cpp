#include "collectives/scc_libraries.hpp"

namespace collnoc {

// RCCE_allreduce: RCCE's reduce to rank 0, which then sends the result to every rank in turn
// (collectives/algorithms/reduce_rcce.cpp).
std::unique_ptr<Firmware> make_allreduce_rcce(const FirmwareParams& p, const Topology& t) {
  return make_rcce_reduction(p, t, true);
}

}  // namespace collnoc
