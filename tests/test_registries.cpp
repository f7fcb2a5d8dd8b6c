// Adding a strategy is one class and one line (docs/architecture.md, "Adding things"): for each
// kind, a class of the test's own and one line appending it to a copy of the library's table (a
// test-only registry; the library's tables are constants, not global state), looked up by name
// with the library's own `lookup`, then used as the library uses that kind. Where the system
// takes the object (a routing function, a topology, a platform's system, a firmware program,
// a collective), it runs end to end: traffic or firmware on a network, conservation and data
// checked. One simulation per test case (SystemC elaborates once per process).
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "collectives/mesh_collective.hpp"
#include "ni/codec.hpp"
#include "ni/compression.hpp"
#include "ni/payload.hpp"
#include "noc/router/allocator.hpp"
#include "noc/routing/routing.hpp"
#include "noc/topology/kary_ncube.hpp"
#include "support.hpp"

using namespace collnoc;

namespace {

using test::get;

// ------------------------------------------------------------------ a routing function
// Dimension order with the dimensions taken highest first (YX on a 2-D mesh): deadlock-free on
// a mesh with one VC, like XY.
class YxRouting : public RoutingFunction {
 public:
  YxRouting(const KaryNCube& t, unsigned vcs) : t_(t), vcs_(vcs) {}
  void route(const RouteRequest& req, RouteResult& out) const override {
    const RouterId dst = t_.router_of(req.dst);
    for (unsigned d = t_.dimensions(); d-- > 0;) {
      const unsigned here = t_.coord(req.router, d), there = t_.coord(dst, d);
      if (here == there) continue;
      out.add(here < there ? t_.plus_port(d) : t_.minus_port(d), 0, vcs_);
      return;
    }
    out.add(t_.local_port_of(req.dst), 0, vcs_);
  }

 private:
  const KaryNCube& t_;
  unsigned vcs_;
};

std::vector<RoutingEntry> routing_table() {
  std::vector<RoutingEntry> table = routing_functions();
  table.push_back({"yx", "dimension order, highest dimension first",
                   [](const Topology& t, unsigned vcs,
                      const RoutingParams&) -> std::unique_ptr<RoutingFunction> {
                     return std::make_unique<YxRouting>(require_kary_ncube(t, "yx"), vcs);
                   }});
  return table;
}

// ------------------------------------------------------------------ a topology and a platform
// A bidirectional ring: port 0 clockwise, port 1 counter-clockwise.
class RingTopology : public Topology {
 public:
  explicit RingTopology(unsigned routers) {
    init(routers, 2, 1);
    for (RouterId r = 0; r < routers; ++r) {
      connect(r, 0, (r + 1) % routers, 1);
      connect(r, 1, (r + routers - 1) % routers, 0);
    }
  }
  std::string kind() const override { return "ring"; }
  std::string describe() const override { return std::to_string(num_routers()) + "-ring"; }
};

std::vector<TopologyEntry> topology_table() {
  std::vector<TopologyEntry> table = topologies();
  table.push_back({"ring", "bidirectional ring of topology.k routers",
                   [](const TopologyParams& p) { return std::make_unique<RingTopology>(p.k.at(0)); }});
  return table;
}

std::vector<PlatformEntry> platform_table() {
  std::vector<PlatformEntry> table = platforms();
  PlatformEntry ring_chip;
  ring_chip.name = "ring_chip";
  ring_chip.description = "a ring of routers with Up*/Down* routing";
  ring_chip.make = [](const PlatformParams& p) {
    auto topo = lookup(topology_table(), p.topology.kind, "topology.kind").make(p.topology);
    auto routing = lookup(routing_functions(), "updown", "routing.algorithm")
                       .make(*topo, p.system.router.vcs_per_class(), p.system.routing_params);
    return std::make_unique<NocSystem>(p.instance.c_str(), std::move(topo), p.system,
                                       std::move(routing));
  };
  ring_chip.topology_kinds = {"ring"};
  table.push_back(ring_chip);
  return table;
}

// ------------------------------------------------------------------ a traffic pattern
// Every node sends to the next one.
class NextNode : public TrafficPattern {
 public:
  explicit NextNode(const Topology& t) : nodes_(t.num_endpoints()) {}
  NodeId destination(NodeId src, Rng&) const override { return (src + 1) % nodes_; }

