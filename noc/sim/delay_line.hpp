// A fixed-capacity FIFO of timestamped entries: written at cycle t, readable from t + latency.
// Storage is allocated once; pushing and popping never allocate.
#pragma once
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "noc/types.hpp"

namespace collnoc {

template <typename T>
class Ring {
 public:
  explicit Ring(std::size_t capacity = 0) : slots_(capacity) {}
  void reset(std::size_t capacity) { slots_.assign(capacity, T{}); head_ = size_ = 0; }
  std::size_t capacity() const { return slots_.size(); }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == slots_.size(); }
  T& front() { return slots_[head_]; }
  const T& front() const { return slots_[head_]; }
  T& push_slot() {  // returns the slot to fill in place
    assert(!full());
    std::size_t tail = head_ + size_;
    if (tail >= slots_.size()) tail -= slots_.size();
    ++size_;
    return slots_[tail];
  }
  void push(const T& v) { push_slot() = v; }
  void pop() {
    assert(!empty());
    head_ = ring_next(static_cast<unsigned>(head_), static_cast<unsigned>(slots_.size()));
    --size_;
  }

 private:
  std::vector<T> slots_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

// The line between two blocks: a FIFO of entries, each readable `latency` cycles after the
// cycle it was written in. Like a link it carries at most one entry per cycle (checked in
// debug builds), so only the last `latency` entries written can still be on their way: an
// older one was written `latency` cycles or more before the newest, which is no later than
// the reader's cycle. So the line keeps the ready cycles of the last few entries only (a ring
// of stamps, at least latency + 1 long), and the entries themselves are just their values: a
// link's credits (one byte each) fit on one cache line with their counts.
//
// The writer alone moves the tail and the reader alone the head, so the two may work on two
// threads at once (Clock::set_threads): then (Shared = true) the writer publishes an entry by
// counting it atomically, and the reader reads the count so. An entry written in cycle t is
// readable from t + latency > t, so what the reader takes in a cycle does not depend on whether
// it already sees an entry being written in that cycle. The reader reads a stamp only while at
// most `latency` entries are published after its head, so the stamp being written then, of
// the next entry, is in another place of the ring (at least latency + 1 long).
//
// Up to `InlineValues` values and `InlineStamps` stamps live inside the line itself, beside
// its counts, so that writer and reader touch one cache line per entry (a large network's links
// do not stay in cache between cycles); a longer line keeps them in allocations of their own.
// The capacity is rounded up to a power of two, so that the positions are the counts masked.
template <typename T, unsigned InlineValues = 0, unsigned InlineStamps = 0>
class DelayLine {
  static_assert((InlineValues & (InlineValues - 1)) == 0, "InlineValues: a power of two");
  static_assert((InlineStamps & (InlineStamps - 1)) == 0 && InlineStamps != 1,
                "InlineStamps: 0 or a power of two of at least 2 (latency + 1)");

