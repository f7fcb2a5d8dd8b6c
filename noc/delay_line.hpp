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
  void prefetch() const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[head_]);
  }
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

// The line between two blocks. The writer alone moves the tail and the reader alone the head,
// so the two may work on two threads at once (Clock::set_threads): then (Shared = true) the
// writer publishes an entry by counting it atomically, and the reader reads the count so. An
// entry written in cycle t is readable from t + latency > t, so what the reader takes in a cycle
// does not depend on whether it already sees an entry being written in that cycle. Otherwise
// the count is a plain integer.
//
// Up to `InlineEntries` entries live inside the line itself, beside its counts, so that writer
// and reader touch one cache line per entry rather than two (a large network's links do not
// stay in cache between cycles); a longer line keeps its entries in an allocation of their own.
// The capacity is rounded up to a power of two, so that the positions are the counts masked.
template <typename T, unsigned InlineEntries = 0>
class DelayLine {
 public:
  DelayLine() { reset(1, 1); }
  DelayLine(unsigned latency_cycles, std::size_t capacity) { reset(latency_cycles, capacity); }
  DelayLine(const DelayLine&) = delete;
  DelayLine& operator=(const DelayLine&) = delete;
  ~DelayLine() { release(); }
  void reset(unsigned latency_cycles, std::size_t capacity) {
    release();
    std::size_t rounded = 1;
    while (rounded < capacity) rounded *= 2;
    latency_ = latency_cycles;
    mask_ = static_cast<std::uint32_t>(rounded - 1);
    if (on_heap()) store_.heap = new Entry[rounded]();
    else store_ = Store{};
    popped_ = pushed_ = 0;
  }
  unsigned latency() const { return latency_; }
  template <bool Shared = false>
  std::size_t size() const {
    return (Shared ? __atomic_load_n(&pushed_, __ATOMIC_ACQUIRE) : pushed_) - popped_;
  }
  template <bool Shared = false>
  bool empty() const { return size<Shared>() == 0; }
  bool full() const { return size() == std::size_t{mask_} + 1; }
  // Entry written in cycle `now` becomes readable in cycle now + latency.
  template <bool Shared = false>
  void push(const T& value, Cycle now) {
    assert(Shared || !full());
    Entry& e = entries()[pushed_ & mask_];
    e.ready = now + latency_;
    e.value = value;
    if (Shared) __atomic_store_n(&pushed_, pushed_ + 1, __ATOMIC_RELEASE);
    else ++pushed_;
  }
  template <bool Shared = false>
  bool ready(Cycle now) const {
    if constexpr (Shared) {  // the entry is read only once it is published
      return !empty<true>() && head().ready <= now;
    } else {
      // One branch in the reader's loop instead of two (an empty line's head entry is a stale
      // one, never out of bounds: reset() is always called before use).
      return (size() != 0) & (head().ready <= now);
    }
  }
  template <bool Shared = false>
  Cycle next_ready() const { return empty<Shared>() ? kNever : head().ready; }
  const T& front() const { return head().value; }
  void pop() { ++popped_; }
  // What the reader reads next, in two steps: the line of the counts (no load), and once
  // that is in cache, the entry if that is apart (a load of the counts).
  void prefetch() const { __builtin_prefetch(this); }
  void prefetch_entry() const {
    if (on_heap() && store_.heap) __builtin_prefetch(&head());
  }

 private:
  struct Entry {
    Cycle ready = 0;
    T value{};
  };
  template <unsigned N, typename Unused = void>
  union Storage {
    Entry local[N];
    Entry* heap;
    Storage() : local{} {}
  };
  template <typename Unused>
  union Storage<0, Unused> {
    Entry* heap;
    Storage() : heap(nullptr) {}
  };
  using Store = Storage<InlineEntries>;
  bool on_heap() const { return mask_ >= InlineEntries; }
  Entry* entries() {
    if constexpr (InlineEntries > 0)
      if (!on_heap()) return store_.local;
    return store_.heap;
  }
  const Entry& head() const {
    if constexpr (InlineEntries > 0)
      if (!on_heap()) return store_.local[popped_ & mask_];
    return store_.heap[popped_ & mask_];
  }
  void release() {
    if (on_heap()) delete[] store_.heap;
  }

  Store store_;
  std::uint32_t mask_ = 0;  // capacity - 1
  std::uint32_t latency_ = 1;
  std::uint32_t popped_ = 0;  // the reader's
  std::uint32_t pushed_ = 0;  // the writer's; entries [popped_, pushed_) are readable
};

}  // namespace collnoc
