// Mesh collectives on the tilepro platform: data checked on every core for every algorithm, the
// predictable (nocmsg) set free of contention on every router-to-router link for every grid
// 2x2 .. 7x7, and refusals of bad input. Several systems run side by side in one process (one
// elaboration per test case).
#include <catch2/catch.hpp>

#include <functional>

#include "cli_support.hpp"
#include "collectives/collective.hpp"
#include "support.hpp"
#include "noc/topology/kary_ncube.hpp"

using namespace collnoc;

namespace {

struct Case {
  std::string collective, algorithm, grid;
  FirmwareParams fp;
  std::unique_ptr<NocSystem> sys;
  std::unique_ptr<Firmware> fw;
  unsigned sn_config_cycles = 10;
  std::string platform = "tilepro";
  std::function<void(PlatformParams&)> setup;  // changes to the platform's defaults
};

// HTA routers on the platform's network, as derive_params gives them to workload.algorithm =
// hta: 2 unicast and 2 multicast VCs of `buffer_flits`.
std::function<void(PlatformParams&)> hta_routers(unsigned buffer_flits,
                                                 std::vector<unsigned> k = {}) {
  return [=](PlatformParams& pp) {
    if (!k.empty()) pp.topology.k = k;
    pp.system.router.vcs = 4;
    pp.system.router.vc_classes = 2;
    pp.system.router.buffer_flits = buffer_flits;
    pp.system.router.hta.enabled = true;
  };
}

// Builds one tilepro system per case (side by side), runs them all until every core is done.
void run_side_by_side(std::vector<Case>& cases) {
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Case& c = cases[i];
    PlatformParams pp;
    pp.name = c.platform;
    pp.instance = "system" + std::to_string(i);
    pp.sn.config_cycles = c.sn_config_cycles;
    if (c.setup) c.setup(pp);
    c.sys = make_platform(pp);
    c.fp.collective = c.collective;
    c.fp.algorithm = c.algorithm;
    c.fp.grid = c.grid;
    c.fp.protocol.mpb_bytes = platform_mpb_bytes(pp);
    c.fw = make_firmware("collective", c.fp, c.sys->topology());
    c.sys->attach_firmware(*c.fw);
  }
  std::vector<const NocSystem*> systems;
  for (const Case& c : cases) systems.push_back(c.sys.get());
  test::run_until_finished(systems, 2000000);
}

// Contention events on the router-to-router links of `sys`: between messages, or (`packets`)
// per packet, a packet of its own message winning included.
std::uint64_t link_contention(const NocSystem& sys, bool packets = false) {
  std::uint64_t events = 0;
  for (RouterId r = 0; r < sys.num_routers(); ++r)
    for (unsigned p = 0; p < sys.topology().network_ports(); ++p)
      if (sys.router(r).output_connected(p)) {
        const OutputCounters c = sys.router(r).output_counters(p);
        events += packets ? c.contention_events_packets : c.contention_events;
      }
  return events;
}

// Every case's data arrived as sent, and every rank of its grid (`ranks`) reported.
void check_verified(const std::vector<Case>& cases, std::size_t ranks) {
  for (const Case& c : cases) {
    INFO(c.collective << " " << c.algorithm << ": " << c.fw->failure());
    CHECK(c.fw->data_verified());
    Report r;
    c.fw->report(r);
    CHECK(test::get<std::uint64_t>(r, "collective.messages_checked") > 0);
    CHECK(test::get<std::vector<std::uint64_t>>(r, "collective.per_core_cycles").size() == ranks);
  }
}

// Runs the collective on grids 2x2 .. 7x7, 5x3 (root 7) and `more_grids` under `schedule`
// (empty: the default) and checks the data and zero link events in every round; returns the
// cases.
std::vector<Case> check_contention_free(const std::string& collective, const std::string& algorithm,
                                        const std::string& schedule = "",
                                        const std::vector<std::string>& more_grids = {}) {
  std::vector<Case> cases;
  for (unsigned k = 2; k <= 7; ++k)
    cases.push_back({collective, algorithm, std::to_string(k) + "x" + std::to_string(k), {}, {}, {}});
  cases.push_back({collective, algorithm, "5x3", {}, {}, {}});
  cases.back().fp.root = 7;
  for (const std::string& grid : more_grids) cases.push_back({collective, algorithm, grid, {}, {}, {}});
  for (Case& c : cases) c.fp.schedule = schedule;
  run_side_by_side(cases);
  for (const Case& c : cases) {
    INFO(collective << " " << algorithm << " " << schedule << " on " << c.grid << ": " << c.fw->failure());
    CHECK(c.fw->data_verified());
    CHECK(link_contention(*c.sys) == 0);
    // and so in every round; every round the firmware marked carried traffic
    const std::vector<RoundTally>& rounds = c.sys->interfaces().round_totals();
    if (collective != "broadcast") CHECK(rounds.size() > 1);  // broadcast: all on the SN
    for (std::size_t r = 0; r < rounds.size(); ++r) {
      INFO("round " << r);
      CHECK(rounds[r].contention_links == 0);
    }
  }
  return cases;
}

