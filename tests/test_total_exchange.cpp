// Total exchange (SPEC 4.3, collectives/total_exchange.hpp): every core ends with exactly its p
// messages, bit-exact; the simulated time equals the closed form where messages are single
// store-and-forward packets and steps are contention-free, and lies between the cut-through and
// the store-and-forward forms when the NI pipelines packets; a corrupted message is caught.
#define SC_INCLUDE_DYNAMIC_PROCESSES  // sc_spawn for the mailbox cores below
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <systemc>

#include "collectives/total_exchange.hpp"
#include "noc/topology/hdn.hpp"
#include "support.hpp"
#include "noc/topology/kary_ncube.hpp"

using namespace collnoc;

namespace {

constexpr Cycle kWatchdog = 5000;

// Store-and-forward with packets long enough for every message of these small networks.
SystemParams saf_system(unsigned packet_flits, unsigned vcs = 4) {
  SystemParams sp;
  sp.routing = "hdn";
  sp.router.vcs = vcs;
  sp.router.switching = Switching::store_and_forward;
  sp.router.buffer_flits = packet_flits;
  sp.ni.max_packet_flits = packet_flits;
  return sp;
}

FirmwareParams total_exchange(const std::string& algorithm, unsigned words,
                              const SystemParams& sp) {
  FirmwareParams fp;
  fp.collective = "total_exchange";
  fp.algorithm = algorithm;
  fp.message_words = words;
  fp.seed = 11;
  fp.neighbour_cost = neighbour_message_cost(sp);
  return fp;
}

struct Outcome {
  Cycle execution;
  double formula;
  RunOutcome run;
};

// Runs `algorithm` on `sys` and checks that every core got its p messages intact.
Outcome run_exchange(NocSystem& sys, const FirmwareParams& fp) {
  auto fw = make_firmware("collective", fp, sys.topology());
  RunOutcome out = test::run_firmware(sys, *fw, kWatchdog);
  INFO(out.diagnosis);
  INFO(fw->failure());
  test::require_conserved(out);
  REQUIRE(fw->data_verified());
  CHECK(test::get<bool>(out.report, "collective.data_verified"));
  const std::uint64_t p = sys.topology().num_endpoints();
  const bool packed = fp.algorithm != "pairwise";
  CHECK(test::get<std::uint64_t>(out.report, "collective.messages_checked") ==
        (packed ? p * p : p * (p - 1)));
  const Report::Value* formula = out.report.find("collective.formula_cycles");
  return {test::get<std::uint64_t>(out.report, "collective.execution_cycles"),
          formula ? std::get<double>(*formula) : 0.0, std::move(out)};
}

std::unique_ptr<NocSystem> hdn_system(const char* base, unsigned levels, const char* supernodes,
                                      const SystemParams& sp) {
  return std::make_unique<NocSystem>(
      "system", std::make_unique<HdnTopology>(HdnSpec::parse(base, levels, supernodes)), sp);
}

// The hdn algorithm with 3-word messages on HDN(base, levels, supernodes), SAF packets of
// `packet_flits`.
Outcome run_hdn(const char* base, unsigned levels, const char* supernodes,
                unsigned packet_flits) {
  const SystemParams sp = saf_system(packet_flits);
  auto sys = hdn_system(base, levels, supernodes, sp);
  return run_exchange(*sys, total_exchange("hdn", 3, sp));
}

void require_formula(const Outcome& o, Cycle cycles) {
  CHECK(o.execution == cycles);
  CHECK(o.formula == Approx(static_cast<double>(cycles)));
}

}  // namespace

TEST_CASE("hdn total exchange on HDN(hypercube:2 1 {1}) is bit-exact and takes the formula's "
          "cycles", "[total_exchange]") {
  // 4-word records, 32 nodes: swap 64 words, two dimension steps of 64, send 128, two more.
  // t_s = 1 + (1 + 2*2 + 1 + 1) + 1 + 1 - 3 = 7, t_w = 3/4: 55 + 2*55 + 103 + 2*55.
  const Outcome o = run_hdn("hypercube:2", 1, "1", 32);
  require_formula(o, 378);
  const auto stages = test::get<std::vector<std::uint64_t>>(o.run.report, "collective.stage_cycles");
  CHECK(stages == std::vector<std::uint64_t>{55, 110, 103, 110});
  // Neighbour messages only: no packet waited for a link another one held.
  CHECK(test::get<std::uint64_t>(o.run.report, "contention_events") == 0);
}

