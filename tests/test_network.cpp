// Whole networks under load: deadlock freedom, the watchdog, conservation, contention counters,
// determinism, and the activity-driven evaluation against evaluating every block every cycle.
#include <catch2/catch.hpp>

#include "noc/routing/adaptive.hpp"
#include "support.hpp"
#include "noc/topology/kary_ncube.hpp"

using namespace collnoc;

namespace {

using test::get;
using test::require_conserved;

// Two systems that ran the same traffic to cycle `now` hold the same results, bit for bit.
// Returns the flits delivered.
std::uint64_t require_same_results(const NocSystem& a, const NocSystem& b, Cycle now) {
  const NodeId nodes = static_cast<NodeId>(a.num_nis());
  std::uint64_t delivered = 0;
  for (NodeId n = 0; n < nodes; ++n) {
    const PacketizerCounters& ta = a.ni(n).packetizer().counters();
    const PacketizerCounters& tb = b.ni(n).packetizer().counters();
    const ReassemblerCounters& ra = a.ni(n).reassembler().counters();
    const ReassemblerCounters& rb = b.ni(n).reassembler().counters();
    INFO("node " << n);
    REQUIRE(ta.flits_injected == tb.flits_injected);
    REQUIRE(ra.flits_delivered == rb.flits_delivered);
    REQUIRE(ta.packets_created == tb.packets_created);
    REQUIRE(ra.measured_hops == rb.measured_hops);
    REQUIRE(a.ni(n).reassembler().latency_samples() == b.ni(n).reassembler().latency_samples());
    REQUIRE(ta.source_queue_packet_cycles == tb.source_queue_packet_cycles);
    delivered += ra.flits_delivered;
  }
  for (RouterId r = 0; r < a.num_routers(); ++r) {
    INFO("router " << r);
    REQUIRE(a.router(r).max_buffered_flits() == b.router(r).max_buffered_flits());
    REQUIRE(a.router(r).occupancy_flit_cycles(now) == b.router(r).occupancy_flit_cycles(now));
    for (unsigned p = 0; p < a.router(r).ports(); ++p) {
      REQUIRE(a.router(r).output_counters(p).flits == b.router(r).output_counters(p).flits);
      REQUIRE(a.router(r).output_counters(p).contention_events ==
              b.router(r).output_counters(p).contention_events);
    }
  }
  CHECK(a.flits_in_network() == b.flits_in_network());
  CHECK(a.context().total_flit_moves() == b.context().total_flit_moves());
  return delivered;
}

}  // namespace

namespace {
// Buffers keep a flit's payload words apart from its sidebands, the flit width apart: at the
// narrowest and the widest flits every synthetic word still arrives as sent (the destination
// NIs check each one; an altered word makes the run a data error), through routers that pass
// flits on in the cycle they arrive and through full buffers.
void require_payload_intact(unsigned flit_width_bits) {
  SystemParams sp;
  sp.ni.flit_width_bits = flit_width_bits;
  sp.router.vcs = 2;
  sp.router.buffer_flits = 3;
  auto sys = test::build("mesh", {4, 4}, sp);
  TrafficParams tp;
  tp.injection_rate = 0.5;  // past saturation: full buffers, flits waiting in every slot
  tp.packet_flits = 5;
  RunOutcome out = test::run_traffic(*sys, tp, 200, 2000, 6000);
  require_conserved(out);
  CHECK(get<std::uint64_t>(out.report, "flits.delivered") > 10000);
}
}  // namespace

TEST_CASE("payload words arrive intact with 32-bit flits", "[network]") {
  require_payload_intact(32);
}

TEST_CASE("payload words arrive intact with 256-bit flits", "[network]") {
  require_payload_intact(256);
}

TEST_CASE("torus with dimension-order routing survives saturation without deadlock", "[network]") {
  SystemParams sp;
  sp.router.vcs = 2;
  sp.router.buffer_flits = 2;
  auto sys = test::build("torus", {6, 6}, sp);
  TrafficParams tp;
  tp.pattern = "tornado";  // every packet wants the wrap-around links
  tp.injection_rate = 0.9;
  tp.packet_flits = 6;
  RunOutcome out = test::run_traffic(*sys, tp, 1000, 5000, 8000);
  require_conserved(out);
  CHECK(get<double>(out.report, "throughput.accepted_flits_per_node_cycle") > 0.05);
}