std::uint64_t report_value(const Case& c, const std::string& key) {
  Report r;
  c.fw->report(r);
  return test::get<std::uint64_t>(r, key);
}

}  // namespace

TEST_CASE("nocmsg alltoall has no link contention on any grid 2x2 to 7x7", "[manycore]") {
  check_contention_free("alltoall", "nocmsg");
}

TEST_CASE("nocmsg alltoallv has no link contention on any grid 2x2 to 7x7", "[manycore]") {
  check_contention_free("alltoallv", "nocmsg");
}

// SPEC 6's modulo schedule: the rounds per grid (modulo_subrounds in alltoall_nocmsg.cpp; the
// greedy packing takes 6, 18, 38, 76, 123, 191, 40 and 96), no link contention, data checked.
TEST_CASE("modulo alltoall: its rounds per grid, no link contention on any grid 2x2 to 7x7",
          "[manycore]") {
  const std::vector<Case> cases = check_contention_free("alltoall", "nocmsg", "modulo", {"7x4"});
  const std::uint64_t rounds[] = {6, 16, 37, 70, 121, 190, 39, 97};  // 2x2 .. 7x7, 5x3, 7x4
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO(cases[i].grid);
    CHECK(report_value(cases[i], "collective.rounds") == rounds[i]);
  }
}

TEST_CASE("modulo alltoallv has no link contention on any grid 2x2 to 7x7", "[manycore]") {
  check_contention_free("alltoallv", "nocmsg", "modulo");
}

TEST_CASE("nocmsg barrier has no link contention on any grid 2x2 to 7x7", "[manycore]") {
  check_contention_free("barrier", "nocmsg");
}

TEST_CASE("nocmsg reduce has no link contention on any grid 2x2 to 7x7", "[manycore]") {
  check_contention_free("reduce", "nocmsg");
}

TEST_CASE("reduce_broadcast allreduce has no link contention on any grid 2x2 to 7x7", "[manycore]") {
  check_contention_free("allreduce", "reduce_broadcast");
}

TEST_CASE("chain reduce has no link contention on any grid 2x2 to 7x7", "[manycore]") {
  check_contention_free("reduce", "nocmsg", "chain");
}

TEST_CASE("chain reduce_broadcast allreduce has no link contention on any grid 2x2 to 7x7",
          "[manycore]") {
  check_contention_free("allreduce", "reduce_broadcast", "chain");
}

// The distance reduce's later runs: the farthest senders wait for their receiver's go too, so
// that a run's first messages never meet the previous run's last; with a start skew, on a
// corner root and on a root inside the grid, and with two cores per tile (scc).
TEST_CASE("distance reduce repeats without link contention and with checked data", "[manycore]") {
  std::vector<Case> cases;
  for (const char* collective : {"reduce", "allreduce"})
    for (unsigned root : {0u, 17u}) {
      cases.push_back({collective, collective == std::string("reduce") ? "nocmsg" : "reduce_broadcast",
                       "6x5", {}, {}, {}});
      cases.back().fp.root = root;
      cases.back().fp.repetitions = 3;
      cases.back().fp.start_skew_cycles = 30;
    }
  cases.push_back({"reduce", "nocmsg", "", {}, {}, {}});
  cases.back().platform = "scc";
  cases.back().fp.root = 13;
  cases.back().fp.repetitions = 3;
  run_side_by_side(cases);
  for (const Case& c : cases) {
    INFO(c.collective << " on " << c.platform << " root " << c.fp.root << ": " << c.fw->failure());
    CHECK(c.fw->data_verified());
    CHECK(link_contention(*c.sys) == 0);
    const std::uint64_t checks = c.collective == "reduce" ? 3 : 3 * (c.platform == "scc" ? 48 : 30);
    CHECK(report_value(c, "collective.messages_checked") == checks);
  }
}

TEST_CASE("nocmsg broadcast on the static network is correct on any grid 2x2 to 7x7", "[manycore]") {
  check_contention_free("broadcast", "nocmsg");
}