 private:
  NodeId nodes_;
};

// ------------------------------------------------------------------ allocators
// Fixed priority: the lowest input wins, a hardware engineer's cheapest arbiter.
class LowestFirstVc : public VcAllocator {
 public:
  void allocate(const std::vector<VcRequest>& requests, std::vector<VcGrant>& grants) override {
    std::set<std::pair<unsigned, unsigned>> taken;  // (out_port, out_vc)
    std::set<unsigned> served;
    for (const VcRequest& r : requests) {
      if (served.count(r.input)) continue;
      for (unsigned vc = 0; vc < 32; ++vc)
        if ((r.vc_mask >> vc & 1) && !taken.count({r.out_port, vc})) {
          grants.push_back({r.input, r.out_port, static_cast<std::uint8_t>(vc)});
          taken.insert({r.out_port, vc});
          served.insert(r.input);
          break;
        }
    }
  }
};

class LowestFirstSwitch : public SwitchAllocator {
 public:
  explicit LowestFirstSwitch(const AllocatorShape& s) : shape_(s) {}
  void allocate(const SwitchRequests& req, SwitchGrants& grants) override {
    for (unsigned in = 0; in < shape_.ports; ++in) {
      if (!(req.ports >> in & 1)) continue;
      for (unsigned vc = 0; vc < shape_.vcs; ++vc) {
        if (!(req.vcs[in] >> vc & 1)) continue;
        const unsigned out = req.out_port[in * shape_.vcs + vc];
        if (grants.outputs >> out & 1) continue;
        grants.outputs |= std::uint64_t{1} << out;
        grants.winners[grants.count++] = {static_cast<std::uint8_t>(in),
                                          static_cast<std::uint8_t>(vc),
                                          static_cast<std::uint8_t>(out)};
        break;
      }
    }
  }

 private:
  AllocatorShape shape_;
};

// ------------------------------------------------------------------ a codec and a policy
// Sends every word as it is: 32 bits a word, lossless.
class Verbatim : public Codec {
 public:
  const char* name() const override { return "verbatim"; }
  bool lossless() const override { return true; }
  unsigned words_per_unit() const override { return 1; }
  std::uint64_t encoded_bits(const std::uint32_t*, std::size_t count) const override {
    return 32 * std::uint64_t{count};
  }
  void encode(const std::uint32_t* words, std::size_t count, BitWriter& out) const override {
    for (std::size_t i = 0; i < count; ++i) out.write(words[i], 32);
  }
  void decode(BitReader& in, std::size_t count, std::uint32_t* words) const override {
    for (std::size_t i = 0; i < count; ++i) words[i] = static_cast<std::uint32_t>(in.read(32));
  }
};

// Compresses packets longer than twice the threshold only.
class LongOnly : public CompressionPolicy {
 public:
  bool compress(const CompressionContext& c) const override {
    return c.packet_flits > 2 * c.threshold_flits;
  }
};

// ------------------------------------------------------------------ a payload generator
class Counting : public PayloadGenerator {
 public:
  ElementType element_type() const override { return ElementType::int32; }
  std::uint32_t word(PacketId packet, std::uint32_t index) const override {
    return static_cast<std::uint32_t>(packet * 1000 + index);
  }
};

// ------------------------------------------------------------------ firmware and a collective
// Every core passes a token to the next and checks the one it got from the previous.
class TokenRing : public Firmware {
 public:
  void run(MessageLayer& ml) override {
    const NodeId me = ml.rank(), n = ml.size();
    ml.send((me + 1) % n, Words{me, me * 7u});
    const NodeId from = (me + n - 1) % n;
    if (ml.recv(from) != Words{from, from * 7u}) ok_ = false;
    ++finished_;
  }
  void report(Report& out) const override { out.set("token_ring.cores", finished_); }
  bool data_verified() const override { return ok_; }

