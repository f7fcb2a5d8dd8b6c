// TileInjections: core contention of one tile whose cores share its way into the router (the
// SCC's mesh interface). Each core has its own NI and local port here, so contention is counted
// from their injections: a pair of packets, one from each of two cores of the tile, whose
// injections (head flit to tail flit leaving the NI) share a cycle is one event
// (contention_events_cores). Counted as the run goes: a core's finished packets are kept only
// while a sibling's packet could still overlap them.
#pragma once
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "noc/types.hpp"

namespace collnoc {

class TileInjections {
 public:
  explicit TileInjections(unsigned cores) : finished_(cores), sending_since_(cores, idle) {}

  // Core `core`'s head flit leaves its NI now.
  void head_left(unsigned core, Cycle now) { sending_since_[core] = now; }
  // Its tail leaves now (`tail`), the head having left at `head`. Pairs are counted when the
  // later of the two tails leaves: the sibling packets already finished that ended at or
  // after `head` overlap it (they ended at or before `tail`).
  void tail_left(unsigned core, Cycle head, Cycle tail) {
    for (unsigned o = 0; o < finished_.size(); ++o) {
      if (o == core) continue;
      const auto& f = finished_[o];
      for (auto it = f.rbegin(); it != f.rend() && it->second >= head; ++it) ++events_;
    }
    finished_[core].emplace_back(head, tail);
    sending_since_[core] = idle;
    forget_past(tail);
  }
  std::uint64_t events() const { return events_; }
  // Finished packets still kept (bounded: see forget_past).
  std::size_t remembered() const {
    std::size_t n = 0;
    for (const auto& f : finished_) n += f.size();
    return n;
  }

 private:
  static constexpr Cycle idle = ~Cycle{0};
  // A finished packet is forgotten once it ended before every sibling's packet in progress
  // began and before now (a sibling's next packet leaves now or later).
  void forget_past(Cycle now) {
    for (unsigned q = 0; q < finished_.size(); ++q) {
      Cycle earliest = now;
      for (unsigned o = 0; o < sending_since_.size(); ++o)
        if (o != q && sending_since_[o] < earliest) earliest = sending_since_[o];
      auto& f = finished_[q];
      while (!f.empty() && f.front().second < earliest) f.pop_front();
    }
  }

  std::vector<std::deque<std::pair<Cycle, Cycle>>> finished_;  // per core, in time order
  std::vector<Cycle> sending_since_;  // per core: when its packet in progress began, or idle
  std::uint64_t events_ = 0;
};

}  // namespace collnoc