TEST_CASE("the static network takes 1 cycle per hop and sn.config_cycles per route", "[manycore]") {
  std::vector<Case> cases(2);
  for (unsigned i = 0; i < 2; ++i) {
    cases[i] = {"broadcast", "nocmsg", "8x8", {}, {}, {}};
    cases[i].fp.message_bytes = 16;  // one flit
    cases[i].sn_config_cycles = i == 0 ? 0 : 10;
  }
  run_side_by_side(cases);
  for (const Case& c : cases) {
    Report r;
    c.fw->report(r);
    REQUIRE(c.fw->data_verified());
    // Root (0, 0) to tile (7, 7), 14 hops: send at config_cycles, port 1, into the switch 1,
    // 14 hops + the local output 1, delivery register 1, receive 1.
    CHECK(test::get<std::uint64_t>(r, "collective.execution_cycles") == c.sn_config_cycles + 19);
  }
}

TEST_CASE("a static switch holds words that arrive before its route is set", "[manycore]") {
  // Tile 0 routes its core east at once and sends; tile 1 sets its route only at cycle 200.
  class LateRoute : public Firmware {
   public:
    void run(MessageLayer& ml) override {
      const Words data{1, 2, 3, 4, 5, 6, 7, 8, 9};
      if (ml.rank() == 0) {
        ml.sn_configure(4, 1u << 0 /* +x */);
        ml.sn_send(data);
      } else if (ml.rank() == 1) {
        ml.compute(200);
        ml.sn_configure(1 /* -x */, 1u << 4);
        ok_ = ml.sn_recv(data.size()) == data;
        finish_ = ml.now();
      }
    }
    void report(Report&) const override {}
    bool data_verified() const override { return ok_; }
    bool ok_ = false;
    Cycle finish_ = 0;
  } fw;
  PlatformParams pp;
  pp.name = "tilepro";
  auto sys = make_platform(pp);
  RunOutcome out = test::run_firmware(*sys, fw);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(fw.data_verified());
  // Route in force at 210; 3 flits leave one per cycle: the last at 212, in the port at 213,
  // available at 214, taken by 215.
  CHECK(fw.finish_ == 215);
  CHECK(test::get<std::uint64_t>(out.report, "sn.configurations") == 2);
}

TEST_CASE("every mesh collective delivers checked data on a 5x3 grid", "[manycore]") {
  std::vector<Case> cases;
  const std::vector<std::string> mesh{"alltoall", "alltoallv", "barrier", "broadcast", "reduce",
                                     "allreduce"};
  for (const CollectiveEntry& e : collective_algorithms()) {
    if (std::find(mesh.begin(), mesh.end(), e.collective) == mesh.end()) continue;
    const std::string algorithm = e.algorithm;
    // scc only: their own tests
    if (algorithm == "onesided" || is_on_buffers_form(e)) continue;
    if (e.library == CollectiveLibrary::rcce || e.library == CollectiveLibrary::rckmpi) continue;
    if (e.needs == CollectiveNeeds::hta_routers) continue;  // HTA routers: their own tests
    cases.push_back({e.collective, e.algorithm, "5x3", {}, {}, {}});
    cases.back().fp.message_bytes = 200;  // 50 words: 4 flits of 128 bits
    cases.back().fp.root = 4;
  }
  run_side_by_side(cases);
  check_verified(cases, 15);
}

TEST_CASE("the baselines deliver checked data on the 48 cores of scc", "[manycore]") {
  std::vector<Case> cases;
  for (const char* name : {"alltoall pairwise", "alltoallv pairwise", "barrier central",
                           "broadcast binomial", "reduce binomial", "allreduce recursive_doubling"}) {
    const std::string s(name);
    cases.push_back({s.substr(0, s.find(' ')), s.substr(s.find(' ') + 1), "", {}, {}, {}});
    cases.back().platform = "scc";
    cases.back().fp.root = 13;
  }
  run_side_by_side(cases);
  check_verified(cases, 48);
}

TEST_CASE("contention is counted per round of the sender and sums to the router counters", "[manycore]") {
  // Pairwise alltoall on 7x7, one packet per message: stage s is round s, 49 packets each.
  std::vector<Case> cases;
  cases.push_back({"alltoall", "pairwise", "7x7", {}, {}, {}});
  cases.push_back({"alltoall", "nocmsg", "7x7", {}, {}, {}});
  run_side_by_side(cases);
  check_verified(cases, 49);
  const std::vector<RoundTally>& pairwise = cases[0].sys->interfaces().round_totals();
  REQUIRE(pairwise.size() == 49);
  std::uint64_t links = 0, ejection = 0, all = 0;
  for (unsigned s = 1; s < 49; ++s) {
    INFO("stage " << s);
    CHECK(pairwise[s].packets == 49);
    links += pairwise[s].contention_links;
    ejection += pairwise[s].contention_ejection;
  }
  for (RouterId r = 0; r < cases[0].sys->num_routers(); ++r)
    for (unsigned p = 0; p < cases[0].sys->router(r).ports(); ++p)
      if (cases[0].sys->router(r).output_connected(p))
        all += cases[0].sys->router(r).output_counters(p).contention_events;
  CHECK(pairwise[0].contention_links == 0);
  CHECK(links == link_contention(*cases[0].sys));
  CHECK(links > 0);
  CHECK(links + ejection == all);
  // The pattern rounds: each round's packets are its swaps' messages and the barrier's.
  Report r;
  cases[1].fw->report(r);
  CHECK(cases[1].sys->interfaces().round_totals().size() == test::get<std::uint64_t>(r, "collective.rounds") + 1);
}