namespace {
// A 6x6 unidirectional torus far past saturation (every ring full).
void unidirectional_torus_at_saturation(const char* routing,
                                        DimensionOrder order = DimensionOrder::increasing) {
  PlatformParams p;
  p.topology.kind = "torus";
  p.topology.k = {6, 6};
  p.topology.directions = 1;
  p.system.routing = routing;
  p.system.routing_params.dimension_order = order;
  p.system.router.vcs = 4;
  p.system.router.buffer_flits = 4;
  auto sys = make_platform(p);
  TrafficParams tp;
  tp.injection_rate = 0.9;
  tp.packet_flits = 6;
  RunOutcome out = test::run_traffic(*sys, tp, 1000, 5000, 8000);
  require_conserved(out);
  CHECK(get<double>(out.report, "throughput.accepted_flits_per_node_cycle") > 0.05);
}
}  // namespace

TEST_CASE("unidirectional torus: dimension order survives saturation", "[network]") {
  unidirectional_torus_at_saturation("dor");
}
TEST_CASE("unidirectional torus: adaptive routing survives saturation", "[network]") {
  unidirectional_torus_at_saturation("adaptive");
}
// SPEC 5's unicast routing: escape channels in decreasing dimension order.
TEST_CASE("unidirectional torus: adaptive routing with a decreasing-order escape network "
          "survives saturation", "[network]") {
  unidirectional_torus_at_saturation("adaptive", DimensionOrder::decreasing);
}
TEST_CASE("unidirectional torus: decreasing dimension order survives saturation", "[network]") {
  unidirectional_torus_at_saturation("dor", DimensionOrder::decreasing);
}

TEST_CASE("adaptive routing on a torus survives saturation without deadlock", "[network]") {
  SystemParams sp;
  sp.routing = "adaptive";
  sp.router.vcs = 3;
  sp.router.buffer_flits = 3;
  auto sys = test::build("torus", {5, 5}, sp);
  TrafficParams tp;
  tp.injection_rate = 0.8;
  tp.packet_flits = 5;
  RunOutcome out = test::run_traffic(*sys, tp, 1000, 5000, 8000);
  require_conserved(out);
}

TEST_CASE("adaptive routing on a mesh delivers everything at moderate load", "[network]") {
  SystemParams sp;
  sp.routing = "adaptive";
  sp.router.switching = Switching::virtual_cut_through;
  sp.router.buffer_flits = 8;
  auto sys = test::build("mesh", {6, 6}, sp);
  TrafficParams tp;
  tp.pattern = "transpose";
  tp.injection_rate = 0.2;
  tp.packet_flits = 4;
  RunOutcome out = test::run_traffic(*sys, tp, 1000, 4000);
  require_conserved(out);
  CHECK(get<bool>(out.report, "sim.completed"));
  CHECK(get<std::uint64_t>(out.report, "packets.measured_delivered") ==
        get<std::uint64_t>(out.report, "packets.measured"));
}

namespace {
// Minimal adaptive routing whose adaptive VCs are offered to the next packet as soon as the
// last one's tail has left (what routers did before router.vc_realloc): the rule's control.
class AdaptiveReallocatedAtTail : public MinimalAdaptiveRouting {
 public:
  using MinimalAdaptiveRouting::MinimalAdaptiveRouting;
  std::uint32_t adaptive_vcs() const override { return 0; }
};

RunOutcome adaptive_8x8_at(double rate, bool reallocate_at_tail) {
  SystemParams sp;  // 4 VCs x 4 flits, wormhole, 4-flit packets
  auto topo = std::make_unique<KaryNCube>(std::vector<unsigned>{8, 8}, false);
  std::unique_ptr<RoutingFunction> routing;
  if (reallocate_at_tail) routing = std::make_unique<AdaptiveReallocatedAtTail>(*topo, sp.router.vcs);
  else routing = make_routing("adaptive", *topo, sp.router.vcs);
  NocSystem sys("system", std::move(topo), sp, std::move(routing));
  TrafficParams tp;
  tp.injection_rate = rate;
  return test::run_traffic(sys, tp, 0, 20000, 20000);
}
}  // namespace

