// Zero-load latency of single packets equals the documented closed form (noc/zero_load.hpp),
// for several distances and packet lengths, in every switching mode.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>

#include "noc/zero_load.hpp"
#include "support.hpp"

using namespace collnoc;

namespace {

struct Case {
  NodeId src, dst;
  unsigned words;
};

void check_zero_load(const std::string& kind, Switching sw, unsigned hop, unsigned link,
                     unsigned directions = 2) {
  SystemParams sys;
  sys.router.switching = sw;
  sys.router.hop_latency_cycles = hop;
  sys.router.buffer_flits = 16;  // VCT and SAF need room for a whole packet
  sys.router.vcs = 2;
  sys.link.latency_cycles = link;
  PlatformParams p;
  p.topology.kind = kind;
  p.topology.k = {8, 8};
  p.topology.directions = directions;
  p.system = sys;
  auto system = make_platform(p);
  const Topology& topo = system->topology();

  // Distances 0..14 on an 8x8 network, 1 to 16 flits (4 words per flit), one packet at a time.
  const std::vector<Case> cases = {{0, 0, 4},   {0, 1, 1},   {0, 9, 8},   {0, 27, 20},
                                   {0, 63, 64}, {63, 0, 1},  {5, 58, 33}, {36, 3, 12},
                                   {7, 56, 4},  {18, 18, 64}, {62, 1, 17}};
  std::vector<test::ScriptedSend> script;
  std::map<NodeId, std::vector<std::uint32_t>> expected;
  Cycle at = 10;
  for (const Case& c : cases) {
    script.push_back({at, c.src, c.dst, c.words});
    const unsigned flits = (c.words + 3) / 4;
    const Cycle t0 = zero_load_latency({topo.distance(topo.router_of(c.src), topo.router_of(c.dst)),
                                        flits, hop, link, 1, 1, sw});
    expected[c.dst].push_back(static_cast<std::uint32_t>(t0 + sys.ni.send_overhead_cycles));
    at += 1000;
  }
  test::ScriptedFirmware fw(script);
  RunOutcome out = test::run_firmware(*system, fw);
  REQUIRE(out.status == RunStatus::ok);
  REQUIRE(fw.data_verified());
  for (auto& [dst, want] : expected) {
    INFO("destination " << dst);
    std::sort(want.begin(), want.end());
    CHECK(system->ni(dst).reassembler().latency_samples().sorted() == want);
  }
  // Nothing else was in the network, so nothing contended.
  CHECK(std::get<std::uint64_t>(*out.report.find("contention_events")) == 0);
}

}  // namespace

TEST_CASE("zero-load latency: wormhole with a 3-cycle hop", "[zero_load]") {
  check_zero_load("mesh", Switching::wormhole, 3, 1);
}
TEST_CASE("zero-load latency: virtual cut-through with a 4-cycle hop", "[zero_load]") {
  check_zero_load("mesh", Switching::virtual_cut_through, 4, 1);
}
TEST_CASE("zero-load latency: store-and-forward with a 2-cycle hop", "[zero_load]") {
  check_zero_load("mesh", Switching::store_and_forward, 2, 1);
}
TEST_CASE("zero-load latency: torus with a 1-cycle hop and 3-cycle links", "[zero_load]") {
  check_zero_load("torus", Switching::wormhole, 1, 3);
}
TEST_CASE("zero-load latency: store-and-forward on a torus with 2-cycle links", "[zero_load]") {
  check_zero_load("torus", Switching::store_and_forward, 3, 2);
}
TEST_CASE("zero-load latency: unidirectional torus, virtual cut-through with 2-cycle links",
          "[zero_load]") {
  // Distances the + way only (63 -> 0 is 2 hops, 0 -> 63 is 14).
  check_zero_load("torus", Switching::virtual_cut_through, 2, 2, 1);
}
