#include <catch2/catch.hpp>
#include <algorithm>
#include <array>
#include <initializer_list>
#include <map>
#include <set>

#include "noc/router/allocator.hpp"

using namespace collnoc;

namespace {
// Switch requests from (input port, VC, output port) triples, for a router of 4 VCs per port.
SwitchRequests switch_requests(std::initializer_list<std::array<unsigned, 3>> triples) {
  SwitchRequests r;
  for (const auto& [port, vc, out] : triples) {
    if (!(r.ports >> port & 1u)) r.vcs[port] = 0;
    r.ports |= std::uint64_t{1} << port;
    r.vcs[port] |= 1u << vc;
    r.out_port[port * 4 + vc] = static_cast<std::uint8_t>(out);
  }
  return r;
}
}  // namespace

TEST_CASE("switch allocator: a matching, and round-robin fairness", "[allocators]") {
  auto sa = make_switch_allocator("round_robin", {5, 4});
  // Every input VC of ports 0..3 wants output 4.
  const SwitchRequests all = switch_requests({{0, 0, 4}, {0, 1, 4}, {0, 2, 4}, {0, 3, 4},
                                              {1, 0, 4}, {1, 1, 4}, {1, 2, 4}, {1, 3, 4},
                                              {2, 0, 4}, {2, 1, 4}, {2, 2, 4}, {2, 3, 4},
                                              {3, 0, 4}, {3, 1, 4}, {3, 2, 4}, {3, 3, 4}});
  SwitchGrants g;
  std::map<std::pair<unsigned, unsigned>, int> wins;
  for (int cycle = 0; cycle < 160; ++cycle) {
    sa->allocate(all, g);
    REQUIRE(g.count == 1);  // one output: one grant
    CHECK(g.outputs == 1u << 4);
    CHECK(g.winners[0].out_port == 4);
    ++wins[{g.winners[0].in_port, g.winners[0].in_vc}];
  }
  REQUIRE(wins.size() == 16);
  for (const auto& kv : wins) CHECK(kv.second == 10);  // perfectly fair under full load

  // Distinct outputs and inputs: everybody wins at once.
  sa->allocate(switch_requests({{0, 0, 1}, {1, 2, 2}, {2, 1, 0}}), g);
  CHECK(g.count == 3);
  CHECK(g.outputs == 0b111u);
  // Same input port, two outputs: only one flit leaves an input per cycle.
  sa->allocate(switch_requests({{0, 0, 1}, {0, 1, 2}}), g);
  REQUIRE(g.count == 1);
  CHECK(g.winners[0].in_port == 0);
  CHECK(g.outputs == (1u << g.winners[0].out_port));
}

