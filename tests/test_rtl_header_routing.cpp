// The pin-level header-routing unit (rtl_models/header_routing_rtl.hpp) against its functional
// twin HeaderRouting::route (noc/routing/header_routing.hpp): every decision bit-exact (action
// and port), each on the pins exactly kPipelineDepth = 2 cycles after the header was taken (or
// the cycle after the decision ahead left, under a stall), none lost or duplicated under random
// input gaps and output stalls, reset emptying the pipeline, and the VCD carrying every signal of
// rtl_models/header_routing_rtl.gtkw. Same testbench as tests/test_rtl_codecs.cpp (StreamBench in
// rtl_support.hpp); one simulation per TEST_CASE.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <systemc>
#include <vector>

#include "noc/routing/header_routing.hpp"
#include "noc/topology/kary_ncube.hpp"
#include "noc/types.hpp"
#include "rtl_support.hpp"
#include "rtl_models/header_routing_rtl.hpp"

using namespace collnoc;
using namespace collnoc::test;

namespace {

using Request = HeaderRoutingDatapath::Request;  // one header: the input pins
using Decision = HeaderRoutingDatapath::Decision;

// A network, with KaryNCube's arguments.
struct Net {
  std::vector<unsigned> k;
  bool torus = true;
  unsigned endpoints_per_router = 1;
  unsigned directions = 2;
  KaryNCube topology() const { return KaryNCube(k, torus, endpoints_per_router, directions); }
};

const char* action_name(unsigned action) {
  return action == HeaderRoutingDatapath::kForward   ? "forward"
         : action == HeaderRoutingDatapath::kConsume ? "consume"
                                                     : "blocked";
}

std::string describe(const Request& x) {
  return "router " + std::to_string(x.router) + " dst " + std::to_string(x.dst) + " allocated " +
         hex(x.allocated) + " free " + hex(x.free) + " random " + hex(x.random);
}

// How often each rule decided, to show that the stimuli reach every one.
struct Coverage {
  std::size_t forward_allocated = 0, forward_free = 0, consume = 0, blocked_here = 0,
              blocked = 0, random_mattered = 0;
};

// The functional decision as the unit's pins carry it; counts which rule made it.
Decision reference(const HeaderRouting& routing, const Request& x, Coverage& seen) {
  const HeaderRoutingInput in{x.router, x.dst, x.allocated, x.free, x.random};
  const HeaderDecision want = routing.route(in);
  const Decision d{static_cast<unsigned>(want.action), want.port};
  if (want.action == HeaderDecision::Action::consume) ++seen.consume;
  if (want.action == HeaderDecision::Action::forward)
    ++((x.allocated >> want.port) & 1u ? seen.forward_allocated : seen.forward_free);
  if (want.action == HeaderDecision::Action::blocked) {
    // At its own router (every channel free would consume it), or on the way.
    HeaderRoutingInput open = in;
    open.allocated = open.free = ~0ull;
    const bool here = routing.route(open).action == HeaderDecision::Action::consume;
    ++(here ? seen.blocked_here : seen.blocked);
  }
  HeaderRoutingInput other = in;
  other.random = 0;
  const HeaderDecision alt = routing.route(other);
  if (alt.action != want.action || alt.port != want.port) ++seen.random_mattered;
  return d;
}

std::string mismatch(const Request& x, const Decision& got, const Decision& want) {
  if (got == want) return {};
  return describe(x) + ": " + action_name(got.action) + " port " + std::to_string(got.port) +
         ", HeaderRouting " + action_name(want.action) + " port " + std::to_string(want.port);
}

// Each rule must have decided at least `min` of the headers; the tie-break bits too, where
// dimensions can tie (two or more).
void check_coverage(const Coverage& seen, std::size_t min, const Net& net) {
  CHECK(seen.forward_allocated >= min);
  CHECK(seen.forward_free >= min);
  CHECK(seen.consume >= min);
  CHECK(seen.blocked_here >= min / 4);
  CHECK(seen.blocked >= min);
  if (net.k.size() > 1) CHECK(seen.random_mattered >= min);
}

// ---------------------------------------------------------------- the block under test

// The unit's data pins, with HeaderRouting on the same network beside it: every decision the
// unit hands out must be HeaderRouting::route of the header it took.
struct HeaderRoutingSide : BlockSide<HeaderRoutingRtl> {
  sc_signal<sc_uint<24>> in_router{"in_router"};
  sc_signal<sc_uint<32>> in_dst{"in_dst"};
  sc_signal<sc_uint<64>> in_allocated{"in_allocated"}, in_free{"in_free"};
  sc_signal<sc_uint<32>> in_random{"in_random"};
  sc_signal<sc_uint<2>> out_action{"out_action"};
  sc_signal<sc_uint<6>> out_port{"out_port"};
  KaryNCube topology;
  HeaderRouting routing;  // the functional twin
  Coverage seen;

