// Hardware tree-based multicast (HTA, SPEC 5): the header-routing rules, replication with real
// payloads at the zero-load latency of docs/hta.md, delayed against immediate header routing,
// and multicast traffic with its copies counted and verified.
#include <set>

#include "support.hpp"

#include "ni/column_path.hpp"
#include "noc/routing/header_routing.hpp"
#include "noc/zero_load.hpp"

namespace collnoc {
namespace {

using Action = HeaderDecision::Action;

std::uint64_t bit(unsigned port) { return std::uint64_t{1} << port; }

// An HTA network: a unidirectional torus with `k` (its radix per dimension), `vcs` split into
// unicast and multicast halves, virtual cut-through, VCs of `buffer_flits`.
PlatformParams hta_params(std::vector<unsigned> k, unsigned vcs, unsigned buffer_flits) {
  PlatformParams p;
  p.topology.kind = "torus";
  p.topology.n = static_cast<unsigned>(k.size());
  p.topology.k = std::move(k);
  p.topology.directions = 1;
  SystemParams& s = p.system;
  s.router.vcs = vcs;
  s.router.vc_classes = 2;
  s.router.switching = Switching::virtual_cut_through;
  s.router.buffer_flits = buffer_flits;
  s.router.hta.enabled = true;
  return p;
}

// SPEC 5's: k x k, 3 unicast + 3 multicast VCs, a VC for a whole message.
std::unique_ptr<NocSystem> hta_torus(unsigned k, HeaderTiming timing) {
  PlatformParams p = hta_params({k, k}, 6, 96);
  p.system.router.hta.header_routing = timing;
  return make_platform(p);
}

TrafficParams multicast_traffic(double rate, double fraction, unsigned flits, unsigned dmin,
                                unsigned dmax) {
  TrafficParams t;
  t.injection_rate = rate;
  t.packet_flits = flits;
  t.multicast_fraction = fraction;
  t.multicast_destinations_min = dmin;
  t.multicast_destinations_max = dmax;
  return t;
}

// Runs the messages placed by hand at cycle 0 (measured: the window is cycle 0) until the last
// copy of the last one is in.
RunOutcome run_placed(NocSystem& sys) {
  RunParams run;
  run.warmup_cycles = 0;
  run.measure_cycles = 1;
  run.watchdog_cycles = 1000;
  run.progress = false;
  return Simulation(sys, run, nullptr).run();
}

// One multicast message of `data_flits` from node `src` at cycle 0 in an otherwise idle
// network; the run ends when its last copy is in.
RunOutcome one_multicast(NocSystem& sys, NodeId src, std::vector<NodeId> dsts,
                         unsigned data_flits) {
  // A source that never fires (rate 0) gives the NIs their payload generator.
  sys.attach_traffic(multicast_traffic(0.0, 1.0, data_flits, 1, 1), 1);
  sys.ni(src).queue_synthetic(SyntheticSource::Packet{dsts[0], data_flits, dsts}, 0);
  return run_placed(sys);
}

void require_all_copies(const RunOutcome& out, std::uint64_t copies) {
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(test::get<std::uint64_t>(out.report, "multicast.messages_delivered") == 1);
  CHECK(test::get<std::uint64_t>(out.report, "multicast.copies_delivered") == copies);
  CHECK(test::get<std::uint64_t>(out.report, "multicast.copies_verified") == copies);
  CHECK(test::get<std::uint64_t>(out.report, "hta.headers_consumed") == copies);
}

TEST_CASE("hta header routing: greatest distance, next furthest, blocking", "[hta]") {
  const KaryNCube torus({8, 8}, true, 1, 1);
  const HeaderRouting routing(torus);
  const unsigned x = torus.port_toward(0, 1), y = torus.port_toward(1, 1);
  const NodeId dst = 3 + 8 * 1;  // from router 0: 3 hops in x, 1 in y
  const std::uint64_t both = bit(x) | bit(y);
  HeaderDecision d = routing.route({0, dst, 0, both, 0});
  CHECK(d.action == Action::forward);
  CHECK(d.port == x);
  d = routing.route({0, dst, 0, bit(y), 0});  // x has no free VC: the next furthest
  CHECK(d.action == Action::forward);
  CHECK(d.port == y);
  d = routing.route({0, dst, 0, 0, 0});
  CHECK(d.action == Action::blocked);
  // Unidirectional: (7,0) is 7 hops away in x, never 1 the other way.
  d = routing.route({0, 7, 0, both, 0});
  CHECK(d.port == x);
}

TEST_CASE("hta header routing: allocated channels first, when they bring it closer", "[hta]") {
  const KaryNCube torus({8, 8}, true, 1, 1);
  const HeaderRouting routing(torus);
  const unsigned x = torus.port_toward(0, 1), y = torus.port_toward(1, 1);
  // y already carries this message: a header 3 x + 1 y away takes it, though x is further.
  HeaderDecision d = routing.route({0, 3 + 8, bit(y), bit(x) | bit(y), 0});
  CHECK(d.action == Action::forward);
  CHECK(d.port == y);
  // ... even with no free VC anywhere (the channel is the message's).
  d = routing.route({0, 3 + 8, bit(y), 0, 0});
  CHECK(d.port == y);
  // A header with nothing left in y does not: y would not bring it closer.
  d = routing.route({0, 3, bit(y), bit(x), 0});
  CHECK(d.action == Action::forward);
  CHECK(d.port == x);
  d = routing.route({0, 3, bit(y), 0, 0});
  CHECK(d.action == Action::blocked);
}

TEST_CASE("hta header routing: consumed at its node, ties broken by the random bits", "[hta]") {
  const KaryNCube torus({4, 4}, true, 1, 1);
  const HeaderRouting routing(torus);
  const unsigned local = torus.local_port_of(5);
  HeaderDecision d = routing.route({5, 5, 0, bit(local), 0});
  CHECK(d.action == Action::consume);
  CHECK(d.port == local);
  d = routing.route({5, 5, bit(local), 0, 0});  // a sink channel the message holds already
  CHECK(d.action == Action::consume);
  d = routing.route({5, 5, 0, bit(torus.port_toward(0, 1)), 0});  // no sink channel free
  CHECK(d.action == Action::blocked);
  // (2,2) from (0,0): 2 hops each way, and both ways are taken, each for some random bits.
  const unsigned x = torus.port_toward(0, 1), y = torus.port_toward(1, 1);
  const NodeId diagonal = 2 + 4 * 2;
  std::uint64_t seen = 0;
  for (std::uint32_t r = 0; r < 8; ++r) {
    d = routing.route({0, diagonal, 0, bit(x) | bit(y), r});
    REQUIRE(d.action == Action::forward);
    seen |= bit(d.port);
  }
  CHECK(seen == (bit(x) | bit(y)));
}

// docs/hta.md, "Zero-load latency", with H = 3, L = Li = Le = 1 and the message created in
// cycle 0 at node 0 of a 4x4 unidirectional torus.
//
// A chain: destinations 1, 2, 3 hops along x, headers nearest first, 8 data flits. The source
// router routes the 3 headers in cycles 3..5 (the first ready at Li + H - 1 = 3; delayed: its
// control line is high from 2 + Li = 3) and copies data from 6. Router r = 1, 2, 3 starts
// routing when its first header is ready (it arrived at 3 + r + ... : 6, 10, 14), copies data
// once its headers are routed: 9, 12, 15; the last copy's tail is in node 3's NI at
// 15 + 7 + Le = 23. Both timings agree: no router waits for its control line.
void chain(HeaderTiming timing) {
  auto sys = hta_torus(4, timing);
  const RunOutcome out = one_multicast(*sys, 0, {1, 2, 3}, 8);
  require_all_copies(out, 3);
  CHECK(test::get<double>(out.report, "multicast.latency_cycles.max") == 23.0);
  // Routers 1 and 2 send each data flit twice (local port and x): 2 x 8 copies.
  CHECK(test::get<std::uint64_t>(out.report, "hta.flits_replicated") == 2 * 8);
}

TEST_CASE("hta replication: a chain of 3 destinations at the zero-load latency, delayed",
          "[hta]") {
  chain(HeaderTiming::delayed);
}

TEST_CASE("hta replication: a chain of 3 destinations at the zero-load latency, immediate",
          "[hta]") {
  chain(HeaderTiming::immediate);
}

// A tree: nodes 1, 2 along x and 4, 8, 12 along y, 4 data flits. Immediate: the source routes
// its 5 headers in 3..7 and copies data from 8; along y, router 4 routes its 3 headers in
// 8..10, router 8 its 2 in 12..13, router 12 its one in 16, data reaches node 12's NI at 21.
// Delayed: the source waits for its control line (last header sent in 4, high from 5), routes
// in 5..9, copies from 10, and each router waits for its upstream to finish: 10..12, 14..15,
// 18: node 12's copy is in at 23. The difference is the routers that had headers early.
void tree(HeaderTiming timing, double latency) {
  auto sys = hta_torus(4, timing);
  const RunOutcome out = one_multicast(*sys, 0, {1, 2, 4, 8, 12}, 4);
  require_all_copies(out, 5);
  CHECK(test::get<double>(out.report, "multicast.latency_cycles.max") == latency);
}

TEST_CASE("hta delayed header routing: a tree of 5 destinations waits for upstream routers",
          "[hta]") {
  tree(HeaderTiming::delayed, 23.0);
}

TEST_CASE("hta immediate header routing: the same tree, headers routed as they arrive",
          "[hta]") {
  tree(HeaderTiming::immediate, 21.0);
}

TEST_CASE("hta replication: every other node of a 4x4 torus gets a bit-exact copy", "[hta]") {
  std::vector<NodeId> all;
  for (NodeId n = 1; n < 16; ++n) all.push_back(n);
  auto sys = hta_torus(4, HeaderTiming::delayed);
  const RunOutcome out = one_multicast(*sys, 0, all, 16);
  require_all_copies(out, 15);
  // Each data flit enters 16 routers once and leaves on 15 links and 15 local ports:
  // 14 copies beyond the ones received, of 16 data flits.
  CHECK(test::get<std::uint64_t>(out.report, "hta.flits_replicated") == 14 * 16);
}

TEST_CASE("hta traffic: half multicast on an 8x8 torus near saturation, every copy verified",
          "[hta]") {
  auto sys = hta_torus(8, HeaderTiming::delayed);
  const RunOutcome out =
      test::run_traffic(*sys, multicast_traffic(0.04, 0.5, 16, 8, 32), 1000, 5000);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  const auto copies = test::get<std::uint64_t>(out.report, "multicast.copies_delivered");
  CHECK(copies > 1000);
  CHECK(test::get<std::uint64_t>(out.report, "multicast.copies_verified") == copies);
  CHECK(test::get<std::uint64_t>(out.report, "multicast.messages_delivered") > 50);
  CHECK(test::get<double>(out.report, "unicast.latency_cycles.mean") > 0);
  CHECK(test::get<double>(out.report, "multicast.latency_cycles.mean") >
        test::get<double>(out.report, "unicast.latency_cycles.mean"));
}

}  // namespace
}  // namespace collnoc