TEST_CASE("VC allocator: no output VC granted twice, fair between inputs", "[allocators]") {
  auto va = make_vc_allocator("round_robin", {5, 4});
  std::vector<VcGrant> grants;
  // Inputs 0..7 all want output port 2, only VC 1 free.
  std::vector<VcRequest> req;
  for (std::uint16_t i = 0; i < 8; ++i) req.push_back({i, 2, 0b0010});
  std::map<unsigned, int> wins;
  for (int cycle = 0; cycle < 80; ++cycle) {
    va->allocate(req, grants);
    REQUIRE(grants.size() == 1);
    CHECK(grants[0].out_vc == 1);
    ++wins[grants[0].input];
  }
  REQUIRE(wins.size() == 8);
  for (const auto& kv : wins) CHECK(kv.second == 10);
  // Four free VCs, four requesters of all four. Input-first separable allocation: every input
  // picks the same VC (the one after the port's pointer), so one is served per cycle, and the
  // port's pointer moves on: in four cycles (a served head stops asking, its VC is taken) each
  // input is served once, each with a different VC.
  std::set<unsigned> vcs_served, inputs_served;
  std::uint32_t free_vcs = 0b1111;
  std::vector<std::uint16_t> waiting{0, 1, 2, 3};
  for (int cycle = 0; cycle < 4; ++cycle) {
    req.clear();
    for (std::uint16_t i : waiting) req.push_back({i, 0, free_vcs});
    va->allocate(req, grants);
    REQUIRE(grants.size() == 1);
    const VcGrant& g = grants[0];
    CHECK(g.out_port == 0);
    REQUIRE(((free_vcs >> g.out_vc) & 1u) == 1u);  // a VC it asked for
    CHECK(vcs_served.insert(g.out_vc).second);
    CHECK(inputs_served.insert(g.input).second);
    free_vcs &= ~(1u << g.out_vc);
    waiting.erase(std::find(waiting.begin(), waiting.end(), g.input));
  }
  CHECK(waiting.empty());
  CHECK(free_vcs == 0);
  // Requests without conflicts (each input its own VC, or its own port) are all granted at once.
  req = {{0, 0, 0b0001}, {1, 0, 0b0010}, {2, 0, 0b0100}, {3, 1, 0b1111}, {4, 2, 0b1000}};
  va->allocate(req, grants);
  REQUIRE(grants.size() == 5);
  std::set<std::pair<unsigned, unsigned>> granted;
  for (const auto& g : grants) {
    CHECK(granted.insert({g.out_port, g.out_vc}).second);  // no output VC twice
    const VcRequest& r = req[g.input];
    CHECK(g.out_port == r.out_port);
    CHECK(((r.vc_mask >> g.out_vc) & 1u) == 1u);
  }
  // An input's second request is used only when its first has no free VC.
  req = {{0, 1, 0}, {0, 3, 0b0100}};
  va->allocate(req, grants);
  REQUIRE(grants.size() == 1);
  CHECK(grants[0].out_port == 3);
  CHECK(grants[0].out_vc == 2);
  CHECK_THROWS_AS(make_vc_allocator("nope", {5, 4}), std::exception);
}

// ---- Every allocator: matchings on random requests, the worked examples of docs/router.md,
// and fairness under persistent requests.

namespace {
SwitchRequests switch_requests_vcs(unsigned vcs,
                                   std::initializer_list<std::array<unsigned, 3>> triples) {
  SwitchRequests r;
  for (const auto& [port, vc, out] : triples) {
    if (!(r.ports >> port & 1u)) r.vcs[port] = 0;
    r.ports |= std::uint64_t{1} << port;
    r.vcs[port] |= 1u << vc;
    r.out_port[port * vcs + vc] = static_cast<std::uint8_t>(out);
  }
  return r;
}

std::vector<std::string> names(const std::vector<VcAllocatorEntry>& t) {
  std::vector<std::string> n;
  for (const auto& e : t) n.push_back(e.name);
  return n;
}
std::vector<std::string> names(const std::vector<SwitchAllocatorEntry>& t) {
  std::vector<std::string> n;
  for (const auto& e : t) n.push_back(e.name);
  return n;
}

// (input port, VC, output port) of each winner, sorted.
std::set<std::array<unsigned, 3>> winners(const SwitchGrants& g) {
  std::set<std::array<unsigned, 3>> w;
  for (unsigned k = 0; k < g.count; ++k)
    w.insert({g.winners[k].in_port, g.winners[k].in_vc, g.winners[k].out_port});
  return w;
}
// (input VC, output port, output VC) of each grant, sorted.
std::set<std::array<unsigned, 3>> granted(const std::vector<VcGrant>& grants) {
  std::set<std::array<unsigned, 3>> w;
  for (const VcGrant& g : grants) w.insert({g.input, g.out_port, g.out_vc});
  return w;
}

struct Lcg {  // (a test's own generator: the same matrices every run)
  std::uint64_t s;
  unsigned operator()(unsigned n) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<unsigned>((s >> 33) % n);
  }
};
}  // namespace