TEST_CASE("the nocmsg set runs on two cores per tile (scc) and without a static network", "[manycore]") {
  // scc: tiles lead in the trees and rounds, their second cores use the local ports only; roots
  // on either core of a tile. kary_ncube: no static network, broadcasts go down the mesh tree.
  std::vector<Case> cases;
  for (const char* name : {"alltoall nocmsg", "alltoallv nocmsg", "barrier nocmsg", "broadcast nocmsg",
                           "reduce nocmsg", "allreduce reduce_broadcast"})
    for (const char* grid : {"", "3x2", "1x1"})
      for (unsigned root : {0u, 3u}) {
        const std::string s(name);
        cases.push_back({s.substr(0, s.find(' ')), s.substr(s.find(' ') + 1), grid, {}, {}, {}});
        cases.back().platform = "scc";
        cases.back().fp.root = std::string(grid) == "1x1" ? root % 2 : root;
        cases.back().fp.message_bytes = 200;
      }
  for (const char* name : {"broadcast nocmsg", "allreduce reduce_broadcast", "alltoall nocmsg"}) {
    const std::string s(name);
    cases.push_back({s.substr(0, s.find(' ')), s.substr(s.find(' ') + 1), "4x3", {}, {}, {}});
    cases.back().platform = "kary_ncube";
    cases.back().fp.root = 5;
  }
  run_side_by_side(cases);
  for (const Case& c : cases) {
    INFO(c.collective << " " << c.algorithm << " on " << c.platform << " " << c.grid << " root "
                      << c.fp.root << ": " << c.fw->failure());
    CHECK(c.fw->data_verified());
    // The trees never contend, nor does the alltoall on scc's buffers; over kary_ncube's
    // network the alltoall's release meets the next round's data at times (docs/manycore.md).
    if (c.collective.rfind("alltoall", 0) != 0 || c.platform == "scc") CHECK(link_contention(*c.sys) == 0);
  }
}

TEST_CASE("the one-sided broadcast stages chunks through the scc buffers bit-exact", "[manycore]") {
  // A chain and trees of 3 and 47 (all from the root); one chunk, and 5 chunks with a short
  // last one; two runs back to back (flag counts run on).
  std::vector<Case> cases;
  for (unsigned fanout : {1u, 3u, 47u})
    for (std::uint64_t bytes : {128u, 20000u}) {
      cases.push_back({"broadcast", "onesided", "", {}, {}, {}});
      cases.back().platform = "scc";
      cases.back().fp.root = 13;
      cases.back().fp.fanout = fanout;
      cases.back().fp.message_bytes = bytes;
      cases.back().fp.repetitions = 2;
    }
  run_side_by_side(cases);
  check_verified(cases, 48);
  for (const Case& c : cases) {
    INFO("fanout " << c.fp.fanout << ", " << c.fp.message_bytes << " bytes");
    // every core but the root got every chunk of both runs with one get each
    std::uint64_t gets = 0;
    for (NodeId n = 0; n < c.sys->num_nis(); ++n) gets += c.sys->ni(n).front_end().counters().mpb_gets;
    const unsigned chunks = c.fp.message_bytes == 128 ? 1 : 5;  // 4000-4080 bytes a chunk
    CHECK(gets == 47 * 2 * chunks);
  }
}

// ---------------------------------------------------------------- the nocmsg set on scc's buffers

// Pairs of packets the two cores of a tile injected in a common cycle (contention_events_cores).
std::uint64_t core_contention(const NocSystem& sys) {
  Tally t;
  sys.report(t);
  return t.total("contention_events_cores");
}

std::string report_algorithm(const Case& c) {
  Report r;
  c.fw->report(r);
  return test::get<std::string>(r, "collective.algorithm");
}

