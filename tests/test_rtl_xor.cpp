// The pin-level XOR engine (rtl_models/xor_engine_rtl.hpp) against its functional twin XorEngine
// (ni/xor_engine.hpp): every output word bit-exact, each word on the pins in the cycle XorEngine
// makes it ready (or the cycle after the word ahead left, under a stall), no word lost or
// duplicated under random input gaps and output stalls, reset emptying the pipeline, and the VCD
// carrying every signal of rtl_models/xor_engine_rtl.gtkw. Same testbench as
// tests/test_rtl_codecs.cpp, with a runtime pipeline depth and XorEngine as the reference: each
// accepted word pair is submitted to it as a one-word packet pair in the cycle the RTL takes it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <systemc>
#include <vector>

#include "ni/xor_engine.hpp"
#include "noc/types.hpp"
#include "rtl_support.hpp"
#include "rtl_models/xor_engine_rtl.hpp"

using namespace collnoc;
using sc_core::sc_signal;
using sc_dt::sc_uint;

using namespace collnoc::test;

namespace {

const sc_core::sc_time kPeriod(1, sc_core::SC_NS);


// One word pair: the words of packets A and B at the same place; `packet` numbers the packet
// the pair belongs to (consecutive pairs of one packet).
struct Item {
  std::uint32_t a = 0, b = 0;
  std::size_t packet = 0;
};


class Bench : public sc_core::sc_module {
 public:
  sc_core::sc_clock clk{"clk", kPeriod};  // first rising edge at 0: edge n at n ns
  sc_signal<bool> rst{"rst", true};
  sc_signal<bool> in_valid{"in_valid"}, in_ready{"in_ready"};
  sc_signal<bool> out_valid{"out_valid"}, out_ready{"out_ready", true};
  sc_signal<sc_uint<32>> in_a{"in_a"}, in_b{"in_b"}, out_word{"out_word"};
  XorEngineRtl xor_engine;  // the block under test
  XorEngine reference;      // its functional twin

  // Results.
  std::size_t accepted = 0;
  std::size_t outputs = 0;
  std::vector<std::size_t> dropped;    // words inside the block at each reset edge
  std::vector<std::int64_t> latency;   // per word: first shown - accepted; -1 dropped
  std::vector<std::int64_t> out_word_of;  // per word: the word it came out as; -1 dropped
  std::size_t checks = 0;
  std::size_t error_count = 0;
  std::vector<std::string> errors;
  bool in_ready_low_in_free_flow = false;
  std::size_t backpressured_cycles = 0;

  Bench(sc_core::sc_module_name name, unsigned depth, std::vector<Item> items,
        std::vector<Phase> phases, unsigned seed)
      : sc_module(name), xor_engine("xor_engine", depth),
        reference("reference", XorEngineParams{depth}), items_(std::move(items)),
        phases_(std::move(phases)), drive_rng_(seed), take_rng_(seed * 7919u + 1) {
    xor_engine.clk(clk), xor_engine.rst(rst);
    xor_engine.in_valid(in_valid), xor_engine.in_ready(in_ready);
    xor_engine.in_a(in_a), xor_engine.in_b(in_b);
    xor_engine.out_valid(out_valid), xor_engine.out_ready(out_ready);
    xor_engine.out_word(out_word);
    latency.assign(items_.size(), -1);
    out_word_of.assign(items_.size(), -1);
    SC_HAS_PROCESS(Bench);
    SC_METHOD(drive);
    sensitive << clk.posedge_event();
    dont_initialize();
    SC_METHOD(take);
    sensitive << clk.posedge_event();
    dont_initialize();
  }

  unsigned depth() const { return xor_engine.pipeline_depth(); }
  void run(std::uint64_t max_cycles) {
    sc_core::sc_start(static_cast<double>(max_cycles), sc_core::SC_NS);
  }
  bool done() const { return accepted == items_.size() && in_flight_.empty(); }

 private:
  enum class Mode { run, fill, reset };
  struct InFlight {
    std::size_t index;
    std::int64_t accepted_at;
  };

  static std::int64_t cycle() {
    return static_cast<std::int64_t>(sc_core::sc_time_stamp() / kPeriod + 0.5);
  }
  void fail(const std::string& what) {
    ++error_count;
    if (errors.size() < 20) errors.push_back("cycle " + std::to_string(cycle()) + ": " + what);
  }
  const Phase& phase() const { return phases_[std::min(phase_, phases_.size() - 1)]; }

