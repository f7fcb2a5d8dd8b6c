// Hierarchical dual-net HDN(B, k, S) (SPEC 4.1): its description (base, super-node sets), its
// closed-form properties, and the graph itself as a Topology.
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
#include <optional>
#include <string>
#include <vector>

#include "noc/topology.hpp"

namespace collnoc {

// One factor of a product base: a ring C_n (2 ports: + and -, even for n = 2, as in a k-ary
// n-cube with k = 2) or the complete graph K_2 (1 port).
struct HdnFactor {
  unsigned size = 2;
  bool ring = true;
  unsigned ports() const { return ring ? 2 : 1; }
  unsigned diameter() const { return ring ? size / 2 : 1; }
  std::string name() const { return (ring ? "C" : "K") + std::to_string(size); }
};

// The base network B = B_0 x ... x B_{r-1}: `torus:2x3x5` (C_2 x C_3 x C_5) or `hypercube:3`
// (K_2^3). Factor 0 is the fastest coordinate of the base's router id.
struct HdnBase {
  std::string text;  // as parsed, e.g. "torus:2x3x5"
  std::vector<HdnFactor> factors;

  static constexpr unsigned kMaxFactors = 32;
  static constexpr std::uint64_t kMaxNodes = std::uint64_t{1} << 32;
  static HdnBase parse(const std::string& text);  // ParamError("hdn.base", ...)

  unsigned size() const { return static_cast<unsigned>(factors.size()); }
  std::uint64_t nodes() const;  // n_0
  unsigned degree() const;      // d_0, in ports
  unsigned diameter() const;    // D(B)
  std::string factor_name(unsigned f) const;  // "C3", or "C3#2" when the base has two C3s
};

// A super-node set: a sub-product of the base factors (sorted factor indices); empty = trivial.
struct HdnSuperNode {
  std::vector<unsigned> factors;
  std::uint64_t size(const HdnBase& b) const;
  unsigned diameter(const HdnBase& b) const;  // D(SN), 0 when trivial
  bool contains(unsigned f) const;
  std::string describe(const HdnBase& b) const;  // "C2xC3", or "1"
};

// Parses one super-node set: "1", a factor product "C2xC3" (a repeated name takes the next
// factor of that name in base order; "C3#2" names the second C3 explicitly), or a size "6" when
// every subset of factors with that product has the same factor names (then the first such
// subset in base order is taken). ParamError("hdn.supernodes", ...).
HdnSuperNode parse_hdn_supernode(const HdnBase& base, const std::string& text);

// HDN(B, k, S): a validated description. `supernodes` is comma-separated, one entry per level
// (level 1 first); empty means trivial super-nodes (s_i = 1) at every level.
struct HdnSpec {
  HdnBase base;
  unsigned levels = 0;
  std::vector<HdnSuperNode> supernodes;  // supernodes[i-1] is SN_i

  static constexpr long long kMaxLevels = 16;
  static HdnSpec parse(const std::string& base, long long levels, const std::string& supernodes);
  std::string describe() const;  // "HDN(torus:2x3x5, 1, {1})"
};

// The SPEC 4.1 formulas. Nodes follow the recursion N_i = 2 N_{i-1}^2 / s_i; SPEC's closed form
// (2 n_0)^(2^k) / (2 prod s_i) agrees only while s_1..s_{k-1} are 1 (the exponent of s_i is
// 2^(k-i)).
struct HdnProperties {
  std::optional<std::uint64_t> nodes;  // N_k when it fits in 64 bits
  long double log2_nodes = 0;          // log2 N_k (always)
  unsigned degree = 0;                 // d_0 + k ports
  std::uint64_t diameter = 0;          // D_k (see below)
  // SN_1 is the whole base (n_1 = 1): level 1 is B x K_2, of diameter D(B) + 1, where SPEC's
  // closed form (built on D_1 = 2 D(B) - D(SN_1) + 2 = D(B) + 2) counts one hop too many; that
  // hop doubles at every level above, so then D_k = SPEC's formula - 2^(k-1). Checked by BFS.
  bool level1_whole_base = false;
  std::uint64_t diameter_spec = 0;     // SPEC 4.1's closed form as written
  double cost_ratio = 0;               // (w1*degree + w2*diameter) / log2(N_k)
};
HdnProperties hdn_properties(const HdnSpec& spec, double w1 = 0.5, double w2 = 0.5);

// The same figures for a network to compare with (a hypercube or a 3D torus).
struct NetworkFigures {
  std::string name;    // "hypercube Q_11", "3D torus 12^3"
  std::uint64_t size = 0;  // hypercube: dimension; 3D torus: k, routers per side
  long double nodes = 0;
  unsigned degree = 0;
  std::uint64_t diameter = 0;
  double cost_ratio = 0;
};
// Hypercube of dimension max(1, round(log2 N)); 3D torus with k = max(2, round(cbrt N)) per side
// (cbrt taken as 2^(log2(N)/3)), degree 6 (a ring of 2 still has two ports). The torus is
// absent when its side would not fit in 62 bits.
NetworkFigures similar_hypercube(long double log2_nodes, double w1 = 0.5, double w2 = 0.5);
std::optional<NetworkFigures> similar_torus3d(long double log2_nodes, double w1 = 0.5,
                                              double w2 = 0.5);

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