TEST_CASE("every switch allocator grants a matching within the requests", "[allocators]") {
  for (const std::string& name : names(switch_allocators()))
    for (const AllocatorShape shape : {AllocatorShape{5, 4, 1}, AllocatorShape{7, 2, 3},
                                       AllocatorShape{5, 1, 1}, AllocatorShape{10, 8, 2}}) {
      CAPTURE(name, shape.ports, shape.vcs, shape.islip_iterations);
      StandaloneAllocator<SwitchAllocator> sa(switch_allocator_maker(name), shape);
      std::vector<Cycle> ages(shape.ports * shape.vcs);
      sa->use_ages(ages.data());
      Lcg rng{shape.ports * 31u + shape.vcs};
      for (int cycle = 0; cycle < 400; ++cycle) {
        SwitchRequests r;
        for (unsigned p = 0; p < shape.ports; ++p)
          for (unsigned v = 0; v < shape.vcs; ++v) {
            ages[p * shape.vcs + v] = rng(50);
            if (rng(3) != 0) continue;
            if (!(r.ports >> p & 1u)) r.vcs[p] = 0;
            r.ports |= std::uint64_t{1} << p;
            r.vcs[p] |= 1u << v;
            r.out_port[p * shape.vcs + v] = static_cast<std::uint8_t>(rng(shape.ports));
          }
        SwitchGrants g;
        sa->allocate(r, g);
        std::uint64_t ins = 0, outs = 0;
        for (unsigned k = 0; k < g.count; ++k) {
          const auto& w = g.winners[k];
          REQUIRE((r.ports >> w.in_port & 1u) == 1u);
          REQUIRE((r.vcs[w.in_port] >> w.in_vc & 1u) == 1u);  // requested
          REQUIRE(r.out_port[w.in_port * shape.vcs + w.in_vc] == w.out_port);
          REQUIRE((ins >> w.in_port & 1u) == 0u);  // no input twice
          REQUIRE((outs >> w.out_port & 1u) == 0u);  // no output twice
          ins |= std::uint64_t{1} << w.in_port;
          outs |= std::uint64_t{1} << w.out_port;
        }
        REQUIRE(g.outputs == outs);
        // Every allocator grants something when anything is asked for; wavefront, and iSLIP
        // with as many iterations as ports, leave no request whose input and output are free.
        if (r.ports) REQUIRE(g.count > 0);
        const bool maximal = name == "wavefront" || (name == "islip" && shape.islip_iterations >= shape.ports);
        if (maximal)
          for (std::uint64_t b = r.ports; b; b &= b - 1) {
            const unsigned p = static_cast<unsigned>(__builtin_ctzll(b));
            for (unsigned v = 0; v < shape.vcs; ++v)
              if (r.vcs[p] >> v & 1u)
                REQUIRE(((ins >> p & 1u) | (outs >> r.out_port[p * shape.vcs + v] & 1u)) == 1u);
          }
      }
    }
}

TEST_CASE("every VC allocator grants a matching within the requests", "[allocators]") {
  for (const std::string& name : names(vc_allocators()))
    for (const AllocatorShape shape : {AllocatorShape{5, 4, 1}, AllocatorShape{7, 2, 3},
                                       AllocatorShape{5, 1, 1}, AllocatorShape{6, 8, 2}}) {
      CAPTURE(name, shape.ports, shape.vcs, shape.islip_iterations);
      StandaloneAllocator<VcAllocator> va(vc_allocator_maker(name), shape);
      const unsigned n = shape.ports * shape.vcs;
      std::vector<Cycle> ages(n);
      va->use_ages(ages.data());
      Lcg rng{n * 17u};
      std::vector<VcRequest> req;
      std::vector<VcGrant> grants;
      for (int cycle = 0; cycle < 400; ++cycle) {
        req.clear();
        for (unsigned i = 0; i < n; ++i) {
          ages[i] = rng(50);
          if (rng(3) != 0) continue;
          for (unsigned c = 1 + rng(2); c > 0; --c)  // one or two routing candidates
            req.push_back({static_cast<std::uint16_t>(i), static_cast<std::uint16_t>(rng(shape.ports)),
                           rng(4) == 0 ? 0u : static_cast<std::uint32_t>(rng(1u << shape.vcs))});
        }
        va->allocate(req, grants);
        std::set<unsigned> inputs, ovcs;
        for (const VcGrant& g : grants) {
          REQUIRE(inputs.insert(g.input).second);  // no input VC twice
          REQUIRE(ovcs.insert(g.out_port * shape.vcs + g.out_vc).second);  // no output VC twice
          bool asked = false;
          for (const VcRequest& r : req)
            asked |= r.input == g.input && r.out_port == g.out_port && (r.vc_mask >> g.out_vc & 1u);
          REQUIRE(asked);
        }
        bool any = false;
        for (const VcRequest& r : req) any |= r.vc_mask != 0;
        REQUIRE(any == !grants.empty());
        const bool maximal = name == "wavefront" || (name == "islip" && shape.islip_iterations >= n);
        if (maximal)
          for (const VcRequest& r : req)
            for (unsigned v = 0; v < shape.vcs; ++v)
              if (r.vc_mask >> v & 1u)
                REQUIRE((inputs.count(r.input) + ovcs.count(r.out_port * shape.vcs + v)) > 0);
      }
    }
}

