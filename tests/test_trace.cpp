// Trace-driven traffic (ni/trace.hpp, docs/traffic.md#traces): latencies against the closed form,
// dependencies that follow the simulated network, the reader's bounded window, bad traces
// refused with their line, gzip, determinism, `collnoc trace record` and `trace convert`.
#include <algorithm>
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <sstream>

#include "cli_support.hpp"
#include "noc/zero_load.hpp"
#include "support.hpp"

using namespace collnoc;
using collnoc::test::get;
using collnoc::test::run_collnoc;
using collnoc::test::run_json;
using collnoc::test::temp_path;

namespace {

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

// Replays the trace `text` (written to scratch file `name`) on `sys`; the run must end ok.
RunOutcome run_trace(NocSystem& sys, const std::string& name, const std::string& text) {
  TraceParams trace;
  trace.file = write_file(name, text);
  sys.attach_trace(trace, TrafficParams{});
  RunParams run;
  run.progress = false;
  run.watchdog_cycles = 2000;
  RunOutcome out = Simulation(sys, run, nullptr).run();
  test::require_conserved(out);
  return out;
}

// Drives a feed by hand, without a network: every message is delivered `latency` cycles after
// it is taken. Returns the most messages the feed held at once.
std::size_t drive_feed(const std::string& path, unsigned nodes, Cycle latency) {
  TraceLimits limits;
  limits.nodes = nodes;
  std::multimap<Cycle, std::uint32_t> deliveries;
  TraceFeed feed(TraceParams{path}, limits, TracePacketShape{16, 16}, [](NodeId, Cycle) {}, nullptr);
  feed.start();
  for (Cycle now = 0; !feed.done(); ++now) {
    REQUIRE(now < 10000000);
    for (NodeId n = 0; n < nodes; ++n)
      feed.take(n, now, [&](const TracePacket& p) { deliveries.emplace(now + latency, p.slot); });
    for (auto it = deliveries.begin(); it != deliveries.end() && it->first <= now;) {
      feed.delivered(it->second, now);
      it = deliveries.erase(it);
    }
  }
  REQUIRE(feed.error() == nullptr);
  return feed.max_held();
}

}  // namespace

TEST_CASE("trace: messages on a quiet 3x3 mesh take the closed-form zero-load latency", "[trace]") {
  SystemParams sys;
  auto system = test::build("mesh", {3, 3}, sys);
  const Topology& topo = system->topology();
  struct Msg {
    Cycle at;
    NodeId src, dst;
    unsigned bytes;
  };
  // 16-byte flits, 16-flit packets: 1 to 16 flits, and 300 bytes = 19 flits = two packets.
  const std::vector<Msg> msgs = {{0, 0, 8, 16}, {500, 8, 0, 64}, {1000, 4, 4, 16},
                                 {1500, 2, 6, 250}, {2000, 1, 7, 17}, {2500, 3, 5, 256}};
  std::ostringstream text;
  text << "# a hand-made trace\n\n";
  std::map<NodeId, std::vector<std::uint32_t>> expected;
  for (const Msg& m : msgs) {
    text << m.at << " " << m.src << " " << m.dst << " " << m.bytes << "\n";
    const unsigned flits = (m.bytes + 15) / 16;
    const unsigned D = topo.distance(topo.router_of(m.src), topo.router_of(m.dst));
    expected[m.dst].push_back(static_cast<std::uint32_t>(zero_load_latency(
        {D, flits, sys.router.hop_latency_cycles, sys.link.latency_cycles})));
  }
  const RunOutcome out = run_trace(*system, "zero_load.txt", text.str());
  for (auto& [dst, want] : expected) {
    INFO("destination " << dst);
    std::sort(want.begin(), want.end());
    CHECK(system->ni(dst).reassembler().latency_samples().sorted() == want);
  }
  CHECK(get<std::uint64_t>(out.report, "trace.messages") == msgs.size());
  CHECK(get<std::uint64_t>(out.report, "trace.bytes") == 16 + 64 + 16 + 250 + 17 + 256);
  CHECK(get<std::uint64_t>(out.report, "trace.packets") == msgs.size());
  CHECK(get<std::uint64_t>(out.report, "trace.last_injection_cycle") == 2500);
  CHECK(get<std::uint64_t>(out.report, "contention_events") == 0);
  CHECK(get<bool>(out.report, "sim.completed"));
}

