// The software cost model (core.software_model, collectives/software_model.hpp): each cost
// moves a hand-computed case by exactly its value, a channel per message costs its closed form,
// none leaves the program as it was, and the CLI reports the software share (bad input:
// bad_input.table).
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "collectives/software_model.hpp"
#include "noc/zero_load.hpp"
#include "platforms/run_config.hpp"
#include "support.hpp"

using namespace collnoc;
using collnoc::test::run_json;

namespace {

// Core 0 sends one message of `words` words to core 1 at cycle 0. Core 1 computes 1000 cycles
// (the message is in by then), receives it, then folds `elements` reduction elements. Records
// how long core 0's send, core 1's receive and its fold took.
class OneMessage : public Firmware {
 public:
  OneMessage(unsigned words, std::uint64_t elements) : words_(words), elements_(elements) {}
  void run(MessageLayer& ml) override {
    if (ml.rank() == 0) {
      const Cycle t = ml.now();
      ml.send(1, pattern_message(1, 0, 1, 0, words_));
      send_ = ml.now() - t;
    } else if (ml.rank() == 1) {
      ml.compute(1000);
      Cycle t = ml.now();
      intact_ = ml.recv(0) == pattern_message(1, 0, 1, 0, words_);
      recv_ = ml.now() - t;
      t = ml.now();
      ml.reduced(elements_);
      fold_ = ml.now() - t;
    }
  }
  void report(Report&) const override {}
  bool data_verified() const override { return intact_; }
  Cycle send_ = 0, recv_ = 0, fold_ = 0;

 private:
  unsigned words_;
  std::uint64_t elements_;
  bool intact_ = false;
};

struct Timing {
  Cycle send, recv, fold, software;
};
using Overrides = std::vector<std::pair<std::string, std::string>>;

// One program per case on an idle 2-node mesh under preset nocmsg with every cost 0 except
// those each case sets (core.software.* name, value), all cases side by side in one simulation
// (one elaboration per process); `make` gives each case's program, `seeds` its sim.seed (1 if
// not given). Returns each case's report, and the runs (which own the programs).
using MakeProgram = std::function<std::unique_ptr<Firmware>(std::size_t)>;
struct Run {
  std::unique_ptr<NocSystem> sys;
  std::unique_ptr<Firmware> fw;
};
struct Runs {
  std::vector<Run> runs;
  std::vector<Report> reports;
};
Runs run_cases(const std::vector<Overrides>& cases, const MakeProgram& make,
               const std::vector<std::uint64_t>& seeds = {}) {
  std::vector<Run> runs;
  for (std::size_t c = 0; c < cases.size(); ++c) {
    FirmwareParams fp;
    fp.software.model = "nocmsg";
    if (c < seeds.size()) fp.seed = seeds[c];
    for (std::size_t i = 0; i < kSoftwareCostCount; ++i)
      fp.software.overrides[i] = i == kChannelSetup ? "false" : "0";
    for (const auto& [key, value] : cases[c])
      for (std::size_t i = 0; i < kSoftwareCostCount; ++i)
        if (key == kSoftwareCostKeys[i].name) fp.software.overrides[i] = value;
    PlatformParams pp;
    pp.topology.k = {2};
    pp.topology.n = 1;
    pp.instance = "system" + std::to_string(c);
    Run r;
    r.sys = make_platform(pp);
    r.fw = with_software_model(make(c), "one_message", fp, 2);
    r.sys->attach_firmware(*r.fw);
    runs.push_back(std::move(r));
  }
  std::vector<const NocSystem*> systems;
  for (const Run& r : runs) systems.push_back(r.sys.get());
  test::run_until_finished(systems, 1000000);
  Runs out;
  for (const Run& r : runs) {
    CHECK(r.fw->data_verified());
    Report report;
    r.fw->report(report);
    CHECK(test::get<std::string>(report, "software.model") == "nocmsg");
    out.reports.push_back(std::move(report));
  }
  out.runs = std::move(runs);
  return out;
}

// OneMessage (32 words: 128 bytes) per case (run_cases).
std::vector<Timing> one_message(const std::vector<Overrides>& cases) {
  std::vector<OneMessage*> programs;
  const Runs runs = run_cases(cases, [&](std::size_t) {
    auto p = std::make_unique<OneMessage>(32, 10);
    programs.push_back(p.get());
    return p;
  });
  std::vector<Timing> out;
  for (std::size_t c = 0; c < cases.size(); ++c)
    out.push_back({programs[c]->send_, programs[c]->recv_, programs[c]->fold_,
                   test::get<std::uint64_t>(runs.reports[c], "software.cycles")});
  return out;
}

// Core 0 sends `count` one-word messages to core 1, which receives them; records how long each
// send took.
class ManySends : public Firmware {
 public:
  explicit ManySends(unsigned count) : count_(count) {}
  void run(MessageLayer& ml) override {
    for (unsigned i = 0; i < count_; ++i) {
      if (ml.rank() == 0) {
        const Cycle t = ml.now();
        ml.send(1, Words{i});
        sends.push_back(ml.now() - t);
      } else if (ml.rank() == 1) {
        intact_ &= ml.recv(0) == Words{i};
      }
    }
  }
  void report(Report&) const override {}
  bool data_verified() const override { return intact_; }
  std::vector<Cycle> sends;