// docs/router.md, "Worked example: switch allocation": 4 ports, 2 VCs each; fresh allocators.
//   input 0: VC 0 -> out 0, VC 1 -> out 1      input 1: VC 0 -> out 0, VC 1 -> out 2
//   input 2: VC 0 -> out 1                     input 3: VC 0 -> out 1, VC 1 -> out 3
TEST_CASE("switch allocators: the worked example", "[allocators]") {
  const SwitchRequests r = switch_requests_vcs(2, {{0, 0, 0}, {0, 1, 1}, {1, 0, 0}, {1, 1, 2},
                                                   {2, 0, 1}, {3, 0, 1}, {3, 1, 3}});
  using W = std::set<std::array<unsigned, 3>>;
  auto first = [&](const std::string& name, unsigned iterations) {
    StandaloneAllocator<SwitchAllocator> sa(switch_allocator_maker(name), {4, 2, iterations});
    SwitchGrants g;
    sa->allocate(r, g);
    return winners(g);
  };
  CHECK(first("round_robin", 1) == W{{0, 0, 0}, {2, 0, 1}});
  CHECK(first("output_first", 1) == W{{0, 0, 0}, {1, 1, 2}, {3, 1, 3}});
  CHECK(first("islip", 1) == W{{0, 0, 0}, {1, 1, 2}, {3, 1, 3}});
  CHECK(first("islip", 2) == W{{0, 0, 0}, {1, 1, 2}, {2, 0, 1}, {3, 1, 3}});
  CHECK(first("wavefront", 1) == W{{0, 0, 0}, {1, 1, 2}, {3, 0, 1}});
  {
    StandaloneAllocator<SwitchAllocator> sa(switch_allocator_maker("age"), {4, 2, 1});
    // Creation cycles per input VC (port * 2 + vc).
    const std::vector<Cycle> created{20, 20, 5, 30, 10, 0, 40, 2};
    REQUIRE(sa->use_ages(created.data()));
    SwitchGrants g;
    sa->allocate(r, g);
    CHECK(winners(g) == W{{1, 0, 0}, {2, 0, 1}, {3, 1, 3}});
  }
  // iSLIP's pointers move only on first-iteration accepts: the second cycle is the same with
  // 1 and 2 iterations (had the second iteration's match (2, out 1) moved out 1's grant
  // pointer, out 1 would grant input 3 and the matching would be {1 -> 0, 3 -> 1}).
  for (unsigned iterations : {1u, 2u}) {
    StandaloneAllocator<SwitchAllocator> sa(switch_allocator_maker("islip"), {4, 2, iterations});
    SwitchGrants g;
    sa->allocate(r, g);
    sa->allocate(r, g);
    CHECK(winners(g) == W{{0, 1, 1}, {1, 0, 0}, {3, 1, 3}});
  }
}

