#include <catch2/catch.hpp>
#include <set>

#include "ni/traffic.hpp"
#include "platforms/run_config.hpp"
#include "noc/topology/kary_ncube.hpp"

using namespace collnoc;

namespace {
NodeId dest(const Topology& topo, const std::string& pattern, NodeId src) {
  TrafficParams p;
  p.pattern = pattern;
  auto tp = make_traffic_pattern(topo, p);
  Rng rng(1);
  return tp->destination(src, rng);
}
}  // namespace

TEST_CASE("permutation patterns map nodes as defined", "[traffic]") {
  KaryNCube m({8, 8}, false);
  // node = x + 8 y
  CHECK(dest(m, "transpose", 1 + 8 * 2) == 2 + 8 * 1);
  CHECK(dest(m, "bit_complement", 0) == 63);
  CHECK(dest(m, "bit_complement", 1 + 8 * 2) == 6 + 8 * 5);
  CHECK(dest(m, "bit_reversal", 1) == 32);      // 000001 -> 100000
  CHECK(dest(m, "bit_reversal", 6) == 24);      // 000110 -> 011000
  CHECK(dest(m, "shuffle", 33) == 3);           // 100001 -> 000011
  CHECK(dest(m, "tornado", 0) == 3 + 8 * 3);    // x + k/2 - 1 in every dimension
  CHECK(dest(m, "neighbour", 7 + 8 * 7) == 0);  // wraps
  for (const char* perm : {"transpose", "bit_complement", "bit_reversal", "shuffle", "tornado",
                           "neighbour"}) {
    std::set<NodeId> seen;
    for (NodeId s = 0; s < 64; ++s) seen.insert(dest(m, perm, s));
    INFO(perm);
    CHECK(seen.size() == 64);  // a permutation
  }
}

TEST_CASE("uniform with the source included: every node, the source too, 1/n each",
          "[traffic]") {
  KaryNCube m({4, 4}, false);
  TrafficParams p;
  p.uniform_include_self = true;
  auto uni = make_traffic_pattern(m, p);
  Rng rng(3);
  std::vector<int> hits(16, 0);
  for (int i = 0; i < 16000; ++i) {
    const NodeId d = uni->destination(5, rng);
    REQUIRE(d < 16);
    ++hits[d];
  }
  for (NodeId d = 0; d < 16; ++d) CHECK(hits[d] == Approx(16000 / 16.0).epsilon(0.15));
}

TEST_CASE("uniform never picks the source; hotspot concentrates", "[traffic]") {
  KaryNCube m({4, 4}, false);
  TrafficParams p;
  auto uni = make_traffic_pattern(m, p);
  Rng rng(3);
  std::vector<int> hits(16, 0);
  for (int i = 0; i < 16000; ++i) {
    const NodeId d = uni->destination(5, rng);
    REQUIRE(d != 5);
    REQUIRE(d < 16);
    ++hits[d];
  }
  for (NodeId d = 0; d < 16; ++d)
    if (d != 5) CHECK(hits[d] == Approx(16000 / 15.0).epsilon(0.15));
  p.pattern = "hotspot";
  p.hotspot_fraction = 0.5;
  p.hotspot_nodes = {9};
  auto hot = make_traffic_pattern(m, p);
  int to9 = 0;
  for (int i = 0; i < 10000; ++i) to9 += hot->destination(2, rng) == 9;
  CHECK(to9 == Approx(10000 * (0.5 + 0.5 / 15)).epsilon(0.05));
}

TEST_CASE("traffic parameters and patterns that do not fit are refused", "[traffic]") {
  KaryNCube rect({4, 8}, false), odd({3, 3}, false);
  TrafficParams p;
  p.pattern = "transpose";
  CHECK_THROWS_AS(validate(p, rect), ParamError);
  p.pattern = "bit_reversal";
  CHECK_THROWS_AS(validate(p, odd), ParamError);
  p.pattern = "uniform";
  p.injection_rate = 1.5;
  CHECK_THROWS_AS(validate(p, rect), ParamError);
  p.injection_rate = 0.1;
  p.packet_flits = 0;
  CHECK_THROWS_AS(validate(p, rect), ParamError);
  p.packet_flits = 4;
  p.pattern = "zigzag";
  try {
    validate(p, rect);
    FAIL("accepted an unknown pattern");
  } catch (const ParamError& e) {
    CHECK(e.key() == "traffic.pattern");
    CHECK(std::string(e.what()).find("uniform") != std::string::npos);  // lists what is allowed
  }
}

TEST_CASE("synthetic source: offered load matches the injection rate", "[traffic]") {
  KaryNCube m({4, 4}, false);
  TrafficParams p;
  p.injection_rate = 0.3;
  p.packet_flits_min = 1;
  p.packet_flits_max = 5;
  auto pat = make_traffic_pattern(m, p);
  SyntheticSource src(p, *pat, 3, 16, 11);
  std::uint64_t flits = 0;
  while (src.next_cycle() < 200000) flits += src.take().flits;
  CHECK(flits / 200000.0 == Approx(0.3).epsilon(0.03));
}

// traffic.normalized_load: Dally and Towles' uniform-traffic channel bound of the configured
// mesh or torus, and the injection rate a load stands for (multicast counted per destination).
TEST_CASE("normalized load: capacity of meshes and tori, and the injection rate it sets",
          "[traffic]") {
  PlatformParams p;
  p.topology.k = {8};
  CHECK(uniform_capacity(p) == Approx(0.5));  // 8x8 mesh: 4/k
  p.topology.kind = "torus";
  CHECK(uniform_capacity(p) == Approx(1.0));  // 8/k
  p.topology.directions = 1;
  CHECK(uniform_capacity(p) == Approx(2.0 / 7.0));  // 2/(k-1)
  p.topology.k = {4, 16};  // the longest dimension bounds it
  CHECK(uniform_capacity(p) == Approx(2.0 / 15.0));
  p.name = "irregular";
  p.topology.kind = "random";
  CHECK(uniform_capacity(p) == 0.0);
  TrafficParams t;
  t.normalized_load = 0.5;
  CHECK(normalized_injection_rate(t, 0.5) == Approx(0.25));  // unicast only
  t.multicast_fraction = 0.5;  // 8..32 destinations: 0.5 + 0.5 x 20 flits of demand per flit
  CHECK(normalized_injection_rate(t, 2.0 / 7.0) == Approx(0.5 * (2.0 / 7.0) / 10.5));
  RunConfig rc;
  rc.traffic.normalized_load = 0.6;
  derive_params(rc);  // default 8x8 mesh, unicast
  CHECK(rc.traffic.injection_rate == Approx(0.3));
}