 private:
  unsigned count_;
  bool intact_ = true;
};

// A message of w words one hop away, from the send call to the cycle it is available at the
// destination NI (as tests/test_message_protocol.cpp).
Cycle one_hop(const SystemParams& sp, unsigned words) {
  const unsigned per_flit = sp.ni.words_per_flit();
  const unsigned flits = std::max(1u, (words + per_flit - 1) / per_flit);
  return sp.ni.send_overhead_cycles +
         zero_load_latency({1, flits, sp.router.hop_latency_cycles, sp.link.latency_cycles}) + 1;
}

}  // namespace

TEST_CASE("each software cost moves a hand-computed send, receive and fold by its value",
          "[software]") {
  const SystemParams sp;
  const Overrides rates = {{"copy_cycles_per_byte_cached", "0.5"},
                           {"copy_cycles_per_byte_uncached", "2"}};
  Overrides cached = rates, uncached = rates;
  cached.emplace_back("cache_resident_bytes", "128");
  uncached.emplace_back("cache_resident_bytes", "124");
  const std::vector<Timing> t = one_message({
      {},
      {{"send_overhead_cycles", "37"}},
      {{"recv_overhead_cycles", "41"}},
      {{"poll_cycles", "13"}},
      {{"interrupt_cycles", "29"}},
      cached,
      uncached,
      {{"reduce_cycles_per_element", "3"}},
      {{"channel_setup", "true"}},
      {{"channel_setup", "true"}, {"channel_setup_cycles", "500"}},
  });
  const Timing& base = t[0];
  // The hardware alone: the NI's send and receive overheads, no fold cost.
  CHECK(base.send == sp.ni.send_overhead_cycles);
  CHECK(base.recv == sp.ni.recv_overhead_cycles);
  CHECK(base.fold == 0);
  CHECK(base.software == 0);

  CHECK(t[1].send == base.send + 37);
  CHECK(t[1].recv == base.recv);
  CHECK(t[1].software == 37);

  CHECK(t[2].send == base.send);
  CHECK(t[2].recv == base.recv + 41);

  // The message is in when the receive starts: one check, which finds it.
  CHECK(t[3].recv == base.recv + 13);
  CHECK(t[3].software == 13);

  CHECK(t[4].recv == base.recv + 29);

  // 128 bytes, copied on each side: cached up to cache_resident_bytes, from DRAM above.
  CHECK(t[5].send == base.send + 64);
  CHECK(t[5].recv == base.recv + 64);
  CHECK(t[5].software == 64);
  CHECK(t[6].send == base.send + 256);
  CHECK(t[6].recv == base.recv + 256);

  // 10 elements folded.
  CHECK(t[7].fold == 30);
  CHECK(t[7].recv == base.recv);
  CHECK(t[7].software == 30);

  // The sender sets the channel up before its request goes out.
  CHECK(t[9].send == t[8].send + 500);
  CHECK(t[9].recv == t[8].recv);
  CHECK(t[9].software == 500);
}

