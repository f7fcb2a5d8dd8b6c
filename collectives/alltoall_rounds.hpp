// The alltoall's pattern rounds (SPEC 6.4) as other transports of the alltoall use them: built
// by the nocmsg alltoall (collectives/algorithms/alltoall_nocmsg.cpp), per tile of the grid.
#pragma once
#include <vector>

#include "collectives/firmware.hpp"

namespace collnoc {

struct AlltoallRounds {
  std::vector<std::vector<int>> partner;  // per round: each tile's partner tile, -1 if idle
  std::vector<std::vector<int>> arrival;  // per round: each tile's parent in its barrier's arrival tree
  std::vector<std::vector<int>> release;  // per round: the same for its release
};
AlltoallRounds alltoall_pattern_rounds(const FirmwareParams& p, const Topology& t);

// The directed mesh links an X-then-Y route from tile a to tile b takes, on a grid `width` tiles
// wide (tile y * width + x). Links are numbered 4 per tile: out of it along +X, -X, +Y, -Y.
std::vector<unsigned> alltoall_route_links(unsigned width, unsigned a, unsigned b);

}  // namespace collnoc