// docs/router.md, "Worked example: VC allocation": 2 ports, 2 VCs each (input VC i = port * 2 +
// vc; output VCs (port, vc)); input VC 2 has two routing candidates.
TEST_CASE("VC allocators: the worked example", "[allocators]") {
  const std::vector<VcRequest> req{{0, 0, 0b11}, {1, 0, 0b11}, {2, 0, 0b10}, {2, 1, 0b01}, {3, 1, 0b11}};
  using G = std::set<std::array<unsigned, 3>>;
  auto first = [&](const std::string& name, unsigned iterations) {
    StandaloneAllocator<VcAllocator> va(vc_allocator_maker(name), {2, 2, iterations});
    std::vector<VcGrant> grants;
    va->allocate(req, grants);
    return granted(grants);
  };
  CHECK(first("round_robin", 1) == G{{0, 0, 0}, {2, 0, 1}, {3, 1, 0}});
  CHECK(first("output_first", 1) == G{{0, 0, 0}, {2, 1, 0}, {3, 1, 1}});
  CHECK(first("islip", 1) == G{{0, 0, 0}, {2, 1, 0}, {3, 1, 1}});
  CHECK(first("islip", 2) == G{{0, 0, 0}, {1, 0, 1}, {2, 1, 0}, {3, 1, 1}});
  CHECK(first("wavefront", 1) == G{{0, 0, 0}, {1, 0, 1}, {2, 1, 0}, {3, 1, 1}});
  StandaloneAllocator<VcAllocator> va(vc_allocator_maker("age"), {2, 2, 1});
  const std::vector<Cycle> created{7, 3, 9, 9};
  REQUIRE(va->use_ages(created.data()));
  std::vector<VcGrant> grants;
  va->allocate(req, grants);
  CHECK(granted(grants) == G{{1, 0, 0}, {2, 0, 1}, {3, 1, 0}});
  // Allocators that do not compare ages say so (the router then keeps none).
  CHECK_FALSE(make_vc_allocator("round_robin", {2, 2})->use_ages(created.data()));
  CHECK_FALSE(make_switch_allocator("islip", {2, 2})->use_ages(created.data()));
}

