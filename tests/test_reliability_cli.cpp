// The program under hostile use (docs/reliability.md): output paths that are devices, links,
// read-only or full; input paths that are directories or FIFOs; runs and sweeps interrupted by
// signals, and a sweep resumed; the memory estimate against what runs really take.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace {

namespace fs = std::filesystem;
using collnoc::test::Child;
using collnoc::test::read_text;
using collnoc::test::Result;
using collnoc::test::run_collnoc;
using collnoc::test::temp_path;
using collnoc::test::without_wall_clock;

// collnoc processes whose parent is `parent`.
unsigned children_of(pid_t parent) {
  unsigned n = 0;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string stat = read_text(e.path().string() + "/stat");
    const std::size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 2));
    char state;
    pid_t ppid;
    rest >> state >> ppid;
    n += ppid == parent;
  }
  return n;
}

// Waits for a sweep's progress line `progress`, then, while its next (long) point runs, sends
// it SIGTERM: it must end with 143, saying `finished`, with no child left and its scratch
// directory (in `tmp`) gone.
void terminate_sweep(Child& sweep, const std::string& progress, const std::string& finished,
                     const std::string& tmp) {
  REQUIRE(sweep.wait_for_output(progress, 60));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the long point is running
  CHECK(children_of(sweep.pid) == 1);
  ::kill(sweep.pid, SIGTERM);
  CHECK(sweep.wait() == 143);
  CHECK(read_text(sweep.log).find(finished) != std::string::npos);
  CHECK(fs::is_empty(tmp));
}

}  // namespace

