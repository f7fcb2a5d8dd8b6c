// The SCC's own message libraries as collective algorithms (SPEC 6.5's baselines on scc;
// docs/scc_collectives.md): workload.algorithm = rcce is what Intel's RCCE and its RCCE_comm
// collectives do (linear, through one master rank), rckmpi what RCKMPI does, which is MPICH2
// over the buffers: MPICH2's collectives, each picking its algorithm by message size and rank
// count. Both are message libraries: their sends and receives go through msg.protocol = mpb
// (flag and chunk puts in the message-passing buffers). The algorithms themselves are one file
// each in collectives/algorithms/ (<collective>_rcce.cpp, <collective>_rckmpi.cpp).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "collectives/mesh_collective.hpp"

namespace collnoc {

// The libraries run on scc's buffers only, over msg.protocol = mpb: ParamError naming
// workload.algorithm on a platform without message-passing buffers, msg.protocol for another
// protocol.
void require_library_transport(const FirmwareParams& p);

// `program` (a collective), reporting collective.variant = `variant` as well (which algorithm
// RCKMPI picked).
std::unique_ptr<Firmware> with_variant(std::unique_ptr<Firmware> program, std::string variant);

// MPICH2's switch points between its algorithms (bytes; src/mpi/coll of MPICH2 1.x, on which
// RCKMPI is built; Thakur, Rabenseifner and Gropp 2005): a message is short below (or up to)
// these, long from them on.
struct MpichThresholds {
  static constexpr std::uint64_t bcast_short_bytes = 12288;     // below: binomial
  static constexpr std::uint64_t bcast_long_bytes = 524288;     // below, 2^k ranks: doubling
  static constexpr unsigned bcast_min_ranks = 8;                // fewer ranks: binomial
  static constexpr std::uint64_t reduce_short_bytes = 2048;     // up to: binomial
  static constexpr std::uint64_t allreduce_short_bytes = 2048;  // up to: recursive doubling
  static constexpr std::uint64_t alltoall_short_bytes = 256;    // up to, 8+ ranks: Bruck
  static constexpr std::uint64_t alltoall_medium_bytes = 32768; // up to: all sends at once
};

// The largest power of two at most n (n >= 1).
unsigned power_of_two_floor(unsigned n);

// Every rank reports to rank 0, which releases all in rank order; rank 0 takes the arrivals in
// rank order or (`any_order`: RCCE's barrier) as they come (collectives/algorithms/barrier_central.cpp).
std::unique_ptr<Firmware> make_central_barrier(const FirmwareParams& p, const Topology& t,
                                               bool any_order);

// RCCE's reduce (all: its allreduce, rooted at rank 0): every other rank sends its vector to the
// root, which takes them in rank order and folds each in; the allreduce's root then sends the
// result to every rank in rank order (collectives/algorithms/reduce_rcce.cpp).
std::unique_ptr<Firmware> make_rcce_reduction(const FirmwareParams& p, const Topology& t, bool all);

// MPICH2's long-vector reduce and allreduce (Rabenseifner's): ranks beyond the largest power of
// two p' first hand their vector to a partner; the p' ranks then reduce-scatter by recursive
// halving (distance 1, 2, 4, ...: each exchange halves the blocks a rank is responsible for)
// and gather the blocks again, to the root by a binomial tree (reduce) or to every rank by
// recursive doubling (all: allreduce, whose partners then get the result back)
// (collectives/algorithms/allreduce_rckmpi.cpp).
std::unique_ptr<Firmware> make_rabenseifner(const FirmwareParams& p, const Topology& t, bool all);

}  // namespace collnoc
