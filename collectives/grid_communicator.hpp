// The ranks of a collective on a 2-D mesh: the cores of the tiles of a sub-grid of `width` x
// `height` tiles at the mesh's corner (tile (0, 0)); rank = (y * width + x) * c + i for core i
// of tile (x, y), c cores per tile (1, or 2 on scc). Cores outside the sub-grid take no part.
#pragma once
#include <string>

#include "noc/topology/kary_ncube.hpp"
#include "noc/topology/topology.hpp"

namespace collnoc {

class GridCommunicator {
 public:
  // `grid`: "AxB" (A tiles along X, B along Y), a square task count ("49" = 7x7), or empty for
  // the whole mesh. ParamError naming workload.grid when it is not a grid or does not fit.
  GridCommunicator(const Topology& topology, const std::string& grid);

  unsigned size() const { return width_ * height_ * per_tile_; }
  unsigned width() const { return width_; }
  unsigned height() const { return height_; }
  unsigned cores_per_tile() const { return per_tile_; }
  unsigned x(unsigned rank) const { return rank / per_tile_ % width_; }
  unsigned y(unsigned rank) const { return rank / per_tile_ / width_; }
  unsigned rank_at(unsigned x, unsigned y) const { return (y * width_ + x) * per_tile_; }
  bool inside(int x, int y) const {
    return x >= 0 && y >= 0 && x < static_cast<int>(width_) && y < static_cast<int>(height_);
  }
  NodeId core(unsigned rank) const;
  const KaryNCube& mesh() const { return *mesh_; }
  RouterId router(unsigned rank) const { return mesh_->router_at({x(rank), y(rank)}); }
  int rank_of(NodeId core) const;  // -1: not in the sub-grid

 private:
  const KaryNCube* mesh_ = nullptr;
  unsigned width_ = 0, height_ = 0, per_tile_ = 1;
};

}  // namespace collnoc
