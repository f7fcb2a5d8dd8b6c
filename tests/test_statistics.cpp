// Statistics users read off a run: latency percentiles and histogram, the accepted throughput
// over time, and per-flow figures. Each against what the run's own counters say.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "noc/report.hpp"
#include "support.hpp"

using namespace collnoc;

namespace {

const std::vector<Report>& list(const Report& r, const std::string& key) {
  for (const auto& [name, rows] : r.lists())
    if (name == key) return rows;
  FAIL("no list " << key);
  static const std::vector<Report> none;
  return none;
}

RunOutcome run(const TrafficParams& tp, RunParams rp, const std::string& kind = "mesh") {
  auto sys = test::build(kind, {4, 4}, SystemParams{});
  sys->attach_traffic(tp, 1);
  rp.progress = false;
  rp.watchdog_cycles = 1000;
  RunOutcome out = Simulation(*sys, rp, nullptr).run();
  test::require_conserved(out);
  return out;
}

// Traffic at `rate`; a 500-cycle warm-up and a 3,000-cycle window.
TrafficParams at_rate(double rate, const std::string& pattern = "uniform") {
  TrafficParams tp;
  tp.injection_rate = rate;
  tp.pattern = pattern;
  return tp;
}
RunParams short_window() {
  RunParams rp;
  rp.warmup_cycles = 500;
  rp.measure_cycles = 3000;
  return rp;
}

// Per-flow statistics of `pattern` at 0.1 flits/node/cycle, `top` flows.
Report run_flows(const std::string& pattern, std::uint32_t top) {
  RunParams rp = short_window();
  rp.per_flow = true;
  rp.per_flow_top = top;
  return run(at_rate(0.1, pattern), rp).report;
}

}  // namespace

TEST_CASE("latency histogram buckets: one per cycle below 8, then four per power of two",
          "[statistics]") {
  const std::vector<std::pair<std::uint64_t, unsigned>> cases = {
      {0, 0}, {7, 7}, {8, 8}, {9, 8}, {10, 9}, {15, 11}, {16, 12}, {19, 12}, {20, 13},
      {31, 15}, {32, 16}, {40, 17}, {1000, 35}, {std::uint64_t{1} << 32, 124}};
  for (const auto& [v, bucket] : cases) {
    INFO(v);
    CHECK(Tally::histogram_bucket(v) == bucket);
  }
  // Edges: each bucket holds its lower edge, the one below holds the value before it.
  for (unsigned i = 1; i < 120; ++i) {
    INFO(i);
    CHECK(Tally::histogram_bucket(Tally::histogram_edge(i)) == i);
    CHECK(Tally::histogram_bucket(Tally::histogram_edge(i) - 1) == i - 1);
    if (i >= 8) CHECK(4 * (Tally::histogram_edge(i + 1) - Tally::histogram_edge(i)) <= Tally::histogram_edge(i));
  }
}

TEST_CASE("latency counts: the summary of the counts is that of the samples themselves",
          "[statistics]") {
  // Samples on both sides of the counted array's end (1024), with repeats, more large ones than
  // a batch (4096), in two blocks merged as the run merges its NIs'.
  std::vector<std::uint32_t> all;
  SampleCounts a, b;
  std::uint64_t x = 12345;
  for (int i = 0; i < 20000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const auto v = static_cast<std::uint32_t>(i % 2 == 0 ? 1000 + (x >> 40) % 200000 : (x >> 33) % 300);
    all.push_back(v);
    (i % 3 ? a : b).add(v);
  }
  Tally t;
  t.distribution("lat", a);
  t.distribution("lat", b);
  Report r;
  t.write(r, 0);
  auto value = [&](const std::string& k) { return std::get<double>(*r.find(k)); };
  std::sort(all.begin(), all.end());
  const double sum = std::accumulate(all.begin(), all.end(), 0.0);
  CHECK(value("lat.mean") == sum / static_cast<double>(all.size()));
  auto rank = [&](double q) {  // nearest rank from the definition
    const auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(all.size())));
    return static_cast<double>(all[i - 1]);
  };
  CHECK(value("lat.p50") == rank(0.5));
  CHECK(value("lat.p90") == rank(0.9));
  CHECK(value("lat.p99") == rank(0.99));
  CHECK(value("lat.p99_9") == rank(0.999));
  CHECK(value("lat.max") == static_cast<double>(all.back()));
  const auto& counts = std::get<std::vector<std::uint64_t>>(*r.find("lat.histogram_counts"));
  std::vector<std::uint64_t> want(Tally::histogram_bucket(all.back()) + 1, 0);
  for (auto v : all) ++want[Tally::histogram_bucket(v)];
  CHECK(counts == want);
  SampleCounts both = a;
  both.add(b);
  CHECK(both.sorted() == all);
  CHECK(both.size() == all.size());
}

TEST_CASE("latency percentiles are ordered and the histogram holds every measured packet",
          "[statistics]") {
  const Report r = run(at_rate(0.3), short_window()).report;
  for (const std::string k : {"latency_cycles", "network_latency_cycles"}) {
    INFO(k);
    const auto p50 = test::get<double>(r, k + ".p50"), p90 = test::get<double>(r, k + ".p90"),
               p99 = test::get<double>(r, k + ".p99"), p99_9 = test::get<double>(r, k + ".p99_9"),
               max = test::get<double>(r, k + ".max");
    CHECK(p50 > 0);
    CHECK((p50 <= p90 && p90 <= p99 && p99 <= p99_9 && p99_9 <= max));
    const auto edges = test::get<std::vector<std::uint64_t>>(r, k + ".histogram_edges");
    const auto counts = test::get<std::vector<std::uint64_t>>(r, k + ".histogram_counts");
    REQUIRE(edges.size() == counts.size());
    CHECK(std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}) ==
          test::get<std::uint64_t>(r, "packets.measured_delivered"));
    CHECK(counts.back() > 0);  // the maximum's bucket ends the list
    CHECK(edges.back() <= max);
    for (std::size_t i = 0; i < edges.size(); ++i) CHECK(edges[i] == Tally::histogram_edge(unsigned(i)));
    // The median's bucket: at least half the packets at or below it, at least half at or above.
    const unsigned b = Tally::histogram_bucket(static_cast<std::uint64_t>(p50));
    const std::uint64_t total = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
    CHECK(2 * std::accumulate(counts.begin(), counts.begin() + b + 1, std::uint64_t{0}) >= total);
    CHECK(2 * std::accumulate(counts.begin() + b, counts.end(), std::uint64_t{0}) >= total);
  }
}

