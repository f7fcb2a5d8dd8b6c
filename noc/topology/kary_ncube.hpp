// k-ary n-cube topologies: meshes and tori of any number of dimensions.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "noc/topology/topology.hpp"

namespace collnoc {

// k-ary n-cube: a mesh or torus with k_d routers along dimension d (k may differ per dimension).
// Router id = sum_d coord_d * stride_d, dimension 0 fastest. With links both ways (directions 2)
// port 2d goes to +d and port 2d+1 to -d. A unidirectional torus (directions 1, the network of
// SPEC 5) has one channel per dimension, in the + direction: port d goes to +d, and its input
// comes from -d.
constexpr std::uint64_t kMaxKaryNCubeRouters = std::uint64_t{1} << 24;

class KaryNCube : public Topology {
 public:
  KaryNCube(std::vector<unsigned> k, bool torus, unsigned endpoints_per_router = 1,
            unsigned directions = 2);

  std::string kind() const override { return torus_ ? "torus" : "mesh"; }
  std::string describe() const override;
  std::string port_name(unsigned port) const override;
  unsigned distance(RouterId a, RouterId b) const override;

  bool torus() const { return torus_; }
  unsigned directions() const { return directions_; }
  unsigned dimensions() const { return static_cast<unsigned>(k_.size()); }
  unsigned k(unsigned dim) const { return k_[dim]; }
  const std::vector<unsigned>& ks() const { return k_; }
  unsigned coord(RouterId r, unsigned dim) const { return (r / stride_[dim]) % k_[dim]; }
  RouterId router_at(const std::vector<unsigned>& coords) const;
  unsigned plus_port(unsigned dim) const { return directions_ == 2 ? 2 * dim : dim; }
  unsigned minus_port(unsigned dim) const { return 2 * dim + 1; }  // directions 2 only
  // The port that moves `offset` hops along `dim` (offset != 0; + only when unidirectional).
  unsigned port_toward(unsigned dim, int offset) const {
    return offset > 0 ? plus_port(dim) : minus_port(dim);
  }

 private:
  std::vector<unsigned> k_;
  std::vector<unsigned> stride_;
  bool torus_;
  unsigned directions_;
};

}  // namespace collnoc
