#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <systemc>

#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>
#include <stdexcept>

#include "noc/sim/clocked_block.hpp"

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

TEST_CASE("port marks: a group's bytes become its port bits", "[units]") {
  for (unsigned ports = 0; ports < 256; ++ports) {
    std::uint64_t bytes = 0;
    for (unsigned i = 0; i < 8; ++i)
      if (ports >> i & 1) bytes |= std::uint64_t{1} << (8 * i);
    REQUIRE(PortMarks::ports_of(bytes) == ports);
  }
}

TEST_CASE("port marks: a mark made in cycle t is taken in cycle t + 1, once", "[units]") {
  PortMarks marks;
  marks.resize(5);
  std::uint64_t flits = 0, credits = 0;
  marks.take(9, flits, credits);
  marks.take(10, flits, credits);
  PortMarks::mark(marks.flit_mark(3), 10);    // a flit for input 3, sent in cycle 10
  PortMarks::mark(marks.credit_mark(4), 10);  // a credit for output 4
  CHECK(marks.flits_marked(10) == 0b1000);    // (what next_work_cycle sees in cycle 10)
  CHECK(flits == 0);
  CHECK(credits == 0);
  marks.take(11, flits, credits);
  CHECK(flits == 0b1000);
  CHECK(credits == 0b10000);
  flits = credits = 0;
  marks.take(12, flits, credits);
  marks.take(13, flits, credits);
  CHECK(flits == 0);
  CHECK(credits == 0);
}

TEST_CASE("port marks: a block that slept finds the marks of both halves", "[units]") {
  PortMarks marks;
  marks.resize(20);  // three groups of 8 ports, on the heap
  std::uint64_t flits = 0, credits = 0;
  marks.take(5, flits, credits);
  PortMarks::mark(marks.flit_mark(1), 6);    // half 0
  PortMarks::mark(marks.flit_mark(17), 7);   // half 1
  PortMarks::mark(marks.credit_mark(9), 8);  // half 0
  marks.take(9, flits, credits);  // slept through 6..8: takes half 0, reads half 1
  CHECK(flits == ((std::uint64_t{1} << 1) | (std::uint64_t{1} << 17)));
  CHECK(credits == std::uint64_t{1} << 9);
  flits = credits = 0;
  marks.take(10, flits, credits);  // half 1 (read but not cleared in cycle 9) again
  CHECK(flits == std::uint64_t{1} << 17);
  CHECK(credits == 0);
  flits = 0;
  marks.take(11, flits, credits);
  CHECK(flits == 0);
  CHECK_THROWS_AS(marks.flit_mark(24), std::logic_error);
}

namespace {

// Threads that wait on CycleEvents and log the cycle and order they run in.
struct EventWaiters : sc_core::sc_module {
  Clock& clock;
  std::vector<std::unique_ptr<CycleEvent>> events;
  std::vector<std::pair<unsigned, Cycle>> woken;  // (waiter, cycle), in the order they ran
  EventWaiters(sc_core::sc_module_name name, Clock& c, unsigned n) : sc_module(name), clock(c) {
    for (unsigned i = 0; i < n; ++i) {
      events.push_back(std::make_unique<CycleEvent>(clock));
      sc_core::sc_spawn([this, i] {
        for (;;) {
          sc_core::wait(events[i]->event());
          clock.thread_resumed();
          woken.emplace_back(i, clock.now());
        }
      });
    }
  }
};

}  // namespace

TEST_CASE("cycle events: notified on their cycle (the earliest stands) in the order asked for",
          "[units]") {
  Clock clock("clock", sc_core::sc_time(1, sc_core::SC_NS));
  EventWaiters w("waiters", clock, 4);
  sc_core::sc_start(clock.delay(1));  // (the threads wait)
  w.events[2]->notify_at(5);
  w.events[0]->notify_at(5);
  w.events[1]->notify_at(9);
  w.events[1]->notify_at(7);   // earlier: it stands
  w.events[3]->notify_at(200); // beyond the wheel
  w.events[3]->notify_at(300); // later: ignored
  sc_core::sc_start(clock.delay(100));
  REQUIRE(w.woken == std::vector<std::pair<unsigned, Cycle>>{{2, 5}, {0, 5}, {1, 7}});
  w.events[0]->notify_at(150);
  w.events[0]->cancel();  // (a message the thread has taken since)
  w.events[1]->notify_at(160);
  sc_core::sc_start(clock.delay(250));
  REQUIRE(w.woken == std::vector<std::pair<unsigned, Cycle>>{{2, 5}, {0, 5}, {1, 7}, {1, 160},
                                                              {3, 200}});
}
