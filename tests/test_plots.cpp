// `collnoc plot` as a user runs it: each kind of figure drawn from a small run, and the figure
// is a picture (size, several colours, variance), not an empty canvas. Bad input: the "plots"
// part of tests/bad_input.table.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "cli_support.hpp"

namespace {

using namespace collnoc::test;  // Result, read_csv, read_text, run_collnoc, run_json, temp_path

const std::string kSmall =
    "--set sim.warmup_cycles=200 --set sim.measure_cycles=1000 --set sim.max_drain_cycles=500";

struct Picture {
  int height = 0, width = 0;
  double deviation = 0;  // of the RGB values, 0..1
  int colours = 0;       // distinct colours (rounded to 1/50) among sampled pixels
};

// Reads a PNG with matplotlib (the plots need it anyway): the test stays free of image code.
Picture measure_png(const std::string& path) {
  const std::string cmd =
      "/usr/bin/python3 -c \"import sys, matplotlib.image as m; a = m.imread(sys.argv[1])[..., :3]; "
      "s = a.reshape(-1, 3)[::5]; print(a.shape[0], a.shape[1], float(a.std()), "
      "len(set(map(tuple, (s * 50).round().tolist()))))\" " + path;
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buf[256] = {};
  const std::size_t n = fread(buf, 1, sizeof buf - 1, pipe);
  REQUIRE(pclose(pipe) == 0);
  Picture p;
  std::istringstream(std::string(buf, n)) >> p.height >> p.width >> p.deviation >> p.colours;
  return p;
}

void require_picture(const std::string& path, int min_colours) {
  INFO(path);
  REQUIRE(std::filesystem::exists(path));
  CHECK(std::filesystem::file_size(path) > 10000);
  const Picture p = measure_png(path);
  CHECK(p.width >= 400);
  CHECK(p.height >= 300);
  CHECK(p.deviation > 0.05);
  CHECK(p.colours >= min_colours);
}

Result plot(const std::string& args) {
  const Result r = run_collnoc("plot " + args);
  INFO("collnoc plot " << args << "\n" << r.output);
  CHECK(r.status == 0);
  return r;
}

}  // namespace

TEST_CASE("plot: a load curve from a sweep, the saturated point marked, PNG and SVG", "[plot]") {
  const std::string csv = temp_path("load.csv");
  const Result sweep = run_collnoc("sweep - --set topology.k=4 " + kSmall +
                                   " --param traffic.injection_rate --values 0.1,0.4,0.7,0.9 "
                                   "--quiet --out " + csv);
  INFO(sweep.output);
  REQUIRE(sweep.status == 0);
  const auto rows = read_csv(csv);
  REQUIRE(rows.size() == 4);
  CHECK(rows.back().at("sim.completed") == "false");  // a point to mark saturated

  const std::string png = temp_path("load.png"), svg = temp_path("load.svg");
  plot(csv + " -o " + png);
  require_picture(png, 10);
  plot("load " + csv + " --x throughput.accepted_flits_per_node_cycle --y latency_cycles.p99 "
       "--by sim.completed --logy -o " + svg);
  const std::string text = read_text(svg);
  CHECK(text.find("<svg") != std::string::npos);
  CHECK(text.find("saturated (sim.completed = false)") != std::string::npos);
  CHECK(text.find("sim.completed = true") != std::string::npos);  // a series per --by value
}

TEST_CASE("plot: a heat map of a mesh's links and routers, one per metric", "[plot]") {
  // (With an energy table: --metric energy colours links and routers by their energy_pj.)
  const auto j = run_json("--set topology.k=4 --set traffic.injection_rate=0.3 --set power.table=" +
                              std::string(COLLNOC_SOURCE_DIR) + "/configs/power/45nm.yaml " + kSmall,
                          "mesh");
  // Per-router buffer occupancy: one row per router, their mean the network's.
  REQUIRE(j["router_buffers"].size() == 16);
  double sum = 0;
  for (const auto& r : j["router_buffers"]) sum += r["buffer_occupancy_mean_flits"].get<double>();
  CHECK(sum / 16 == Approx(j["routers"]["buffer_occupancy_mean_flits"].get<double>()));
  const std::string json = temp_path("mesh.json");
  for (const char* metric : {"utilization", "flits", "contention", "energy"}) {
    const std::string png = temp_path(std::string("mesh_") + metric + ".png");
    plot("heatmap " + json + " --metric " + metric + " -o " + png);
    require_picture(png, 20);
  }
}