namespace {
// SPEC 4.3's one-hop message cost of the store-and-forward systems above (16-byte flits):
// t_s = 1 + (1 + 2*2 + 1 + 1) + 1 + 1 - 3 = 7 cycles, t_w = 3 stages / 4 words per flit.
constexpr double kTs = 7, kTw = 0.75;
double hop(double words) { return kTs + kTw * words; }
}  // namespace

TEST_CASE("the store-and-forward systems of these tests have t_s = 7 and t_w = 3/4",
          "[total_exchange]") {
  for (unsigned flits : {4u, 16u, 32u, 128u}) {
    const MessageCost c = neighbour_message_cost(saf_system(flits));
    CHECK(c.startup_cycles == kTs);
    CHECK(c.word_cycles == kTw);
  }
}

TEST_CASE("hdn total exchange with super-nodes HDN(torus:2x3 1 {C3}) takes the formula's cycles",
          "[total_exchange]") {
  // N_1 = 2 * 6^2 / 3 = 24 nodes hold V = 24 records of 4 words = 96 words each. Stage 1 swaps
  // V/2, stage 3 sends V; stage 2 exchanges over the base rings C2 and C3 ((a - 1) steps of V/2
  // each), stage 4 over C2 only (the super-node's ring C3 is settled).
  const double v = 24 * 4;
  require_formula(run_hdn("torus:2x3", 1, "C3", 32),
                  static_cast<Cycle>(hop(v / 2) + hop(v) + (1 + 2) * hop(v / 2) + 1 * hop(v / 2)));
  CHECK(hop(v / 2) + hop(v) + 4 * hop(v / 2) == 294);
}

TEST_CASE("hdn total exchange at two levels HDN(hypercube:1 2 {1 1}) takes the formula's cycles",
          "[total_exchange]") {
  // N_1 = 2 * 2^2 = 8, N_2 = 2 * 8^2 = 128 nodes: V = 128 records of 4 words = 512 words. Each
  // level swaps V/2 and sends V around two exchanges of the level below; level 0 is the K_2's
  // one step of V/2 (no super-node settles it): E_0 = hop(V/2), E_1 = hop(V/2) + hop(V) + 2 E_0,
  // E_2 = hop(V/2) + hop(V) + 2 E_1.
  const double v = 128 * 4;
  const double e0 = hop(v / 2), e1 = hop(v / 2) + hop(v) + 2 * e0, e2 = hop(v / 2) + hop(v) + 2 * e1;
  const Outcome o = run_hdn("hypercube:1", 2, "1,1", 128);
  require_formula(o, static_cast<Cycle>(e2));
  CHECK(e2 == 2566);
  // SPEC 4.3's T_k as printed: (2^(k+1) - 2)(t_s + t_w m N_k / 2) + 2^k T_0(m N_k / 2), with
  // m = 4 words per destination and T_0 the K_2's step of half a node's m' n_0 words.
  const double half = 4.0 * 128 / 2;
  CHECK(test::get<double>(o.run.report, "collective.spec_formula_cycles") ==
        Approx((8 - 2) * hop(half) + 4 * hop(half * 2 / 2)));
}

TEST_CASE("hdn total exchange with multi-packet messages lies between the cut-through and the "
          "store-and-forward forms", "[total_exchange]") {
  const SystemParams sp = saf_system(4);  // 16-word packets: every message is several
  auto sys = hdn_system("torus:2x3", 1, "1", sp);
  const FirmwareParams fp = total_exchange("hdn", 7, sp);
  Outcome o = run_exchange(*sys, fp);
  SystemParams cut_through = sp;
  cut_through.router.switching = Switching::wormhole;
  const auto& topo = dynamic_cast<const HdnTopology&>(sys->topology());
  const double lower = hdn_exchange_cycles(topo, 8, neighbour_message_cost(cut_through));
  INFO("simulated " << o.execution << ", cut-through form " << lower << ", saf form "
                    << o.formula);
  CHECK(o.execution >= lower);
  CHECK(o.execution < o.formula);
}

