#include <catch2/catch.hpp>
#include <functional>

#include "noc/clock.hpp"

using namespace collnoc;

namespace {

// Drives a ThreadingChoice through its first decision with the given time per cycle
// (`ns(parallel, k)` for the k-th timed cycle of that way, 1000 blocks awake); returns the way it
// then holds for the next cycles (asserting that it holds one).
bool first_choice(const std::function<double(bool, unsigned)>& ns) {
  ThreadingChoice choice;
  unsigned timed_cycles[2] = {0, 0};
  bool parallel = false;
  for (unsigned cycle = 0; cycle < 1000; ++cycle) {
    bool timed = false;
    parallel = choice.choose(timed);
    if (timed) {
      choice.record(parallel, ns(parallel, timed_cycles[parallel]), 1000);
      ++timed_cycles[parallel];
    }
    if (timed_cycles[0] > 0 && timed_cycles[1] > 0 && !timed) break;  // decided
  }
  REQUIRE(timed_cycles[0] >= ThreadingChoice::kMinTimedCycles);
  REQUIRE(timed_cycles[1] >= ThreadingChoice::kMinTimedCycles);
  // (The cycle that decided ran parallel, as the timed ones before it.) Then it holds the way
  // it chose: untimed cycles, all the same way.
  bool timed = false;
  parallel = choice.choose(timed);
  for (unsigned cycle = 0; cycle < 100; ++cycle) {
    REQUIRE(choice.choose(timed) == parallel);
    REQUIRE_FALSE(timed);
  }
  return parallel;
}

}  // namespace

TEST_CASE("threading choice: the faster way is held", "[units]") {
  // One thread at 100 ns per block, all threads at 60: parallel; at 98 (not clearly faster)
  // or 150: one thread.
  CHECK(first_choice([](bool parallel, unsigned) { return parallel ? 60e3 : 100e3; }));
  CHECK_FALSE(first_choice([](bool parallel, unsigned) { return parallel ? 98e3 : 100e3; }));
  CHECK_FALSE(first_choice([](bool parallel, unsigned) { return parallel ? 150e3 : 100e3; }));
}

TEST_CASE("threading choice: one stalled cycle does not decide", "[units]") {
  // A parallel cycle whose other thread lost its core for a time slice (4 ms, 40 cycles' worth)
  // among fast ones: still parallel. And one slow single-thread cycle does not make one
  // thread look slow either.
  CHECK(first_choice([](bool parallel, unsigned k) {
    return parallel ? (k == 2 ? 4e6 : 60e3) : 100e3;
  }));
  CHECK_FALSE(first_choice([](bool parallel, unsigned k) {
    return parallel ? 150e3 : (k == 1 ? 4e6 : 100e3);
  }));
}