 private:
  std::uint64_t finished_ = 0;
  bool ok_ = true;
};

// A dissemination barrier (round k: send to rank + 2^k, receive from rank - 2^k): log2(n)
// rounds, no root.
class DisseminationBarrier : public MeshCollective {
 public:
  using MeshCollective::MeshCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    for (unsigned step = 1; step < n_; step <<= 1) {
      send(ml, (me + step) % n_, Words{step});
      check(recv(ml, (me + n_ - step) % n_), Words{step},
            "dissemination round " + std::to_string(step));
    }
  }
};

std::vector<CollectiveEntry> collective_table() {
  std::vector<CollectiveEntry> table = collective_algorithms();
  table.push_back({"barrier", "dissemination", "log2(n) rounds to rank + 2^k",
                   [](const FirmwareParams& p, const Topology& t) -> std::unique_ptr<Firmware> {
                     return std::make_unique<DisseminationBarrier>(p, t);
                   }});
  return table;
}

const CollectiveEntry& find_collective(const std::vector<CollectiveEntry>& table,
                                       const std::string& collective,
                                       const std::string& algorithm) {
  for (const CollectiveEntry& e : table)
    if (collective == e.collective && algorithm == e.algorithm) return e;
  FAIL("no " << collective << "/" << algorithm);
  throw;
}

}  // namespace

TEST_CASE("registries: a routing function is a class and a line, and routes a mesh", "[registry]") {
  const std::vector<RoutingEntry> table = routing_table();
  auto topo = std::make_unique<KaryNCube>(std::vector<unsigned>{5, 5}, false);
  SystemParams sp;
  auto routing = lookup(table, "yx", "routing.algorithm")
                     .make(*topo, sp.router.vcs_per_class(), sp.routing_params);
  // From (0,0) to (3,2): +y first, where dimension order goes +x.
  PacketHeader hdr{};
  RouteResult r;
  routing->route(RouteRequest{0, topo->local_port_of(0), 0, topo->router_at({3, 2}), hdr}, r);
  REQUIRE(r.size() == 1);
  CHECK(r[0].port == 2 /* +y */);
  // Refused where it cannot route, through the library's check.
  CHECK_THROWS_AS(lookup(table, "yx", "routing.algorithm").make(RingTopology(6), 1, {}),
                  ParamError);
  CHECK_THROWS_WITH(lookup(table, "zy", "routing.algorithm"), Catch::Contains("yx"));

  NocSystem sys("system", std::move(topo), sp, std::move(routing));
  TrafficParams tp;
  tp.injection_rate = 0.2;
  const RunOutcome out = test::run_traffic(sys, tp, 500, 3000);
  test::require_conserved(out);
  CHECK(get<std::uint64_t>(out.report, "packets.measured_delivered") ==
        get<std::uint64_t>(out.report, "packets.measured"));
}

TEST_CASE("registries: a topology and a platform are a class and a line each, and run traffic",
          "[registry]") {
  PlatformParams p;
  p.name = "ring_chip";
  p.topology.kind = "ring";
  p.topology.k = {10};
  const std::vector<PlatformEntry> table = platform_table();
  const PlatformEntry& entry = lookup(table, p.name, "platform");
  REQUIRE(entry.topology_kinds == std::vector<std::string>{"ring"});
  std::unique_ptr<NocSystem> sys = entry.make(p);
  CHECK(sys->topology().describe() == "10-ring");
  CHECK(sys->topology().distance(0, 5) == 5);
  TrafficParams tp;
  tp.injection_rate = 0.1;
  const RunOutcome out = test::run_traffic(*sys, tp, 500, 3000);
  test::require_conserved(out);
  CHECK(get<std::uint64_t>(out.report, "packets.measured_delivered") ==
        get<std::uint64_t>(out.report, "packets.measured"));
}

