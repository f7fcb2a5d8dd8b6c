#include <catch2/catch.hpp>
#include <algorithm>
#include <array>
#include <initializer_list>
#include <map>
#include <set>

#include "noc/router/allocator.hpp"

using namespace collnoc;

namespace {
// Switch requests from (input port, VC, output port) triples, for a router of 4 VCs per port.
SwitchRequests switch_requests(std::initializer_list<std::array<unsigned, 3>> triples) {
  SwitchRequests r;
  for (const auto& [port, vc, out] : triples) {
    if (!(r.ports >> port & 1u)) r.vcs[port] = 0;
    r.ports |= std::uint64_t{1} << port;
    r.vcs[port] |= 1u << vc;
    r.out_port[port * 4 + vc] = static_cast<std::uint8_t>(out);
  }
  return r;
}
}  // namespace

TEST_CASE("switch allocator: a matching, and round-robin fairness", "[allocators]") {
  auto sa = make_switch_allocator("round_robin", {5, 4});
  // Every input VC of ports 0..3 wants output 4.
  const SwitchRequests all = switch_requests({{0, 0, 4}, {0, 1, 4}, {0, 2, 4}, {0, 3, 4},
                                              {1, 0, 4}, {1, 1, 4}, {1, 2, 4}, {1, 3, 4},
                                              {2, 0, 4}, {2, 1, 4}, {2, 2, 4}, {2, 3, 4},
                                              {3, 0, 4}, {3, 1, 4}, {3, 2, 4}, {3, 3, 4}});
  SwitchGrants g;
  std::map<std::pair<unsigned, unsigned>, int> wins;
  for (int cycle = 0; cycle < 160; ++cycle) {
    sa->allocate(all, g);
    REQUIRE(g.count == 1);  // one output: one grant
    CHECK(g.outputs == 1u << 4);
    CHECK(g.winners[0].out_port == 4);
    ++wins[{g.winners[0].in_port, g.winners[0].in_vc}];
  }
  REQUIRE(wins.size() == 16);
  for (const auto& kv : wins) CHECK(kv.second == 10);  // perfectly fair under full load

  // Distinct outputs and inputs: everybody wins at once.
  sa->allocate(switch_requests({{0, 0, 1}, {1, 2, 2}, {2, 1, 0}}), g);
  CHECK(g.count == 3);
  CHECK(g.outputs == 0b111u);
  // Same input port, two outputs: only one flit leaves an input per cycle.
  sa->allocate(switch_requests({{0, 0, 1}, {0, 1, 2}}), g);
  REQUIRE(g.count == 1);
  CHECK(g.winners[0].in_port == 0);
  CHECK(g.outputs == (1u << g.winners[0].out_port));
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
  // Four free VCs, four requesters of all four. Input-first separable allocation: every input
  // picks the same VC (the one after the port's pointer), so one is served per cycle, and the
  // port's pointer moves on: in four cycles (a served head stops asking, its VC is taken) each
  // input is served once, each with a different VC.
  std::set<unsigned> vcs_served, inputs_served;
  std::uint32_t free_vcs = 0b1111;
  std::vector<std::uint16_t> waiting{0, 1, 2, 3};
  for (int cycle = 0; cycle < 4; ++cycle) {
    req.clear();
    for (std::uint16_t i : waiting) req.push_back({i, 0, free_vcs});
    va->allocate(req, grants);
    REQUIRE(grants.size() == 1);
    const VcGrant& g = grants[0];
    CHECK(g.out_port == 0);
    REQUIRE(((free_vcs >> g.out_vc) & 1u) == 1u);  // a VC it asked for
    CHECK(vcs_served.insert(g.out_vc).second);
    CHECK(inputs_served.insert(g.input).second);
    free_vcs &= ~(1u << g.out_vc);
    waiting.erase(std::find(waiting.begin(), waiting.end(), g.input));
  }
  CHECK(waiting.empty());
  CHECK(free_vcs == 0);
  // Requests without conflicts (each input its own VC, or its own port) are all granted at once.
  req = {{0, 0, 0b0001}, {1, 0, 0b0010}, {2, 0, 0b0100}, {3, 1, 0b1111}, {4, 2, 0b1000}};
  va->allocate(req, grants);
  REQUIRE(grants.size() == 5);
  std::set<std::pair<unsigned, unsigned>> granted;
  for (const auto& g : grants) {
    CHECK(granted.insert({g.out_port, g.out_vc}).second);  // no output VC twice
    const VcRequest& r = req[g.input];
    CHECK(g.out_port == r.out_port);
    CHECK(((r.vc_mask >> g.out_vc) & 1u) == 1u);
  }
  // An input's second request is used only when its first has no free VC.
  req = {{0, 1, 0}, {0, 3, 0b0100}};
  va->allocate(req, grants);
  REQUIRE(grants.size() == 1);
  CHECK(grants[0].out_port == 3);
  CHECK(grants[0].out_vc == 2);
  CHECK_THROWS_AS(make_vc_allocator("nope", {5, 4}), std::exception);
}