  explicit HeaderRoutingSide(const Net& net)
      : BlockSide("hr", net.k, net.torus, net.endpoints_per_router, net.directions),
        topology(net.topology()), routing(topology) {
    block.in_router(in_router), block.in_dst(in_dst), block.in_allocated(in_allocated);
    block.in_free(in_free), block.in_random(in_random);
    block.out_action(out_action), block.out_port(out_port);
  }
  void drive(const Request& x) {
    in_router.write(x.router);
    in_dst.write(x.dst);
    in_allocated.write(x.allocated);
    in_free.write(x.free);
    in_random.write(x.random);
  }
  Decision sample() const { return {out_action.read().to_uint(), out_port.read().to_uint()}; }
  std::string check(const Request& in, const Decision& out) {
    return mismatch(in, out, reference(routing, in, seen));
  }
};

// ---------------------------------------------------------------- stimuli

// Random headers on `topology`: random routers; a destination at the router's own node one time
// in six, else anywhere; masks from empty to full (bits above the ports too, which the unit must
// ignore), the allocated one sparser than the free one; random tie-break bits.
std::vector<Request> requests(const KaryNCube& topology, std::size_t count, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<Request> items;
  while (items.size() < count) {
    Request x;
    x.router = static_cast<std::uint32_t>(rng() % topology.num_routers());
    x.dst = rng() % 6 == 0
                ? topology.endpoint_at(x.router, rng() % topology.endpoints_per_router())
                : static_cast<std::uint32_t>(rng() % topology.num_endpoints());
    switch (rng() % 8) {
      case 0: x.allocated = 0, x.free = 0; break;                  // nothing takes it
      case 1: x.allocated = 0, x.free = ~0ull; break;              // every VC free
      case 2: x.allocated = rng() & rng(), x.free = 0; break;      // only allocated channels
      default: x.allocated = rng() & rng() & rng(), x.free = rng() & rng(); break;
    }
    x.random = static_cast<std::uint32_t>(rng());
    items.push_back(x);
  }
  return items;
}

// The stress run of rtl_support.hpp with every decision checked against HeaderRouting, then
// which rules the headers reached.
void run_header_routing_stress(const Net& net, std::size_t headers, unsigned seed) {
  const auto tb = run_stress<HeaderRoutingSide>(requests(net.topology(), headers, seed), seed, net);
  CHECK(tb->side.block.pipeline_depth() == HeaderRoutingRtl::kPipelineDepth);
  check_coverage(tb->side.seen, headers / 100, net);
}

}  // namespace

// ---------------------------------------------------------------- combinational parts

// The two stages as functions, without a simulation: every header of the small networks (every
// router, destination and pair of port masks, with tie-break values 0..5, every remainder of a
// run of 2 or 3 tied dimensions, and 2^32 - 1), and random headers on larger ones, up to 8
// dimensions and distances up to 2^19.
TEST_CASE("header routing rtl datapath equals HeaderRouting on every header of small networks") {
  CHECK(HeaderRoutingDatapath::kForward ==
        static_cast<unsigned>(HeaderDecision::Action::forward));
  CHECK(HeaderRoutingDatapath::kConsume ==
        static_cast<unsigned>(HeaderDecision::Action::consume));
  CHECK(HeaderRoutingDatapath::kBlocked ==
        static_cast<unsigned>(HeaderDecision::Action::blocked));
  const std::vector<Net> exhaustive = {{{4, 4}, true, 1, 1}, {{3, 3, 3}, true, 1, 1},
                                       {{3, 4}, false, 1, 2}, {{4, 3}, true, 1, 2},
                                       {{5}, true, 2, 2}};
  for (const Net& net : exhaustive) {
    const KaryNCube topology = net.topology();
    INFO(topology.describe() << ", " << net.endpoints_per_router << " endpoints per router");
    const HeaderRouting routing(topology);
    const HeaderRoutingDatapath unit(net.k, net.torus, net.endpoints_per_router, net.directions);
    const std::uint64_t masks = std::uint64_t{1} << topology.radix();
    Coverage seen;
    for (RouterId r = 0; r < topology.num_routers(); ++r)
      for (NodeId dst = 0; dst < topology.num_endpoints(); ++dst)
        for (std::uint64_t allocated = 0; allocated < masks; ++allocated)
          for (std::uint64_t free = 0; free < masks; ++free)
            for (std::uint32_t random : {0u, 1u, 2u, 3u, 4u, 5u, 0xFFFFFFFFu}) {
              const Request x{r, dst, allocated, free, random};
              const std::string wrong = mismatch(x, unit.route(x), reference(routing, x, seen));
              if (!wrong.empty()) FAIL(wrong);
            }
    check_coverage(seen, 100, net);
  }
  const std::vector<Net> sampled = {{{8, 8}, true, 1, 1},  {{8, 8}, true, 1, 2},
                                    {{8, 8}, false, 4, 2}, {{7, 6, 5}, true, 2, 2},
                                    {{2, 2, 2, 2, 2, 2, 2, 2}, true, 1, 2},
                                    {{3, 3, 3, 3, 3, 3, 3, 3}, true, 1, 1},
                                    {{2, 3, 4, 5, 6}, false, 3, 2}, {{256, 256}, true, 1, 1},
                                    {{1u << 20}, true, 1, 2}};
  for (const Net& net : sampled) {
    const KaryNCube topology = net.topology();
    INFO(topology.describe() << ", " << net.endpoints_per_router << " endpoints per router");
    const HeaderRouting routing(topology);
    const HeaderRoutingDatapath unit(net.k, net.torus, net.endpoints_per_router, net.directions);
    Coverage seen;
    for (const Request& x : requests(topology, 200000, 17)) {
      const std::string wrong = mismatch(x, unit.route(x), reference(routing, x, seen));
      if (!wrong.empty()) FAIL(wrong);
    }
    check_coverage(seen, 100, net);  // (ties are rare on 256x256)
  }
}

