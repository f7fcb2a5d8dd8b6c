// Long runs at and past saturation: adaptive routing on meshes and tori (2-D and 3-D), with
// wormhole switching, several VC counts and packet lengths and escape channels in either
// dimension order, must keep moving for 100,000 cycles with a watchdog of 1,000 (labelled
// `long`: run by `make test`, not under the sanitizers).
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace collnoc;

namespace {

struct LongRun {
  std::string kind;
  std::vector<unsigned> k;
  double rate;
  unsigned vcs = 4;
  unsigned packet_flits = 4;
  std::string routing = "adaptive";
  DimensionOrder order = DimensionOrder::increasing;  // of the escape channels
  std::string selection = "first_free";
  std::string table;  // routing = table: the file, from the source tree
};

void run_long(const LongRun& r) {
  SystemParams sp;
  sp.routing = r.routing;
  sp.routing_params.dimension_order = r.order;
  sp.routing_params.selection = r.selection;
  if (!r.table.empty()) sp.routing_params.table = std::string(COLLNOC_SOURCE_DIR) + "/" + r.table;
  sp.router.vcs = r.vcs;
  auto sys = test::build(r.kind, r.k, sp);
  TrafficParams tp;
  tp.injection_rate = r.rate;
  tp.packet_flits = r.packet_flits;
  constexpr Cycle kCycles = 100000;
  RunOutcome out = test::run_traffic(*sys, tp, 0, kCycles, kCycles, /*watchdog_cycles=*/1000);
  test::require_conserved(out);
  CHECK(test::get<std::uint64_t>(out.report, "sim.cycles") == kCycles);
  CHECK(test::get<std::uint64_t>(out.report, "sim.stalled_cycles") == 0);
  // Accepted throughput over the whole run: well above zero at any of these loads.
  const double accepted = test::get<double>(out.report, "throughput.accepted_flits_per_node_cycle");
  CHECK(accepted > std::min(0.9 * r.rate, 0.1));
}

}  // namespace

TEST_CASE("adaptive, 8x8 mesh at 0.3 flits/node/cycle (below saturation)", "[long]") {
  run_long({"mesh", {8, 8}, 0.3});
}
TEST_CASE("adaptive, 8x8 mesh at 1.0 (past saturation)", "[long]") {
  run_long({"mesh", {8, 8}, 1.0});
}
TEST_CASE("adaptive, 8x8 mesh at 0.5 with 8 VCs", "[long]") {
  run_long({"mesh", {8, 8}, 0.5, 8});
}
TEST_CASE("adaptive, 8x8 mesh at 0.8 with 1-flit packets", "[long]") {
  run_long({"mesh", {8, 8}, 0.8, 4, 1});
}
TEST_CASE("adaptive, 8x8 torus at 0.6", "[long]") {
  run_long({"torus", {8, 8}, 0.6});
}
TEST_CASE("adaptive, 8x8 torus at 1.0 with 3 VCs", "[long]") {
  run_long({"torus", {8, 8}, 1.0, 3});
}
TEST_CASE("adaptive, 4x4x4 mesh at 1.0", "[long]") {
  run_long({"mesh", {4, 4, 4}, 1.0});
}
TEST_CASE("adaptive, 4x4x4 torus at 0.4", "[long]") {
  run_long({"torus", {4, 4, 4}, 0.4});
}
TEST_CASE("adaptive, 4x4x4 torus at 1.0 with 8-flit packets", "[long]") {
  run_long({"torus", {4, 4, 4}, 1.0, 4, 8});
}
// SPEC 5's unicast routing: the escape channels take the highest dimension first.
TEST_CASE("adaptive with decreasing-order escape, 8x8 torus at 1.0 with 3 VCs", "[long]") {
  run_long({"torus", {8, 8}, 1.0, 3, 4, "adaptive", DimensionOrder::decreasing});
}
TEST_CASE("adaptive with decreasing-order escape, 4x4x4 mesh at 1.0", "[long]") {
  run_long({"mesh", {4, 4, 4}, 1.0, 4, 4, "adaptive", DimensionOrder::decreasing});
}

