// XorEngine (ni/xor_engine.hpp), the NI's network-coding XOR unit (SPEC 3.1): the coded packet is
// the real word-wise XOR, decoding is the same operation, the result is ready exactly
// xor_latency_cycles after submit, one packet pair is accepted per cycle and pairs overlap in the
// pipeline (or, unpipelined, one every L cycles), unequal lengths and bad latencies are refused,
// and the counters count.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "ni/xor_engine.hpp"
#include "noc/types.hpp"

using namespace collnoc;
using Words = std::vector<std::uint32_t>;

namespace {

Words random_packet(std::mt19937& rng, std::size_t words) {
  Words p(words);
  for (auto& w : p) w = static_cast<std::uint32_t>(rng());
  return p;
}

// Codes a and b in cycle `now` and takes the result as soon as it is ready.
Words code(XorEngine& engine, const Words& a, const Words& b, Cycle now) {
  engine.submit(a, b, now);
  REQUIRE(engine.ready(now + engine.latency_cycles()));
  return engine.take(now + engine.latency_cycles());
}

}  // namespace

TEST_CASE("xor engine codes random packets bit exact and decodes by the same operation") {
  XorEngine engine("xor_engine");
  CHECK(engine.latency_cycles() == 1);  // the default
  std::mt19937 rng(31);
  Cycle now = 0;
  std::uint64_t words = 0;
  for (int n = 0; n < 500; ++n) {
    const std::size_t len = 1 + rng() % 64;
    const Words a = random_packet(rng, len), b = random_packet(rng, len);
    const Words coded = code(engine, a, b, now++);
    REQUIRE(coded.size() == len);
    for (std::size_t i = 0; i < len; ++i) {
      INFO("packet " << n << " word " << i);
      REQUIRE(coded[i] == (a[i] ^ b[i]));
    }
    REQUIRE(code(engine, coded, b, now++) == a);  // A = (A xor B) xor B
    REQUIRE(code(engine, coded, a, now++) == b);
    words += 3 * len;
  }
  // Edge words: all ones against zero, a packet against itself.
  const Words ones(8, 0xFFFFFFFFu), zeros(8, 0u), alt(8, 0xA5A5A5A5u);
  CHECK(code(engine, ones, zeros, now++) == ones);
  CHECK(code(engine, alt, alt, now++) == zeros);
  CHECK(code(engine, alt, ones, now++) == Words(8, 0x5A5A5A5Au));
  CHECK(XorEngine::xor_words({1u, 2u}, {3u, 2u}) == Words{2u, 0u});
  CHECK(engine.xor_operations() == 1503);
  CHECK(engine.words_xored() == words + 24);
  CHECK(engine.in_flight() == 0);
}

TEST_CASE("xor engine decodes a chain of coded packets as the hierarchical scheme does") {
  // SPEC 3.2 steps 3 and 7: from d_1 and the chain d_1^d_2 ... d_{M-1}^d_M, every d_j.
  XorEngine engine("xor_engine", XorEngineParams{3});
  std::mt19937 rng(7);
  const std::size_t m = 8, len = 4;
  std::vector<Words> data;
  for (std::size_t j = 0; j < m; ++j) data.push_back(random_packet(rng, len));
  Cycle now = 0;
  std::vector<Words> chain;
  for (std::size_t j = 0; j + 1 < m; ++j) engine.submit(data[j], data[j + 1], now++);
  for (std::size_t j = 0; j + 1 < m; ++j) {
    while (!engine.ready(now)) ++now;
    chain.push_back(engine.take(now));
  }
  Words known = data[0];
  for (std::size_t j = 1; j < m; ++j) {
    known = code(engine, chain[j - 1], known, now++);
    REQUIRE(known == data[j]);
  }
  CHECK(engine.xor_operations() == 2 * (m - 1));
}

TEST_CASE("xor engine result is ready exactly L cycles after submit for L 0 1 5 35 64") {
  std::mt19937 rng(5);
  for (unsigned latency : {0u, 1u, 5u, 35u, 64u}) {
    INFO("L = " << latency);
    XorEngine engine(("xor_l" + std::to_string(latency)).c_str(), XorEngineParams{latency});
    CHECK(engine.latency_cycles() == latency);
    CHECK(engine.next_ready_cycle() == kNever);
    CHECK_FALSE(engine.ready(0));
    const Words a = random_packet(rng, 16), b = random_packet(rng, 16);
    const Cycle t = 100;
    engine.submit(a, b, t);
    CHECK(engine.next_ready_cycle() == t + latency);
    for (Cycle c = t; c < t + latency; ++c) {
      REQUIRE_FALSE(engine.ready(c));
      REQUIRE_THROWS_AS(engine.take(c), std::logic_error);
    }
    REQUIRE(engine.ready(t + latency));  // L = 0: in the cycle it was submitted
    CHECK(engine.take(t + latency) == XorEngine::xor_words(a, b));
    CHECK(engine.in_flight() == 0);
    CHECK(engine.busy_cycles() == std::max(latency, 1u));
  }
}