TEST_CASE("trace: a message longer than a packet goes as several, delivered as one", "[trace]") {
  auto system = test::build("mesh", {2, 2}, SystemParams{});
  // 300 bytes: 19 flits, a 16-flit and a 3-flit packet; the dependent waits for both.
  const RunOutcome out = run_trace(*system, "two_packets.txt", "0 0 3 300\n1 3 0 16 0 0 1\n");
  CHECK(get<std::uint64_t>(out.report, "trace.packets") == 3);
  CHECK(get<std::uint64_t>(out.report, "packets.delivered") == 3);
  // The second packet's tail: the first's 16 flits, then its 3 (D = 2, H = 3, L = 1).
  const Cycle first = zero_load_latency({2, 16, 3, 1});
  const Cycle delivered = first + 3;
  CHECK(get<std::uint64_t>(out.report, "trace.last_injection_cycle") == delivered + 1);
  CHECK(get<std::uint64_t>(out.report, "trace.dependency_delay_cycles") == delivered + 1 - 1);
}

namespace {

// Node 0 sends to node 8 at cycle 0; node 8 answers at cycle 1 at the earliest, 5 cycles after
// the request arrived: at the request's zero-load latency on a network of this pipeline.
void check_answer_follows_request(unsigned hop_latency_cycles) {
  SystemParams sys;
  sys.router.hop_latency_cycles = hop_latency_cycles;
  auto system = test::build("mesh", {3, 3}, sys);
  const Cycle request = zero_load_latency({4, 4, hop_latency_cycles, 1});
  const RunOutcome out = run_trace(*system, "dep.txt", "0 0 8 64\n1 8 0 64 0 0 5\n");
  CHECK(get<std::uint64_t>(out.report, "trace.dependent_messages") == 1);
  CHECK(get<std::uint64_t>(out.report, "trace.last_injection_cycle") == request + 5);
  CHECK(get<std::uint64_t>(out.report, "trace.dependency_delay_cycles") == request + 5 - 1);
  // The answer's own latency is the closed form: it was injected when due, no earlier.
  CHECK(system->ni(0).reassembler().latency_samples().sorted() ==
        std::vector<std::uint32_t>{static_cast<std::uint32_t>(request)});
}

}  // namespace

TEST_CASE("trace: a dependent message waits for its dependency's delivery plus its gap", "[trace]") {
  check_answer_follows_request(3);  // the default pipeline
}

TEST_CASE("trace: a slower network delays the dependent message by as much", "[trace]") {
  REQUIRE(zero_load_latency({4, 4, 6, 1}) > zero_load_latency({4, 4, 3, 1}));
  check_answer_follows_request(6);
}

TEST_CASE("trace: a dependent message is never injected before its line's cycle", "[trace]") {
  auto system = test::build("mesh", {3, 3}, SystemParams{});
  // The dependency is delivered long before cycle 400: the line's cycle decides.
  const RunOutcome out = run_trace(*system, "dep_late.txt", "0 0 1 16\n400 1 0 16 0 0 1\n");
  CHECK(get<std::uint64_t>(out.report, "trace.last_injection_cycle") == 400);
  CHECK(get<std::uint64_t>(out.report, "trace.dependency_delay_cycles") == 0);
}

