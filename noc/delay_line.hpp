// A fixed-capacity FIFO of timestamped entries: written at cycle t, readable from t + latency.
// Storage is allocated once; pushing and popping never allocate.
#pragma once
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
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
    if (++head_ == slots_.size()) head_ = 0;
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
template <typename T>
class DelayLine {
 public:
  DelayLine() = default;
  DelayLine(unsigned latency_cycles, std::size_t capacity) { reset(latency_cycles, capacity); }
  void reset(unsigned latency_cycles, std::size_t capacity) {
    latency_ = latency_cycles;
    slots_.reset(new Entry[capacity]());
    capacity_ = static_cast<std::uint32_t>(capacity);
    head_ = tail_ = popped_ = pushed_ = 0;
  }
  unsigned latency() const { return latency_; }
  template <bool Shared = false>
  std::size_t size() const {
    return (Shared ? __atomic_load_n(&pushed_, __ATOMIC_ACQUIRE) : pushed_) - popped_;
  }
  template <bool Shared = false>
  bool empty() const { return size<Shared>() == 0; }
  bool full() const { return size() == capacity_; }
  // Entry written in cycle `now` becomes readable in cycle now + latency.
  template <bool Shared = false>
  void push(const T& value, Cycle now) {
    assert(Shared || !full());
    Entry& e = slots_[tail_];
    if (++tail_ == capacity_) tail_ = 0;
    e.ready = now + latency_;
    e.value = value;
    if (Shared) __atomic_store_n(&pushed_, pushed_ + 1, __ATOMIC_RELEASE);
    else ++pushed_;
  }
  template <bool Shared = false>
  bool ready(Cycle now) const { return !empty<Shared>() && slots_[head_].ready <= now; }
  template <bool Shared = false>
  Cycle next_ready() const { return empty<Shared>() ? kNever : slots_[head_].ready; }
  const T& front() const { return slots_[head_].value; }
  void pop() {
    if (++head_ == capacity_) head_ = 0;
    ++popped_;
  }
  void prefetch() const {
    if (capacity_ != 0) __builtin_prefetch(&slots_[head_]);
  }

 private:
  struct Entry {
    Cycle ready = 0;
    T value{};
  };
  // 32 bytes, so that a link's two lines (flits, credits) share a cache line.
  std::unique_ptr<Entry[]> slots_;
  std::uint32_t capacity_ = 0;
  unsigned latency_ = 1;
  std::uint32_t head_ = 0, popped_ = 0;  // the reader's
  std::uint32_t tail_ = 0, pushed_ = 0;  // the writer's; entries [popped_, pushed_) are readable
};

}  // namespace collnoc