// Core 0 sends `chunks` pieces of `words` words to core 1, which receives them once all are in
// (after 100000 cycles); both copy them from or to `copies` (none: each call its own size).
// Records the time each side spent in its calls.
class ChunkedTransfer : public Firmware {
 public:
  ChunkedTransfer(unsigned chunks, unsigned words, std::optional<CopyBuffers> copies)
      : chunks_(chunks), words_(words), copies_(std::move(copies)) {}
  void run(MessageLayer& ml) override {
    std::optional<CopyBuffersScope> scope;
    if (copies_) scope.emplace(ml, *copies_);
    for (unsigned c = 0; c < chunks_; ++c) {
      if (ml.rank() == 0) {
        const Cycle t = ml.now();
        ml.send(1, pattern_message(1, 0, 1, c, words_));
        send_ += ml.now() - t;
      } else if (ml.rank() == 1) {
        if (c == 0) ml.compute(100000);
        const Cycle t = ml.now();
        intact_ &= ml.recv(0) == pattern_message(1, 0, 1, c, words_);
        recv_ += ml.now() - t;
      }
    }
  }
  void report(Report&) const override {}
  bool data_verified() const override { return intact_; }
  Cycle send_ = 0, recv_ = 0;

 private:
  unsigned chunks_, words_;
  std::optional<CopyBuffers> copies_;
  bool intact_ = true;
};

TEST_CASE("a copy is cached or not by its user buffer, however the transfer is chunked",
          "[software]") {
  struct Case {
    Overrides costs;
    unsigned chunks, words;
    std::optional<CopyBuffers> copies;
  };
  const Overrides rates = {{"copy_cycles_per_byte_cached", "0.5"},
                           {"copy_cycles_per_byte_uncached", "2"}};
  Overrides small = rates, large = rates;
  small.emplace_back("cache_resident_bytes", "1024");
  large.emplace_back("cache_resident_bytes", "4096");
  const std::vector<Case> cases = {
      // A 4 KB user message as 16 chunks of 256 bytes, each chunk alone resident.
      {{}, 16, 64, CopyBuffers::user(4096)},
      {small, 16, 64, CopyBuffers::user(4096)},
      {large, 16, 64, CopyBuffers::user(4096)},
      {small, 16, 64, std::nullopt},
      // Two user messages in one call, 300 words (1200 bytes) then 100 (400 bytes).
      {{}, 1, 400, CopyBuffers::messages({300, 100}, 0, 400)},
      {small, 1, 400, CopyBuffers::messages({300, 100}, 0, 400)},
      // A flag word of the layer's own, then 256 bytes of the 4 KB user message.
      {{}, 1, 65, CopyBuffers::user(4096, 1)},
      {small, 1, 65, CopyBuffers::user(4096, 1)},
  };
  std::vector<ChunkedTransfer*> programs;
  std::vector<Overrides> costs;
  for (const Case& c : cases) costs.push_back(c.costs);
  const Runs runs = run_cases(costs, [&](std::size_t i) {  // (owns the programs)
    auto p = std::make_unique<ChunkedTransfer>(cases[i].chunks, cases[i].words, cases[i].copies);
    programs.push_back(p.get());
    return p;
  });
  const auto copy_cycles = [&](std::size_t i, std::size_t base) {
    CHECK(programs[i]->send_ - programs[base]->send_ == programs[i]->recv_ - programs[base]->recv_);
    return programs[i]->send_ - programs[base]->send_;
  };
  // Not resident (4096 > 1024): every byte at the uncached rate, on each side, though each
  // call copies 256 bytes; resident (4096 <= 4096): the cached rate.
  CHECK(copy_cycles(1, 0) == 4096 * 2);
  CHECK(copy_cycles(2, 0) == 4096 / 2);
  // Without user buffers each call decides by its own size: 256 bytes, cached.
  CHECK(copy_cycles(3, 0) == 4096 / 2);
  // Each message by its own size: 1200 bytes uncached, 400 cached.
  CHECK(copy_cycles(5, 4) == 1200 * 2 + 400 / 2);
  // The flag word by its own 4 bytes (cached), the rest by the user buffer.
  CHECK(copy_cycles(7, 6) == 4 / 2 + 256 * 2);
}