TEST_CASE("the throughput series adds up to the flits delivered and levels off at the offered "
          "load", "[statistics]") {
  const TrafficParams tp = at_rate(0.2);
  RunParams rp;
  rp.warmup_cycles = 1000;
  rp.measure_cycles = 8000;
  rp.series_interval_cycles = 1000;
  const Report r = run(tp, rp).report;
  const auto cycles = test::get<std::uint64_t>(r, "sim.cycles");
  const auto series = test::get<std::vector<double>>(r, "throughput.series_flits_per_node_cycle");
  CHECK(test::get<std::uint64_t>(r, "throughput.series_interval_cycles") == 1000);
  REQUIRE(series.size() == (cycles + 999) / 1000);
  double flits = 0;
  for (std::size_t i = 0; i < series.size(); ++i) {
    const double len = std::min<double>(1000.0, static_cast<double>(cycles - 1000 * i));
    flits += series[i] * 16 * len;
  }
  CHECK(flits == Approx(static_cast<double>(test::get<std::uint64_t>(r, "flits.delivered"))));
  // After the first interval (the network filling), each within 15 % of the offered load.
  for (std::size_t i = 1; i + 1 < series.size(); ++i) CHECK(series[i] == Approx(0.2).epsilon(0.15));
}

TEST_CASE("per-flow statistics: transpose traffic has one flow per node, adding up to the run's "
          "packets", "[statistics]") {
  const Report r = run_flows("transpose", 0);
  const std::vector<Report>& flows = list(r, "flows");
  // Transpose on 4x4: (x, y) -> (y, x); the 4 diagonal nodes send to themselves.
  CHECK(test::get<std::uint64_t>(r, "flows.measured") == flows.size());
  CHECK(flows.size() == 16);
  std::uint64_t packets = 0;
  double previous = 1e9;
  for (const Report& f : flows) {
    const auto src = test::get<std::uint64_t>(f, "src"), dst = test::get<std::uint64_t>(f, "dst");
    CHECK(dst == (src % 4) * 4 + src / 4);
    packets += test::get<std::uint64_t>(f, "packets");
    const double mean = test::get<double>(f, "latency_cycles_mean");
    CHECK(mean <= previous);  // highest first
    CHECK(static_cast<double>(test::get<std::uint64_t>(f, "latency_cycles_max")) >= mean);
    CHECK(test::get<double>(f, "throughput_flits_per_cycle") ==
          Approx(static_cast<double>(test::get<std::uint64_t>(f, "flits")) / 3000.0));
    previous = mean;
  }
  CHECK(packets == test::get<std::uint64_t>(r, "packets.measured_delivered"));
  // The longest flows are the corner-to-corner ones (6 hops), the shortest the diagonal (0).
  const auto first_src = test::get<std::uint64_t>(flows.front(), "src");
  CHECK((first_src == 3 || first_src == 12));
  CHECK(test::get<std::uint64_t>(flows.back(), "src") % 5 == 0);
}

TEST_CASE("per-flow statistics: the top N of highest mean latency", "[statistics]") {
  const Report r = run_flows("uniform", 5);
  const std::vector<Report>& flows = list(r, "flows");
  CHECK(flows.size() == 5);
  CHECK(test::get<std::uint64_t>(r, "flows.measured") > 200);  // uniform: most of 16 x 16 pairs
  for (std::size_t i = 1; i < flows.size(); ++i)
    CHECK(test::get<double>(flows[i], "latency_cycles_mean") <=
          test::get<double>(flows[i - 1], "latency_cycles_mean"));
}

TEST_CASE("per-VC statistics: each VC's busy cycles lie within its port's, and cover them",
          "[statistics]") {
  RunParams rp = short_window();
  rp.per_vc = true;
  const Report r = run(at_rate(0.3), rp).report;
  const auto cycles = test::get<std::uint64_t>(r, "sim.cycles");
  std::uint64_t used = 0;
  for (const Report& link : list(r, "links")) {
    const auto busy = test::get<std::uint64_t>(link, "busy_cycles");
    const auto vcs = test::get<std::vector<std::uint64_t>>(link, "vc_busy_cycles");
    const auto share = test::get<std::vector<double>>(link, "vc_utilization");
    REQUIRE(vcs.size() == 4);  // router.vcs
    REQUIRE(share.size() == 4);
    std::uint64_t sum = 0;
    for (std::size_t v = 0; v < vcs.size(); ++v) {
      CHECK(vcs[v] <= busy);  // a VC is held only while its port is
      CHECK(share[v] == Approx(static_cast<double>(vcs[v]) / static_cast<double>(cycles)));
      sum += vcs[v];
      used += vcs[v] > 0;
    }
    CHECK(sum >= busy);  // the port is busy only while one of its VCs is held
  }
  CHECK(used > 100);  // at 0.3 flits/node/cycle most of the 4 x 80 output VCs carried packets
}