TEST_CASE("output: /dev/null stays a device and /dev/full is a failed write, for run and sweep",
          "[reliability]") {
  Result r = run_collnoc("run --set topology.k=2 --quiet --out /dev/null");
  INFO(r.output);
  CHECK(r.status == 0);
  struct stat st {};
  REQUIRE(::stat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  r = run_collnoc("run --set topology.k=2 --quiet --out /dev/full");
  CHECK(r.status == 1);
  CHECK(r.output.find("/dev/full") != std::string::npos);
  CHECK(r.output.find("No space left") != std::string::npos);
  REQUIRE(::stat("/dev/full", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  r = run_collnoc("sweep - --set topology.k=2 --param traffic.injection_rate --values 0.1 "
                  "--quiet --out /dev/full");
  CHECK(r.status == 1);
  CHECK(r.output.find("sweep CSV") != std::string::npos);
  r = run_collnoc("sweep - --set topology.k=2 --param traffic.injection_rate --values 0.1 "
                  "--quiet --out /dev/null");
  CHECK(r.status == 0);
}

TEST_CASE("output: results reach a FIFO's reader, and a link's target is replaced, not the link",
          "[reliability]") {
  const std::string fifo = temp_path("results.fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  std::string received;
  std::thread reader([&] { received = read_text(fifo); });
  Result r = run_collnoc("run --set topology.k=2 --quiet --out " + fifo);
  reader.join();
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(nlohmann::json::parse(received)["sim"]["status"] == "ok");
  struct stat st {};
  REQUIRE(::lstat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));

  const std::string link = temp_path("link.json"), target = temp_path("target.json");
  fs::create_symlink("target.json", link);  // relative, dangling until written
  r = run_collnoc("run --set topology.k=2 --quiet --out " + link);
  CHECK(r.status == 0);
  CHECK(fs::is_symlink(link));
  CHECK(fs::is_regular_file(target));
  CHECK_FALSE(fs::exists(target + ".tmp"));
}

TEST_CASE("output: a read-only directory is refused before simulating", "[reliability]") {
  // (The other paths that cannot take the results are rows of bad_input.table; root writes into
  // read-only directories, so only another user can see this one refused.)
  if (::geteuid() == 0) return;
  const std::string readonly_dir = temp_path("readonly");
  fs::create_directories(readonly_dir);
  fs::permissions(readonly_dir, fs::perms::owner_read | fs::perms::owner_exec);
  Result r = run_collnoc("run --quiet --out " + readonly_dir + "/r.json");
  CHECK(r.status == 2);
  fs::permissions(readonly_dir, fs::perms::owner_all);
}

TEST_CASE("interrupt: SIGINT stops a run with its results so far and exit status 130",
          "[reliability]") {
  const std::string out = temp_path("interrupted.json");
  Child run({"run", "--set", "topology.k=16", "--set", "sim.measure_cycles=100000000", "--out",
             out},
            temp_path("interrupted.log"), temp_path(""));
  // (The progress line shows the simulation is under way.)
  REQUIRE(run.wait_for_output("[collnoc] cycle", 60));
  ::kill(run.pid, SIGINT);
  CHECK(run.wait() == 130);
  const auto j = nlohmann::json::parse(read_text(out));
  CHECK(j["sim"]["interrupted"] == true);
  CHECK(j["sim"]["completed"] == false);
  CHECK(j["sim"]["status"] == "ok");
  const std::uint64_t cycles = j["sim"]["cycles"];
  CHECK(cycles > 1000);
  CHECK(cycles < 100000000);
  // Throughput over the part of the window reached: about the offered 0.1, not 0.1 x its share.
  CHECK(j["throughput"]["offered_flits_per_node_cycle"].get<double>() > 0.08);
  CHECK(read_text(run.log).find("interrupted at cycle") != std::string::npos);
}

TEST_CASE("interrupt: SIGTERM is exit status 143, and a run not yet simulating stops at once",
          "[reliability]") {
  const std::string out = temp_path("terminated.json");
  Child run({"run", "--set", "topology.k=8", "--set", "sim.measure_cycles=100000000",
             "--set", "sim.progress=false", "--out", out},
            temp_path("terminated.log"), temp_path(""));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  ::kill(run.pid, SIGTERM);
  CHECK(run.wait() == 143);
  const auto j = nlohmann::json::parse(read_text(out));
  CHECK(j["sim"]["interrupted"] == true);
}

TEST_CASE("interrupt: a sweep keeps its finished points, leaves nothing running or behind, and "
          "--resume completes it as an uninterrupted sweep would", "[reliability]") {
  const std::string tmp = temp_path("sweep_tmp");
  fs::create_directories(tmp);
  const std::string csv = temp_path("sweep.csv"), whole = temp_path("whole.csv");
  // Three quick points, then one that takes minutes.
  const std::vector<std::string> args{
      "sweep", "-", "--set", "topology.k=4", "--param", "sim.measure_cycles", "--values",
      "1000,2000,3000,200000000", "--jobs", "1", "--out", csv};
  Child sweep(args, temp_path("sweep.log"), tmp);
  terminate_sweep(sweep, "[3/4]", "3 of 4 point(s) finished", tmp);
  std::string text = read_text(csv);
  CHECK(std::count(text.begin(), text.end(), '\n') == 4);  // header and three points
  CHECK(text.find("\n3000,ok,") != std::string::npos);
  CHECK(text.find("200000000") == std::string::npos);

  // Resume with the long point made short; the result equals a sweep run whole.
  Result resumed = run_collnoc("sweep - --set topology.k=4 --param sim.measure_cycles --values "
                               "1000,2000,3000,4000 --jobs 1 --out " + csv + " --resume");
  INFO(resumed.output);
  CHECK(resumed.status == 0);
  CHECK(resumed.output.find("3 point(s) already in") != std::string::npos);
  CHECK(resumed.output.find("[1/1] sim.measure_cycles=4000") != std::string::npos);
  REQUIRE(run_collnoc("sweep - --set topology.k=4 --param sim.measure_cycles --values "
                      "1000,2000,3000,4000 --jobs 2 --quiet --out " + whole).status == 0);
  // Same rows but for the wall-clock columns.
  CHECK(without_wall_clock(read_text(csv)) == without_wall_clock(read_text(whole)));
}

TEST_CASE("interrupt: a sweep over a grid with --seeds keeps its finished runs, and --resume "
          "completes it as an uninterrupted sweep would", "[reliability]") {
  const std::string tmp = temp_path("seeded_tmp");
  fs::create_directories(tmp);
  const std::string csv = temp_path("seeded.csv"), raw = temp_path("seeded_raw.csv"),
                    whole = temp_path("seeded_whole.csv");
  const auto args = [&](const std::string& cycles) {
    return std::vector<std::string>{"sweep", "-", "--set", "topology.k=4", "--param",
                                    "router.vcs", "--values", "2,4", "--param",
                                    "sim.measure_cycles", "--values", cycles, "--seeds", "2",
                                    "--jobs", "1", "--out", csv, "--raw", raw};
  };
  // Two quick runs (a point, two seeds), then one that takes minutes.
  Child sweep(args("1000,200000000"), temp_path("seeded.log"), tmp);
  terminate_sweep(sweep, "[2/8]", "2 of 8 run(s) finished", tmp);
  const auto lines = [](const std::string& path) {
    const std::string text = read_text(path);
    return std::count(text.begin(), text.end(), '\n');
  };
  CHECK(lines(csv) == 2);  // header and the first point
  CHECK(lines(raw) == 3);  // header and its two seeds

  // Resume with the long point made short: only the missing runs run.
  std::vector<std::string> resume = args("1000,2000");
  resume.push_back("--resume");
  Child resumed(resume, temp_path("seeded_resumed.log"), tmp);
  CHECK(resumed.wait(120) == 0);
  const std::string log = read_text(resumed.log);
  INFO(log);
  CHECK(log.find("1 point(s) already in") != std::string::npos);
  CHECK(log.find("[6/6]") != std::string::npos);
  std::string command;  // the same sweep, whole, into other files
  for (const std::string& a : args("1000,2000"))
    command += (a == csv ? whole : a == raw ? whole + ".raw" : a) + " ";
  REQUIRE(run_collnoc(command + "--quiet").status == 0);
  CHECK(without_wall_clock(read_text(csv)) == without_wall_clock(read_text(whole)));
}

TEST_CASE("memory: the estimate is within 0.7x to 1.5x of what runs take, and runs far beyond "
          "the machine are refused", "[reliability]") {
  const std::vector<std::vector<std::string>> cases{
      {"--set", "topology.k=32", "--set", "traffic.injection_rate=0.01", "--set",
       "sim.measure_cycles=200"},
      {"--set", "topology.k=16", "--set", "router.vcs=16", "--set", "router.buffer_flits=64",
       "--set", "traffic.injection_rate=0.01", "--set", "sim.measure_cycles=200"},
      {"--set", "topology.k=16", "--set", "link.latency_cycles=10000", "--set",
       "traffic.injection_rate=0.01", "--set", "sim.measure_cycles=200", "--set",
       "sim.max_drain_cycles=0"},
      {"--set", "topology.k=4", "--set", "workload.kind=all_pairs", "--set",
       "workload.message_words=65536"},
  };
  for (const auto& args : cases) {
    std::string joined;
    for (const std::string& a : args) joined += a + " ";
    Result check = run_collnoc("run " + joined + "--check");
    INFO(joined << "\n" << check.output);
    REQUIRE(check.status == 0);
    std::smatch m;
    REQUIRE(std::regex_search(check.output, m, std::regex("estimated memory ([0-9]+) MB")));
    const double estimate = std::stod(m[1]);
#ifndef COLLNOC_SANITIZED  // (AddressSanitizer's shadow memory and red zones are not the model's,
                           // and these runs take minutes under it)
    std::vector<std::string> run_args{"run"};
    run_args.insert(run_args.end(), args.begin(), args.end());
    run_args.insert(run_args.end(), {"--quiet", "--out", "/dev/null"});
    Child run(run_args, temp_path("rss.log"), temp_path(""));
    int status = 0;
    struct rusage usage {};
    REQUIRE(::wait4(run.pid, &status, 0, &usage) == run.pid);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    const double measured = static_cast<double>(usage.ru_maxrss) / 1024.0;
    INFO("measured " << measured << " MB, estimated " << estimate << " MB");
    CHECK(estimate >= 0.7 * measured);
    CHECK(estimate <= 1.5 * measured);
#else
    CHECK(estimate > 0);
#endif
  }
  // 32 VCs of 65,535 flits per port on 64x64: terabytes. Refused at once, with the estimate.
  Result r = run_collnoc("run --set router.vcs=32 --set router.buffer_flits=65535 "
                         "--set topology.k=64 --quiet");
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK(r.output.find("sim.max_memory_mb") != std::string::npos);
  CHECK(r.output.find("router buffers") != std::string::npos);
  // A limit of its own: the default 8x8 run needs more than 1 MB.
  r = run_collnoc("run --set sim.max_memory_mb=1 --quiet");
  CHECK(r.status == 2);
  CHECK(r.output.find("sim.max_memory_mb = 1:") != std::string::npos);
  r = run_collnoc("run --set sim.max_memory_mb=100 --check");
  CHECK(r.status == 0);
  CHECK(r.output.find("limit 100 MB") != std::string::npos);
}
