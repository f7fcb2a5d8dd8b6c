// k-ary n-cube topologies: meshes and tori of any number of dimensions.
#pragma once
#include <string>
#include <vector>

#include "noc/topology/topology.hpp"

namespace collnoc {

// k-ary n-cube: a mesh or torus with k_d routers along dimension d (k may differ per dimension).
// Router id = sum_d coord_d * stride_d, dimension 0 fastest. Port 2d goes to +d, port 2d+1 to -d.
class KaryNCube : public Topology {
 public:
  KaryNCube(std::vector<unsigned> k, bool torus, unsigned endpoints_per_router = 1);

  std::string kind() const override { return torus_ ? "torus" : "mesh"; }
  std::string describe() const override;
  std::string port_name(unsigned port) const override;
  unsigned distance(RouterId a, RouterId b) const override;

  bool torus() const { return torus_; }
  unsigned dimensions() const { return static_cast<unsigned>(k_.size()); }
  unsigned k(unsigned dim) const { return k_[dim]; }
  const std::vector<unsigned>& ks() const { return k_; }
  unsigned coord(RouterId r, unsigned dim) const { return (r / stride_[dim]) % k_[dim]; }
  RouterId router_at(const std::vector<unsigned>& coords) const;
  static unsigned plus_port(unsigned dim) { return 2 * dim; }
  static unsigned minus_port(unsigned dim) { return 2 * dim + 1; }

 private:
  std::vector<unsigned> k_;
  std::vector<unsigned> stride_;
  bool torus_;
};

}  // namespace collnoc