  void drive() {
    const bool valid = in_valid.read(), ready = in_ready.read();
    if (rst.read() && ready) fail("in_ready high during reset");
    if (valid && !ready && !rst.read()) {
      ++backpressured_cycles;
      if (mode_ == Mode::run && phase_ == 0) in_ready_low_in_free_flow = true;
    }
    if (valid && ready) {
      // The same pair enters the functional engine in the same cycle.
      const Item& x = items_[accepted];
      if (!reference.can_accept(static_cast<Cycle>(cycle())))
        fail("the RTL took two pairs in one cycle");
      else
        reference.submit({x.a}, {x.b}, static_cast<Cycle>(cycle()));
      in_flight_.push_back({accepted, cycle()});
      ++accepted;
      pending_ = false;
    }

    switch (mode_) {
      case Mode::run:
        if (accepted >= phase().end_word && phase_ < phases_.size()) {
          if (phase().reset_after) {
            mode_ = Mode::fill;  // hold the output until the pipeline is full, then reset
            left_ = depth() + 3;
            hold_output_ = true;
          } else {
            ++phase_;
          }
        }
        break;
      case Mode::fill:
        if (--left_ == 0) {
          mode_ = Mode::reset;
          left_ = 2;
        }
        break;
      case Mode::reset:
        if (--left_ == 0) {
          mode_ = Mode::run;
          hold_output_ = false;
          if (initial_reset_)
            initial_reset_ = false;
          else
            ++phase_;
        }
        break;
    }
    rst.write(mode_ == Mode::reset);

    if (pending_) return;  // valid stays high, data stable, until taken
    const bool offer = accepted < items_.size() &&
                       (mode_ != Mode::run || coin(drive_rng_) >= phase().gap_prob);
    in_valid.write(offer);
    if (offer) {
      in_a.write(items_[accepted].a);
      in_b.write(items_[accepted].b);
      pending_ = true;
    }
  }

  void take() {
    const std::int64_t now = cycle();
    const bool valid = out_valid.read();
    if (valid && after_reset_) fail("out_valid high right after a reset edge");
    if (valid) {
      const std::uint32_t got = out_word.read().to_uint();
      if (!presenting_) {
        presenting_ = true;
        first_seen_ = now;
        shown_ = got;
      } else if (got != shown_) {
        fail("output changed while stalled");
      }
      if (out_ready.read()) {
        handoff(got, now);
        presenting_ = false;
      }
    } else if (presenting_) {
      fail("out_valid dropped before the word was taken");
      presenting_ = false;
    }

    if (rst.read()) {  // the words inside are gone, in both models
      if (!after_reset_) dropped.push_back(in_flight_.size());
      if (reference.in_flight() != in_flight_.size())
        fail("XorEngine holds " + std::to_string(reference.in_flight()) + " pairs, the RTL " +
             std::to_string(in_flight_.size()));
      in_flight_.clear();
      reference.reset();
      presenting_ = false;
    }
    after_reset_ = rst.read();

    out_ready.write(!hold_output_ && coin(take_rng_) >= phase().stall_prob);
    if (done() && !initial_reset_ && mode_ == Mode::run) sc_core::sc_stop();
  }

  void handoff(std::uint32_t got, std::int64_t now) {
    if (in_flight_.empty()) {
      fail("a word came out that was never accepted (duplicate?)");
      return;
    }
    const InFlight w = in_flight_.front();
    in_flight_.pop_front();
    ++outputs;
    ++checks;
    const Item& x = items_[w.index];
    // Cycle: the word shows when XorEngine has it ready, or the cycle after the word ahead of
    // it left, whichever is later (a stall holds the pipeline).
    const Cycle ready_at = reference.next_ready_cycle();
    const std::int64_t expected =
        std::max(static_cast<std::int64_t>(ready_at), last_handoff_ + 1);
    if (ready_at != static_cast<Cycle>(w.accepted_at) + depth())
      fail("XorEngine's result is ready at " + std::to_string(ready_at) + ", not L after " +
           std::to_string(w.accepted_at));
    if (first_seen_ != expected)
      fail("word " + std::to_string(w.index) + " accepted at " + std::to_string(w.accepted_at) +
           " shown at " + std::to_string(first_seen_) + ", expected " + std::to_string(expected));
    // Bits: XorEngine's result, and the XOR itself.
    if (!reference.ready(static_cast<Cycle>(now))) {
      fail("XorEngine has no result ready at the handoff");
    } else {
      const std::vector<std::uint32_t> ref = reference.take(static_cast<Cycle>(now));
      if (ref.size() != 1 || ref[0] != got || got != (x.a ^ x.b))
        fail("word " + std::to_string(w.index) + ": " + hex(x.a) + " ^ " + hex(x.b) + " gave " +
             hex(got) + ", XorEngine " + (ref.empty() ? std::string("nothing") : hex(ref[0])));
    }
    latency[w.index] = first_seen_ - w.accepted_at;
    out_word_of[w.index] = got;
    last_handoff_ = now;
  }