TEST_CASE("the chip's cache, not the library, decides what stays resident", "[software]") {
  // scc's 256 KB L2 per core under every preset there, tilepro's 64 KB; off a platform of its
  // own the preset's value; core.software.cache_resident_bytes overrides both.
  for (const auto& [platform, bytes] : {std::pair<std::string, double>{"scc", 262144.0},
                                        std::pair<std::string, double>{"tilepro", 65536.0}}) {
    RunConfig rc;
    rc.platform.name = platform;
    derive_params(rc);
    for (const char* preset : {"nocmsg", "ilib_mpi", "rcce", "rckmpi"})
      CHECK(software_costs(preset, rc.firmware.software).cache_resident_bytes == bytes);
  }
  SoftwareModelParams own;
  CHECK(software_costs("nocmsg", own).cache_resident_bytes == 65536.0);
  CHECK(software_costs("rcce", own).cache_resident_bytes == 262144.0);
  own.platform_cache_resident_bytes = 262144.0;
  own.overrides[4] = "1000";  // cache_resident_bytes
  REQUIRE(std::string(kSoftwareCostKeys[4].name) == "cache_resident_bytes");
  CHECK(software_costs("nocmsg", own).cache_resident_bytes == 1000.0);
}

TEST_CASE("a channel per message costs request, grant, data and teardown on an idle path",
          "[software]") {
  const SystemParams sp;
  // Core 1 takes the request at 1000 (the receive overhead), grants at once; core 0, waiting,
  // takes the grant and sends the data, then the teardown, which is in when the data has been
  // taken (both one hop; the data is longer): core 1 takes it (the receive overhead).
  const Cycle grant = one_hop(sp, 0) + sp.ni.recv_overhead_cycles;
  const Cycle data = one_hop(sp, 32) + sp.ni.recv_overhead_cycles;
  const std::vector<Timing> runs =
      one_message({{{"channel_setup", "true"}}, {{"channel_setup", "true"}, {"interrupt_cycles", "100"}}});
  const Timing& t = runs[0];
  CHECK(t.send == sp.ni.send_overhead_cycles);
  CHECK(t.recv == sp.ni.recv_overhead_cycles + grant + data + sp.ni.recv_overhead_cycles);
  // Per message of the channel, the per-message costs: request and grant and teardown too.
  const Timing& costly = runs[1];
  // Core 1: the request's interrupt, then the data's and the teardown's; the grant's
  // interrupt at core 0 delays the data.
  CHECK(costly.recv == t.recv + 4 * 100);
}

TEST_CASE("model none leaves the program unwrapped, whatever auto would choose", "[software]") {
  FirmwareParams fp;
  fp.collective = "reduce";
  fp.algorithm = "binomial";
  fp.software.platform_preset = "ilib_mpi";
  CHECK(resolve_software_model("collective", fp) == "ilib_mpi");
  fp.software.model = "none";
  auto program = std::make_unique<OneMessage>(1, 1);
  const Firmware* raw = program.get();
  CHECK(with_software_model(std::move(program), "collective", fp, 2).get() == raw);
  // auto: the predictable set pays nocmsg; nothing but collectives on a platform with a
  // library preset is charged.
  fp.software.model = "auto";
  fp.algorithm = "nocmsg";
  CHECK(resolve_software_model("collective", fp) == "nocmsg");
  CHECK(resolve_software_model("ping_pong", fp) == "none");
  fp.software.platform_preset.clear();
  CHECK(resolve_software_model("collective", fp) == "none");
}

TEST_CASE("cli: core.software_model none gives the hardware-only cycles, auto the software share",
          "[software][cli]") {
  const std::string reduce =
      "--set platform=tilepro --set workload.kind=collective --set workload.collective=reduce "
      "--set workload.algorithm=binomial --set workload.grid=7x7";
  const auto none = run_json(reduce + " --set core.software_model=none", "sw_none");
  CHECK(none["collective"]["execution_cycles"] == 106);  // docs/manycore.md's table
  CHECK(!none.contains("software"));
  CHECK(!none["collective"].contains("software_cycles"));
  const auto mpi = run_json(reduce, "sw_auto");
  CHECK(mpi["software"]["model"] == "ilib_mpi");
  CHECK(mpi["collective"]["data_verified"] == true);
  const auto software = mpi["collective"]["software_cycles"].get<std::uint64_t>();
  const auto cycles = mpi["collective"]["execution_cycles"].get<std::uint64_t>();
  CHECK(software > 0);
  CHECK(software < cycles);
  CHECK(cycles > 106);
}

