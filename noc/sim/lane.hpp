// A thread of a parallel cycle (Clock::set_threads): what its blocks ask of the clock waits here
// until every thread is done.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "noc/types.hpp"

namespace collnoc {

// One thread of a parallel cycle. The wake-ups its blocks' sends ask for wait here until
// every thread is done, and the clock's thread makes them.
struct alignas(64) Lane {  // each thread's on a cache line of its own
  unsigned index = 0;  // 0: the clock's own thread
  bool any_awake = false;  // a block it evaluated stays awake for the next cycle
  // Wakes `block` for `cycle` (> now) once the parallel part is done. Most are for the next
  // cycle and for blocks that stay awake anyway: those are a bit per block, and the clock
  // wakes only the ones that went to sleep.
  void wake(unsigned block, Cycle cycle, Cycle now) {
    if (cycle == now + 1) wake_next[block >> 6] |= std::uint64_t{1} << (block & 63);
    else wakes.emplace_back(block, cycle);
  }
  std::vector<std::uint64_t> wake_next;           // for now + 1, a bit per block
  std::vector<std::pair<unsigned, Cycle>> wakes;  // for later cycles
  // The blocks it evaluated that go to sleep, and the cycle each has work again (kNever: none
  // of its own). Most blocks of a busy cycle stay awake, so only these are handed back.
  std::vector<std::pair<unsigned, Cycle>> sleeps;
};

}  // namespace collnoc