  static double coin(std::mt19937& rng) {
    return std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  }

  std::vector<Item> items_;
  std::vector<Phase> phases_;
  std::mt19937 drive_rng_, take_rng_;
  Mode mode_ = Mode::reset;  // rst starts high for a few cycles
  unsigned left_ = 3;
  bool initial_reset_ = true;
  std::size_t phase_ = 0;
  bool hold_output_ = false;
  bool pending_ = false;
  std::deque<InFlight> in_flight_;
  bool presenting_ = false, after_reset_ = false;
  std::int64_t first_seen_ = 0, last_handoff_ = -1;
  std::uint32_t shown_ = 0;
};


// Packets of 1..16 word pairs: edge words (0, all ones, alternating bits, single bits), random
// words, and decoding pairs (a coded word with one of its operands, giving back the other).
std::vector<Item> packet_items(std::size_t count, unsigned seed) {
  const std::vector<std::uint32_t> edges = {0u, 0xFFFFFFFFu, 0xAAAAAAAAu, 0x55555555u,
                                            0x80000000u, 1u, 0x7FFFFFFFu, 0xFFFF0000u};
  std::mt19937 rng(seed);
  std::vector<Item> items;
  std::size_t packet = 0;
  while (items.size() < count) {
    const std::size_t len = 1 + rng() % 16;
    const unsigned kind = rng() % 4;
    for (std::size_t i = 0; i < len; ++i) {
      Item x{static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()), packet};
      if (kind == 0) {
        x.a = edges[rng() % edges.size()];
        x.b = rng() % 2 ? edges[rng() % edges.size()] : 1u << (rng() % 32);
      } else if (kind == 1) {
        x.a ^= x.b;  // (A ^ B) with B: the engine restores A
      }
      items.push_back(x);
    }
    ++packet;
  }
  items.resize(count);
  return items;
}

void run_stress(unsigned depth, std::size_t words, unsigned seed) {
  const std::vector<Item> items = packet_items(words, seed);
  Bench tb("tb", depth, items, stress_phases(items.size()), seed);
  tb.run(20 * items.size() + 20 * depth + 1000);
  INFO("depth " << depth << ", first errors:\n" << [&] {
    std::string s;
    for (const auto& e : tb.errors) s += "  " + e + "\n";
    return s;
  }());
  CHECK(tb.error_count == 0);
  REQUIRE(tb.done());

  // Conservation: every accepted word came out once, except those inside at a reset.
  REQUIRE(tb.accepted == items.size());
  REQUIRE(tb.dropped.size() == 3);  // the initial reset and the two mid-stream ones
  CHECK(tb.dropped[0] == 0);
  CHECK(tb.dropped[1] == depth);  // a full pipeline: one word per stage
  CHECK(tb.dropped[2] == depth);
  CHECK(tb.outputs + tb.dropped[1] + tb.dropped[2] == items.size());
  CHECK(tb.checks == tb.outputs);
  CHECK(tb.reference.xor_operations() == items.size());

  // Free flow: one word per cycle, each out exactly L cycles after acceptance.
  CHECK_FALSE(tb.in_ready_low_in_free_flow);
  std::size_t at_depth = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (tb.latency[i] < 0) continue;
    if (i < 290) REQUIRE(tb.latency[i] == std::int64_t{depth});
    REQUIRE(tb.latency[i] >= std::int64_t{depth});
    if (tb.latency[i] == std::int64_t{depth}) ++at_depth;
  }
  // Stalls delay the words behind them; in a deep pipeline a stall holds more words, so only
  // the free-flow words are sure to see exactly L.
  CHECK(at_depth > (depth <= 64 ? items.size() / 4 : 290));
  CHECK(tb.backpressured_cycles > items.size() / 10);

  // Packets: the words of every packet that came out whole are XorEngine's coded packet.
  std::size_t whole = 0;
  for (std::size_t i = 0; i < items.size();) {
    std::size_t j = i;
    std::vector<std::uint32_t> a, b, got;
    bool complete = true;
    for (; j < items.size() && items[j].packet == items[i].packet; ++j) {
      a.push_back(items[j].a);
      b.push_back(items[j].b);
      complete = complete && tb.out_word_of[j] >= 0;
      got.push_back(static_cast<std::uint32_t>(tb.out_word_of[j]));
    }
    if (complete) {
      ++whole;
      REQUIRE(got == XorEngine::xor_words(a, b));
    }
    i = j;
  }
  CHECK(whole > 100);
}

}  // namespace

