// Hierarchical dual-net (noc/topology/hdn.hpp, SPEC 4.1): parsing and its errors, the closed-form
// properties against the built graphs (node count, degree, breadth-first-search diameter) on
// every small configuration, the id scheme (level-1 serial numbers as SPEC 4.1 writes them,
// re-indexing between levels, cross edges), the symmetries the exact diameter relies on, and
// `collnoc analyze hdn`.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "noc/topology/hdn.hpp"
#include "platforms/platform.hpp"

namespace {

using namespace collnoc;
using collnoc::test::Result;
using collnoc::test::run_collnoc;

// The key of the ParamError `f` throws, and its message.
template <typename F>
std::pair<std::string, std::string> param_error(F f) {
  try {
    f();
  } catch (const ParamError& e) {
    return {e.key(), e.what()};
  }
  return {"(no error)", ""};
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Mixed-radix number over the base coordinates of `factors` (factor order, first fastest).
std::uint64_t mixed(const HdnBase& b, const std::vector<unsigned>& x,
                    const std::vector<unsigned>& factors) {
  std::uint64_t v = 0;
  for (auto it = factors.rbegin(); it != factors.rend(); ++it) v = v * b.factors[*it].size + x[*it];
  return v;
}

struct Config {
  const char* base;
  int levels;
  const char* supernodes;
};

// Every check of the built graph against SPEC 4.1.
void check_configuration(const Config& c) {
  const HdnSpec spec = HdnSpec::parse(c.base, c.levels, c.supernodes);
  INFO(spec.describe());
  const HdnProperties p = hdn_properties(spec);
  const HdnTopology t(spec);
  const unsigned k = spec.levels, d0 = spec.base.degree();

  // Nodes and degree (ports: 2 per ring even of size 2, 1 per K_2, 1 per level).
  REQUIRE(p.nodes);
  REQUIRE(t.num_routers() == *p.nodes);
  REQUIRE(p.degree == d0 + k);
  REQUIRE(t.network_ports() == p.degree);
  for (unsigned i = 1; i <= k; ++i) REQUIRE(t.N(i) == 2 * t.N(i - 1) * t.N(i - 1) / t.s(i));

  // Every port connected, every link symmetric, base ports move one base coordinate by +-1.
  for (RouterId r = 0; r < t.num_routers(); ++r) {
    const std::vector<std::uint64_t> cr = t.coords(r);
    for (unsigned port = 0; port < t.network_ports(); ++port) {
      const PortPeer& q = t.peer(r, port);
      REQUIRE(q.connected());
      REQUIRE(q.router != r);
      const PortPeer& back = t.peer(q.router, q.port);
      REQUIRE(back.router == r);
      REQUIRE(back.port == port);
    }
    for (unsigned f = 0; f < spec.base.size(); ++f) {
      const unsigned size = spec.base.factors[f].size;
      std::vector<std::uint64_t> up = cr;
      up[f] = (up[f] + 1) % size;
      REQUIRE(t.peer(r, t.base_port(f, false)).router == t.router_at(up));
      if (spec.base.factors[f].ring) {
        std::vector<std::uint64_t> down = cr;
        down[f] = (down[f] + size - 1) % size;
        REQUIRE(t.peer(r, t.base_port(f, true)).router == t.router_at(down));
      }
    }
  }

  // Cross edges: (C, U, SN, N) <-> (1-C, SN, U, N) at every level; levels above unchanged.
  for (RouterId r = 0; r < t.num_routers(); ++r)
    for (unsigned i = 1; i <= k; ++i) {
      const RouterId q = t.cross_partner(r, i);
      REQUIRE(t.peer(r, t.cross_port(i)).router == q);
      REQUIRE(t.cross_partner(q, i) == r);
      const auto a = t.level_id(r, i), b = t.level_id(q, i);
      REQUIRE(a.u < t.n(i));
      REQUIRE(a.sn < t.n(i));
      REQUIRE(a.n < t.s(i));
      REQUIRE(b.c == 1 - a.c);
      REQUIRE(b.u == a.sn);
      REQUIRE(b.sn == a.u);
      REQUIRE(b.n == a.n);
      for (unsigned j = i + 1; j <= k; ++j) {
        const auto aj = t.level_id(r, j), bj = t.level_id(q, j);
        REQUIRE(aj.c == bj.c);
        REQUIRE(aj.u == bj.u);
      }
    }

  // Connected, and the diameter by breadth-first search equals the formula.
  const HdnBfsResult bfs = hdn_bfs_diameter(t);
  REQUIRE(bfs.connected);
  CHECK(bfs.diameter == p.diameter);
  if (!p.level1_whole_base) CHECK(p.diameter == p.diameter_spec);
  if (t.num_routers() <= 2500) {  // the symmetry shortcut against every source
    const HdnBfsResult all = hdn_bfs_diameter(t, false);
    CHECK(all.diameter == bfs.diameter);
    CHECK(all.sources == t.num_routers());
  }
}

}  // namespace

// ------------------------------------------------------------------------------ parsing

TEST_CASE("hdn base: tori and hypercubes parse into their factors", "[hdn]") {
  const HdnBase t = HdnBase::parse("torus:2x3x5");
  REQUIRE(t.size() == 3);
  CHECK(t.factors[0].size == 2);
  CHECK(t.factors[2].size == 5);
  CHECK(t.factors[0].ring);
  CHECK(t.nodes() == 30);
  CHECK(t.degree() == 6);    // a ring of 2 still has two ports
  CHECK(t.diameter() == 4);  // 1 + 1 + 2
  CHECK(t.factor_name(1) == "C3");

  const HdnBase h = HdnBase::parse("hypercube:4");
  REQUIRE(h.size() == 4);
  CHECK_FALSE(h.factors[0].ring);
  CHECK(h.nodes() == 16);
  CHECK(h.degree() == 4);
  CHECK(h.diameter() == 4);
  CHECK(h.factor_name(2) == "K2#3");

  const HdnBase same = HdnBase::parse("torus:3x4x3");
  CHECK(same.factor_name(0) == "C3#1");
  CHECK(same.factor_name(1) == "C4");
  CHECK(same.factor_name(2) == "C3#2");
}

TEST_CASE("hdn base: bad bases are refused naming hdn.base", "[hdn]") {
  for (const char* bad : {"", "torus", "torus:", "torus:1x3", "torus:2xx3", "torus:2x3x",
                          "torus:2x-3", "mesh:4x4", "hypercube:0", "hypercube:33", "hypercube:",
                          "2x3x5", "torus:65537"}) {
    INFO(bad);
    const auto [key, what] = param_error([&] { HdnBase::parse(bad); });
    CHECK(key == "hdn.base");
    CHECK(has(what, "torus:AxBx"));
  }
  CHECK(has(param_error([] { HdnBase::parse("mesh:4"); }).second, "unknown kind 'mesh'"));
  CHECK(has(param_error([] { HdnBase::parse("torus:2x1"); }).second, "ring size 1"));
}

TEST_CASE("hdn supernodes: factor products and unambiguous sizes", "[hdn]") {
  const HdnBase b = HdnBase::parse("torus:2x3x5");
  using V = std::vector<unsigned>;
  CHECK(parse_hdn_supernode(b, "1").factors.empty());
  CHECK(parse_hdn_supernode(b, "C2xC3").factors == V{0, 1});
  CHECK(parse_hdn_supernode(b, "C5xC2").factors == V{0, 2});
  CHECK(parse_hdn_supernode(b, "6").factors == V{0, 1});
  CHECK(parse_hdn_supernode(b, "30").factors == V{0, 1, 2});
  CHECK(parse_hdn_supernode(b, "C2xC3").size(b) == 6);
  CHECK(parse_hdn_supernode(b, "C2xC5").diameter(b) == 3);

  // Equal factors: bare names take the next one in base order, #j picks one; a size is not
  // ambiguous when every candidate has the same factor names.
  const HdnBase t = HdnBase::parse("torus:3x3");
  CHECK(parse_hdn_supernode(t, "C3").factors == V{0});
  CHECK(parse_hdn_supernode(t, "C3#2").factors == V{1});
  CHECK(parse_hdn_supernode(t, "C3xC3").factors == V{0, 1});
  CHECK(parse_hdn_supernode(t, "C3#2xC3").factors == V{0, 1});
  CHECK(parse_hdn_supernode(t, "3").factors == V{0});
  const HdnBase h = HdnBase::parse("hypercube:3");
  CHECK(parse_hdn_supernode(h, "4").factors == V{0, 1});
  CHECK(parse_hdn_supernode(h, "K2#3").factors == V{2});

  const HdnSpec s = HdnSpec::parse("torus:2x3x5", 2, " 1, C2xC3 ");
  REQUIRE(s.supernodes.size() == 2);
  CHECK(s.supernodes[0].factors.empty());
  CHECK(s.supernodes[1].factors == V{0, 1});
  CHECK(s.describe() == "HDN(torus:2x3x5, 2, {1, C2xC3})");
  CHECK(HdnSpec::parse("hypercube:2", 3, "").supernodes.size() == 3);  // empty: 1 everywhere
}

TEST_CASE("hdn supernodes: bad sets are refused naming hdn.supernodes", "[hdn]") {
  const auto err = [](const char* base, long long k, const char* sn) {
    return param_error([&] { HdnSpec::parse(base, k, sn); });
  };
  auto [key, what] = err("torus:2x3x5", 1, "7");
  CHECK(key == "hdn.supernodes");
  CHECK(has(what, "not a product of factor sizes"));
  CHECK(has(what, "1 2 3 5 6 10 15 30"));

  std::tie(key, what) = err("torus:2x3x6", 1, "6");  // C6 or C2xC3
  CHECK(key == "hdn.supernodes");
  CHECK(has(what, "ambiguous"));
  CHECK(has(what, "C6"));
  CHECK(has(what, "C2xC3"));
  std::tie(key, what) = err("torus:2x2x4", 1, "4");  // C4 or C2xC2
  CHECK(has(what, "ambiguous"));

  std::tie(key, what) = err("torus:2x3x5", 2, "1");
  CHECK(key == "hdn.supernodes");
  CHECK(has(what, "one per level"));
  CHECK(err("torus:2x3x5", 0, "1").first == "hdn.supernodes");
  CHECK(err("torus:2x3x5", 1, "1,1").first == "hdn.supernodes");

  for (const char* bad : {"C4", "C3#2", "C2xC2", "0", ",", "C2x", "K2", "C3#0", "C3#x"}) {
    INFO(bad);
    CHECK(err("torus:2x3x5", 1, bad).first == "hdn.supernodes");
  }
  CHECK(err("torus:2x3x5", 2, "1,").first == "hdn.supernodes");
  CHECK(err("torus:3x3", 1, "C3#1xC3#1").first == "hdn.supernodes");
}

TEST_CASE("hdn levels: k below 0 or above 16 is refused naming hdn.levels", "[hdn]") {
  for (long long k : {-1LL, -100LL, 17LL}) {
    const auto [key, what] = param_error([&] { HdnSpec::parse("torus:2x3x5", k, ""); });
    CHECK(key == "hdn.levels");
    CHECK(has(what, "0..16"));
  }
}

// ------------------------------------------------------------------------------ formulas

TEST_CASE("hdn formulas: nodes degree diameter and cost ratio", "[hdn]") {
  HdnProperties p = hdn_properties(HdnSpec::parse("torus:2x3x5", 1, "1"));
  REQUIRE(p.nodes);
  CHECK(*p.nodes == 1800);  // (2*30)^2 / 2
  CHECK(p.degree == 7);
  CHECK(p.diameter == 10);  // 2*4 - 0 + 2
  CHECK(p.cost_ratio == Approx((0.5 * 7 + 0.5 * 10) / std::log2(1800.0)));

  p = hdn_properties(HdnSpec::parse("torus:2x3x5", 2, "1,C2xC3"));
  CHECK(*p.nodes == 2 * 1800ull * 1800 / 6);
  CHECK(p.degree == 8);
  CHECK(p.diameter == 4 * 4 - (2 + 2 * 0) + 8 - 2);

  // N_i = 2 N_{i-1}^2 / s_i, i.e. N_k = (2 n_0)^(2^k) / (2 prod s_i^(2^(k-i))): SPEC's closed
  // form (prod s_i) holds only while s_1..s_(k-1) are 1 (docs/hdn.md). Beyond 64 bits as log2.
  p = hdn_properties(HdnSpec::parse("torus:2x3x5", 3, "C2,C3,C5"));
  CHECK(*p.nodes == 116640000000ull);  // 30 -> 900 -> 540000 -> 2*540000^2/5
  CHECK(*p.nodes == 167961600000000ull / (2 * 16 * 9 * 5));  // 60^8 / (2 * 2^4 * 3^2 * 5)
  CHECK(*hdn_properties(HdnSpec::parse("torus:2x3x5", 3, "1,1,C5")).nodes ==
        167961600000000ull / (2 * 5));
  p = hdn_properties(HdnSpec::parse("torus:2x3x5", 5, ""));
  CHECK_FALSE(p.nodes);
  CHECK(p.log2_nodes == Approx(32 * std::log2(60.0) - 1));
  CHECK(p.diameter == 32 * 4 + 64 - 2);

  // A hypercube base with k = 0 is a hypercube: cost ratio 1; weights move it.
  for (int n = 1; n <= 6; ++n)
    CHECK(hdn_properties(HdnSpec::parse("hypercube:" + std::to_string(n), 0, "")).cost_ratio ==
          Approx(1.0));
  CHECK(hdn_properties(HdnSpec::parse("hypercube:4", 0, ""), 1.0, 0.0).cost_ratio == Approx(1.0));
  CHECK(hdn_properties(HdnSpec::parse("torus:2x3x5", 1, "1"), 1.0, 0.0).cost_ratio ==
        Approx(7 / std::log2(1800.0)));

  // SN_1 = the whole base: SPEC's closed form is 2^(k-1) above the graph's diameter.
  p = hdn_properties(HdnSpec::parse("torus:2x3", 2, "6,1"));
  CHECK(p.level1_whole_base);
  CHECK(p.diameter_spec == 10);
  CHECK(p.diameter == 8);
}

TEST_CASE("hdn comparisons: hypercube and 3D torus of similar size", "[hdn]") {
  const long double l = std::log2(1800.0L);
  const NetworkFigures q = similar_hypercube(l);
  CHECK(q.size == 11);
  CHECK(q.nodes == 2048);
  CHECK(q.degree == 11);
  CHECK(q.diameter == 11);
  CHECK(q.cost_ratio == Approx(1.0));
  const auto t = similar_torus3d(l);
  REQUIRE(t);
  CHECK(t->size == 12);
  CHECK(t->nodes == 1728);
  CHECK(t->degree == 6);
  CHECK(t->diameter == 18);
  CHECK(t->cost_ratio == Approx((3 + 9) / std::log2(1728.0)));
  CHECK(similar_torus3d(std::log2(8.0L))->size == 2);  // smallest torus: k = 2
  CHECK(similar_torus3d(3.0L)->diameter == 3);
  CHECK_FALSE(similar_torus3d(1e6L));
}

// ------------------------------------------------------------------------------ built graphs

TEST_CASE("hdn graph: tori with one level match the formulas", "[hdn][graph]") {
  for (const Config& c : std::vector<Config>{
           {"torus:2x3x5", 0, ""},      {"torus:2x3x5", 1, "1"},     {"torus:2x3x5", 1, "C2"},
           {"torus:2x3x5", 1, "C3"},    {"torus:2x3x5", 1, "C5"},    {"torus:2x3x5", 1, "6"},
           {"torus:2x3x5", 1, "C2xC5"}, {"torus:2x3x5", 1, "15"},    {"torus:2x3x5", 1, "30"},
           {"torus:2x2", 1, "1"},       {"torus:2x2", 1, "2"},       {"torus:2x2", 1, "4"},
           {"torus:3x3", 1, "1"},       {"torus:3x3", 1, "C3#2"},    {"torus:2x3", 1, "1"},
           {"torus:2x3", 1, "C3"},      {"torus:4x4", 1, "C4"},      {"torus:6", 1, "1"},
           {"torus:5x2", 1, "C5"},      {"torus:2x2x2", 1, "C2xC2"}, {"torus:8x3", 1, "C8"}})
    check_configuration(c);
}

TEST_CASE("hdn graph: hypercubes match the formulas", "[hdn][graph]") {
  for (const Config& c : std::vector<Config>{
           {"hypercube:1", 0, ""},    {"hypercube:1", 1, "1"},     {"hypercube:1", 1, "2"},
           {"hypercube:2", 1, "1"},   {"hypercube:2", 1, "2"},     {"hypercube:3", 1, "1"},
           {"hypercube:3", 1, "4"},   {"hypercube:4", 1, "1"},     {"hypercube:4", 1, "K2#4"},
           {"hypercube:4", 1, "8"},   {"hypercube:1", 2, "1,1"},   {"hypercube:1", 2, "2,2"},
           {"hypercube:2", 2, "1,1"}, {"hypercube:2", 2, "2,K2#2"}, {"hypercube:3", 2, "2,4"},
           {"hypercube:1", 3, "1,1,1"}, {"hypercube:1", 3, "2,1,2"}})
    check_configuration(c);
}

TEST_CASE("hdn graph: two levels of tori match the formulas", "[hdn][graph]") {
  for (const Config& c : std::vector<Config>{{"torus:2x2", 2, "1,1"},
                                             {"torus:2x2", 2, "C2,C2"},
                                             {"torus:2x2", 2, "C2#1,C2#2"},
                                             {"torus:2x3", 2, "C2,C3"},
                                             {"torus:2x3", 2, "C3,C2xC3"},
                                             {"torus:2x3", 2, "6,1"},
                                             {"torus:3x3", 2, "C3#1,C3#2"},
                                             {"torus:3x3", 2, "9,3"},
                                             {"torus:2x2x2", 2, "C2xC2,C2#3"},
                                             {"torus:2x3", 2, "1,1"}})
    check_configuration(c);
}

TEST_CASE("hdn graph: larger two-level networks match the formulas", "[hdn][graph]") {
  for (const Config& c : std::vector<Config>{{"hypercube:3", 2, "1,1"},  // 32768 nodes
                                             {"torus:3x3", 2, "1,1"},    // 52488 nodes
                                             {"torus:2x3x5", 2, "30,C2xC3"}})
    check_configuration(c);
}

// ------------------------------------------------------------------------------ ids

TEST_CASE("hdn ids: level-1 serial numbers follow SPEC 4.1", "[hdn][ids]") {
  for (const Config& c : std::vector<Config>{{"torus:2x3x5", 1, "1"},
                                             {"torus:2x3x5", 1, "C3"},
                                             {"torus:2x3x5", 1, "C2xC5"},
                                             {"torus:3x4x3", 1, "C3#2xC4"},
                                             {"hypercube:4", 1, "K2#2xK2#4"}}) {
    const HdnSpec spec = HdnSpec::parse(c.base, c.levels, c.supernodes);
    INFO(spec.describe());
    const HdnTopology t(spec);
    const HdnBase& b = spec.base;
    const std::uint64_t n0 = b.nodes(), s1 = t.s(1), n1 = n0 / s1;
    std::vector<unsigned> in, out;  // factors in SN_1 and outside it
    for (unsigned f = 0; f < b.size(); ++f)
      (spec.supernodes[0].contains(f) ? in : out).push_back(f);
    std::vector<bool> seen(t.num_routers(), false);
    for (RouterId r = 0; r < t.num_routers(); ++r) {
      const std::vector<unsigned> x = t.base_coords(r);
      const auto id = t.level_id(r, 1);
      REQUIRE(id.sn == mixed(b, x, out));  // super-node: the coordinates outside SN_1
      REQUIRE(id.n == mixed(b, x, in));    // node within it: the coordinates in SN_1
      const std::uint64_t serial = id.c * n1 * n1 * s1 + id.u * n1 * s1 + id.sn * s1 + id.n;
      REQUIRE(serial == r);
      REQUIRE(t.serial(r, 1) == r);
      REQUIRE_FALSE(seen[serial]);
      seen[serial] = true;
      REQUIRE(t.serial(r, 0) == mixed(b, x, [&] {  // the base's own id, factor 0 fastest
        std::vector<unsigned> all(b.size());
        for (unsigned f = 0; f < b.size(); ++f) all[f] = f;
        return all;
      }()));
      // Base links stay inside the cluster (C, U).
      for (unsigned port = 0; port < t.base_ports(); ++port) {
        const auto q = t.level_id(t.peer(r, port).router, 1);
        REQUIRE(q.c == id.c);
        REQUIRE(q.u == id.u);
      }
    }
  }
}

TEST_CASE("hdn ids: re-indexing between levels and super-nodes within one base copy",
          "[hdn][ids]") {
  for (const Config& c : std::vector<Config>{{"torus:2x3", 2, "C2,C3"},
                                             {"torus:2x3", 2, "C3,C2xC3"},
                                             {"torus:2x2x2", 2, "C2xC2,C2#2xC2#3"},
                                             {"hypercube:1", 3, "K2,1,K2"}}) {
    const HdnSpec spec = HdnSpec::parse(c.base, c.levels, c.supernodes);
    INFO(spec.describe());
    const HdnTopology t(spec);
    const HdnBase& b = spec.base;
    const unsigned k = spec.levels;
    for (unsigned i = 1; i <= k; ++i) {
      // Within each level-i subnet (fixed C_j, U_j for j > i) and cluster (C_i, U_i), the
      // level-(i-1) serial and (SN, N) are both bijections onto the cluster.
      std::set<std::vector<std::uint64_t>> lower, split;
      std::set<std::vector<std::uint64_t>> supernode_copy;
      for (RouterId r = 0; r < t.num_routers(); ++r) {
        const auto id = t.level_id(r, i);
        std::vector<std::uint64_t> above;
        for (unsigned j = i + 1; j <= k; ++j) {
          const auto a = t.level_id(r, j);
          above.push_back(a.c);
          above.push_back(a.u);
        }
        std::vector<std::uint64_t> key = above;
        key.insert(key.end(), {id.c, id.u});
        std::vector<std::uint64_t> l = key, s = key;
        l.push_back(t.serial(r, i - 1));
        s.insert(s.end(), {id.sn, id.n});
        REQUIRE(lower.insert(l).second);
        REQUIRE(split.insert(s).second);
        REQUIRE(t.serial(r, i) == ((id.c * t.n(i) + id.u) * t.n(i) + id.sn) * t.s(i) + id.n);
        REQUIRE(t.serial(r, i) < t.N(i));
        // N is the SN_i coordinates; the rest of the coordinates (base copy included) is fixed
        // by (above, C, U, SN): a super-node is a sub-product inside one base copy.
        const std::vector<unsigned> x = t.base_coords(r);
        REQUIRE(id.n == mixed(b, x, spec.supernodes[i - 1].factors));
        std::vector<std::uint64_t> coords = t.coords(r);
        for (unsigned f : spec.supernodes[i - 1].factors) coords[f] = 0;
        std::vector<std::uint64_t> sn_key = key;
        sn_key.push_back(id.sn);
        sn_key.insert(sn_key.end(), coords.begin(), coords.end());
        supernode_copy.insert(sn_key);
      }
      // One distinct rest-of-coordinates per super-node.
      REQUIRE(supernode_copy.size() == t.num_routers() / t.s(i));
    }
  }
}

TEST_CASE("hdn symmetry: every generator is an automorphism", "[hdn]") {
  for (const Config& c : std::vector<Config>{{"torus:2x3x5", 1, "C3"},
                                             {"torus:3x4", 2, "C4,C3"},
                                             {"torus:2x3", 2, "C3,C2xC3"},
                                             {"hypercube:1", 3, "K2,1,K2"}}) {
    const HdnSpec spec = HdnSpec::parse(c.base, c.levels, c.supernodes);
    INFO(spec.describe());
    const HdnTopology t(spec);
    for (unsigned g = 0; g < t.automorphism_generators(); ++g) {
      INFO("generator " << g);
      std::vector<RouterId> image(t.num_routers());
      std::vector<bool> hit(t.num_routers(), false);
      for (RouterId r = 0; r < t.num_routers(); ++r) {
        image[r] = t.apply_automorphism(r, g);
        REQUIRE_FALSE(hit[image[r]]);
        hit[image[r]] = true;
      }
      for (RouterId r = 0; r < t.num_routers(); ++r)
        for (unsigned port = 0; port < t.network_ports(); ++port) {
          const RouterId q = t.peer(r, port).router;
          bool edge = false;
          for (unsigned p2 = 0; p2 < t.network_ports(); ++p2)
            edge = edge || t.peer(image[r], p2).router == image[q];
          REQUIRE(edge);
        }
    }
  }
}

// ------------------------------------------------------------------------------ registry, limits

TEST_CASE("hdn topology: registered as topology kind hdn with a build limit", "[hdn]") {
  TopologyParams p;
  p.kind = "hdn";
  p.hdn_base = "torus:2x3";
  p.hdn_levels = 1;
  p.hdn_supernodes = "C2";
  const std::unique_ptr<Topology> t = make_topology(p);
  CHECK(t->kind() == "hdn");
  CHECK(t->num_routers() == 36);
  CHECK(t->network_ports() == 5);
  CHECK(t->port_name(0) == "+d0");
  CHECK(t->port_name(4) == "X1");
  CHECK(has(t->describe(), "HDN(torus:2x3, 1, {C2})"));
  p.hdn_supernodes = "7";
  CHECK(param_error([&] { make_topology(p); }).first == "hdn.supernodes");

  const auto [key, what] =
      param_error([] { HdnTopology t2(HdnSpec::parse("torus:2x3x5", 2, "")); });
  CHECK(key == "hdn.levels");
  CHECK(has(what, "6480000"));
  CHECK(has(what, "build limit"));
}

// ------------------------------------------------------------------------------ CLI

TEST_CASE("hdn cli: analyze hdn --json reports the formulas the graph and the comparisons",
          "[hdn][cli]") {
  const Result r = run_collnoc("analyze hdn --base torus:2x3x5 --levels 1 --supernodes 1 --bfs "
                               "--json",
                               false);
  INFO(r.output);
  REQUIRE(r.status == 0);
  const nlohmann::json j = nlohmann::json::parse(r.output);
  CHECK(j["nodes"] == 1800);
  CHECK(j["nodes_built"] == 1800);
  CHECK(j["degree"] == 7);
  CHECK(j["diameter_formula"] == 10);
  CHECK(j["diameter_bfs"] == 10);
  CHECK(j["connected"] == true);
  CHECK(j["cost_ratio"].get<double>() == Approx(8.5 / std::log2(1800.0)));
  CHECK(j["hypercube"]["nodes"] == 2048);
  CHECK(j["hypercube"]["degree"] == 11);
  CHECK(j["hypercube"]["diameter"] == 11);
  CHECK(j["hypercube"]["cost_ratio"].get<double>() == Approx(1.0));
  CHECK(j["torus3d"]["nodes"] == 1728);
  CHECK(j["torus3d"]["degree"] == 6);
  CHECK(j["torus3d"]["diameter"] == 18);
  CHECK(j["torus3d"].contains("cost_ratio"));
  REQUIRE(j["per_level"].size() == 1);
  CHECK(j["per_level"][0]["n"] == 30);

  // Without --bfs no diameter_bfs; weights are used; too large to build: no nodes_built.
  const nlohmann::json w = nlohmann::json::parse(
      run_collnoc("analyze hdn --base hypercube:3 --levels 1 --weights 1,0 --json", false).output);
  CHECK_FALSE(w.contains("diameter_bfs"));
  CHECK(w["nodes_built"] == 128);
  CHECK(w["cost_ratio"].get<double>() == Approx(4.0 / 7.0));
  const nlohmann::json big = nlohmann::json::parse(
      run_collnoc("analyze hdn --base torus:2x3x5 --levels 3 --json", false).output);
  CHECK(big["nodes"] == 83980800000000ull);
  CHECK(big["diameter_formula"] == 46);
  CHECK_FALSE(big.contains("nodes_built"));
}

TEST_CASE("hdn cli: analyze hdn prints a table", "[hdn][cli]") {
  const Result r = run_collnoc("analyze hdn --base hypercube:3 --levels 2 --supernodes 1,4 --bfs");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(has(r.output, "HDN(hypercube:3, 2, {1, K2#1xK2#2})"));
  CHECK(has(r.output, "hypercube Q_"));
  CHECK(has(r.output, "3D torus"));
  CHECK(has(r.output, "= formula"));
}