TEST_CASE("pairwise total exchange on an HDN delivers every message bit-exact",
          "[total_exchange]") {
  const SystemParams sp = saf_system(16);
  auto sys = hdn_system("torus:2x3", 1, "C3", sp);
  Outcome o = run_exchange(*sys, total_exchange("pairwise", 5, sp));
  // Step i of core c ends when the message of core c - i arrives, which c - i sends after its
  // own step i - 1: a chain of p - 1 = 23 messages, each at least a one-hop message of 2 flits
  // (5 words padded to 8). Contention only adds.
  CHECK(o.execution >= static_cast<Cycle>(23 * hop(8)));
  CHECK(o.run.report.find("collective.formula_cycles") == nullptr);
}

namespace {

Outcome run_dimension_exchange(std::vector<unsigned> k) {
  SystemParams sp = saf_system(32);
  sp.routing = "dor";
  auto sys = test::build("torus", std::move(k), sp);
  return run_exchange(*sys, total_exchange("dimension_exchange", 3, sp));
}

}  // namespace

TEST_CASE("dimension exchange on a kary_ncube hypercube takes the formula's cycles",
          "[total_exchange]") {
  // Q_4: four steps of 32 words: 4 * (7 + 24).
  require_formula(run_dimension_exchange({2, 2, 2, 2}), 124);
}

TEST_CASE("dimension exchange on a 3x3x3 torus takes the formula's cycles", "[total_exchange]") {
  const Outcome o = run_dimension_exchange({3, 3, 3});
  // Three rings of 3, 27 records of 4 words (108): steps of 72 and 36 words, 61 + 34 cycles.
  require_formula(o, 3 * (61 + 34));
  CHECK(test::get<std::uint64_t>(o.run.report, "contention_events") == 0);
}

TEST_CASE("total exchange algorithms refuse platforms they cannot run on", "[total_exchange]") {
  KaryNCube mesh({4, 4}, false);
  KaryNCube torus({4, 4}, true);
  HdnTopology hdn(HdnSpec::parse("hypercube:2", 1, "1"));
  FirmwareParams fp = total_exchange("hdn", 4, SystemParams{});
  CHECK_THROWS_AS(make_firmware("collective", fp, torus), ParamError);
  CHECK_NOTHROW(make_firmware("collective", fp, hdn));
  fp.algorithm = "dimension_exchange";
  CHECK_THROWS_AS(make_firmware("collective", fp, mesh), ParamError);
  CHECK_THROWS_AS(make_firmware("collective", fp, hdn), ParamError);
  CHECK_NOTHROW(make_firmware("collective", fp, torus));
  fp.algorithm = "pairwise";
  CHECK_NOTHROW(make_firmware("collective", fp, mesh));
  CHECK_NOTHROW(make_firmware("collective", fp, hdn));
  KaryNCube two_per_router({2, 2}, true, 2);
  fp.algorithm = "dimension_exchange";
  CHECK_THROWS_AS(make_firmware("collective", fp, two_per_router), ParamError);
}

namespace {

// A message layer of ideal mailboxes (no network) that flips one bit of one message: the
// firmware's own end check must catch it.
class FaultyMailboxes {
 public:
  FaultyMailboxes(unsigned cores, NodeId victim_src, unsigned victim_index, unsigned word,
                  std::uint32_t mask)
      : cores_(cores), victim_src_(victim_src), victim_index_(victim_index), word_(word),
        mask_(mask) {}

