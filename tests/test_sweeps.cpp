// Sweeps that scale (docs/sweeps.md): grids, seeds with confidence intervals, array columns,
// --resume per (point, seed), and the runs emitted for GNU parallel and SLURM, merged into the
// CSV a local sweep writes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace {

namespace fs = std::filesystem;
using namespace collnoc::test;  // Result, read_csv, read_text, run_collnoc, run_shell, temp_path

// A 4x4 mesh, short runs: each point takes a fraction of a second.
const std::string kSmall = "sweep - --set topology.k=4 --set sim.warmup_cycles=100 "
                           "--set sim.measure_cycles=400 ";
const std::string kGrid = "--param traffic.injection_rate --values 0.05,0.2 "
                          "--param router.vcs --values 2,4 ";

double number(const std::string& text) { return std::stod(text); }

// A shell command's exit status and output (stdout and stderr).
Result shell(const std::string& command) { return run_shell("(" + command + ") 2>&1"); }

}  // namespace

TEST_CASE("sweeps: several --param/--values make the cross product, the first varying slowest",
          "[sweeps]") {
  const std::string csv = temp_path("grid.csv");
  const Result r = run_collnoc(kSmall + kGrid + "--jobs 2 --out " + csv);
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("[4/4] ") != std::string::npos);  // progress: done/total and an ETA
  CHECK(r.output.find("ETA") != std::string::npos);
  CHECK(read_text(csv).rfind("traffic.injection_rate,router.vcs,sim.status,", 0) == 0);
  const auto rows = read_csv(csv);
  REQUIRE(rows.size() == 4);
  const std::vector<std::pair<std::string, std::string>> expected{
      {"0.05", "2"}, {"0.05", "4"}, {"0.2", "2"}, {"0.2", "4"}};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(rows[i].at("traffic.injection_rate") == expected[i].first);
    CHECK(rows[i].at("router.vcs") == expected[i].second);
    CHECK(rows[i].at("sim.status") == "ok");
  }
  // Each row is that point's run.
  const auto j = run_json("--set topology.k=4 --set sim.warmup_cycles=100 --set "
                          "sim.measure_cycles=400 --set traffic.injection_rate=0.2 "
                          "--set router.vcs=2", "grid_point");
  CHECK(number(rows[2].at("latency_cycles.mean")) == j["latency_cycles"]["mean"].get<double>());
}

TEST_CASE("sweeps: --seeds gives each metric's mean and 95 % confidence interval of the runs "
          "--raw lists", "[sweeps]") {
  const std::string csv = temp_path("seeds.csv"), raw = temp_path("seeds_raw.csv");
  const Result r = run_collnoc(kSmall + "--set seed=7 --param traffic.injection_rate --values "
                               "0.1,0.3 --seeds 3 --quiet --out " + csv + " --raw " + raw);
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(read_text(csv).rfind("traffic.injection_rate,sim.status,seeds,", 0) == 0);
  CHECK(read_text(raw).rfind("traffic.injection_rate,seed,sim.status,", 0) == 0);
  const auto rows = read_csv(csv), runs = read_csv(raw);
  REQUIRE(rows.size() == 2);
  REQUIRE(runs.size() == 6);
  const double t2 = 4.302652729911275;  // Student's t, 0.975, 2 degrees of freedom
  for (std::size_t p = 0; p < 2; ++p) {
    INFO("point " << p);
    CHECK(rows[p].at("seeds") == "3");
    for (const char* key : {"latency_cycles.mean", "packets.delivered", "hops.mean"}) {
      INFO(key);
      std::vector<double> x;
      for (std::size_t s = 0; s < 3; ++s) {
        const auto& run = runs[p * 3 + s];
        CHECK(run.at("traffic.injection_rate") == rows[p].at("traffic.injection_rate"));
        CHECK(run.at("seed") == std::to_string(7 + s));  // the configured seed, then the next
        x.push_back(number(run.at(key)));
      }
      const double mean = (x[0] + x[1] + x[2]) / 3;
      double squares = 0;
      for (double v : x) squares += (v - mean) * (v - mean);
      CHECK(number(rows[p].at(key)) == Approx(mean).epsilon(1e-12));
      CHECK(number(rows[p].at(std::string(key) + ".ci95")) ==
            Approx(t2 * std::sqrt(squares / 2 / 3)).epsilon(1e-9));
    }
    CHECK(number(rows[p].at("latency_cycles.mean.ci95")) > 0);  // the seeds differ
    CHECK(rows[p].at("sim.completed") == "true");  // true in every run
    CHECK(rows[p].at("sim.topology") == "4x4 mesh");
  }
  // One seed: a mean without an interval.
  const std::string one = temp_path("one_seed.csv");
  REQUIRE(run_collnoc(kSmall + "--param traffic.injection_rate --values 0.1 --seeds 1 --quiet "
                      "--out " + one).status == 0);
  CHECK(read_csv(one).at(0).at("latency_cycles.mean.ci95").empty());
}