// Turn models and two-phase routing: deadlock-free by their channel graphs (test_routing.cpp),
// and here in long runs past saturation, with as few VCs as they take.
TEST_CASE("odd_even, 8x8 mesh at 1.0 with 1 VC", "[long]") {
  run_long({"mesh", {8, 8}, 1.0, 1, 4, "odd_even"});
}
TEST_CASE("west_first, 8x8 mesh at 1.0 with 2 VCs", "[long]") {
  run_long({"mesh", {8, 8}, 1.0, 2, 4, "west_first"});
}
TEST_CASE("north_last, 8x8 mesh at 1.0 with 1 VC and 8-flit packets", "[long]") {
  run_long({"mesh", {8, 8}, 1.0, 1, 8, "north_last"});
}
TEST_CASE("negative_first, 4x4x4 mesh at 1.0 with 1 VC", "[long]") {
  run_long({"mesh", {4, 4, 4}, 1.0, 1, 4, "negative_first"});
}
TEST_CASE("valiant, 8x8 mesh at 1.0 with 2 VCs", "[long]") {
  run_long({"mesh", {8, 8}, 1.0, 2, 4, "valiant"});
}
TEST_CASE("romm, 8x8 torus at 1.0 with 4 VCs", "[long]") {
  run_long({"torus", {8, 8}, 1.0, 4, 4, "romm"});
}

TEST_CASE("adaptive with random selection, 8x8 torus at 1.0 with 3 VCs", "[long]") {
  run_long({"torus", {8, 8}, 1.0, 3, 4, "adaptive", DimensionOrder::increasing, "random"});
}
TEST_CASE("odd_even with least_credits_used selection, 8x8 mesh at 1.0 with 2 VCs", "[long]") {
  run_long({"mesh", {8, 8}, 1.0, 2, 4, "odd_even", DimensionOrder::increasing,
            "least_credits_used"});
}
TEST_CASE("table with an escape sub-network (fully adaptive over XY), 4x4 mesh at 1.0 with 2 VCs "
          "and 8-flit packets", "[long]") {
  run_long({"mesh", {4, 4}, 1.0, 2, 8, "table", DimensionOrder::increasing, "first_free",
            "configs/routing/mesh4x4_adaptive_escape.table"});
}

// Hardware multicast (SPEC 5's network: unidirectional 8x8 torus, 3 + 3 VCs, VCT, a message a
// VC), multicast only, 64 data flits to 32 destinations each, for 100,000 cycles: deadlock
// recovery keeps it moving, every copy arrives bit-exact, and the simulator's conservation
// check (copies and consumed headers, messages held in deadlock queues and memory) holds.
namespace {

void run_multicast(double rate) {
  PlatformParams p;
  p.topology.kind = "torus";
  p.topology.k = {8, 8};
  p.topology.n = 2;
  p.topology.directions = 1;
  p.system.router.vcs = 6;
  p.system.router.vc_classes = 2;
  p.system.router.switching = Switching::virtual_cut_through;
  p.system.router.buffer_flits = 96;
  p.system.router.hta.enabled = true;
  auto sys = make_platform(p);
  TrafficParams tp;
  tp.injection_rate = rate;
  tp.packet_flits = 64;
  tp.multicast_fraction = 1.0;
  tp.multicast_destinations_min = tp.multicast_destinations_max = 32;
  constexpr Cycle kCycles = 100000;
  RunOutcome out = test::run_traffic(*sys, tp, 0, kCycles, kCycles, /*watchdog_cycles=*/1000);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(test::get<std::uint64_t>(out.report, "sim.stalled_cycles") == 0);
  const auto copies = test::get<std::uint64_t>(out.report, "multicast.copies_delivered");
  CHECK(copies > 10000);
  CHECK(test::get<std::uint64_t>(out.report, "multicast.copies_verified") == copies);
}

}  // namespace

TEST_CASE("hta multicast only, 8x8 unidirectional torus at 0.01 (below saturation)", "[long]") {
  run_multicast(0.01);
}
TEST_CASE("hta multicast only, 8x8 unidirectional torus at 0.05 (past saturation)", "[long]") {
  run_multicast(0.05);
}
