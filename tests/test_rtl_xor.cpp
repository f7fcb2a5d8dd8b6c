// The pin-level XOR engine (rtl_models/xor_engine_rtl.hpp) against its functional twin XorEngine
// (ni/xor_engine.hpp): every output word bit-exact, each word on the pins in the cycle XorEngine
// makes it ready (or the cycle after the word ahead left, under a stall), no word lost or
// duplicated under random input gaps and output stalls, reset emptying the pipeline, and the VCD
// carrying every signal of rtl_models/xor_engine_rtl.gtkw. Same testbench as
// tests/test_rtl_codecs.cpp (StreamBench in rtl_support.hpp), with XorEngine as the reference:
// each accepted word pair is submitted to it as a one-word packet pair in the cycle the RTL
// takes it.
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



// One word pair: the words of packets A and B at the same place; `packet` numbers the packet
// the pair belongs to (consecutive pairs of one packet).
struct Item {
  std::uint32_t a = 0, b = 0;
  std::size_t packet = 0;
};


// The engine's pins, with XorEngine beside it: each pair the RTL takes enters XorEngine in the
// same cycle as a one-word packet pair, and every word the RTL hands out must be XorEngine's
// result, ready in that cycle.
struct XorSide {
  sc_signal<sc_uint<32>> in_a{"in_a"}, in_b{"in_b"}, out_word{"out_word"};
  XorEngineRtl xor_engine;  // the block under test
  XorEngine reference;      // its functional twin
  std::vector<std::int64_t> out_word_of;  // per word: the word it came out as; -1 dropped
  unsigned depth_;

  XorSide(unsigned depth, std::size_t words)
      : xor_engine("xor_engine", depth), reference("reference", XorEngineParams{depth}),
        out_word_of(words, -1), depth_(depth) {}
  template <class Bench>
  void bind(Bench& tb) {
    xor_engine.clk(tb.clk), xor_engine.rst(tb.rst);
    xor_engine.in_valid(tb.in_valid), xor_engine.in_ready(tb.in_ready);
    xor_engine.in_a(in_a), xor_engine.in_b(in_b);
    xor_engine.out_valid(tb.out_valid), xor_engine.out_ready(tb.out_ready);
    xor_engine.out_word(out_word);
  }
  // The latency the test asked for, not what the RTL reports of itself: the bench counts the
  // cycles from acceptance to the word on the pins and compares them with this.
  unsigned depth() const { return depth_; }
  void drive(const Item& x) {
    in_a.write(x.a);
    in_b.write(x.b);
  }
  std::uint32_t sample() const { return out_word.read().to_uint(); }
  static std::string check(const Item& x, std::uint32_t got) {
    if (got != (x.a ^ x.b)) return hex(x.a) + " ^ " + hex(x.b) + " gave " + hex(got);
    return {};
  }
  std::string accepted(const Item& x, std::int64_t cycle) {
    if (!reference.can_accept(static_cast<Cycle>(cycle)))
      return "the RTL took two pairs in one cycle";
    reference.submit({x.a}, {x.b}, static_cast<Cycle>(cycle));
    return {};
  }
  std::string reset(std::size_t inside) {  // the words inside are gone, in both models
    std::string wrong;
    if (reference.in_flight() != inside)
      wrong = "XorEngine holds " + std::to_string(reference.in_flight()) + " pairs, the RTL " +
              std::to_string(inside);
    reference.reset();
    return wrong;
  }
  std::string handed_off(std::size_t index, std::int64_t accepted_at, std::int64_t now,
                         std::uint32_t got) {
    out_word_of[index] = got;
    // The RTL may hand a word out no earlier than its functional twin has it ready (the bench
    // checks, from the pins, that it shows no later than L cycles after acceptance either).
    if (!reference.ready(static_cast<Cycle>(now)))
      return "the RTL handed out the word taken at " + std::to_string(accepted_at) +
             " before XorEngine has it ready (cycle " +
             std::to_string(reference.next_ready_cycle()) + ")";
    const std::vector<std::uint32_t> ref = reference.take(static_cast<Cycle>(now));
    if (ref.size() != 1 || ref[0] != got)
      return "the RTL gave " + hex(got) + ", XorEngine " +
             (ref.empty() ? std::string("nothing") : hex(ref[0]));
    return {};
  }
};
using Bench = StreamBench<XorSide, Item>;


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
  Bench tb("tb", items, stress_phases(items.size()), seed, depth, items.size());
  tb.run(20 * items.size() + 20 * depth + 1000);
  INFO("depth " << depth << ", first errors:\n" << [&] {
    std::string s;
    for (const auto& e : tb.errors) s += "  " + e + "\n";
    return s;
  }());
  CHECK(tb.error_count == 0);
  REQUIRE(tb.done());
  CHECK(tb.side.xor_engine.pipeline_depth() == depth);

  // Conservation: every accepted word came out once, except those inside at a reset.
  REQUIRE(tb.accepted == items.size());
  REQUIRE(tb.dropped.size() == 3);  // the initial reset and the two mid-stream ones
  CHECK(tb.dropped[0] == 0);
  CHECK(tb.dropped[1] == depth);  // a full pipeline: one word per stage
  CHECK(tb.dropped[2] == depth);
  CHECK(tb.outputs + tb.dropped[1] + tb.dropped[2] == items.size());
  CHECK(tb.checks == tb.outputs);
  CHECK(tb.side.reference.xor_operations() == items.size());

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
      complete = complete && tb.side.out_word_of[j] >= 0;
      got.push_back(static_cast<std::uint32_t>(tb.side.out_word_of[j]));
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
  Bench tb("tb", packet_items(n, 12),
           {{6, 0.0, 0.0, true}, {n / 2, 0.3, 0.3, false}, {n, 0.0, 0.5, false}}, 5, 3, n);
  sc_core::sc_trace_file* tf = sc_core::sc_create_vcd_trace_file(base.c_str());
  tf->set_time_unit(100, sc_core::SC_PS);  // the clock's falling edge is at half a cycle
  tb.side.xor_engine.trace(tf);
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
