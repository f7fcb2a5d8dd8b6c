// The shape of the 8x8 mesh's load curves, pinned (docs/router.md#load-curves): the
// configuration compared side by side with an established cycle-accurate simulator (DOR, 4 VCs
// x 4 flits, 4-flit packets, a 5-cycle router), where zero-load latency agreed within a cycle
// and saturation within 1.2 %. A change that moves a knee or changes what happens past it
// fails here and must be explained (and these figures updated) on purpose.
#include <map>

#include "cli_support.hpp"
#include "noc/zero_load.hpp"

using namespace collnoc;

namespace {

struct Point {
  double accepted, latency, hops;
  bool completed;
};

// offered load -> the point, from one `collnoc sweep` (each load its own process).
std::map<double, Point> sweep(const std::string& pattern, const std::string& loads) {
  const std::string csv = test::temp_path(pattern + ".csv");
  const test::Result r = test::run_collnoc(
      "sweep " + std::string(COLLNOC_SOURCE_DIR) + "/configs/core/mesh_uniform.yaml" +
      " --set router.hop_latency_cycles=5 --set traffic.pattern=" + pattern +
      " --param traffic.injection_rate --values " + loads + " --jobs 2 --quiet --out " + csv);
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::map<double, Point> curve;
  for (const auto& row : test::read_csv(csv))
    curve[std::stod(row.at("traffic.injection_rate"))] =
        Point{std::stod(row.at("throughput.accepted_flits_per_node_cycle")),
              std::stod(row.at("latency_cycles.mean")), std::stod(row.at("hops.mean")),
              row.at("sim.completed") == "true"};
  return curve;
}

// Zero load: the closed form at the mean hop count (T = 5 D + 9 for this pipeline; it is
// linear in D, so the mean of T is T of the mean), plus at most a cycle of contention at 1 %.
void check_zero_load(const Point& p, double expected_hops) {
  CHECK(p.hops == Approx(expected_hops).margin(0.15));
  const double t = static_cast<double>(zero_load_latency({0, 4, 5, 1})) +
                   p.hops * static_cast<double>(zero_load_latency({1, 4, 5, 1}) -
                                                zero_load_latency({0, 4, 5, 1}));
  CHECK(p.latency >= t - 0.05);
  CHECK(p.latency <= t + 1.0);
}

bool follows(const Point& p, double offered) { return p.completed && p.accepted >= 0.98 * offered; }
bool saturated(const Point& p, double offered) { return !p.completed || p.accepted < 0.98 * offered; }

}  // namespace

TEST_CASE("load curve, uniform: knee between 0.35 and 0.4, flat past it", "[load_curve]") {
  auto c = sweep("uniform", "0.01,0.35,0.4,0.5,0.8");
  check_zero_load(c.at(0.01), 64.0 * 2 * 21 / 8 / 63);  // mean distance to the 63 others
  CHECK(follows(c.at(0.35), 0.35));
  CHECK(saturated(c.at(0.4), 0.4));
  CHECK(c.at(0.4).latency > 5 * c.at(0.01).latency);
  // past saturation the network keeps delivering its saturation throughput (no collapse)
  for (double load : {0.4, 0.5, 0.8}) CHECK(c.at(load).accepted == Approx(0.384).margin(0.01));
}

TEST_CASE("load curve, transpose: knee between 0.1 and 0.2, accepted keeps rising past it",
          "[load_curve]") {
  auto c = sweep("transpose", "0.01,0.1,0.2,0.8");
  check_zero_load(c.at(0.01), 2 * 21.0 / 8);  // the diagonal sends to itself, 0 hops
  CHECK(follows(c.at(0.1), 0.1));
  CHECK(saturated(c.at(0.2), 0.2));
  CHECK(c.at(0.2).accepted == Approx(0.181).margin(0.01));
  // pairs with short, uncontended routes still get their share while the others queue
  CHECK(c.at(0.8).accepted > c.at(0.2).accepted + 0.1);
}

TEST_CASE("load curve, bit complement: knee between 0.2 and 0.25, collapse past it",
          "[load_curve]") {
  auto c = sweep("bit_complement", "0.01,0.2,0.25,0.5");
  check_zero_load(c.at(0.01), 8.0);
  CHECK(follows(c.at(0.2), 0.2));
  CHECK(saturated(c.at(0.25), 0.25));
  // every packet crosses the bisection and tree saturation spreads: throughput falls to about
  // two thirds of the knee's
  CHECK(c.at(0.5).accepted == Approx(0.128).margin(0.01));
  CHECK(c.at(0.5).accepted < 0.7 * c.at(0.2).accepted);
}