namespace collnoc {
namespace {

// Deadlock recovery on a unidirectional ring of 4 (SPEC 5): every node sends 3 messages to the
// other 3 at once, 2 multicast VCs a link. Each message holds its VC at one router while its
// header waits for a VC of the next link, which messages waiting in the same way hold all round
// the ring: a cyclic wait that only recovery ends (the second case: without it, the run
// deadlocks).
struct Ring {
  std::unique_ptr<NocSystem> sys;
  RunOutcome out;
  std::vector<std::vector<RecoveryEvent>> log{4};
};

Ring ring_of_multicasts(unsigned timeout_cycles) {
  PlatformParams p = hta_params({4}, 4, 40);
  p.system.router.hta.timeout_cycles = timeout_cycles;
  Ring ring;
  ring.sys = make_platform(p);
  NocSystem& sys = *ring.sys;
  sys.attach_traffic(multicast_traffic(0.0, 1.0, 32, 1, 1), 1);
  for (NodeId n = 0; n < 4; ++n) {
    sys.router(n).log_recovery(&ring.log[n]);
    for (int m = 0; m < 3; ++m)
      sys.ni(n).queue_synthetic(
          SyntheticSource::Packet{(n + 1) % 4, 32, {(n + 1) % 4, (n + 2) % 4, (n + 3) % 4}}, 0);
  }
  ring.out = run_placed(sys);
  return ring;
}

TEST_CASE("hta deadlock recovery: a cyclic wait is detected after the timeout, queued, absorbed "
          "when the queue is full, re-injected after the delay; every copy delivered",
          "[hta]") {
  using What = RecoveryEvent::What;
  const Ring ring = ring_of_multicasts(16);
  INFO(ring.out.diagnosis);
  REQUIRE(ring.out.status == RunStatus::ok);
  const Report& r = ring.out.report;
  CHECK(test::get<std::uint64_t>(r, "multicast.messages_delivered") == 12);
  CHECK(test::get<std::uint64_t>(r, "multicast.copies_verified") == 36);
  const auto diverted = test::get<std::uint64_t>(r, "hta.diversions");
  const auto messages = test::get<std::uint64_t>(r, "hta.potentially_deadlocked");
  CHECK(messages > 0);
  CHECK(messages <= diverted);
  CHECK(messages <= 12);
  CHECK(test::get<std::uint64_t>(r, "hta.absorbed") > 0);
  CHECK(test::get<std::uint64_t>(r, "hta.reinjected") == diverted);
  CHECK(test::get<std::uint64_t>(r, "flits.in_flight") == 0);
  // Per router, in order: a diversion exactly 16 cycles after its header blocked; a
  // re-injection no sooner than 50 cycles after the message was whole in the queue, and at
  // once when nothing holds it back.
  std::uint64_t diversions = 0, prompt_reinjections = 0;
  for (const std::vector<RecoveryEvent>& log : ring.log) {
    for (std::size_t e = 0; e < log.size(); ++e) {
      const RecoveryEvent& ev = log[e];
      if (ev.what != What::diverted && ev.what != What::reinjecting) continue;
      const What before = ev.what == What::diverted ? What::blocked : What::queued;
      std::size_t b = e;
      while (b > 0 && !(log[b - 1].what == before && log[b - 1].packet == ev.packet)) --b;
      REQUIRE(b > 0);
      if (ev.what == What::diverted) {
        CHECK(ev.cycle - log[b - 1].cycle == 16);
        ++diversions;
      } else {
        CHECK(ev.cycle - log[b - 1].cycle >= 50);
        prompt_reinjections += ev.cycle - log[b - 1].cycle == 50;
      }
    }
  }
  CHECK(diversions == diverted);
  CHECK(prompt_reinjections > 0);
  // hta.potentially_deadlocked: the distinct messages among them.
  std::set<PacketId> distinct;
  for (const std::vector<RecoveryEvent>& log : ring.log)
    for (const RecoveryEvent& ev : log)
      if (ev.what == What::diverted) distinct.insert(ev.packet);
  CHECK(distinct.size() == messages);
}

TEST_CASE("hta deadlock recovery: without it (timeout 2^30) the same ring deadlocks", "[hta]") {
  const Ring ring = ring_of_multicasts(1u << 30);
  CHECK(ring.out.status == RunStatus::deadlock);
}

// One multicast message of 4 data flits from node 0 of a 4x4 mesh (wormhole, H = 3) to `dsts`
// by a unicast scheme; the run ends when its last copy is in, every copy verified.
RunOutcome one_unicast_multicast(const std::string& scheme, std::vector<NodeId> dsts) {
  auto sys = test::build("mesh", {4, 4}, SystemParams{});
  TrafficParams t = multicast_traffic(0.0, 1.0, 4, 1, 1);
  t.multicast_scheme = scheme;
  sys->attach_traffic(t, 1);
  const std::size_t copies = dsts.size();
  sys->ni(0).queue_synthetic(SyntheticSource::Packet{dsts[0], 4, std::move(dsts)}, 0);
  RunOutcome out = run_placed(*sys);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(test::get<std::uint64_t>(out.report, "multicast.messages_delivered") == 1);
  CHECK(test::get<std::uint64_t>(out.report, "multicast.copies_verified") == copies);
  return out;
}

// Software multicast (the baseline): one unicast per destination, queued one after the other;
// the message's latency is its last unicast's. From node 0 of a 4x4 mesh (wormhole, H = 3) to
// nodes 1, 5, 15 (1, 2 and 6 hops), 4 data flits each: unicast j leaves the NI 4j cycles after
// the first and takes the zero-load latency of its hops (noc/zero_load.hpp): 10, 4 + 13,
// 8 + 25 = 33.
TEST_CASE("software multicast: one unicast per destination, the message ends with the last",
          "[hta]") {
  const RunOutcome out = one_unicast_multicast("software", {1, 5, 15});
  const Report& r = out.report;
  CHECK(test::get<std::uint64_t>(r, "packets.delivered") == 3);
  ZeroLoadInputs last{6, 4, 3, 1};
  CHECK(test::get<double>(r, "multicast.latency_cycles.max") ==
        static_cast<double>(8 + zero_load_latency(last)));
}

TEST_CASE("software multicast traffic: half multicast on an 8x8 mesh, every copy verified",
          "[hta]") {
  auto sys = test::build("mesh", {8, 8}, SystemParams{});
  TrafficParams t = multicast_traffic(0.05, 0.5, 4, 8, 32);
  t.multicast_scheme = "software";
  const RunOutcome out = test::run_traffic(*sys, t, 1000, 5000);
  test::require_conserved(out);
  const Report& r = out.report;
  const auto copies = test::get<std::uint64_t>(r, "multicast.copies_delivered");
  CHECK(copies > 1000);
  CHECK(test::get<std::uint64_t>(r, "multicast.copies_verified") == copies);
  CHECK(test::get<std::uint64_t>(r, "multicast.messages_delivered") > 50);
  CHECK(test::get<double>(r, "multicast.latency_cycles.mean") >
        test::get<double>(r, "unicast.latency_cycles.mean"));
}

// Column-path multicast (the second baseline): a path per column (per direction on a mesh),
// in order of distance from the source's row.
TEST_CASE("column-path multicast: destinations grouped by column, each path in order", "[hta]") {
  // 4x4 mesh, node = 4y + x; from node 5 (1, 1).
  const KaryNCube mesh({4, 4}, false);
  const ColumnPaths mesh_paths(mesh);
  CHECK(mesh_paths.paths(5, {13, 2, 1, 9, 14, 6, 10}) ==
        std::vector<std::vector<NodeId>>{{9, 13}, {1}, {6, 10, 14}, {2}});
  // The source's row starts the + path; below it, a path of its own.
  CHECK(mesh_paths.paths(5, {4, 0, 12, 8}) ==
        std::vector<std::vector<NodeId>>{{4, 8, 12}, {0}});
  // 4x4 unidirectional torus: one path a column, round in the + direction.
  const KaryNCube ring({4, 4}, true, 1, 1);
  CHECK(ColumnPaths(ring).paths(9, {1, 5, 13, 3}) ==
        std::vector<std::vector<NodeId>>{{13, 1, 5}, {3}});
  // Bidirectional torus: each the shorter way.
  const KaryNCube torus({4, 4}, true);
  CHECK(ColumnPaths(torus).paths(0, {4, 12, 8}) ==
        std::vector<std::vector<NodeId>>{{4, 8}, {12}});
}

// From node 0 of a 4x4 mesh (wormhole, H = 3) to 4, 8, 12 (column 0) and 1 (column 1), 4 data
// flits: 0 -> 4 leaves first and 0 -> 1 four cycles later; 4 forwards to 8 the cycle after its
// copy is in, 8 to 12 likewise: 3 one-hop unicasts and 2 forwarding cycles.
TEST_CASE("column-path multicast: absorb and forward along the column at the zero-load latency",
          "[hta]") {
  const RunOutcome out = one_unicast_multicast("column_path", {4, 8, 12, 1});
  const Report& r = out.report;
  CHECK(test::get<std::uint64_t>(r, "packets.delivered") == 4);
  CHECK(test::get<std::uint64_t>(r, "multicast.copies_forwarded") == 2);
  const Cycle one_hop = zero_load_latency(ZeroLoadInputs{1, 4, 3, 1});
  CHECK(test::get<double>(r, "multicast.latency_cycles.max") ==
        static_cast<double>(3 * one_hop + 2));
}

TEST_CASE("column-path multicast traffic: SPEC 5's torus, half multicast, every copy verified",
          "[hta]") {
  PlatformParams p = hta_params({8, 8}, 6, 96);
  p.system.router.vc_classes = 1;  // (the multicast VCs go to unicast)
  p.system.router.hta.enabled = false;
  auto sys = make_platform(p);
  TrafficParams t = multicast_traffic(0.01, 0.5, 16, 8, 32);
  t.multicast_scheme = "column_path";
  const RunOutcome out = test::run_traffic(*sys, t, 1000, 5000);
  test::require_conserved(out);
  const Report& r = out.report;
  const auto copies = test::get<std::uint64_t>(r, "multicast.copies_delivered");
  const auto forwarded = test::get<std::uint64_t>(r, "multicast.copies_forwarded");
  CHECK(copies > 1000);
  CHECK(test::get<std::uint64_t>(r, "multicast.copies_verified") == copies);
  // 8..32 destinations over 8 columns: most copies come from a forwarding destination.
  CHECK(forwarded > copies / 3);
  CHECK(forwarded < copies);
  CHECK(test::get<std::uint64_t>(r, "multicast.messages_delivered") > 50);
}

// Sink channels (ni.sink_channels): node 5 of a 4x4 mesh (wormhole, H = 3) receives an 8-flit
// packet from each of its 3 neighbours 4, 6 and 9 (1 hop) at cycle 0. With 3 sink channels
// each packet has an ejection channel of its own: all 3 at the 1-hop zero-load latency. With
// one, the 24 flits share it, one a cycle: the last tail is in 16 cycles later.
RunOutcome three_into_one(unsigned sink_channels) {
  SystemParams sp;
  sp.ni.sink_channels = sink_channels;
  auto sys = test::build("mesh", {4, 4}, sp);
  sys->attach_traffic(multicast_traffic(0.0, 0.0, 8, 1, 1), 1);
  for (NodeId src : {4u, 6u, 9u}) sys->ni(src).queue_synthetic(SyntheticSource::Packet{5, 8, {}}, 0);
  return run_placed(*sys);
}

TEST_CASE("sink channels: three packets into one node, a channel each", "[hta]") {
  const RunOutcome out = three_into_one(3);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  const Cycle one_hop = zero_load_latency(ZeroLoadInputs{1, 8, 3, 1});
  CHECK(test::get<std::uint64_t>(out.report, "packets.delivered") == 3);
  CHECK(test::get<double>(out.report, "latency_cycles.max") == static_cast<double>(one_hop));
  CHECK(test::get<double>(out.report, "latency_cycles.mean") == static_cast<double>(one_hop));
}

TEST_CASE("sink channels: one channel serializes the same three packets", "[hta]") {
  const RunOutcome out = three_into_one(1);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  const Cycle one_hop = zero_load_latency(ZeroLoadInputs{1, 8, 3, 1});
  CHECK(test::get<std::uint64_t>(out.report, "packets.delivered") == 3);
  CHECK(test::get<double>(out.report, "latency_cycles.max") == static_cast<double>(one_hop + 16));
}

TEST_CASE("sink channels: hardware multicast copies take any of a node's channels", "[hta]") {
  PlatformParams p = hta_params({8, 8}, 6, 96);
  p.system.ni.sink_channels = 12;
  auto sys = make_platform(p);
  const RunOutcome out =
      test::run_traffic(*sys, multicast_traffic(0.04, 0.5, 16, 8, 32), 1000, 5000);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);  // (flit conservation with copies: the run checks it)
  const auto copies = test::get<std::uint64_t>(out.report, "multicast.copies_delivered");
  CHECK(copies > 1000);
  CHECK(test::get<std::uint64_t>(out.report, "multicast.copies_verified") == copies);
  // Some node took copies on several channels at once: more than one a cycle.
  CHECK(test::get<std::uint64_t>(out.report, "ni.max_flits_ejected_per_cycle") > 1);
}

// ---------------------------------------------------------------- firmware (MessageLayer)

// Core 0 multicasts `first` to `dsts` (kind 2, tag 9) at cycle 0; then, from cycle 200, sends
// `later` unicasts and multicasts of its own (each to the ranks listed), one after the other.
// Every other core takes what it expects with recv_any and keeps it.
struct Outgoing {
  std::vector<NodeId> dsts;  // one: a unicast (send)
  Words words;
  std::uint8_t kind;
  std::uint32_t tag;
};

class MulticastProbe : public Firmware {
 public:
  MulticastProbe(unsigned cores, std::vector<Outgoing> out) : out_(std::move(out)), got_(cores) {}
  void run(MessageLayer& ml) override {
    const NodeId me = ml.rank();
    if (me == 0) {
      for (std::size_t i = 0; i < out_.size(); ++i) {
        if (i == 1) ml.compute(200);  // the first one alone in the network
        SendOptions opt;
        opt.kind = out_[i].kind;
        opt.tag = out_[i].tag;
        if (out_[i].dsts.size() == 1 && i > 0) ml.send(out_[i].dsts[0], out_[i].words, opt);
        else ml.multicast(out_[i].dsts, out_[i].words, opt);
      }
      return;
    }
    std::size_t expected = 0;
    for (const Outgoing& o : out_)
      expected += std::count(o.dsts.begin(), o.dsts.end(), me);
    for (std::size_t i = 0; i < expected; ++i) got_[me].push_back(ml.recv_any());
  }
  void report(Report&) const override {}
  bool data_verified() const override { return true; }
  const std::vector<Message>& got(NodeId n) const { return got_[n]; }