  class Port : public MessageLayer {
   public:
    Port(FaultyMailboxes& boxes, NodeId rank) : boxes_(boxes), rank_(rank) {}
    NodeId rank() const override { return rank_; }
    unsigned size() const override { return boxes_.cores_; }
    void send(NodeId dst, const Words& data, const SendOptions&) override {
      Words w = data;
      if (rank_ == boxes_.victim_src_ && boxes_.sent_by_victim_++ == boxes_.victim_index_ &&
          boxes_.word_ < w.size())
        w[boxes_.word_] ^= boxes_.mask_;
      boxes_.box_[{rank_, dst}].push_back(std::move(w));
      boxes_.arrival_.notify(sc_core::SC_ZERO_TIME);
    }
    Words recv(NodeId src) override {
      auto& q = boxes_.box_[{src, rank_}];
      while (q.empty()) sc_core::wait(boxes_.arrival_);
      Words w = std::move(q.front());
      q.pop_front();
      sc_core::wait(1, sc_core::SC_NS);
      return w;
    }
    Message recv_any() override {
      for (;;) {
        for (auto& [key, q] : boxes_.box_)
          if (key.second == rank_ && !q.empty()) {
            Message m;
            m.src = key.first;
            m.words = recv(key.first);
            return m;
          }
        sc_core::wait(boxes_.arrival_);
      }
    }
    void send_coded(const std::vector<NodeId>& dsts, const Words& a, const Words& b,
                    const SendOptions& opt) override {
      for (NodeId d : dsts) send(d, exclusive_or(a, b), opt);
    }
    void xor_words(const Words& a, const Words& b, const SendOptions& opt) override {
      send(rank_, exclusive_or(a, b), opt);
    }
    static Words exclusive_or(const Words& a, const Words& b) {
      Words w(a.size());
      for (std::size_t i = 0; i < a.size(); ++i) w[i] = a[i] ^ b[i];
      return w;
    }
    void compute(Cycle cycles) override {
      sc_core::wait(static_cast<double>(cycles), sc_core::SC_NS);
    }
    Cycle now() const override {
      return static_cast<Cycle>(sc_core::sc_time_stamp() / sc_core::sc_time(1, sc_core::SC_NS));
    }

   private:
    FaultyMailboxes& boxes_;
    NodeId rank_;
  };

  // Runs `fw` on every core and returns its data_verified().
  bool run(Firmware& fw) {
    std::deque<Port> ports;
    for (NodeId r = 0; r < cores_; ++r) {
      ports.emplace_back(*this, r);
      Port& port = ports.back();
      sc_core::sc_spawn([&fw, &port] { fw.run(port); });
    }
    sc_core::sc_start();
    return fw.data_verified();
  }

 private:
  unsigned cores_;
  NodeId victim_src_;
  unsigned victim_index_, word_;
  std::uint32_t mask_;
  unsigned sent_by_victim_ = 0;
  std::map<std::pair<NodeId, NodeId>, std::deque<Words>> box_;
  sc_core::sc_event arrival_;
};

}  // namespace

namespace {

// The hdn algorithm on HDN(hypercube:2, 1, {1}) over mailboxes that flip `mask` in word `word`
// of message number `index` core `victim` sends; returns the firmware's failure ("" if none).
std::string corrupted_run(NodeId victim, unsigned index, unsigned word, std::uint32_t mask) {
  HdnTopology hdn(HdnSpec::parse("hypercube:2", 1, "1"));
  auto fw = make_firmware("collective", total_exchange("hdn", 3, SystemParams{}), hdn);
  FaultyMailboxes boxes(hdn.num_endpoints(), victim, index, word, mask);
  const bool verified = boxes.run(*fw);
  CHECK(verified == fw->failure().empty());
  return fw->failure();
}

}  // namespace

TEST_CASE("a flipped payload bit in a packed message is caught by the end check",
          "[total_exchange]") {
  // Core 5's first message (the stage-1 swap), word 2: the payload of its first record.
  const std::string failure = corrupted_run(5, 0, 2, 0x100);
  INFO(failure);
  CHECK(failure.find("first difference at word 1") != std::string::npos);
}

TEST_CASE("a flipped header bit in a packed message is caught by the end check",
          "[total_exchange]") {
  // Core 9's third message, word 0: a record's header (source << 16 | destination).
  CHECK_FALSE(corrupted_run(9, 2, 0, 0x1).empty());
}

TEST_CASE("the ideal mailboxes deliver an untouched total exchange intact", "[total_exchange]") {
  HdnTopology hdn(HdnSpec::parse("torus:2x3", 1, "C2"));
  auto fw = make_firmware("collective", total_exchange("hdn", 2, SystemParams{}), hdn);
  FaultyMailboxes boxes(hdn.num_endpoints(), 0, 1u << 30, 0, 0);
  CHECK(boxes.run(*fw));
}
