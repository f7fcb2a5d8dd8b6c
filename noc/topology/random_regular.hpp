// Random regular graphs: irregular networks of a fixed degree.
#pragma once
#include <cstdint>
#include <string>

#include "noc/topology/topology.hpp"

namespace collnoc {

// A random regular graph: `nodes` routers of `degree` network ports each, connected, drawn from
// `seed`. Built from a circulant graph (node i joined to i +- 1, i +- 2, ...; and to i + n/2
// for an odd degree) by random degree-preserving edge swaps, so every router has exactly
// `degree` neighbours, no link joins a router to itself and no two links join the same pair.
class RandomRegularGraph : public Topology {
 public:
  RandomRegularGraph(unsigned nodes, unsigned degree, std::uint64_t seed,
                     unsigned endpoints_per_router = 1);
  std::string kind() const override { return "random"; }
  std::string describe() const override;

 private:
  unsigned degree_;
};

}  // namespace collnoc