// ---------------------------------------------------------------- streams

TEST_CASE("header routing rtl 8x8 unidirectional torus matches HeaderRouting bit and cycle exact") {
  run_header_routing_stress({{8, 8}, true, 1, 1}, 6000, 1);
}
TEST_CASE("header routing rtl 4x4 unidirectional torus matches HeaderRouting bit and cycle exact") {
  run_header_routing_stress({{4, 4}, true, 1, 1}, 6000, 2);
}
TEST_CASE("header routing rtl 8x6 torus matches HeaderRouting bit and cycle exact") {
  run_header_routing_stress({{8, 6}, true, 1, 2}, 6000, 3);
}
TEST_CASE("header routing rtl 6x5 mesh with 2 nodes a router matches HeaderRouting") {
  run_header_routing_stress({{6, 5}, false, 2, 2}, 6000, 4);
}
TEST_CASE("header routing rtl 4x4x4 unidirectional torus matches HeaderRouting") {
  run_header_routing_stress({{4, 4, 4}, true, 1, 1}, 6000, 5);
}
TEST_CASE("header routing rtl 5x4x3 torus matches HeaderRouting bit and cycle exact") {
  run_header_routing_stress({{5, 4, 3}, true, 1, 2}, 6000, 6);
}

TEST_CASE("header routing rtl refuses networks it cannot route in") {
  const auto build = [](std::vector<unsigned> k, bool torus, unsigned endpoints,
                        unsigned directions) {
    return [=] { HeaderRoutingRtl bad("hr_bad", k, torus, endpoints, directions); };
  };
  check_refused(build({}, true, 1, 2), "topology.n", "0");
  check_refused(build({2, 2, 2, 2, 2, 2, 2, 2, 2}, true, 1, 2), "topology.n", "9");
  check_refused(build({8, 1}, true, 1, 2), "topology.k", "1");
  check_refused(build({8, 8}, true, 1, 3), "topology.directions", "3");
  check_refused(build({8, 8}, false, 1, 1), "topology.directions", "1");
  check_refused(build({4096, 4097}, true, 1, 2), "topology.k", "4096x4097");
  check_refused(build({8, 8}, true, 0, 2), "topology.endpoints_per_router", "0");
  check_refused(build({8, 8}, true, 61, 2), "topology.endpoints_per_router", "61");
  check_refused(build({2, 2, 2, 2, 2, 2, 2, 2}, true, 49, 2), "topology.endpoints_per_router",
                "49");
  HeaderRoutingRtl widest("hr_widest", {2, 2, 2, 2, 2, 2, 2, 2}, true, 48, 2);  // 16 + 48 ports
  CHECK(widest.network_ports() == 16);
  HeaderRoutingRtl largest("hr_largest", {4096, 4096}, true, 1, 1);  // 2^24 routers
  CHECK(largest.pipeline_depth() == HeaderRoutingRtl::kPipelineDepth);
}

// ---------------------------------------------------------------- waves

// A short traced run (40 headers on a 4x4 torus with 2 nodes a router: gaps, stalls, a reset)
// to $COLLNOC_RTL_WAVES_DIR or ./rtl_waves/header_routing_rtl.vcd next to a copy of the save
// file; the dump must hold exactly the signals rtl_models/header_routing_rtl.gtkw names, each
// changing.
TEST_CASE("header routing rtl vcd holds the signals of its gtkw") {
  const Net net{{4, 4}, true, 2, 2};
  run_traced<HeaderRoutingSide>("header_routing_rtl", requests(net.topology(), 40, 12), net);
}