TEST_CASE("sweeps: seeds that fail are left out of the means, and the row says the first failure",
          "[sweeps]") {
  // A broadcast whose cores start after a seeded random delay: with sim.max_cycles = 530, seeds
  // 1 and 4 run out of cycles (543 needed), seeds 2 and 3 finish (520 and 499 cycles).
  const std::string csv = temp_path("partial.csv"), raw = temp_path("partial_raw.csv");
  const Result r = run_collnoc(
      "sweep - --set topology.k=4 --set workload.kind=collective "
      "--set workload.collective=broadcast --set workload.start_skew_cycles=500 "
      "--set sim.max_cycles=530 --param topology.k --values 4 --seeds 4 --quiet --raw " + raw +
      " --out " + csv);
  INFO(r.output);
  CHECK(r.status == 1);  // a run failed
  CHECK(r.output.find("seed=1 failed (timeout)") != std::string::npos);
  const auto runs = read_csv(raw);
  REQUIRE(runs.size() == 4);
  CHECK(runs[0].at("sim.status") == "timeout");
  CHECK(runs[1].at("sim.status") == "ok");
  CHECK(runs[2].at("sim.status") == "ok");
  CHECK(runs[3].at("sim.status") == "timeout");
  const auto row = read_csv(csv).at(0);
  CHECK(row.at("sim.status") == "timeout");
  CHECK(row.at("seeds") == "2");
  const double a = number(runs[1].at("collective.execution_cycles"));
  const double b = number(runs[2].at("collective.execution_cycles"));
  CHECK(a != b);
  CHECK(number(row.at("collective.execution_cycles")) == Approx((a + b) / 2));
  // Two runs: t(0.975, 1 degree of freedom) = 12.706 times the standard error.
  CHECK(number(row.at("collective.execution_cycles.ci95")) ==
        Approx(12.7062 * std::abs(a - b) / 2).epsilon(1e-4));
}