 public:
  DelayLine() { reset(1, 1); }
  DelayLine(unsigned latency_cycles, std::size_t capacity) { reset(latency_cycles, capacity); }
  DelayLine(const DelayLine&) = delete;
  DelayLine& operator=(const DelayLine&) = delete;
  ~DelayLine() { release(); }
  void reset(unsigned latency_cycles, std::size_t capacity) {
    release();
    latency_ = latency_cycles;
    value_mask_ = static_cast<std::uint32_t>(round_up(capacity) - 1);
    if (on_heap()) {
      const std::size_t stamps = round_up(std::size_t{latency_cycles} + 1);
      store_.heap.stamp_mask = static_cast<std::uint32_t>(stamps - 1);
      store_.heap.stamps = new Cycle[stamps]();
      store_.heap.values = new T[std::size_t{value_mask_} + 1]();
    } else {
      store_ = Store{};
    }
    popped_ = pushed_ = 0;
  }
  unsigned latency() const { return latency_; }
  template <bool Shared = false>
  std::uint32_t size() const {
    return (Shared ? __atomic_load_n(&pushed_, __ATOMIC_ACQUIRE) : pushed_) - popped_;
  }
  template <bool Shared = false>
  bool empty() const { return size<Shared>() == 0; }
  bool full() const { return size() == value_mask_ + 1; }
  // Entry written in cycle `now` becomes readable in cycle now + latency.
  template <bool Shared = false>
  void push(const T& value, Cycle now) {
    assert(Shared || !full());
    // One entry per cycle: the previous one was written in an earlier cycle.
    assert(pushed_ == 0 || stamp(pushed_ - 1) < now + latency_);
    stamp(pushed_) = now + latency_;
    this->value(pushed_) = value;
    if (Shared) __atomic_store_n(&pushed_, pushed_ + 1, __ATOMIC_RELEASE);
    else ++pushed_;
  }
  template <bool Shared = false>
  bool ready(Cycle now) const {
    const std::uint32_t n = size<Shared>();
    if constexpr (Shared) {  // the head's stamp is read only once the entry is published
      return n != 0 && (n > latency_ || stamp(popped_) <= now);
    } else {
      // One branch in the reader's loop instead of three (an empty line's head stamp is a stale
      // one, never out of bounds: reset() is always called before use).
      return (n != 0) & ((n > latency_) | (stamp(popped_) <= now));
    }
  }
  // The head's ready cycle, for a line whose reader takes each entry when it is ready (a
  // link's notices): it then never holds more than latency + 1 entries, all stamped.
  template <bool Shared = false>
  Cycle next_ready() const {
    assert(size<Shared>() <= latency_ + 1);
    return empty<Shared>() ? kNever : stamp(popped_);
  }
  const T& front() const { return value(popped_); }
  void pop() { ++popped_; }
  // What the reader reads next, in two steps: the line of the counts (no load), and once
  // that is in cache, the head's value and stamp if they are apart (a load of the counts).
  void prefetch() const { __builtin_prefetch(this); }
  void prefetch_entry() const {
    if (on_heap() && store_.heap.values) {
      __builtin_prefetch(&value(popped_));
      __builtin_prefetch(&stamp(popped_));
    }
  }

 private:
  static std::size_t round_up(std::size_t n) {
    std::size_t rounded = 1;
    while (rounded < n) rounded *= 2;
    return rounded;
  }
  struct Heap {
    Cycle* stamps;
    T* values;
    std::uint32_t stamp_mask;
  };
  template <unsigned V, unsigned S, typename Unused = void>
  union Storage {
    struct {
      Cycle stamps[S];
      T values[V];
    } local;
    Heap heap;
    Storage() : local{} {}
  };
  template <typename Unused>
  union Storage<0, 0, Unused> {
    Heap heap;
    Storage() : heap{nullptr, nullptr, 0} {}
  };
  using Store = Storage<InlineStamps == 0 ? 0 : InlineValues, InlineValues == 0 ? 0 : InlineStamps>;
  static constexpr bool kInline = InlineValues > 0 && InlineStamps > 0;
  bool on_heap() const {
    if constexpr (!kInline) return true;
    else return (value_mask_ >= InlineValues) | (latency_ >= InlineStamps);
  }
  Cycle& stamp(std::uint32_t i) {
    if constexpr (kInline)
      if (!on_heap()) return store_.local.stamps[i & (InlineStamps - 1)];
    return store_.heap.stamps[i & store_.heap.stamp_mask];
  }
  const Cycle& stamp(std::uint32_t i) const { return const_cast<DelayLine*>(this)->stamp(i); }
  T& value(std::uint32_t i) {
    if constexpr (kInline)
      if (!on_heap()) return store_.local.values[i & value_mask_];
    return store_.heap.values[i & value_mask_];
  }
  const T& value(std::uint32_t i) const { return const_cast<DelayLine*>(this)->value(i); }
  void release() {
    if (on_heap()) {
      delete[] store_.heap.stamps;
      delete[] store_.heap.values;
      store_.heap = Heap{nullptr, nullptr, 0};
    }
  }

  Store store_;
  std::uint32_t value_mask_ = 0;  // capacity - 1
  std::uint32_t latency_ = 1;
  std::uint32_t popped_ = 0;  // the reader's
  std::uint32_t pushed_ = 0;  // the writer's; entries [popped_, pushed_) are readable
};

}  // namespace collnoc