TEST_CASE("trace: the feed holds a bounded window, whatever the trace's length", "[trace]") {
  // 8 nodes, a message per node every 20 cycles, each depending on the node's message before
  // (delivered 10 cycles after it left, plus a gap of 2: in time); a trace 10 times longer
  // holds no more at once.
  auto make = [](const std::string& name, unsigned rounds) {
    std::ostringstream t;
    std::uint64_t index = 0;
    for (unsigned r = 0; r < rounds; ++r)
      for (unsigned n = 0; n < 8; ++n, ++index) {
        t << r * 20 << " " << n << " " << (n + 3) % 8 << " 64";
        if (r > 0) t << " 0 " << index - 8 << " 2";
        t << "\n";
      }
    return write_file(name, t.str());
  };
  const std::size_t short_held = drive_feed(make("window_short.txt", 1000), 8, 10);
  const std::size_t long_held = drive_feed(make("window_long.txt", 10000), 8, 10);
  CHECK(short_held > 0);
  CHECK(long_held == short_held);
  CHECK(long_held <= 8 * 4);  // (a few messages per node: those due, waiting and in flight)
  CHECK(TraceReader::kBufferBytes <= 64 * 1024);
}

TEST_CASE("trace: a bad line met while streaming stops the feed with its line", "[trace]") {
  // (What the run meets if the file changes after the check: the feed stops, the program
  // refuses the run as bad input.)
  std::ostringstream t;
  for (int c = 0; c < 100; ++c) t << c << " 0 1 16\n";
  t << "100 0 9 16\n";
  TraceLimits limits;
  limits.nodes = 4;
  TraceFeed feed(TraceParams{write_file("late_error.txt", t.str())}, limits, TracePacketShape{},
                 [](NodeId, Cycle) {}, nullptr);
  feed.start();
  for (Cycle now = 0; now < 200 && !feed.error(); ++now)
    feed.take(0, now, [&](const TracePacket& p) { feed.delivered(p.slot, now); });
  REQUIRE(feed.error() != nullptr);
  CHECK(feed.error()->line() == 101);
  CHECK_THAT(feed.error()->what(), Catch::Contains("line 101: dst = 9: must be < 4"));
}

TEST_CASE("trace: bad traces exit 2 naming the file, the line and the field", "[trace][cli]") {
  struct Bad {
    const char* text;
    const char* message;
  };
  const std::vector<Bad> cases = {
      {"0 0 1 16\n5 1 2 16\n3 2 3 16\n", "line 3: cycle = 3: cycles must not decrease"},
      {"0 0 1 16\n# comment\n1 0 16 16\n", "line 3: dst = 16: must be < 16"},
      {"0 99 1 16\n", "line 1: src = 99: must be < 16"},
      {"0 0 1\n", "line 1: has 3 fields"},
      {"0 0 1 16 0 0 1 9\n", "line 1: has 8 fields"},
      {"0 0 x1 16\n", "line 1: dst = 'x1': not a non-negative integer"},
      {"0 0 -1 16\n", "line 1: dst = '-1': not a non-negative integer"},
      {"0 0 1 0\n", "line 1: bytes = 0: must be in [1, 16777216]"},
      {"0 0 1 99999999999\n", "line 1: bytes = 99999999999: must be in [1, 16777216]"},
      {"0 0 1 16\n1 1 0 16 0 1\n", "line 2: depends_on = 1: a dependency cycle"},
      {"0 0 1 16 0 0\n", "line 1: depends_on = 0: a dependency cycle"},
      {"0 0 1 16\n1 1 0 16 0 5\n", "line 2: depends_on = 5: a dependency cycle"},
      {"0 0 1 16 1\n", "line 1: type = 1: the message's VC class, must be < 1"},
      {"0 0 1 16 0 - 4\n", "line 1: gap = 4: a gap needs a dependency"},
      {"0 0 1 16\n1 1 0 16 0 0 0\n", "line 2: gap = 0: must be in [1,"},
  };
  int i = 0;
  for (const Bad& b : cases) {
    const std::string path = write_file("bad" + std::to_string(i++) + ".txt", b.text);
    const std::string out = temp_path("bad_results.json");
    const test::Result r =
        run_collnoc("run --quiet --set topology.k=4 --set workload.kind=trace --set trace.file=" +
                    path + " --out " + out);
    INFO(b.text << "\n" << r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains("trace.file = " + path + ": " + b.message));
    CHECK_FALSE(std::ifstream(out).good());  // no results
  }
}