TEST_CASE("on scc the nocmsg trees and barrier run on the buffers, no link or core contention", "[manycore]") {
  // The whole chip and 3x2, roots on either core of a tile; then several chunks per message
  // (one packet each: per-packet counts aside), doubles, two runs back to back.
  std::vector<Case> cases;
  for (const char* name : {"barrier nocmsg", "broadcast nocmsg", "reduce nocmsg", "allreduce reduce_broadcast"}) {
    const std::string s(name);
    for (const char* grid : {"", "3x2"})
      for (unsigned root : {0u, 3u, 13u}) {
        if (std::string(grid) == "3x2" && root == 13) continue;
        cases.push_back({s.substr(0, s.find(' ')), s.substr(s.find(' ') + 1), grid, {}, {}, {}});
        cases.back().platform = "scc";
        cases.back().fp.root = root;
        cases.back().fp.message_bytes = 200;
      }
    cases.push_back({s.substr(0, s.find(' ')), s.substr(s.find(' ') + 1), "", {}, {}, {}});
    cases.back().platform = "scc";
    cases.back().fp.root = 13;
    cases.back().fp.message_bytes = 8000;
    cases.back().fp.element_type = "double";
    cases.back().fp.repetitions = 2;
    cases.back().setup = [](PlatformParams& pp) { pp.system.ni.max_packet_flits = 256; };
  }
  run_side_by_side(cases);
  for (const Case& c : cases) {
    INFO(c.collective << " on " << c.grid << " root " << c.fp.root << ", " << c.fp.message_bytes
                      << " bytes: " << c.fw->failure());
    CHECK(c.fw->data_verified());
    CHECK(report_algorithm(c) == c.algorithm + "_mpb");
    CHECK(link_contention(*c.sys) == 0);
    CHECK(core_contention(*c.sys) == 0);
    std::uint64_t puts = 0;
    for (NodeId n = 0; n < c.sys->num_nis(); ++n) puts += c.sys->ni(n).front_end().counters().mpb_puts;
    CHECK(puts > 0);
  }
}

TEST_CASE("on scc the nocmsg alltoall runs its rounds on the buffers, no link or core contention", "[manycore]") {
  // The whole chip, 3x2 and one tile, both schedules, one packet per message; then several
  // chunks per swap (8 KB: 4 to 16 chunks of about 2.7 KB a round, 16-flit packets), two runs
  // back to back on 3x2 (the last round's release meets the next run's first round).
  std::vector<Case> cases;
  for (const char* collective : {"alltoall", "alltoallv"})
    for (const char* grid : {"", "3x2", "1x1"})
      for (const char* schedule : {"greedy", "modulo"}) {
        cases.push_back({collective, "nocmsg", grid, {}, {}, {}});
        cases.back().platform = "scc";
        cases.back().fp.schedule = schedule;
      }
  for (const char* collective : {"alltoall", "alltoallv"})
    for (const char* grid : {"", "3x2"}) {
      cases.push_back({collective, "nocmsg", grid, {}, {}, {}});
      cases.back().platform = "scc";
      cases.back().fp.schedule = std::string(collective) == "alltoall" ? "greedy" : "modulo";
      cases.back().fp.message_bytes = 8192;
      cases.back().fp.repetitions = std::string(grid).empty() ? 1 : 2;
    }
  // Over the router network (workload.nocmsg_mpb = false), for the round count.
  cases.push_back({"alltoall", "nocmsg", "", {}, {}, {}});
  cases.back().platform = "scc";
  cases.back().fp.nocmsg_mpb = false;
  run_side_by_side(cases);
  Report network;
  cases.back().fw->report(network);
  CHECK(report_algorithm(cases.back()) == "nocmsg");
  for (const Case& c : cases) {
    INFO(c.collective << " " << c.fp.schedule << " on " << c.grid << ", " << c.fp.message_bytes
                      << " bytes: " << c.fw->failure());
    CHECK(c.fw->data_verified());
    CHECK(core_contention(*c.sys) == 0);
    if (!c.fp.nocmsg_mpb) continue;
    CHECK(report_algorithm(c) == "nocmsg_mpb");
    CHECK(link_contention(*c.sys) == 0);
    Report r;
    c.fw->report(r);
    if (c.grid.empty() && c.fp.schedule == "greedy")  // the same pattern rounds as the network version
      CHECK(test::get<std::uint64_t>(r, "collective.rounds") ==
            test::get<std::uint64_t>(network, "collective.rounds"));
  }
}

TEST_CASE("core contention counts packets of a tile's two cores injected in a common cycle", "[manycore]") {
  // One tile (1x1), one message each way: pairwise, both cores send at cycle 0, one packet
  // each: one event. nocmsg on the buffers: the odd core first, then the even one: none.
  std::vector<Case> cases;
  cases.push_back({"alltoall", "pairwise", "1x1", {}, {}, {}});
  cases.push_back({"alltoall", "nocmsg", "1x1", {}, {}, {}});
  cases.push_back({"alltoall", "pairwise", "", {}, {}, {}});
  for (Case& c : cases) {
    c.platform = "scc";
    c.fp.message_bytes = 16;
  }
  run_side_by_side(cases);
  for (const Case& c : cases) CHECK(c.fw->data_verified());
  CHECK(core_contention(*cases[0].sys) == 1);
  CHECK(core_contention(*cases[1].sys) == 0);
  CHECK(core_contention(*cases[2].sys) > 0);
}