// SPEC 6's order at one packet, from the mechanisms (polling and no setup against interrupts
// and a channel per message), on a small grid.
TEST_CASE("cli: with the default model nocmsg beats the MPI-style baseline at one packet",
          "[software][cli]") {
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"alltoall", "pairwise"}, {"reduce", "binomial"}, {"allreduce", "recursive_doubling"},
      {"broadcast", "binomial"}, {"barrier", "central"}};
  for (const auto& [collective, baseline] : pairs) {
    const std::string run = "--set platform=tilepro --set workload.kind=collective "
                            "--set workload.grid=3x3 --set workload.collective=" + collective;
    const auto ours = run_json(run, "sw_nocmsg_" + collective);
    const auto theirs = run_json(run + " --set workload.algorithm=" + baseline,
                                 "sw_base_" + collective);
    INFO(collective);
    CHECK(ours["software"]["model"] == "nocmsg");
    CHECK(theirs["software"]["model"] == "ilib_mpi");
    CHECK(ours["collective"]["execution_cycles"].get<std::uint64_t>() <
          theirs["collective"]["execution_cycles"].get<std::uint64_t>());
  }
}

TEST_CASE("software timing jitter: each charge within its bound, seeded, none at zero",
          "[software]") {
  const SystemParams sp;
  const Cycle base = sp.ni.send_overhead_cycles + 100;  // the NI's, and the charge
  std::vector<ManySends*> programs;
  const auto send100 = [](const std::string& jitter) {
    return Overrides{{"send_overhead_cycles", "100"}, {"jitter_percent", jitter}};
  };
  const std::vector<Overrides> cases = {send100("0"), send100("10"), send100("10"),
                                        send100("10"), send100("100")};
  const Runs runs = run_cases(
      cases,
      [&](std::size_t) {
        auto p = std::make_unique<ManySends>(40);
        programs.push_back(p.get());
        return p;
      },
      {1, 1, 1, 2, 1});
  for (ManySends* p : programs) REQUIRE(p->sends.size() == 40);
  // Zero: exactly the charge, every time.
  for (Cycle t : programs[0]->sends) CHECK(t == base);
  // 10 %: 100 .. 110 cycles, not all alike.
  const std::vector<Cycle>& ten = programs[1]->sends;
  for (Cycle t : ten) {
    CHECK(t >= base);
    CHECK(t <= base + 10);
  }
  CHECK(std::set<Cycle>(ten.begin(), ten.end()).size() > 1);
  // The same seed draws the same, another seed otherwise.
  CHECK(programs[2]->sends == ten);
  CHECK(programs[3]->sends != ten);
  // 100 %: up to twice the charge, and the draws use the range.
  const std::vector<Cycle>& full = programs[4]->sends;
  for (Cycle t : full) CHECK(t <= base + 100);
  CHECK(*std::max_element(full.begin(), full.end()) > base + 50);
}

// Repetitions of a collective that synchronises every core (recursive doubling: each run ends
// when all have exchanged with all): without jitter every run takes the nominal time
// (docs/manycore.md's table), with the preset's jitter (ilib_mpi: 25 %) each run its own,
// the same for the same seed and other for another seed.
TEST_CASE("cli: jitter gives a collective variance over repetitions, seeded", "[software][cli]") {
  const std::string allreduce =
      "--set platform=tilepro --set workload.kind=collective --set workload.collective=allreduce "
      "--set workload.algorithm=recursive_doubling --set workload.grid=4x4 "
      "--set workload.repetitions=4";
  const auto exact = run_json(allreduce + " --set core.software.jitter_percent=0", "jitter_zero");
  CHECK(exact["collective"]["repetition_cycles"] ==
        std::vector<std::uint64_t>{20456, 20456, 20456, 20456});
  CHECK(exact["collective"]["variance_cycles2"] == 0);
  const auto a = run_json(allreduce, "jitter_a");
  const auto again = run_json(allreduce, "jitter_again");
  const auto other = run_json(allreduce + " --set seed=2", "jitter_other");
  const auto times = a["collective"]["repetition_cycles"].get<std::vector<std::uint64_t>>();
  REQUIRE(times.size() == 4);
  CHECK(std::set<std::uint64_t>(times.begin(), times.end()).size() > 1);
  CHECK(a["collective"]["variance_cycles2"].get<double>() > 0);
  CHECK(again["collective"]["repetition_cycles"] == a["collective"]["repetition_cycles"]);
  CHECK(other["collective"]["repetition_cycles"] != a["collective"]["repetition_cycles"]);
  // Jitter only adds, each charge at most a quarter; the software is nearly all of the time
  // (the hardware alone: 76 cycles).
  for (std::uint64_t t : times) {
    CHECK(t > 20456);
    CHECK(t <= 20456 * 5 / 4 + 76);
  }
}