TEST_CASE("xor engine pipelines one packet pair per cycle") {
  const unsigned latency = 35;
  XorEngine engine("xor_engine", XorEngineParams{latency});
  std::mt19937 rng(9);
  std::vector<Words> expected;
  const Cycle first = 10, pairs = 40;
  for (Cycle t = first; t < first + pairs; ++t) {
    REQUIRE(engine.can_accept(t));
    const Words a = random_packet(rng, 2), b = random_packet(rng, 2);
    engine.submit(a, b, t);
    expected.push_back(XorEngine::xor_words(a, b));
    // A second pair in the same cycle is refused and changes nothing.
    REQUIRE_FALSE(engine.can_accept(t));
    REQUIRE_THROWS_AS(engine.submit(a, b, t), std::logic_error);
  }
  CHECK(engine.in_flight() == pairs);
  CHECK_THROWS_AS(engine.submit({1u}, {2u}, first), std::logic_error);  // time going back
  // The results leave in order, one per cycle, each exactly L after its submit.
  std::size_t out = 0;
  for (Cycle c = first; c < first + pairs + latency + 5; ++c) {
    if (!engine.ready(c)) continue;
    INFO("cycle " << c);
    REQUIRE(c == first + out + latency);
    REQUIRE(engine.take(c) == expected[out]);
    ++out;
    REQUIRE_FALSE(engine.ready(c));  // one result per submit cycle
  }
  CHECK(out == pairs);
  CHECK(engine.xor_operations() == pairs);
  CHECK(engine.words_xored() == 2 * pairs);
  CHECK(engine.busy_cycles() == pairs + latency - 1);  // overlapped: cycles 10 .. 83
  // An idle gap, then one more pair: L more busy cycles.
  engine.submit({1u}, {1u}, 500);
  CHECK(engine.busy_cycles() == pairs + 2 * latency - 1);
  // Results not taken at once wait, in order.
  engine.submit({2u}, {1u}, 501);
  CHECK(engine.ready(600));
  CHECK(engine.take(600) == Words{0u});
  CHECK(engine.take(600) == Words{3u});
}

// nc.xor_pipelined = false: one datapath busy L cycles per pair. A chain of pairs handed over
// back to back (each as soon as the engine takes it) comes out L cycles apart, not 1.
TEST_CASE("xor engine unpipelined takes a pair every L cycles so results come L apart") {
  for (unsigned latency : {0u, 1u, 5u, 35u}) {
    INFO("L = " << latency);
    XorEngineParams p{latency};
    p.xor_pipelined = false;
    XorEngine engine(("xor_unpiped_l" + std::to_string(latency)).c_str(), p);
    const Cycle interval = std::max(latency, 1u);
    CHECK_FALSE(engine.pipelined());
    CHECK(engine.issue_interval_cycles() == interval);
    std::mt19937 rng(11);
    std::vector<Words> expected;
    const Cycle first = 10;
    const unsigned pairs = 8;
    Cycle t = first;
    for (unsigned i = 0; i < pairs; ++i) {
      while (!engine.can_accept(t)) {
        REQUIRE_THROWS_AS(engine.submit({1u}, {2u}, t), std::logic_error);  // busy: refused
        ++t;
      }
      REQUIRE(t == first + i * interval);  // accepted exactly when the last pair is done
      const Words a = random_packet(rng, 4), b = random_packet(rng, 4);
      engine.submit(a, b, t);
      expected.push_back(XorEngine::xor_words(a, b));
    }
    std::vector<Cycle> out;
    for (Cycle c = first; out.size() < pairs && c < first + (pairs + 2) * interval + latency; ++c)
      while (engine.ready(c)) {
        REQUIRE(engine.take(c) == expected[out.size()]);
        out.push_back(c);
      }
    REQUIRE(out.size() == pairs);
    for (unsigned i = 0; i < pairs; ++i) CHECK(out[i] == first + i * interval + latency);
    // No overlap: busy exactly pairs x max(L, 1) cycles.
    CHECK(engine.busy_cycles() == pairs * interval);
  }
  // The pipelined default for comparison: the same chain comes out 1 cycle apart.
  XorEngine piped("xor_piped_35", XorEngineParams{35});
  CHECK(piped.pipelined());
  CHECK(piped.issue_interval_cycles() == 1);
}

TEST_CASE("xor engine refuses packets of unequal length") {
  XorEngine engine("xor_engine");
  try {
    engine.submit(Words(4, 1u), Words(5, 2u), 0);
    FAIL("unequal lengths accepted");
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    CHECK(what.find("unequal length") != std::string::npos);
    CHECK(what.find("4 and 5") != std::string::npos);
  }
  CHECK_THROWS_AS(engine.submit({}, {}, 0), std::invalid_argument);
  CHECK_THROWS_AS(XorEngine::xor_words({1u}, {}), std::invalid_argument);
  // Nothing was taken in: the cycle is still free and the counters are zero.
  CHECK(engine.can_accept(0));
  CHECK(engine.in_flight() == 0);
  CHECK(engine.xor_operations() == 0);
  CHECK(engine.busy_cycles() == 0);
  engine.submit({1u}, {3u}, 0);
  CHECK(engine.take(1) == Words{2u});
}

TEST_CASE("xor engine refuses a latency outside 0 to 1024") {
  CHECK_NOTHROW(validate(XorEngineParams{}));
  CHECK_NOTHROW(validate(XorEngineParams{0}));
  CHECK_NOTHROW(validate(XorEngineParams{kMaxXorLatencyCycles}));
  for (unsigned bad : {1025u, 100000u}) {
    INFO("latency " << bad);
    try {
      XorEngine engine("xor_bad", XorEngineParams{bad});
      FAIL("latency accepted");
    } catch (const ParamError& e) {
      CHECK(e.key() == "nc.xor_latency_cycles");
      CHECK(e.value() == std::to_string(bad));
    }
  }
  XorEngine ok("xor_ok", XorEngineParams{1024});  // the name is free: nothing was built
  CHECK(ok.latency_cycles() == 1024);
}