// ---------------------------------------------------------------- broadcast hta

Case hta_broadcast(const std::string& algorithm, const std::string& grid, unsigned root,
                   std::function<void(PlatformParams&)> setup) {
  Case c{"broadcast", algorithm, grid, {}, {}, {}};
  c.platform = "kary_ncube";
  c.fp.root = root;
  c.fp.message_bytes = 128;  // 32 words: 8 flits of 128 bits
  c.setup = std::move(setup);
  return c;
}

// A row of 4 ranks of a 4x4 mesh, the root at its end: one multicast whose headers go 1, 2, 3
// hops along x, the chain of docs/hta.md's "Zero-load latency" from a core. The root hands it
// to its NI in cycle 0; rank 3's copy is available at 1 + 23 + 1 = 25 (send overhead, the
// docs' 23 cycles, the delivery register) and its core has it after the receive overhead: 26.
TEST_CASE("hta broadcast: a row of ranks gets the root's data at the zero-load latency",
          "[manycore]") {
  std::vector<Case> cases;
  cases.push_back(hta_broadcast("hta", "4x1", 0, hta_routers(72, {4})));
  run_side_by_side(cases);
  check_verified(cases, 4);
  const Case& c = cases[0];
  CHECK(report_value(c, "collective.multicasts") == 1);
  CHECK(report_value(c, "collective.execution_cycles") == 26);
  CHECK(c.sys->router(0).headers_consumed() == 0);
  CHECK(c.sys->router(3).headers_consumed() == 1);
}

// A small message (128 B, 8 flits) from the root to every other rank, all three algorithms on
// the same network: one multicast (the headers and 8 data flits fit a VC of 72), the binomial
// tree (log2 n rounds of messages) and the mesh tree on the dynamic network (whole messages
// forwarded by the cores). A 4x4 mesh from its corner with delayed header routing (the
// default), and an 8x8 mesh from its centre with immediate header routing: with 63 headers a
// router handles one a cycle, and delayed routing makes each wait for its upstream router's
// last (docs/hta.md, "Firmware").
TEST_CASE("hta broadcast of a small message is faster than binomial and the mesh tree",
          "[manycore]") {
  std::vector<Case> cases;
  for (const char* algorithm : {"hta", "binomial", "nocmsg"})
    cases.push_back(hta_broadcast(algorithm, "", 0, hta_routers(72, {4})));
  const auto immediate = [](PlatformParams& pp) {
    hta_routers(72)(pp);
    pp.system.router.hta.header_routing = HeaderTiming::immediate;
  };
  for (const char* algorithm : {"hta", "binomial", "nocmsg"})
    cases.push_back(hta_broadcast(algorithm, "", 27, immediate));
  run_side_by_side(cases);
  for (std::size_t i = 0; i < cases.size(); i += 3) {
    const unsigned ranks = i == 0 ? 16 : 64;
    INFO(ranks << " ranks: " << cases[i].fw->failure() << cases[i + 1].fw->failure()
               << cases[i + 2].fw->failure());
    for (std::size_t j = i; j < i + 3; ++j) CHECK(cases[j].fw->data_verified());
    CHECK(report_value(cases[i], "collective.multicasts") == 1);
    CHECK(report_value(cases[i], "collective.messages_checked") == ranks);
    const std::uint64_t hta = report_value(cases[i], "collective.execution_cycles");
    const std::uint64_t binomial = report_value(cases[i + 1], "collective.execution_cycles");
    const std::uint64_t tree = report_value(cases[i + 2], "collective.execution_cycles");
    INFO("hta " << hta << ", binomial " << binomial << ", mesh tree " << tree);
    CHECK(hta < binomial);
    CHECK(hta < tree);
  }
}

// VCs of 16 flits hold 8 headers beside the 8 data flits: the root's 63 ranks go as 7
// multicasts to 8 ranks and one to 7 (127 flits injected; 7 multicasts of 9 would take 2
// packets each, 182 flits). Twice, to check that the next run goes as well.
TEST_CASE("hta broadcast splits the ranks into several multicasts when they do not fit a VC",
          "[manycore]") {
  std::vector<Case> cases;
  cases.push_back(hta_broadcast("hta", "", 0, hta_routers(16)));
  cases[0].fp.repetitions = 2;
  run_side_by_side(cases);
  check_verified(cases, 64);
  CHECK(report_value(cases[0], "collective.multicasts") == 8);
  std::uint64_t injected = 0;
  for (NodeId n = 0; n < cases[0].sys->num_nis(); ++n)
    injected += cases[0].sys->ni(n).packetizer().counters().flits_injected;
  CHECK(injected == 2 * 127);
}