TEST_CASE("trace: gzip and plain give identical results, and a rerun the same", "[trace][cli]") {
  // (and so does evaluating every block every cycle, on two threads)
  std::ostringstream t;
  for (int c = 0; c < 2000; c += 3) t << c << " " << c % 16 << " " << (c * 7 + 3) % 16 << " " << 16 + c % 200 << "\n";
  const std::string plain = write_file("traffic.txt", t.str());
  // (gzip'd under a name that says nothing: the magic bytes decide)
  const std::string packed = temp_path("traffic.dat");
  REQUIRE(test::run_shell("gzip -c " + plain + " > " + packed).status == 0);
  const std::string args = "--set topology.k=4 --set workload.kind=trace --set trace.file=";
  nlohmann::json a = run_json(args + plain, "plain");
  nlohmann::json b = run_json(args + packed, "gzip");
  nlohmann::json c = run_json(args + plain, "plain_again");
  nlohmann::json d = run_json(args + plain + " --set sim.activity_driven=false --set sim.threads=2",
                              "every_cycle");
  CHECK(a["trace"]["messages"] == 667);
  for (nlohmann::json* j : {&a, &b, &c, &d}) {
    (*j)["sim"].erase("wall_seconds");
    (*j)["sim"].erase("router_cycles_per_second");
    (*j)["sim"].erase("flit_hops_per_second");
    j->erase("config");
  }
  CHECK(a == b);
  CHECK(a == c);
  CHECK(a == d);
  CHECK(a["latency_cycles"]["mean"] > 0);
}

TEST_CASE("trace: a firmware run recorded and replayed delivers the same messages", "[trace][cli]") {
  const std::string trace = temp_path("allreduce.txt");
  const std::string base = "--set topology.k=4 --set workload.kind=collective --set workload.collective=allreduce";
  const test::Result rec = run_collnoc("trace record - --quiet " + base + " --out " + trace);
  INFO(rec.output);
  REQUIRE(rec.status == 0);
  const nlohmann::json o = run_json(base, "allreduce_run");
  const std::string replay_args = "--set topology.k=4 --set workload.kind=trace --set trace.file=" + trace;
  const nlohmann::json r = run_json(replay_args, "replay");
  CHECK(r["packets"]["delivered"] == o["packets"]["delivered"]);
  CHECK(r["flits"]["delivered"] == o["flits"]["delivered"]);
  CHECK(r["trace"]["messages"] == o["packets"]["delivered"]);  // (one packet each)
  // Recorded with its dependencies (what each core received last before it sent): on the
  // network that recorded them every message comes due at its recorded cycle.
  CHECK(r["trace"]["dependent_messages"].get<std::uint64_t>() > 0);
  CHECK(r["trace"]["dependency_delay_cycles"] == 0);
  // The same trace on a network of twice the pipeline: the dependents wait for it.
  const nlohmann::json slow = run_json(replay_args + " --set router.hop_latency_cycles=6", "replay_slow");
  CHECK(slow["trace"]["dependency_delay_cycles"].get<std::uint64_t>() >
        r["trace"]["dependent_messages"].get<std::uint64_t>());
  CHECK(slow["trace"]["last_injection_cycle"] > r["trace"]["last_injection_cycle"]);
  // A smaller mesh has no node 4 and up: refused with the first line that names one.
  const test::Result small = run_collnoc(
      "run --quiet --set topology.k=2 --set workload.kind=trace --set trace.file=" + trace);
  CHECK(small.status == 2);
  CHECK_THAT(small.output, Catch::Matches(".*trace.file = " + trace +
                                          ": line [0-9]+: (src|dst) = [0-9]+: must be < 4 \\(the "
                                          "network's node count\\)\\s*"));
}

