#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "noc/allocator.hpp"

using namespace collnoc;

TEST_CASE("switch allocator: a matching, and round-robin fairness", "[allocators]") {
  auto sa = make_switch_allocator("round_robin", {5, 4});
  // Every input VC of ports 0..3 wants output 4.
  std::vector<SwitchRequest> req;
  for (std::uint16_t p = 0; p < 4; ++p)
    for (std::uint8_t v = 0; v < 4; ++v) req.push_back({p, v, 4});
  std::vector<unsigned> winners;
  std::map<std::pair<unsigned, unsigned>, int> wins;
  for (int cycle = 0; cycle < 160; ++cycle) {
    sa->allocate(req, winners);
    REQUIRE(winners.size() == 1);  // one output: one grant
    ++wins[{req[winners[0]].in_port, req[winners[0]].in_vc}];
  }
  REQUIRE(wins.size() == 16);
  for (const auto& kv : wins) CHECK(kv.second == 10);  // perfectly fair under full load

  // Distinct outputs and inputs: everybody wins at once.
  req = {{0, 0, 1}, {1, 2, 2}, {2, 1, 0}};
  sa->allocate(req, winners);
  CHECK(winners.size() == 3);
  // Same input port, two outputs: only one flit leaves an input per cycle.
  req = {{0, 0, 1}, {0, 1, 2}};
  sa->allocate(req, winners);
  CHECK(winners.size() == 1);
}

TEST_CASE("VC allocator: no output VC granted twice, fair between inputs", "[allocators]") {
  auto va = make_vc_allocator("round_robin", {5, 4});
  std::vector<VcGrant> grants;
  // Inputs 0..7 all want output port 2, only VC 1 free.
  std::vector<VcRequest> req;
  for (std::uint16_t i = 0; i < 8; ++i) req.push_back({i, 2, 0b0010});
  std::map<unsigned, int> wins;
  for (int cycle = 0; cycle < 80; ++cycle) {
    va->allocate(req, grants);
    REQUIRE(grants.size() == 1);
    CHECK(grants[0].out_vc == 1);
    ++wins[grants[0].input];
  }
  REQUIRE(wins.size() == 8);
  for (const auto& kv : wins) CHECK(kv.second == 10);
  // Four free VCs, four requesters: all served in one cycle, each a different VC.
  req.clear();
  for (std::uint16_t i = 0; i < 4; ++i) req.push_back({i, 0, 0b1111});
  va->allocate(req, grants);
  std::set<unsigned> vcs;
  for (const auto& g : grants) vcs.insert(g.out_vc);
  CHECK(vcs.size() == grants.size());
  CHECK(grants.size() >= 1);
  // An input's second request is used only when its first has no free VC.
  req = {{0, 1, 0}, {0, 3, 0b0100}};
  va->allocate(req, grants);
  REQUIRE(grants.size() == 1);
  CHECK(grants[0].out_port == 3);
  CHECK(grants[0].out_vc == 2);
  CHECK_THROWS_AS(make_vc_allocator("nope", {5, 4}), std::exception);
}