TEST_CASE("registries: a traffic pattern is a class and a line", "[registry]") {
  std::vector<TrafficPatternEntry> table = traffic_patterns();
  table.push_back({"next_node", "node i sends to node i + 1",
                   [](const Topology& t, const TrafficParams&) -> std::unique_ptr<TrafficPattern> {
                     return std::make_unique<NextNode>(t);
                   }});
  const KaryNCube mesh({4, 4}, false);
  TrafficParams tp;
  tp.pattern = "next_node";
  auto pattern = lookup(table, tp.pattern, "traffic.pattern").make(mesh, tp);
  // The NI's packet source draws its destinations from it.
  SyntheticSource source(tp, *pattern, 15, 16, 1);
  for (int i = 0; i < 5; ++i) CHECK(source.take().dst == 0);
}

TEST_CASE("registries: allocators are a class and a line each, and grant legally", "[registry]") {
  std::vector<VcAllocatorEntry> vc_table = vc_allocators();
  vc_table.push_back({"lowest_first", "fixed priority, lowest input first",
                      [](const AllocatorShape&, StateMemory& m) {
                        return m.make<LowestFirstVc>();
                      }});
  std::vector<SwitchAllocatorEntry> sw_table = switch_allocators();
  sw_table.push_back({"lowest_first", "fixed priority, lowest input first",
                      [](const AllocatorShape& s, StateMemory& m) {
                        return m.make<LowestFirstSwitch>(s);
                      }});
  const AllocatorShape shape{5, 2};
  StandaloneAllocator<VcAllocator> vc(
      lookup(vc_table, "lowest_first", "router.vc_allocator").make, shape);
  std::vector<VcGrant> vc_grants;
  vc->allocate({{0, 1, 0b11}, {2, 1, 0b01}, {4, 1, 0b10}, {6, 3, 0b01}}, vc_grants);
  // Inputs 0 and 2 both want output 1's VC 0: input 0 gets it; input 4 gets VC 1.
  REQUIRE(vc_grants.size() == 2 + 1);
  CHECK((vc_grants[0].input == 0 && vc_grants[0].out_vc == 0));
  CHECK((vc_grants[1].input == 4 && vc_grants[1].out_vc == 1));
  CHECK((vc_grants[2].input == 6 && vc_grants[2].out_port == 3));

  StandaloneAllocator<SwitchAllocator> sw(
      lookup(sw_table, "lowest_first", "router.switch_allocator").make, shape);
  SwitchRequests req{};
  req.ports = 0b10110;  // inputs 1, 2 and 4
  req.vcs[1] = 0b01, req.out_port[1 * 2 + 0] = 3;
  req.vcs[2] = 0b11, req.out_port[2 * 2 + 0] = 3, req.out_port[2 * 2 + 1] = 0;
  req.vcs[4] = 0b10, req.out_port[4 * 2 + 1] = 3;
  SwitchGrants grants{};
  sw->allocate(req, grants);
  REQUIRE(grants.count == 2);  // input 1 -> 3, input 2's VC 1 -> 0; input 4 loses output 3
  CHECK((grants.winners[0].in_port == 1 && grants.winners[0].out_port == 3));
  CHECK((grants.winners[1].in_port == 2 && grants.winners[1].in_vc == 1));
}