// Heads given an adaptive VC that still holds another packet's tail can no longer turn to the
// escape channel, and wait on each other in a cycle (docs/routing.md).
TEST_CASE("adaptive routing deadlocks when adaptive VCs are reallocated before they are empty",
          "[network]") {
  RunOutcome out = adaptive_8x8_at(0.4, true);
  REQUIRE(out.status == RunStatus::deadlock);
  CHECK(out.diagnosis.find("credits 0") != std::string::npos);
}

TEST_CASE("adaptive routing with adaptive VCs reallocated when empty runs past saturation",
          "[network]") {
  RunOutcome out = adaptive_8x8_at(0.4, false);
  test::require_conserved(out);
  CHECK(get<std::uint64_t>(out.report, "sim.cycles") == 20000);
  // Saturated (about 0.3 flits/node/cycle accepted) and still moving at the end.
  CHECK(get<double>(out.report, "throughput.accepted_flits_per_node_cycle") > 0.25);
  CHECK(get<std::uint64_t>(out.report, "sim.stalled_cycles") == 0);
}

TEST_CASE("hop counts follow dimension-order distances", "[network]") {
  SystemParams sp;
  auto sys = test::build("mesh", {8, 8}, sp);
  TrafficParams tp;
  tp.pattern = "bit_complement";  // (x,y) -> (7-x, 7-y): |7-2x| + |7-2y| hops
  tp.injection_rate = 0.02;
  RunOutcome out = test::run_traffic(*sys, tp, 500, 5000);
  require_conserved(out);
  // Mean over all sources of |7-2x| + |7-2y| = 2 * mean|7-2x| = 2 * 4 = 8.
  CHECK(get<double>(out.report, "hops.mean") == Approx(8.0).epsilon(0.03));
}

TEST_CASE("the watchdog ends a deadlocked run and names the blocked buffers", "[network]") {
  // A ring where every packet goes the same way on any VC: a cyclic channel dependency.
  class AlwaysPlus : public RoutingFunction {
   public:
    explicit AlwaysPlus(const KaryNCube& t) : t_(t) {}
    void route(const RouteRequest& req, RouteResult& out) const override {
      if (t_.router_of(req.dst) == req.router) out.add(t_.local_port_of(req.dst), 0, 1);
      else out.add(t_.plus_port(0), 0, 1);
    }

   private:
    const KaryNCube& t_;
  };
  auto topo = std::make_unique<KaryNCube>(std::vector<unsigned>{4}, true);
  auto routing = std::make_unique<AlwaysPlus>(*topo);
  SystemParams sp;
  sp.router.vcs = 1;
  sp.router.buffer_flits = 2;
  NocSystem sys("system", std::move(topo), sp, std::move(routing));
  TrafficParams tp;
  tp.pattern = "uniform";  // long packets at full load
  tp.injection_rate = 1.0;
  tp.packet_flits = 8;
  RunOutcome out = test::run_traffic(sys, tp, 0, 100000, 100000, /*watchdog_cycles=*/500);
  REQUIRE(out.status == RunStatus::deadlock);
  CHECK(out.diagnosis.find("no flit moved") != std::string::npos);
  CHECK(out.diagnosis.find("router") != std::string::npos);
  CHECK(get<std::uint64_t>(out.report, "sim.cycles") < 100000);
  // Even a deadlocked run accounts for every flit.
  CHECK(get<std::uint64_t>(out.report, "flits.injected") ==
        get<std::uint64_t>(out.report, "flits.delivered") +
            get<std::uint64_t>(out.report, "flits.in_flight"));
}

TEST_CASE("contention: disjoint flows have none and flows sharing a link do", "[network]") {
  SystemParams sp;
  auto sys = test::build("mesh", {4, 4}, sp);
  // 0 -> 3 and 4 -> 7 use disjoint rows; 8 -> 11 and 9 -> 10 share links of row 2 at once.
  test::ScriptedFirmware fw({{100, 0, 3, 64}, {100, 4, 7, 64}, {2000, 8, 11, 64}, {2000, 9, 10, 64}});
  RunOutcome out = test::run_firmware(*sys, fw);
  REQUIRE(out.status == RunStatus::ok);
  std::uint64_t row0 = 0, row2 = 0;
  for (RouterId r = 0; r < 16; ++r)
    for (unsigned p = 0; p < sys->router(r).ports(); ++p) {
      if (!sys->router(r).output_connected(p)) continue;
      const auto events = sys->router(r).output_counters(p).contention_events;
      (r < 8 ? row0 : row2) += events;
    }
  CHECK(row0 == 0);
  CHECK(row2 >= 1);
}

