// Hierarchical dual-net HDN(B, k, S) (SPEC 4.1): its description (base, super-node sets) and
// its closed-form properties, with the figures of the networks it is compared with. The graph
// itself is noc/topology/hdn.hpp.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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

}  // namespace collnoc