// ---------------------------------------------------------------- streams

TEST_CASE("xor rtl latency 1 matches XorEngine bit and cycle exact under stalls and reset") {
  run_stress(1, 4000, 1);
}
TEST_CASE("xor rtl latency 2 matches XorEngine bit and cycle exact under stalls and reset") {
  run_stress(2, 4000, 2);
}
TEST_CASE("xor rtl latency 5 matches XorEngine bit and cycle exact under stalls and reset") {
  run_stress(5, 4000, 3);
}
TEST_CASE("xor rtl latency 35 matches XorEngine bit and cycle exact under stalls and reset") {
  run_stress(35, 4000, 4);
}
TEST_CASE("xor rtl latency 64 matches XorEngine bit and cycle exact under stalls and reset") {
  run_stress(64, 4000, 5);
}
TEST_CASE("xor rtl latency 1024 matches XorEngine bit and cycle exact under stalls and reset") {
  run_stress(1024, 10000, 6);  // long enough to fill the 1024 stages twice and still stall
}

TEST_CASE("xor rtl refuses a latency outside 1 to 1024") {
  for (unsigned bad : {0u, 1025u}) {
    INFO("latency " << bad);
    try {
      XorEngineRtl rtl("xor_bad", bad);
      FAIL("XorEngineRtl accepted the latency");
    } catch (const ParamError& e) {
      CHECK(e.key() == "nc.xor_latency_cycles");
      CHECK(e.value() == std::to_string(bad));
    }
  }
  XorEngineRtl ok("xor_ok", 1024);
  CHECK(ok.pipeline_depth() == 1024);
}

// ---------------------------------------------------------------- waves

// A short traced run (40 words, latency 3, gaps, stalls, a reset) to
// $COLLNOC_RTL_WAVES_DIR or ./rtl_waves/xor_engine_rtl.vcd next to a copy of the save file;
// the dump must hold exactly the signals rtl_models/xor_engine_rtl.gtkw names, each changing.
TEST_CASE("xor rtl vcd holds the signals of its gtkw") {
  const char* env = std::getenv("COLLNOC_RTL_WAVES_DIR");
  const std::filesystem::path dir = env && *env ? env : "rtl_waves";
  std::filesystem::create_directories(dir);
  const std::string base = (dir / "xor_engine_rtl").string();
  const std::string gtkw = source_path("rtl_models/xor_engine_rtl.gtkw");
  std::filesystem::copy_file(gtkw, base + ".vcd.gtkw",
                             std::filesystem::copy_options::overwrite_existing);

  const std::size_t n = 40;
  Bench tb("tb", 3, packet_items(n, 12),
           {{6, 0.0, 0.0, true}, {n / 2, 0.3, 0.3, false}, {n, 0.0, 0.5, false}}, 5);
  sc_core::sc_trace_file* tf = sc_core::sc_create_vcd_trace_file(base.c_str());
  tf->set_time_unit(100, sc_core::SC_PS);  // the clock's falling edge is at half a cycle
  tb.xor_engine.trace(tf);
  tb.run(40 * n + 100);
  sc_core::sc_close_vcd_trace_file(tf);
  CHECK(tb.error_count == 0);
  REQUIRE(tb.done());

  const auto in_dump = vcd_signals(base + ".vcd");
  const auto in_save = gtkw_signals(gtkw);
  REQUIRE(!in_save.empty());
  for (const auto& name : in_save) {
    INFO("signal " << name << " of " << gtkw);
    REQUIRE(in_dump.count(name) == 1);
    CHECK(in_dump.at(name) >= 2);  // it moved
  }
  const std::set<std::string> saved(in_save.begin(), in_save.end());
  for (const auto& [name, values] : in_dump) {
    INFO("signal " << name << " of the dump is missing from " << gtkw);
    CHECK(saved.count(name) == 1);
  }
}