TEST_CASE("sweeps: every array a run's results hold is a --columns key, with a value", "[sweeps]") {
  // Synthetic traffic with every optional statistic, and firmware runs with per-round links,
  // all-to-all broadcast's steps and a collective's per-core times.
  for (const std::string settings :
       {"--set topology.k=4 --set sim.measure_cycles=400 --set stats.per_flow=true "
        "--set stats.per_vc=true",
        "--set platform=tilepro --set workload.kind=collective --set workload.collective=alltoall "
        "--set workload.algorithm=pairwise --set workload.grid=3x3 --set stats.per_round_links=true",
        "--set topology.k=4 --set workload.kind=all_to_all_broadcast --set workload.group=2x2"}) {
    INFO(settings);
    const auto j = run_json(settings, "arrays");
    std::vector<std::string> keys;  // each array, each field of an array of objects
    for (const auto& [group, value] : j.items()) {
      if (group == "config") continue;
      std::vector<std::pair<std::string, const nlohmann::json*>> arrays;
      if (value.is_array()) arrays.emplace_back(group, &value);
      else if (value.is_object())
        for (const auto& [leaf, v] : value.items())
          if (v.is_array()) arrays.emplace_back(group + "." + leaf, &v);
      for (const auto& [key, array] : arrays) {
        if (array->empty() || !array->at(0).is_object()) {
          keys.push_back(key);
          continue;
        }
        for (const auto& [field, v] : array->at(0).items()) keys.push_back(key + "." + field);
      }
    }
    REQUIRE(keys.size() >= 6);
    std::string columns;
    for (const std::string& k : keys) columns += (columns.empty() ? "" : ",") + k;
    const std::string csv = temp_path("arrays.csv");
    const Result r = run_collnoc("sweep - " + settings + " --param seed --values 1 --quiet "
                                 "--columns " + columns + " --out " + csv);
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto row = read_csv(csv).at(0);
    for (const std::string& k : keys) {
      INFO(k);
      CHECK_FALSE(row.at(k).empty());
    }
  }
}

TEST_CASE("sweeps: --columns puts array values of the results into cells", "[sweeps]") {
  const auto j = run_json("--set topology.k=4 --set sim.warmup_cycles=100 --set "
                          "sim.measure_cycles=400 --set traffic.injection_rate=0.2", "columns");
  // Every field the links have is a known one.
  std::vector<std::string> fields;
  for (const auto& link : j["links"])
    for (const auto& [k, v] : link.items())
      if (std::find(fields.begin(), fields.end(), "links." + k) == fields.end())
        fields.push_back("links." + k);
  std::string columns = "links.utilization.max,links.flits.sum,links.flits.mean";
  for (const std::string& f : fields) columns += "," + f;
  const std::string csv = temp_path("columns.csv");
  const Result r = run_collnoc(kSmall + "--param traffic.injection_rate --values 0.2 --quiet "
                               "--columns " + columns + " --out " + csv);
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto row = read_csv(csv).at(0);
  double max_utilization = 0;
  std::uint64_t flit_sum = 0;
  std::string flits;
  for (const auto& link : j["links"]) {
    max_utilization = std::max(max_utilization, link["utilization"].get<double>());
    flit_sum += link["flits"].get<std::uint64_t>();
    flits += (flits.empty() ? "" : ";") + link["flits"].dump();
  }
  CHECK(number(row.at("links.utilization.max")) == max_utilization);
  CHECK(row.at("links.flits.sum") == std::to_string(flit_sum));
  CHECK(number(row.at("links.flits.mean")) ==
        Approx(static_cast<double>(flit_sum) / j["links"].size()));
  CHECK(row.at("links.flits") == flits);  // one cell, the links in the results' order
  CHECK(row.at("links.port").find("E;") != std::string::npos);
}

TEST_CASE("sweeps: --resume skips the (point, seed) runs already done", "[sweeps]") {
  const std::string args =
      kSmall + "--param traffic.injection_rate --values 0.1,0.2 --seeds 2 --jobs 2 ";
  const std::string whole = temp_path("resume_whole.csv"), csv = temp_path("resume.csv"),
                    raw = temp_path("resume_raw.csv");
  REQUIRE(run_collnoc(args + "--quiet --out " + whole).status == 0);
  REQUIRE(run_collnoc(args + "--quiet --out " + csv + " --raw " + raw).status == 0);
  // As if interrupted during the last run: the second point's row and its last run are missing.
  const auto drop_last_line = [](const std::string& path) {
    std::string text = read_text(path);
    text.erase(text.rfind('\n', text.size() - 2) + 1);
    std::ofstream(path) << text;
  };
  drop_last_line(csv);
  drop_last_line(raw);
  const Result r = run_collnoc(args + "--resume --out " + csv + " --raw " + raw);
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("1 point(s) already in") != std::string::npos);
  CHECK(r.output.find("[1/1] traffic.injection_rate=0.2, seed=2: ok") != std::string::npos);
  CHECK(without_wall_clock(read_text(csv)) == without_wall_clock(read_text(whole)));
  CHECK(read_csv(raw).size() == 4);
}