TEST_CASE("plot: a torus as a grid, an HDN as a node-link drawing", "[plot]") {
  run_json("--set topology.kind=torus --set topology.k=4 --set router.vcs=2 " + kSmall, "torus");
  plot("heatmap " + temp_path("torus.json") + " -o " + temp_path("torus.png"));
  require_picture(temp_path("torus.png"), 20);
  run_json("--set platform=hdn --set topology.kind=hdn --set hdn.base=hypercube:2 "
           "--set routing.algorithm=hdn --set router.vcs=2 --set workload.kind=collective "
           "--set workload.collective=total_exchange",
           "hdn");
  const std::string svg = temp_path("hdn.svg");
  plot("heatmap " + temp_path("hdn.json") + " -o " + temp_path("hdn.png"));
  require_picture(temp_path("hdn.png"), 10);
  // The layout is fixed: the same drawing every time.
  plot("heatmap " + temp_path("hdn.json") + " -o " + svg);
  const std::string first = read_text(svg);
  plot("heatmap " + temp_path("hdn.json") + " -o " + svg);
  CHECK(read_text(svg) == first);
}

TEST_CASE("plot: per-round heat maps of a firmware run; its rounds add up to the run's links",
          "[plot]") {
  // Pairwise alltoall on a 4x4 grid: 15 rounds (one per stage), contention in some of them.
  const auto j = run_json("--set platform=tilepro --set workload.kind=collective "
                          "--set workload.collective=alltoall --set workload.algorithm=pairwise "
                          "--set workload.grid=4x4 --set stats.per_round_links=true",
                          "rounds");
  std::map<std::string, std::uint64_t> flits;        // per link, over the rounds
  std::map<std::uint64_t, std::uint64_t> contention;  // per round, over the links
  std::set<std::uint64_t> rounds;
  for (const auto& row : j["links_by_round"]) {
    const std::string link = row["router"].dump() + ">" + row["to_router"].dump();
    flits[link] += row["flits"].get<std::uint64_t>();
    contention[row["round"].get<std::uint64_t>()] += row["contention_events"].get<std::uint64_t>();
    rounds.insert(row["round"].get<std::uint64_t>());
  }
  CHECK(rounds.size() == 15);
  std::size_t links = 0;
  for (const auto& l : j["links"])
    if (l.contains("to_router")) {
      ++links;
      CHECK(flits[l["router"].dump() + ">" + l["to_router"].dump()] == l["flits"].get<std::uint64_t>());
    }
  CHECK(links == 112);  // every link of the 8x8 chip
  std::uint64_t contended_rounds = 0;
  for (const auto& r : j["contention_by_round"]) {
    CHECK(contention[r["round"].get<std::uint64_t>()] == r["contention_events_links"].get<std::uint64_t>());
    contended_rounds += r["contention_events_links"].get<std::uint64_t>() > 0;
  }
  CHECK(contended_rounds > 0);

  const std::string json = temp_path("rounds.json");
  plot("heatmap " + json + " --round 2 --metric contention -o " + temp_path("round2.png"));
  require_picture(temp_path("round2.png"), 10);
  plot("heatmap " + json + " --rounds 1-4 -o " + temp_path("rounds.png"));
  require_picture(temp_path("rounds.png"), 10);
  const Picture one = measure_png(temp_path("round2.png")), four = measure_png(temp_path("rounds.png"));
  CHECK(four.width > one.width);  // a grid of panels
}

TEST_CASE("plot: --help names both kinds of figure", "[plot]") {
  const Result r = plot("--help");
  CHECK(r.output.find("collnoc plot heatmap") != std::string::npos);
  CHECK(r.output.find("--metric utilization|flits|contention") != std::string::npos);
}

TEST_CASE("plot: without matplotlib or Python the message names the package", "[plot]") {
  const std::string csv = temp_path("tiny.csv"), png = temp_path("never.png");
  std::ofstream(csv) << "traffic.injection_rate,sim.status,latency_cycles.mean\n0.1,ok,20\n";
  // A Python 3 whose matplotlib fails to import, as on a machine without the package.
  std::filesystem::create_directories(temp_path("no_matplotlib/matplotlib"));
  std::ofstream(temp_path("no_matplotlib/matplotlib/__init__.py")) << "raise ImportError('none')\n";
  const std::string python = temp_path("python_without_matplotlib");
  std::ofstream(python) << "#!/bin/sh\nPYTHONPATH=" << temp_path("no_matplotlib")
                        << " exec /usr/bin/python3 \"$@\"\n";
  REQUIRE(::chmod(python.c_str(), 0755) == 0);
  Result r = run_collnoc("plot " + csv + " -o " + png, true, "COLLNOC_PYTHON=" + python);
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK(r.output.find("collnoc: error: plotting needs matplotlib") != std::string::npos);
  CHECK(r.output.find("python3-matplotlib") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(png));

  r = run_collnoc("plot " + csv + " -o " + png, true, "COLLNOC_PYTHON=/nonexistent/python3");
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK(r.output.find("cannot start /nonexistent/python3") != std::string::npos);
  CHECK(r.output.find("python3-matplotlib") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(png));
}