TEST_CASE("registries: a codec, a compression policy and a payload generator are a class and "
          "a line each", "[registry]") {
  std::vector<CodecEntry> codec_table = codecs();
  codec_table.push_back({"verbatim", "32 bits a word, as it is",
                         [](const CodecParams&) -> std::unique_ptr<Codec> {
                           return std::make_unique<Verbatim>();
                         },
                         {ElementType::raw}});
  const CodecEntry& entry = lookup(codec_table, "verbatim", "ni.codec");
  CHECK(entry.serves_type(ElementType::raw));
  CHECK_FALSE(entry.serves_type(ElementType::int32));
  std::unique_ptr<Codec> codec = entry.make(CodecParams{});

  std::vector<PayloadEntry> payload_table = payload_generators();
  payload_table.push_back({"counting", "word i of packet p is 1000 p + i",
                           [] { return std::make_unique<Counting>(); }});
  auto payload = lookup(payload_table, "counting", "traffic.payload").make();
  std::vector<std::uint32_t> words(9), back(9);
  payload->fill(7, 0, 9, words.data());
  CHECK(words[8] == 7008);
  BitWriter w;
  codec->encode(words.data(), words.size(), w);
  CHECK(w.bit_count() == codec->encoded_bits(words.data(), words.size()));
  BitReader r(w);
  codec->decode(r, back.size(), back.data());
  CHECK(back == words);

  std::vector<CompressionPolicyEntry> policy_table = compression_policies();
  policy_table.push_back({"long_only", "packets longer than twice the threshold",
                          [] { return std::make_unique<LongOnly>(); }});
  auto policy = lookup(policy_table, "long_only", "ni.compression.policy").make();
  CHECK(policy->compress({9, 0, 0, 4, 0, 0}));
  CHECK_FALSE(policy->compress({8, 0, 0, 4, 0, 0}));
}

TEST_CASE("registries: a firmware program is a class and a line, and runs on every core",
          "[registry]") {
  std::vector<FirmwareEntry> table = firmware_programs();
  table.push_back({"token_ring", "each core passes a token to the next",
                   [](const FirmwareParams&, const Topology&) -> std::unique_ptr<Firmware> {
                     return std::make_unique<TokenRing>();
                   }});
  auto sys = test::build("mesh", {3, 3}, SystemParams{});
  auto fw = lookup(table, "token_ring", "workload.kind").make(FirmwareParams{}, sys->topology());
  const RunOutcome out = test::run_firmware(*sys, *fw);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(fw->data_verified());
  CHECK(get<std::uint64_t>(out.report, "token_ring.cores") == 9);
}

TEST_CASE("registries: a collective algorithm is a class and a line, and runs checked",
          "[registry]") {
  const std::vector<CollectiveEntry> table = collective_table();
  FirmwareParams fp;
  fp.collective = "barrier";
  fp.algorithm = "dissemination";
  auto sys = test::build("mesh", {4, 4}, SystemParams{});
  auto fw = find_collective(table, fp.collective, fp.algorithm).make(fp, sys->topology());
  const RunOutcome out = test::run_firmware(*sys, *fw);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(fw->data_verified());
  CHECK(get<std::string>(out.report, "collective.algorithm") == "dissemination");
  CHECK(get<std::uint64_t>(out.report, "collective.messages_checked") == 16 * 4);
}

// algorithms.def's on_buffers column: each names an algorithm of the same collective and the
// same library, which lookup_collective runs in its place where the cores have
// message-passing buffers (and not with workload.nocmsg_mpb = false or msg.protocol = mpb).
TEST_CASE("registries: an algorithm's form on the buffers is a line of its collective",
          "[registry]") {
  unsigned forms = 0;
  for (const CollectiveEntry& e : collective_algorithms()) {
    if (!*e.on_buffers) continue;
    ++forms;
    INFO(e.collective << " " << e.algorithm << " -> " << e.on_buffers);
    FirmwareParams p;
    p.collective = e.collective;
    p.algorithm = e.algorithm;
    p.protocol.mpb_bytes = 8192;
    const CollectiveEntry& form = lookup_collective(p);
    CHECK(std::string(form.algorithm) == e.on_buffers);
    CHECK(form.library == e.library);
    CHECK(is_on_buffers_form(form));
    CHECK_FALSE(is_on_buffers_form(e));
    p.nocmsg_mpb = false;
    CHECK(&lookup_collective(p) == &e);
    p.nocmsg_mpb = true;
    p.protocol.name = "mpb";
    CHECK(&lookup_collective(p) == &e);
    p.protocol = {};
    CHECK(&lookup_collective(p) == &e);
  }
  CHECK(forms == 6);  // the NoCMsg set's six: alltoall(v), barrier, broadcast, reduce, allreduce
}