// Every platform whose network can have HTA routers: tilepro's dynamic network (a 5x3 grid)
// and scc's (two cores per router: a tile mate's copy leaves by the local ports only).
TEST_CASE("hta broadcast runs on tilepro and scc with HTA routers", "[manycore]") {
  std::vector<Case> cases;
  cases.push_back(hta_broadcast("hta", "5x3", 4, hta_routers(32)));
  cases.push_back(hta_broadcast("hta", "", 13, hta_routers(64)));
  cases[0].platform = "tilepro";
  cases[1].platform = "scc";
  cases[1].fp.message_bytes = 200;
  run_side_by_side(cases);
  for (const Case& c : cases) {
    INFO(c.platform << ": " << c.fw->failure());
    CHECK(c.fw->data_verified());
    CHECK(report_value(c, "collective.multicasts") == 1);
    CHECK(report_value(c, "collective.messages_checked") == (c.platform == "scc" ? 48 : 15));
  }
}

TEST_CASE("reductions compute max and min over int32 and double on every core", "[manycore]") {
  std::vector<Case> cases;
  for (const char* algorithm : {"reduce_broadcast", "recursive_doubling"})
    for (const char* op : {"sum", "max", "min"})
      for (const char* type : {"int32", "double"}) {
        cases.push_back({"allreduce", algorithm, "4x3", {}, {}, {}});
        cases.back().fp.reduce_op = op;
        cases.back().fp.element_type = type;
        cases.back().fp.message_bytes = 64;
      }
  run_side_by_side(cases);
  for (const Case& c : cases) {
    INFO(c.algorithm << " " << c.fp.reduce_op << " " << c.fp.element_type << ": " << c.fw->failure());
    CHECK(c.fw->data_verified());
  }
}

TEST_CASE("repetitions with a random start skew give a variance and repeat bit for bit",
          "[manycore]") {
  std::vector<Case> cases(3);
  for (unsigned i = 0; i < 3; ++i) {
    cases[i] = {"reduce", "binomial", "4x4", {}, {}, {}};
    cases[i].fp.repetitions = i < 2 ? 4 : 1;
    cases[i].fp.start_skew_cycles = i < 2 ? 40 : 0;
  }
  run_side_by_side(cases);
  Report r[3];
  for (unsigned i = 0; i < 3; ++i) {
    REQUIRE(cases[i].fw->data_verified());
    cases[i].fw->report(r[i]);
  }
  using List = std::vector<std::uint64_t>;
  const List reps = test::get<List>(r[0], "collective.repetition_cycles");
  REQUIRE(reps.size() == 4);
  CHECK(reps == test::get<List>(r[1], "collective.repetition_cycles"));
  CHECK(test::get<double>(r[0], "collective.variance_cycles2") > 0);
  CHECK(test::get<double>(r[2], "collective.variance_cycles2") == 0);
  CHECK(test::get<std::uint64_t>(r[0], "collective.messages_checked") == 4);
}

namespace {

// Exercises the message-passing buffers of scc: a put with a flag the owner polls, and a get.
class BufferTraffic : public Firmware {
 public:
  void run(MessageLayer& ml) override {
    const Words data = pattern_message(3, 0, 47, 0, 100), local = pattern_message(3, 10, 10, 0, 50);
    switch (ml.rank()) {
      case 0:  // into core 47's buffer (the far corner), then the flag
        ml.put(47, 1024, data);
        ml.put(47, 0, Words{1});
        break;
      case 47:
        while (ml.mpb_read(0, 1) != Words{1}) ml.compute(5);
        ok_[0] = ml.mpb_read(1024, 100) == data;
        break;
      case 10:  // fills its own buffer, then says so
        ml.mpb_write(2048, local);
        ml.send(20, Words{1});
        break;
      case 20:
        ml.recv(10);
        ok_[1] = ml.get(10, 2048, 50) == local;
        break;
      default:
        break;
    }
  }
  void report(Report&) const override {}
  bool data_verified() const override { return ok_[0] && ok_[1]; }
  bool ok_[2] = {false, false};
};

std::unique_ptr<NocSystem> build_scc() {
  PlatformParams pp;
  pp.name = "scc";
  return make_platform(pp);
}

}  // namespace

TEST_CASE("scc puts and gets move data one-sided between message-passing buffers", "[manycore]") {
  auto sys = build_scc();
  REQUIRE(sys->num_nis() == 48);
  BufferTraffic fw;
  RunOutcome out = test::run_firmware(*sys, fw);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(fw.data_verified());
  std::uint64_t puts = 0, gets = 0;
  for (NodeId n = 0; n < 48; ++n) {
    puts += sys->ni(n).front_end().counters().mpb_puts;
    gets += sys->ni(n).front_end().counters().mpb_gets;
  }
  CHECK(puts == 2);
  CHECK(gets == 1);
}