TEST_CASE("two systems side by side give identical results when one evaluates every cycle",
          "[network]") {
  // Also shows there is no global state: two systems live and run in one process.
  SystemParams lazy, eager;
  eager.activity_driven = false;
  PlatformParams pa, pb;
  pa.topology.k = pb.topology.k = {6, 6};
  pa.system = lazy;
  pb.system = eager;
  NocSystem a("a", make_topology(pa.topology), lazy);
  NocSystem b("b", make_topology(pb.topology), eager);
  TrafficParams tp;
  tp.injection_rate = 0.25;
  tp.pattern = "uniform";
  tp.packet_flits_min = 1;
  tp.packet_flits_max = 6;
  a.attach_traffic(tp, 9);
  b.attach_traffic(tp, 9);
  for (NodeId n = 0; n < 36; ++n) {
    a.ni(n).set_measurement_window(200, 3000);
    b.ni(n).set_measurement_window(200, 3000);
  }
  sc_core::sc_start(a.clock().delay(4000));
  CHECK(require_same_results(a, b, 4000) > 10000);
}

namespace {

// Runs the same traffic on two systems, one evaluating on one thread, the other on two on every
// busy cycle (routers and NIs), and requires identical results. Returns the cycle the last
// measured packet was delivered in (kNever: not yet), the same on both.
Cycle compare_threads(const std::string& kind, unsigned k, SystemParams sp, double rate) {
  PlatformParams p;
  p.topology.kind = kind;
  p.topology.k = {k, k};
  SystemParams one = sp, two = sp;
  one.threads = 1;
  two.threads = 2;
  NocSystem a("a", make_topology(p.topology), one);
  NocSystem b("b", make_topology(p.topology), two);
  b.clock().set_threads(2, 1, true);  // every cycle with a router awake, however fast
  TrafficParams tp;
  tp.injection_rate = rate;
  tp.pattern = "uniform";
  tp.packet_flits_min = 1;
  tp.packet_flits_max = 6;
  a.attach_traffic(tp, 5);
  b.attach_traffic(tp, 5);
  const NodeId nodes = k * k;
  for (NodeId n = 0; n < nodes; ++n) {
    a.ni(n).set_measurement_window(200, 2500);
    b.ni(n).set_measurement_window(200, 2500);
  }
  // The end of the workload (on two threads it is seen after the parallel part of a cycle).
  Cycle done_a = kNever, done_b = kNever;
  a.context().on_workload_done = [&] { done_a = std::min(done_a, a.clock().now()); };
  b.context().on_workload_done = [&] { done_b = std::min(done_b, b.clock().now()); };
  // Both still moving at the end: two deadlocked networks would give identical results too.
  sc_core::sc_start(a.clock().delay(2900));
  const std::uint64_t moves_a = a.context().total_flit_moves();
  const std::uint64_t moves_b = b.context().total_flit_moves();
  sc_core::sc_start(a.clock().delay(100));
  CHECK((a.context().total_flit_moves() > moves_a || a.flits_in_network() == 0));
  CHECK((b.context().total_flit_moves() > moves_b || b.flits_in_network() == 0));
  CHECK(require_same_results(a, b, 3000) > 5000);
  CHECK(done_a == done_b);
  return done_a;
}

}  // namespace

// (One simulation per process: one test case each.)
TEST_CASE("routers and NIs on two threads give the results of one: mesh, wormhole", "[network]") {
  CHECK(compare_threads("mesh", 8, SystemParams{}, 0.3) < 3000);
}

TEST_CASE("routers and NIs on two threads give the results of one: torus, adaptive, 2-cycle links, "
          "every block every cycle", "[network]") {
  SystemParams sp;
  sp.routing = "adaptive";
  sp.router.vcs = 3;
  sp.link.latency_cycles = 2;
  sp.link.credit_latency_cycles = 2;
  sp.activity_driven = false;
  CHECK(compare_threads("torus", 6, sp, 0.5) < 3000);  // every measured packet delivered
}

TEST_CASE("routers and NIs on two threads give the results of one: store-and-forward, light load",
          "[network]") {
  SystemParams sp;
  sp.router.switching = Switching::store_and_forward;
  sp.router.buffer_flits = 6;
  CHECK(compare_threads("mesh", 8, sp, 0.05) < 3000);  // drained: the end was seen
}