TEST_CASE("switch allocators: fairness under persistent requests", "[allocators]") {
  // 16 input VCs (ports 0..3, 4 VCs each) all want output 4. The round-robin separable
  // allocators and iSLIP serve them in turn: each exactly once in 16 cycles. Wavefront serves
  // every input port within n = 5 allocations (its diagonal comes round) and, at a port, the
  // VCs in turn.
  const SwitchRequests all = switch_requests({{0, 0, 4}, {0, 1, 4}, {0, 2, 4}, {0, 3, 4},
                                              {1, 0, 4}, {1, 1, 4}, {1, 2, 4}, {1, 3, 4},
                                              {2, 0, 4}, {2, 1, 4}, {2, 2, 4}, {2, 3, 4},
                                              {3, 0, 4}, {3, 1, 4}, {3, 2, 4}, {3, 3, 4}});
  for (const std::string name : {"round_robin", "output_first", "islip", "wavefront"}) {
    CAPTURE(name);
    auto sa = make_switch_allocator(name, {5, 4});
    SwitchGrants g;
    std::map<std::pair<unsigned, unsigned>, int> wins;
    std::map<unsigned, int> last_port_win{{0, -1}, {1, -1}, {2, -1}, {3, -1}};
    for (int cycle = 0; cycle < 160; ++cycle) {
      sa->allocate(all, g);
      REQUIRE(g.count == 1);
      ++wins[{g.winners[0].in_port, g.winners[0].in_vc}];
      last_port_win[g.winners[0].in_port] = cycle;
      for (const auto& [port, last] : last_port_win) REQUIRE(cycle - last < 5);
    }
    REQUIRE(wins.size() == 16);
    if (name != std::string("wavefront"))
      for (const auto& kv : wins) CHECK(kv.second == 10);
  }
  // Every input port wants every output (VC v of each port asks for output v): the pointers of
  // iSLIP, and of the separable allocators (they too move only on grants), desynchronise within
  // 4 cycles, after which every cycle is a full matching; wavefront's priority diagonal is a
  // full matching at once and serves each (input, output) pair once every 4 cycles.
  SwitchRequests full;
  for (unsigned p = 0; p < 4; ++p)
    for (unsigned v = 0; v < 4; ++v) {
      if (!(full.ports >> p & 1u)) full.vcs[p] = 0;
      full.ports |= std::uint64_t{1} << p;
      full.vcs[p] |= 1u << v;
      full.out_port[p * 4 + v] = static_cast<std::uint8_t>(v);
    }
  for (const std::string name : {"round_robin", "output_first", "islip", "age"}) {
    CAPTURE(name);
    auto sa = make_switch_allocator(name, {4, 4, 1});
    const std::vector<Cycle> created(16, 0);
    sa->use_ages(created.data());
    SwitchGrants g;
    for (int cycle = 0; cycle < 64; ++cycle) {
      sa->allocate(full, g);
      CHECK(g.count == (cycle < 3 ? cycle + 1u : 4u));
    }
  }
  {
    auto sa = make_switch_allocator("wavefront", {4, 4});
    SwitchGrants g;
    std::map<std::pair<unsigned, unsigned>, int> pairs;
    for (int cycle = 0; cycle < 40; ++cycle) {
      sa->allocate(full, g);
      REQUIRE(g.count == 4);
      for (unsigned k = 0; k < 4; ++k) ++pairs[{g.winners[k].in_port, g.winners[k].out_port}];
    }
    REQUIRE(pairs.size() == 16);
    for (const auto& kv : pairs) CHECK(kv.second == 10);
  }
  // Oldest first: the oldest packet wins however often it has won; equal ages take turns.
  {
    auto sa = make_switch_allocator("age", {5, 4});
    std::vector<Cycle> created(20, 100);
    created[2 * 4 + 3] = 7;  // port 2, VC 3
    REQUIRE(sa->use_ages(created.data()));
    SwitchGrants g;
    for (int cycle = 0; cycle < 20; ++cycle) {
      sa->allocate(all, g);
      REQUIRE(g.count == 1);
      CHECK(g.winners[0].in_port == 2);
      CHECK(g.winners[0].in_vc == 3);
    }
    created[2 * 4 + 3] = 100;
    std::map<std::pair<unsigned, unsigned>, int> wins;
    for (int cycle = 0; cycle < 160; ++cycle) {
      sa->allocate(all, g);
      ++wins[{g.winners[0].in_port, g.winners[0].in_vc}];
    }
    REQUIRE(wins.size() == 16);
    for (const auto& kv : wins) CHECK(kv.second == 10);
  }
}

TEST_CASE("VC allocators: fairness under persistent requests", "[allocators]") {
  // Input VCs 0..7 all want output VC 1 of port 2: served in turn by the round-robin
  // allocators and iSLIP, within n = 20 allocations each by wavefront.
  std::vector<VcRequest> req;
  for (std::uint16_t i = 0; i < 8; ++i) req.push_back({i, 2, 0b0010});
  for (const std::string name : {"round_robin", "output_first", "islip", "wavefront", "age"}) {
    CAPTURE(name);
    auto va = make_vc_allocator(name, {5, 4});
    std::vector<Cycle> created(20, 0);
    va->use_ages(created.data());
    std::vector<VcGrant> grants;
    std::map<unsigned, int> wins, last;
    for (int cycle = 0; cycle < 160; ++cycle) {
      va->allocate(req, grants);
      REQUIRE(grants.size() == 1);
      CHECK(grants[0].out_vc == 1);
      ++wins[grants[0].input];
      last[grants[0].input] = cycle;
      if (cycle >= 20)
        for (unsigned i = 0; i < 8; ++i) REQUIRE(cycle - last[i] < 20);
    }
    REQUIRE(wins.size() == 8);
    if (name != "wavefront")
      for (const auto& kv : wins) CHECK(kv.second == 20);
  }
}
