// The pin-level XOR engine (rtl_models/xor_engine_rtl.hpp) against its functional twin XorEngine
// (ni/xor_engine.hpp): every output word bit-exact, each word on the pins in the cycle XorEngine
// makes it ready (or the cycle after the word ahead left, under a stall), no word lost or
// duplicated under random input gaps and output stalls, reset emptying the pipeline, and the VCD
// carrying every signal of rtl_models/xor_engine_rtl.gtkw. Same testbench as
// tests/test_rtl_codecs.cpp (StreamBench in rtl_support.hpp), with XorEngine as the reference:
// each accepted word pair is submitted to it as a one-word packet pair in the cycle the RTL
// takes it.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <systemc>
#include <vector>

#include "ni/xor_engine.hpp"
#include "noc/types.hpp"
#include "rtl_support.hpp"
#include "rtl_models/xor_engine_rtl.hpp"

using namespace collnoc;
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
    wire_handshake(xor_engine, tb);
    xor_engine.in_a(in_a), xor_engine.in_b(in_b), xor_engine.out_word(out_word);
  }
  void trace(sc_core::sc_trace_file* tf) const { xor_engine.trace(tf); }
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

// The stress run of rtl_support.hpp, then what only the XOR engine has: its reported depth,
// XorEngine's operation count, and whole packets equal to XorEngine::xor_words.
void run_xor_stress(unsigned depth, std::size_t words, unsigned seed) {
  const std::vector<Item> items = packet_items(words, seed);
  const auto tb = run_stress<XorSide>(items, seed, depth, items.size());
  CHECK(tb->side.xor_engine.pipeline_depth() == depth);
  CHECK(tb->side.reference.xor_operations() == items.size());

  // Packets: the words of every packet that came out whole are XorEngine's coded packet.
  std::size_t whole = 0;
  for (std::size_t i = 0; i < items.size();) {
    std::size_t j = i;
    std::vector<std::uint32_t> a, b, got;
    bool complete = true;
    for (; j < items.size() && items[j].packet == items[i].packet; ++j) {
      a.push_back(items[j].a);
      b.push_back(items[j].b);
      complete = complete && tb->side.out_word_of[j] >= 0;
      got.push_back(static_cast<std::uint32_t>(tb->side.out_word_of[j]));
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
  run_xor_stress(1, 4000, 1);
}
TEST_CASE("xor rtl latency 2 matches XorEngine bit and cycle exact under stalls and reset") {
  run_xor_stress(2, 4000, 2);
}
TEST_CASE("xor rtl latency 5 matches XorEngine bit and cycle exact under stalls and reset") {
  run_xor_stress(5, 4000, 3);
}
TEST_CASE("xor rtl latency 35 matches XorEngine bit and cycle exact under stalls and reset") {
  run_xor_stress(35, 4000, 4);
}
TEST_CASE("xor rtl latency 64 matches XorEngine bit and cycle exact under stalls and reset") {
  run_xor_stress(64, 4000, 5);
}
TEST_CASE("xor rtl latency 1024 matches XorEngine bit and cycle exact under stalls and reset") {
  run_xor_stress(1024, 10000, 6);  // long enough to fill the 1024 stages twice and still stall
}

TEST_CASE("xor rtl refuses a latency outside 1 to 1024") {
  for (unsigned bad : {0u, 1025u})
    check_refused([bad] { XorEngineRtl rtl("xor_bad", bad); }, "nc.xor_latency_cycles",
                  std::to_string(bad));
  XorEngineRtl ok("xor_ok", 1024);
  CHECK(ok.pipeline_depth() == 1024);
}

// ---------------------------------------------------------------- waves

// A short traced run (40 words, latency 3, gaps, stalls, a reset) to
// $COLLNOC_RTL_WAVES_DIR or ./rtl_waves/xor_engine_rtl.vcd next to a copy of the save file;
// the dump must hold exactly the signals rtl_models/xor_engine_rtl.gtkw names, each changing.
TEST_CASE("xor rtl vcd holds the signals of its gtkw") {
  run_traced<XorSide>("xor_engine_rtl", packet_items(40, 12), 3u, std::size_t{40});
}