TEST_CASE("a put outside the 8 KB message-passing buffer is a firmware fault", "[manycore]") {
  class OutOfRange : public Firmware {
   public:
    void run(MessageLayer& ml) override {
      if (ml.rank() == 3) ml.put(4, 8190, Words{1, 2});
    }
    void report(Report&) const override {}
    bool data_verified() const override { return true; }
  } fw;
  auto sys = build_scc();
  const RunOutcome out = test::run_firmware(*sys, fw);
  CHECK(out.status == RunStatus::firmware_fault);
  CHECK(out.diagnosis.find("core 3: ") != std::string::npos);
  CHECK(out.diagnosis.find("outside the buffer") != std::string::npos);
}

// SPEC 6 counts contention between messages: a message the NI cuts into several packets has
// them follow each other on the same outputs, which is not contention. 1 KB messages are 4
// packets of 16 flits on tilepro; one packet per message (ni.max_packet_flits = 256) gives the
// same schedule without the packets' losses to each other.
TEST_CASE("packets of one message following each other are not contention between messages",
          "[manycore]") {
  std::vector<Case> cases;
  cases.push_back({"alltoall", "nocmsg", "7x7", {}, {}, {}});
  cases.back().fp.message_bytes = 1024;
  cases.push_back({"alltoall", "pairwise", "4x4", {}, {}, {}});
  cases.back().fp.message_bytes = 1024;
  run_side_by_side(cases);
  for (const Case& c : cases) CHECK(c.fw->data_verified());
  const NocSystem& nocmsg = *cases[0].sys;
  CHECK(link_contention(nocmsg) == 0);
  CHECK(link_contention(nocmsg, true) > 0);
  std::uint64_t packet_links = 0;
  for (const RoundTally& t : nocmsg.interfaces().round_totals()) {
    CHECK(t.contention_links == 0);
    packet_links += t.contention_links_packets;
  }
  CHECK(packet_links == link_contention(nocmsg, true));
  // Pairwise: messages do meet; every loss to another message is a loss of a packet too.
  const NocSystem& pairwise = *cases[1].sys;
  CHECK(link_contention(pairwise) > 0);
  CHECK(link_contention(pairwise) <= link_contention(pairwise, true));
}

namespace {
// Cores 0 and 1 of a 3-node line each send one message of `words` words to core 2 at cycle 0:
// core 1's takes the east output of router 1 first, core 0's arrives there behind it.
class TwoSenders : public Firmware {
 public:
  explicit TwoSenders(unsigned words) : words_(words) {}
  void run(MessageLayer& ml) override {
    if (ml.rank() < 2) ml.send(2, Words(words_, ml.rank() + 1));
    else for (int i = 0; i < 2; ++i) got_ += ml.recv_any().words.size();
  }
  void report(Report&) const override {}
  bool data_verified() const override { return got_ == 2 * words_; }

 private:
  unsigned words_;
  std::size_t got_ = 0;
};
}  // namespace

TEST_CASE("two messages meeting at an output count once per losing packet, per message and per packet",
          "[manycore]") {
  // One VC per port: a head that finds the output's VC held waits for the packet holding it.
  // One packet per message (8 flits), and three packets per message (a 4-flit packet limit).
  struct Run {
    std::unique_ptr<NocSystem> sys;
    std::unique_ptr<Firmware> fw;
  };
  std::vector<Run> runs;
  for (unsigned c = 0; c < 2; ++c) {
    PlatformParams pp;
    pp.topology.k = {3};
    pp.topology.n = 1;
    pp.instance = "line" + std::to_string(c);
    pp.system.router.vcs = 1;
    if (c == 1) pp.system.ni.max_packet_flits = 4;
    Run r;
    r.sys = make_platform(pp);
    r.fw = std::make_unique<TwoSenders>((c == 0 ? 8 : 12) * pp.system.ni.words_per_flit());
    r.sys->attach_firmware(*r.fw);
    runs.push_back(std::move(r));
  }
  test::run_until_finished({runs[0].sys.get(), runs[1].sys.get()}, 100000);
  for (const Run& r : runs) CHECK(r.fw->data_verified());
  // One packet each: core 0's packet loses router 1's east output once, to core 1's message.
  CHECK(link_contention(*runs[0].sys) == 1);
  CHECK(link_contention(*runs[0].sys, true) == 1);
  // Three packets each: core 0's first packet loses to core 1's message (and its later packets
  // to core 1's or its own); the per-packet count takes in the losses to a message's own
  // packets, so it is at least the per-message count.
  const std::uint64_t messages = link_contention(*runs[1].sys);
  const std::uint64_t packets = link_contention(*runs[1].sys, true);
  CHECK(messages >= 1);
  CHECK(packets >= messages);
}
