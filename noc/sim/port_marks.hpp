// How the links tell a block which of its ports have work, without a locked instruction.
#pragma once
#include <cstdint>

#include "noc/types.hpp"

namespace collnoc {

// The marks a block's links leave on its ports: a flit for an input port was sent (the link also
// wakes the block for the flit's cycle), a credit for an output port was sent.
//
// A mark is a byte of its own, written with a plain store by the block at the link's other end
// (on a parallel cycle perhaps on another thread), in the half of its cycle's parity: a sender
// in cycle t marks half t % 2. The block, evaluating cycle t, takes half (t - 1) % 2 and clears
// it, and nobody writes that half during cycle t: its neighbours have finished cycle t - 1
// before it starts cycle t and start t + 1 after it has finished t (threads meet between
// cycles; waves keep neighbouring rows within a cycle of each other, in that order). So
// neither side needs a locked instruction (with a flag word per block, a locked `or` per flit
// and per credit held 12 % of W3's router samples: docs/performance_log.md, thirteenth session).
// A block that did not take its marks in cycle t - 1 (it slept) reads half t % 2 as well,
// without clearing it: its senders may be writing it.
//
// Eight ports to a group of four 8-byte words (flits: half 0, half 1; credits: half 0, half 1),
// a block of up to 8 ports on half a cache line.
class PortMarks {
 public:
  static constexpr unsigned kInlinePorts = 8;
  PortMarks() : taken_(kNotTaken), groups_(1) {}
  PortMarks(const PortMarks&) = delete;
  PortMarks& operator=(const PortMarks&) = delete;
  ~PortMarks() {
    if (words_ != inline_) delete[] words_;
  }
  // Room for `ports` ports (before any link is attached).
  void resize(unsigned ports);
  // The byte a link writes for `port` (half 0's; half 1's is 8 bytes on).
  std::uint8_t* flit_mark(unsigned port) { return byte(port, 0); }
  std::uint8_t* credit_mark(unsigned port) { return byte(port, 8 * kCredits); }
  static void mark(std::uint8_t* mark, Cycle now) {
    __atomic_store_n(mark + ((now & 1) << 3), std::uint8_t{1}, __ATOMIC_RELAXED);
  }
  // The block, at the start of its evaluation at `now`: the marked ports into its masks.
  void take(Cycle now, std::uint64_t& flits, std::uint64_t& credits) {
    const bool slept = taken_ + 1 != now;
    taken_ = now;
    const unsigned prev = static_cast<unsigned>((now - 1) & 1), cur = prev ^ 1u;
    flits |= marked<true>(kFlits + prev);
    credits |= marked<true>(kCredits + prev);
    if (slept) {
      flits |= marked(kFlits + cur);
      credits |= marked(kCredits + cur);
    }
  }
  // What take() would find in the half it clears, if the block took its marks last cycle
  // (for prefetching: no store).
  void peek(std::uint64_t& flits, std::uint64_t& credits) const {
    const unsigned half = static_cast<unsigned>(taken_ & 1);
    flits |= marked(kFlits + half);
    credits |= marked(kCredits + half);
  }
  // The input ports marked during cycle `now` (for next_work_cycle: a sender evaluated before
  // the block in this cycle woke it while it was awake, which does nothing).
  std::uint64_t flits_marked(Cycle now) const { return marked(kFlits + (now & 1)); }
  // A group's 8 bytes of 0 or 1 as 8 bits (byte i to bit i).
  static std::uint64_t ports_of(std::uint64_t bytes) {
    return (bytes * 0x0102040810204080ull) >> 56;
  }

 private:
  static constexpr unsigned kFlits = 0, kCredits = 2;  // a group's words: + half
  std::uint8_t* byte(unsigned port, unsigned offset);
  // The ports marked in word `w` of every group (Clear: and clears them; only the half that
  // nobody writes in this cycle).
  template <bool Clear = false>
  std::uint64_t marked(std::size_t w) const {
    std::uint64_t ports = 0;
    for (unsigned g = 0; g < groups_; ++g) {
      std::uint64_t& word = words_[4 * g + w];
      const std::uint64_t bytes = __atomic_load_n(&word, __ATOMIC_RELAXED);
      if (Clear && bytes) __atomic_store_n(&word, 0, __ATOMIC_RELAXED);
      ports |= ports_of(bytes) << (8 * g);
    }
    return ports;
  }
  static constexpr Cycle kNotTaken = (Cycle{1} << 56) - 1;  // (never equal to a cycle - 1)
  // 48 bytes, so that ClockedBlock's fields and the first of the block's own share two lines.
  std::uint64_t inline_[4] = {0, 0, 0, 0};
  std::uint64_t* words_ = inline_;  // 4 per group of 8 ports: inline_, or an array of its own
  Cycle taken_ : 56;                // the cycle of the last take()
  Cycle groups_ : 8;
};
static_assert(sizeof(PortMarks) == 48, "PortMarks: 48 bytes");

}  // namespace collnoc
