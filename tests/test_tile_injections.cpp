// TileInjections (ni/tile_injections.hpp): core contention counted as the run goes equals the
// pairs of overlapping injections counted afterwards over whole logs, and forgets the past.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "ni/tile_injections.hpp"

using namespace collnoc;

namespace {

using Interval = std::pair<Cycle, Cycle>;  // head, tail

// Pairs of packets of different cores whose [head, tail] share a cycle, by brute force.
std::uint64_t overlapping_pairs(const std::vector<std::vector<Interval>>& cores) {
  std::uint64_t pairs = 0;
  for (std::size_t a = 0; a < cores.size(); ++a)
    for (std::size_t b = a + 1; b < cores.size(); ++b)
      for (const Interval& x : cores[a])
        for (const Interval& y : cores[b])
          if (x.first <= y.second && y.first <= x.second) ++pairs;
  return pairs;
}

}  // namespace

TEST_CASE("tile injections: the count as the run goes is that of the whole logs", "[units]") {
  std::mt19937_64 rng(7);
  for (unsigned cores : {2u, 3u})
    for (int trial = 0; trial < 40; ++trial) {
      // Each core's packets one after another, 1..6 flits, gaps of 0..8 cycles; in trials
      // 0..9 core 0 stays idle all run.
      std::vector<std::vector<Interval>> log(cores);
      for (unsigned c = 0; c < cores; ++c) {
        if (c == 0 && trial < 10) continue;
        Cycle t = rng() % 5;
        for (int p = 0; p < 60; ++p) {
          const Cycle head = t + rng() % 9, tail = head + rng() % 6;
          log[c].push_back({head, tail});
          t = tail + 1;
        }
      }
      TileInjections tile(cores);
      std::vector<std::size_t> next(cores, 0);
      std::vector<unsigned> order(cores);
      for (unsigned c = 0; c < cores; ++c) order[c] = c;
      std::size_t most_remembered = 0;
      for (Cycle now = 0; now < 1000; ++now) {
        std::shuffle(order.begin(), order.end(), rng);  // cores act in any order in a cycle
        for (unsigned c : order) {
          if (next[c] == log[c].size()) continue;
          const Interval& x = log[c][next[c]];
          if (x.first == now) tile.head_left(c, now);
          if (x.second == now) {
            tile.tail_left(c, x.first, now);
            ++next[c];
          }
        }
        most_remembered = std::max(most_remembered, tile.remembered());
      }
      INFO(cores << " cores, trial " << trial);
      CHECK(tile.events() == overlapping_pairs(log));
      if (cores > 2 || trial >= 10) CHECK(tile.events() > 0);  // two cores send
      // A core's packets are remembered only while a sibling's may still overlap them: a
      // sibling's packet spans at most 6 cycles, so a handful each, never the whole log.
      CHECK(most_remembered <= 8 * cores);
    }
}
