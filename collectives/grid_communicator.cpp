#include "collectives/grid_communicator.hpp"
#include "noc/topology/kary_ncube.hpp"

#include <cmath>

namespace collnoc {

namespace {

bool parse_count(const std::string& s, unsigned& out) {
  if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  out = static_cast<unsigned>(std::stoul(s));
  return true;
}

}  // namespace

GridCommunicator::GridCommunicator(const Topology& topology, const std::string& grid) {
  mesh_ = dynamic_cast<const KaryNCube*>(&topology);
  const char* const why = "mesh collectives need a 2-D mesh (platform tilepro, or kary_ncube with "
                          "topology.kind = mesh, topology.n = 2)";
  if (!mesh_ || mesh_->torus()) throw ParamError("topology.kind", topology.kind(), why);
  if (mesh_->dimensions() != 2)
    throw ParamError("topology.n", std::to_string(mesh_->dimensions()), why);
  per_tile_ = topology.endpoints_per_router();
  const std::string shape = "AxB (tiles along X and Y) or a square task count such as 49";
  if (grid.empty()) {
    width_ = mesh_->k(0);
    height_ = mesh_->k(1);
  } else if (const std::size_t cross = grid.find('x'); cross != std::string::npos) {
    if (!parse_count(grid.substr(0, cross), width_) || !parse_count(grid.substr(cross + 1), height_))
      throw ParamError("workload.grid", grid, shape);
  } else {
    unsigned tasks = 0;
    if (!parse_count(grid, tasks)) throw ParamError("workload.grid", grid, shape);
    width_ = height_ = static_cast<unsigned>(std::lround(std::sqrt(static_cast<double>(tasks))));
    if (width_ * height_ != tasks)
      throw ParamError("workload.grid", grid,
                       "a task count must be a square (4, 9, ..., 49) or give AxB");
  }
  if (width_ < 1 || height_ < 1 || width_ * height_ * per_tile_ < 2)
    throw ParamError("workload.grid", grid, "at least 2 tiles");
  if (width_ > mesh_->k(0) || height_ > mesh_->k(1))
    throw ParamError("workload.grid", grid,
                     "at most the chip: " + std::to_string(mesh_->k(0)) + "x" +
                         std::to_string(mesh_->k(1)) + " tiles");
}

NodeId GridCommunicator::core(unsigned rank) const {
  return mesh_->endpoint_at(router(rank), rank % per_tile_);
}

int GridCommunicator::rank_of(NodeId core) const {
  const RouterId r = mesh_->router_of(core);
  const unsigned cx = mesh_->coord(r, 0), cy = mesh_->coord(r, 1);
  if (cx >= width_ || cy >= height_) return -1;
  return static_cast<int>(rank_at(cx, cy) + (core - mesh_->endpoint_at(r, 0)));
}

}  // namespace collnoc
