// Hierarchical dual-net HDN(B, k, S) (SPEC 4.1) as a Topology, and its exact diameter by
// breadth-first search. Its description and formulas are noc/topology/hdn_spec.hpp.
//
// Ids. A router's id is its level-k serial number. Every router also has a coordinate vector:
// one coordinate per base factor (x_f), and a cluster id U_i and class C_i per level i = 1..k.
// The serial number of level i is a mixed-radix number over a *digit layout* (fastest first):
//   layout_0 = [x_0, x_1, ..., x_{r-1}]                      (the base's own router id)
//   layout_i = [SN_i factors, in factor order]                 -> N  (radix s_i)
//           ++ [layout_{i-1} without the SN_i factors]          -> SN (radix n_i = N_{i-1}/s_i)
//           ++ [U_i] ++ [C_i]
// so serial_i = C*n_i^2*s_i + U*n_i*s_i + SN*s_i + N, which at level 1 is exactly SPEC 4.1's
// formula. Going from level i-1 to level i, factors of SN_i that were outside SN_{i-1} move into
// N, and factors of SN_{i-1} outside SN_i move into SN (with everything else of level i-1).
// docs/hdn.md has the worked construction and the limits.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "noc/topology/hdn_spec.hpp"
#include "noc/topology/topology.hpp"

namespace collnoc {

// The graph. Ports: the base's ports first, factor by factor (ring: + then -; K_2: one), then
// one cross-edge port per level (level i at port d_0 + i - 1).
class HdnTopology : public Topology {
 public:
  static constexpr std::uint64_t kMaxBuildNodes = std::uint64_t{1} << 21;  // 190 MB measured

  explicit HdnTopology(HdnSpec spec, unsigned endpoints_per_router = 1);

  std::string kind() const override { return "hdn"; }
  std::string describe() const override;
  std::string port_name(unsigned port) const override;

  // A node's id at level i (1..k) inside its level-i sub-network HDN(B, i, S).
  struct LevelId {
    unsigned c = 0;        // class
    std::uint64_t u = 0;   // cluster, 0..n_i-1
    std::uint64_t sn = 0;  // super-node within the cluster, 0..n_i-1
    std::uint64_t n = 0;   // node within the super-node, 0..s_i-1
  };

  const HdnSpec& spec() const { return spec_; }
  unsigned levels() const { return spec_.levels; }
  std::uint64_t n(unsigned level) const { return n_[level]; }          // n_i (n_0 = base nodes)
  std::uint64_t N(unsigned level) const { return nodes_[level]; }      // N_i
  std::uint64_t s(unsigned level) const;                               // s_i, level >= 1
  unsigned base_ports() const { return base_ports_; }                  // d_0
  unsigned base_port(unsigned factor, bool minus) const;               // K_2: the one port
  unsigned cross_port(unsigned level) const { return base_ports_ + level - 1; }

  LevelId level_id(RouterId r, unsigned level) const;
  std::uint64_t serial(RouterId r, unsigned level) const;  // serial within its level-i subnet
  RouterId cross_partner(RouterId r, unsigned level) const;
  std::vector<unsigned> base_coords(RouterId r) const;     // x_f
  // Full coordinate vector: x_0..x_{r-1}, then U_1..U_k, then C_1..C_k.
  std::vector<std::uint64_t> coords(RouterId r) const;
  RouterId router_at(const std::vector<std::uint64_t>& coords) const;

  // Automorphisms used for the exact diameter: a unit translation along base factor `factor`
  // applied in every base copy (`factor` < base factors), or the class flip of level
  // `factor - base factors + 1`. docs/hdn.md argues why each is an automorphism; a test checks
  // every edge maps to an edge.
  unsigned automorphism_generators() const { return spec_.base.size() + spec_.levels; }
  RouterId apply_automorphism(RouterId r, unsigned generator) const;

 private:
  struct Slot {
    unsigned coord;       // index into the coordinate vector
    std::uint64_t radix;
  };
  using Layout = std::vector<Slot>;
  static std::uint64_t encode(const Layout& layout, const std::vector<std::uint64_t>& c);
  static void decode(const Layout& layout, std::uint64_t value, std::vector<std::uint64_t>& c);
  unsigned u_coord(unsigned level) const { return spec_.base.size() + level - 1; }
  unsigned c_coord(unsigned level) const { return spec_.base.size() + spec_.levels + level - 1; }
  void apply(unsigned level, unsigned generator, std::vector<std::uint64_t>& c) const;

  HdnSpec spec_;
  std::vector<std::uint64_t> n_, nodes_;
  unsigned base_ports_ = 0;
  std::vector<Layout> layout_;  // layout_[i]: digits of serial_i
  std::vector<Layout> n_part_;  // n_part_[i]: SN_i factor digits (N), i >= 1
  std::vector<Layout> sn_part_; // sn_part_[i]: layout_{i-1} without SN_i (SN), i >= 1
};

// Exact diameter of a built HDN: breadth-first search from one router of every orbit of the
// automorphism group the generators above span (all routers when `use_symmetry` is false).
// `collnoc analyze hdn --bfs` refuses larger graphs: about 10 s at the limit on one core.
constexpr std::uint64_t kHdnMaxBfsNodes = std::uint64_t{1} << 17;
struct HdnBfsResult {
  std::uint64_t diameter = 0;
  std::uint64_t sources = 0;  // breadth-first searches run
  bool connected = true;
};
HdnBfsResult hdn_bfs_diameter(const HdnTopology& t, bool use_symmetry = true);

}  // namespace collnoc