TEST_CASE("a random degree-4 graph with Up*/Down* routing runs at saturation without deadlock",
          "[network]") {
  PlatformParams p;
  p.name = "irregular";
  p.topology.kind = "random";
  p.topology.nodes = 32;
  p.topology.degree = 4;
  p.system.routing = "updown";
  p.system.router.vcs = 1;
  p.system.router.buffer_flits = 2;
  auto sys = make_platform(p);
  TrafficParams tp;
  tp.injection_rate = 0.6;
  tp.packet_flits = 6;
  RunOutcome out = test::run_traffic(*sys, tp, 500, 4000, 6000);
  require_conserved(out);
  CHECK(get<double>(out.report, "throughput.accepted_flits_per_node_cycle") > 0.02);
}

// A link's sender writes flits straight into the receiver's buffer: credits beyond its slots
// would overwrite flits, so the wiring refuses them, whichever end is attached first.
TEST_CASE("a link refuses a sender whose credits do not match the receiver's buffer", "[network]") {
  Clock clock("clock", sc_core::sc_time(1, sc_core::SC_NS));
  KaryNCube mesh({2, 2}, /*torus=*/false);  // router 0 port E (0) to router 1 port W (1)
  RouterParams rp;  // 4 VCs x 4 flits
  auto routing = make_routing("dor", mesh, rp.vcs_per_class());
  NetworkContext net;
  Router a("a", clock, 0, mesh.radix(), rp, *routing, net);
  Router b("b", clock, 1, mesh.radix(), rp, *routing, net);
  Link ok("ok"), more("more"), more_first("more_first");
  a.connect_output(0, ok, rp.buffer_flits, /*to_router=*/true);
  CHECK_NOTHROW(b.connect_input(1, ok));
  a.connect_output(0, more, rp.buffer_flits + 1, /*to_router=*/true);
  CHECK_THROWS_WITH(b.connect_input(1, more), Catch::Contains("more") && Catch::Contains("credits"));
  b.connect_input(1, more_first);
  CHECK_THROWS_AS(a.connect_output(0, more_first, 2 * rp.buffer_flits, true), std::logic_error);
}

// The sender copies as many payload words as the receiver's slots hold: a sender holding fewer
// per flit would pass on words that are not its flit's.
TEST_CASE("a link refuses a sender whose flits hold fewer payload words than the receiver's slots",
          "[network]") {
  Clock clock("clock", sc_core::sc_time(1, sc_core::SC_NS));
  KaryNCube mesh({2, 2}, /*torus=*/false);
  RouterParams narrow, wide;
  narrow.flit_words = 2;
  wide.flit_words = 4;
  auto routing = make_routing("dor", mesh, narrow.vcs_per_class());
  NetworkContext net;
  Router a("a", clock, 0, mesh.radix(), narrow, *routing, net);
  Router b("b", clock, 1, mesh.radix(), wide, *routing, net);
  Link to_wide("to_wide"), to_narrow("to_narrow");
  a.connect_output(0, to_wide, narrow.buffer_flits, /*to_router=*/true);
  CHECK_THROWS_WITH(b.connect_input(1, to_wide),
                    Catch::Contains("to_wide") && Catch::Contains("payload words"));
  b.connect_output(1, to_narrow, narrow.buffer_flits, /*to_router=*/true);
  CHECK_NOTHROW(a.connect_input(0, to_narrow));  // wider flits, narrower slots: the words fit
}

namespace {

// sim.steady_state (SPEC 5): the warm-up ends at the first interval's end, at least
// warmup_cycles in, whose accepted throughput is within the tolerance of the interval's before.
RunOutcome steady_run(double tolerance) {
  auto sys = test::build("mesh", {8, 8}, SystemParams{});
  TrafficParams tp;
  tp.injection_rate = 0.2;
  sys->attach_traffic(tp, 1);
  RunParams run;
  run.warmup_cycles = 2000;
  run.measure_cycles = 3000;
  run.steady_state = true;
  run.steady_state_interval_cycles = 500;
  run.steady_state_tolerance = tolerance;
  run.steady_state_max_warmup_cycles = 4000;
  run.progress = false;
  return Simulation(*sys, run, nullptr).run();
}

}  // namespace