TEST_CASE("sweeps: --emit jobs run by GNU parallel, merged, give the local sweep's CSV",
          "[sweeps]") {
  const std::string dir = temp_path("emitted");
  const std::string args = kSmall + kGrid + "--seeds 2 --columns links.utilization.max ";
  const Result emit = run_collnoc(args + "--emit jobs " + dir);
  INFO(emit.output);
  REQUIRE(emit.status == 0);
  for (const char* f : {"config.yaml", "manifest.json", "jobs.txt", "sweep.sbatch"}) {
    INFO(f);
    CHECK(fs::is_regular_file(dir + "/" + f));
  }
  const std::string jobs = read_text(dir + "/jobs.txt");
  CHECK(std::count(jobs.begin(), jobs.end(), '\n') == 8);  // 4 points x 2 seeds
  // GNU parallel reads the lines as they are, from any directory.
  const Result parallel = shell("cd / && parallel --will-cite -j2 < " + dir + "/jobs.txt");
  INFO(parallel.output);
  REQUIRE(parallel.status == 0);
  const std::string merged = temp_path("merged.csv"), merged_raw = temp_path("merged_raw.csv");
  const Result merge = run_collnoc("merge " + dir + " --out " + merged + " --raw " + merged_raw);
  INFO(merge.output);
  REQUIRE(merge.status == 0);
  const std::string local = temp_path("local.csv"), local_raw = temp_path("local_raw.csv");
  REQUIRE(run_collnoc(args + "--quiet --out " + local + " --raw " + local_raw).status == 0);
  CHECK(without_wall_clock(read_text(merged)) == without_wall_clock(read_text(local)));
  CHECK(without_wall_clock(read_text(merged_raw)) == without_wall_clock(read_text(local_raw)));
  CHECK(read_csv(merged).size() == 4);
}

TEST_CASE("sweeps: the SLURM script runs a task per array index, merge lists missing runs",
          "[sweeps]") {
  const std::string dir = temp_path("slurm");
  const std::string args = kSmall + "--param traffic.injection_rate --values 0.05,0.1,0.2 ";
  REQUIRE(run_collnoc(args + "--quiet --emit jobs " + dir).status == 0);
  const std::string script = read_text(dir + "/sweep.sbatch");
  std::smatch m;
  REQUIRE(std::regex_search(script, m, std::regex("#SBATCH --array=0-([0-9]+)\n")));
  REQUIRE(m[1] == "2");
  // What SLURM does for each task: the script with SLURM_ARRAY_TASK_ID set, from any directory.
  // Task 1 has not run yet.
  for (int task : {0, 2}) {
    const Result r = shell("cd / && SLURM_ARRAY_TASK_ID=" + std::to_string(task) +
                           " SLURM_ARRAY_JOB_ID=42 bash " + dir + "/sweep.sbatch");
    INFO(r.output);
    REQUIRE(r.status == 0);
  }
  const std::string csv = temp_path("slurm.csv");
  Result merge = run_collnoc("merge " + dir + " --out " + csv);
  INFO(merge.output);
  CHECK(merge.status == 1);
  CHECK(merge.output.find("1 of 3 run(s) have no results") != std::string::npos);
  CHECK(merge.output.find("run_1.json (line 2 of jobs.txt): traffic.injection_rate=0.1") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(csv));
  REQUIRE(shell("SLURM_ARRAY_TASK_ID=1 bash " + dir + "/sweep.sbatch").status == 0);
  merge = run_collnoc("merge " + dir + " --out " + csv);
  REQUIRE(merge.status == 0);
  const std::string local = temp_path("slurm_local.csv");
  REQUIRE(run_collnoc(args + "--quiet --out " + local).status == 0);
  CHECK(without_wall_clock(read_text(csv)) == without_wall_clock(read_text(local)));
}