 private:
  std::vector<Outgoing> out_;
  std::vector<std::vector<Message>> got_;
};

Words probe_words(unsigned n, std::uint32_t salt) {
  Words w(n);
  for (unsigned i = 0; i < n; ++i) w[i] = salt * 0x9e3779b9u + i * 0x85ebca6bu;
  return w;
}

// The chain of "Zero-load latency" (docs/hta.md) from a core: 32 words are 8 data flits of
// 128 bits. The core hands the message to its NI in cycle 0, which sends the first header in
// cycle 1 (ni.send_overhead_cycles): everything is one cycle later than from a synthetic
// source, so node r's copy is in its NI at 17 + 1, 20 + 1, 23 + 1 and available to its core a
// cycle later (the delivery register): 19, 22, 25 cycles after the send. The later messages
// arrive in the order sent, with the kind and tag they were sent with.
TEST_CASE("hta firmware: multicast() delivers the core's words to each destination at the "
          "zero-load latency, in order with its sends",
          "[hta]") {
  auto sys = hta_torus(4, HeaderTiming::delayed);
  const Words a = probe_words(32, 1), b = probe_words(5, 2), c = probe_words(7, 3);
  MulticastProbe fw(16, {{{1, 2, 3}, a, 2, 9}, {{3}, b, 1, 5}, {{3, 2}, c, 3, 11}});
  const RunOutcome out = test::run_firmware(*sys, fw);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  const Cycle zero_load[] = {0, 19, 22, 25};
  for (NodeId n = 1; n <= 3; ++n) {
    INFO("node " << n);
    const Message& m = fw.got(n).at(0);
    CHECK(m.src == 0);
    CHECK(m.words == a);
    CHECK(m.kind == 2);
    CHECK(m.tag == 9);
    CHECK(m.sent_cycle == 0);
    CHECK(m.arrival_cycle - m.sent_cycle == zero_load[n]);
  }
  REQUIRE(fw.got(2).size() == 2);
  CHECK(fw.got(2)[1].words == c);
  REQUIRE(fw.got(3).size() == 3);
  CHECK((fw.got(3)[1].words == b && fw.got(3)[1].kind == 1 && fw.got(3)[1].tag == 5));
  CHECK((fw.got(3)[2].words == c && fw.got(3)[2].kind == 3 && fw.got(3)[2].tag == 11));
  const Report& r = out.report;
  CHECK(test::get<std::uint64_t>(r, "multicast.messages_delivered") == 2);
  CHECK(test::get<std::uint64_t>(r, "multicast.copies_delivered") == 5);
  CHECK(test::get<std::uint64_t>(r, "multicast.copies_verified") == 5);
  CHECK(test::get<std::uint64_t>(r, "messages.delivered") == 6);
}

// A VC of 8 flits and 5 destinations leave 3 data flits a packet: 40 words (10 flits) go as 4
// packets, each with its 5 headers, and arrive whole at every destination.
TEST_CASE("hta firmware: a multicast longer than a VC holds is cut into packets that each "
          "carry every header",
          "[hta]") {
  PlatformParams p = hta_params({4, 4}, 6, 16);
  p.system.router.buffer_flits = 8;
  p.system.ni.max_packet_flits = 8;
  auto sys = make_platform(p);
  const Words a = probe_words(40, 4);
  MulticastProbe fw(16, {{{5, 10, 15, 3, 12}, a, 0, 0}});
  const RunOutcome out = test::run_firmware(*sys, fw);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  for (NodeId n : {5, 10, 15, 3, 12}) {
    INFO("node " << n);
    REQUIRE(fw.got(n).size() == 1);
    CHECK(fw.got(n)[0].words == a);
  }
  const Report& r = out.report;
  CHECK(test::get<std::uint64_t>(r, "packets.injected") == 4);
  CHECK(test::get<std::uint64_t>(r, "hta.headers_consumed") == 4 * 5);
  CHECK(test::get<std::uint64_t>(r, "multicast.copies_verified") == 4 * 5);
  CHECK(test::get<std::uint64_t>(r, "flits.injected") == 4 * 5 + 10);
}

TEST_CASE("hta firmware: multicast() without HTA routers is a firmware fault that says why",
          "[hta]") {
  auto sys = test::build("mesh", {4, 4}, SystemParams{});
  MulticastProbe fw(16, {{{1, 2}, probe_words(4, 5), 0, 0}});
  const RunOutcome out = test::run_firmware(*sys, fw);
  CHECK(out.status == RunStatus::firmware_fault);
  CHECK_THAT(out.diagnosis, Catch::Contains("core 0: multicast: the network has no HTA routers"));
}

TEST_CASE("hta firmware: a multicast to more ranks than a VC holds headers is a firmware fault",
          "[hta]") {
  PlatformParams p = hta_params({4, 4}, 6, 4);
  p.system.ni.max_packet_flits = 4;
  auto sys = make_platform(p);
  MulticastProbe fw(16, {{{1, 2, 3, 4}, probe_words(4, 6), 0, 0}});
  const RunOutcome out = test::run_firmware(*sys, fw);
  CHECK(out.status == RunStatus::firmware_fault);
  CHECK_THAT(out.diagnosis, Catch::Contains("multicast to 4 ranks: a multicast VC holds 4 flits, "
                                            "so at most 3 headers beside a data flit"));
}

}  // namespace
}  // namespace collnoc