TEST_CASE("trace: synthetic traffic recorded and replayed gives the same network", "[trace][cli]") {
  const std::string trace = temp_path("uniform.txt");
  const std::string base =
      "--set topology.k=4 --set traffic.injection_rate=0.1 --set sim.warmup_cycles=0 "
      "--set sim.measure_cycles=2000 --set sim.max_drain_cycles=0";
  const test::Result rec = run_collnoc("trace record - --quiet " + base + " --out " + trace);
  INFO(rec.output);
  REQUIRE(rec.status == 0);
  const nlohmann::json orig = run_json(base, "uniform_run");
  const nlohmann::json replay = run_json(
      "--set topology.k=4 --set workload.kind=trace --set trace.file=" + trace, "uniform_replay");
  const auto& o = orig;
  const auto& r = replay;
  // Every packet the source made is a message of the trace, at its cycle: those measured
  // by the synthetic run see the same latencies in the replay.
  CHECK(r["trace"]["messages"] == o["packets"]["created"]);
  CHECK(r["flits"]["delivered"] == o["flits"]["created"]);
  CHECK(r["latency_cycles"]["mean"].get<double>() ==
        Approx(o["latency_cycles"]["mean"].get<double>()).epsilon(0.02));
}

TEST_CASE("trace: a Noxim traffic table converts into a trace that runs", "[trace][cli]") {
  const std::string table = write_file(
      "noxim.txt",
      "% src dst pir por t_on t_off t_period\n"
      "0 3 0.1\n"
      "1 2 0.05 0.05 100 200 1000\n"
      "\n"
      "2 0 0.02 0.5\n");
  const std::string trace = temp_path("noxim_trace.txt");
  const std::string args = "trace convert --from noxim " + table + " --cycles 2000 --bytes 32 --quiet --out ";
  REQUIRE(run_collnoc(args + trace).status == 0);
  const std::string again = temp_path("noxim_trace2.txt");
  REQUIRE(run_collnoc(args + again).status == 0);
  std::ifstream a(trace), b(again);
  std::stringstream sa, sb;
  sa << a.rdbuf();
  sb << b.rdbuf();
  CHECK(sa.str() == sb.str());  // the same seed, the same trace
  std::map<NodeId, unsigned> from;
  std::string line;
  std::istringstream lines(sa.str());
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    Cycle c;
    NodeId s, d;
    unsigned bytes;
    f >> c >> s >> d >> bytes;
    ++from[s];
    CHECK(bytes == 32);
    if (s == 1) {  // only strictly between t_on and t_off of each period
      CHECK(c % 1000 > 100);
      CHECK(c % 1000 < 200);
      CHECK(d == 2);
    }
  }
  CHECK(from[0] > 140);  // 0.1 over 1999 cycles: about 200
  CHECK(from[0] < 260);
  CHECK(from[1] > 2);    // 0.05 over 2 x 99 cycles: about 10
  CHECK(from[1] < 25);
  CHECK(from[2] > 0);
  const nlohmann::json run =
      run_json("--set topology.k=2 --set workload.kind=trace --set trace.file=" + trace, "noxim_run");
  CHECK(run["trace"]["messages"].get<unsigned>() == from[0] + from[1] + from[2]);
  // A malformed row: the file and its line.
  const std::string bad = write_file("noxim_bad.txt", "0 1 0.1\n1 0 1.5\n");
  const test::Result r = run_collnoc("trace convert --from noxim " + bad + " --cycles 10 --out " + temp_path("x.txt"));
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("noxim table " + bad + ": line 2: pir = 1.5: a probability, in [0, 1]"));
  const test::Result booksim =
      run_collnoc("trace convert --from booksim " + table + " --cycles 10 --out " + temp_path("y.txt"));
  CHECK(booksim.status == 2);
  CHECK_THAT(booksim.output, Catch::Contains("BookSim2 has no trace format"));
}
