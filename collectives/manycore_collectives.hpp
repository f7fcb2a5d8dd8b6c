// Collectives on the tiles of a 2-D mesh sub-grid (workload.grid): the predictable (nocmsg) set,
// whose messages never meet on a router-to-router link, and the contention-oblivious baselines
// a reference MPI library would use. Every entry is a line of collective_algorithms().
#pragma once
#include <memory>

#include "collectives/firmware.hpp"

namespace collnoc::manycore {

using Maker = std::unique_ptr<Firmware> (*)(const FirmwareParams&, const Topology&);

// nocmsg: contention-free by construction (see docs/manycore.md)
extern const Maker nocmsg_alltoall, nocmsg_alltoallv, nocmsg_barrier, nocmsg_broadcast, onesided_broadcast,
    nocmsg_reduce, reduce_broadcast_allreduce;
// baselines
extern const Maker binomial_broadcast, binomial_reduce, recursive_doubling_allreduce,
    pairwise_alltoall, pairwise_alltoallv, central_barrier;

}  // namespace collnoc::manycore