TEST_CASE("steady state: the window opens once the throughput has settled", "[network]") {
  const RunOutcome out = steady_run(0.02);
  test::require_conserved(out);
  const auto begin = test::get<std::uint64_t>(out.report, "sim.warmup_end_cycle");
  CHECK(test::get<bool>(out.report, "sim.steady_state_reached"));
  CHECK(begin >= 2000);
  CHECK(begin < 4000);  // an 8x8 mesh at 0.2 settles within a few hundred cycles
  CHECK(begin % 500 == 0);
  CHECK(test::get<std::uint64_t>(out.report, "sim.cycles") >= begin + 3000);
  CHECK(test::get<double>(out.report, "throughput.accepted_flits_per_node_cycle") ==
        Approx(0.2).epsilon(0.05));
}

TEST_CASE("steady state: a throughput that never settles opens the window at the cap",
          "[network]") {
  const RunOutcome out = steady_run(0.0);  // (no two intervals differ by less than 0)
  test::require_conserved(out);
  CHECK_FALSE(test::get<bool>(out.report, "sim.steady_state_reached"));
  CHECK(test::get<std::uint64_t>(out.report, "sim.warmup_end_cycle") == 4000);
  CHECK(test::get<std::uint64_t>(out.report, "packets.measured") > 1000);
}

namespace {

// routing.torus_ties: + and - channel loads of an 8x8 torus under uniform traffic (dor). A
// destination k/2 = 4 away is minimal both ways; always + loads the + channels more.
double plus_over_minus_flits(TorusTies ties) {
  SystemParams sp;
  sp.routing_params.torus_ties = ties;
  auto sys = test::build("torus", {8, 8}, sp);
  TrafficParams tp;
  tp.injection_rate = 0.2;
  const RunOutcome out = test::run_traffic(*sys, tp, 1000, 5000);
  test::require_conserved(out);
  std::uint64_t plus = 0, minus = 0;
  for (RouterId r = 0; r < 64; ++r)
    for (unsigned d = 0; d < 2; ++d) {
      plus += sys->router(r).output_counters(2 * d).flits;
      minus += sys->router(r).output_counters(2 * d + 1).flits;
    }
  return static_cast<double>(plus) / static_cast<double>(minus);
}

}  // namespace

TEST_CASE("torus ties balanced: + and - channels of an 8x8 torus carry the same load",
          "[network]") {
  const double ratio = plus_over_minus_flits(TorusTies::balanced);
  CHECK(ratio > 0.97);
  CHECK(ratio < 1.03);
}

// Along a ring of 8, offsets 1..4 go + and 5..7 go -: 1 + 2 + 3 + 4 = 10 hops against 6.
TEST_CASE("torus ties positive: the + channels carry 10/6 the load (ties always go +)",
          "[network]") {
  const double ratio = plus_over_minus_flits(TorusTies::positive);
  CHECK(ratio > 1.58);
  CHECK(ratio < 1.75);
}

namespace {

// Node 0 sends 40 messages to node 15 of a 4x4 mesh under adaptive routing, one every 50
// cycles (an idle network each time); the flits router 0 sent east and north.
std::pair<std::uint64_t, std::uint64_t> first_hops(const std::string& selection) {
  SystemParams sp;
  sp.routing = "adaptive";
  sp.routing_params.selection = selection;
  auto sys = test::build("mesh", {4, 4}, sp);
  std::vector<test::ScriptedSend> script;
  for (unsigned m = 0; m < 40; ++m) script.push_back({10 + 50 * m, 0, 15, 4});
  test::ScriptedFirmware fw(script);
  RunOutcome out = test::run_firmware(*sys, fw);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(fw.data_verified());
  const auto& mesh = dynamic_cast<const KaryNCube&>(sys->topology());
  return {sys->router(0).output_counters(mesh.plus_port(0)).flits,
          sys->router(0).output_counters(mesh.plus_port(1)).flits};
}

}  // namespace

TEST_CASE("routing.selection = first_free: an idle network always takes the first alternative",
          "[network]") {
  const auto [east, north] = first_hops("first_free");
  CHECK(east == 40);  // (3 hops each way: the tie goes to dimension 0)
  CHECK(north == 0);
}

TEST_CASE("routing.selection = random: the alternatives share the packets", "[network]") {
  const auto [east, north] = first_hops("random");
  CHECK(east + north == 40);
  CHECK(east >= 8);  // binomial(40, 1/2): outside 8..32 once in 10^4
  CHECK(north >= 8);
}
