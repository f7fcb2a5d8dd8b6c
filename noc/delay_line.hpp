// A fixed-capacity FIFO of timestamped entries: written at cycle t, readable from t + latency.
// Storage is allocated once; pushing and popping never allocate.
#pragma once
#include <cassert>
#include <cstddef>
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

template <typename T>
class DelayLine {
 public:
  DelayLine() = default;
  DelayLine(unsigned latency_cycles, std::size_t capacity) { reset(latency_cycles, capacity); }
  void reset(unsigned latency_cycles, std::size_t capacity) {
    latency_ = latency_cycles;
    ring_.reset(capacity);
  }
  unsigned latency() const { return latency_; }
  std::size_t size() const { return ring_.size(); }
  bool empty() const { return ring_.empty(); }
  bool full() const { return ring_.full(); }
  // Entry written in cycle `now` becomes readable in cycle now + latency.
  void push(const T& value, Cycle now) {
    Entry& e = ring_.push_slot();
    e.ready = now + latency_;
    e.value = value;
  }
  bool ready(Cycle now) const { return !ring_.empty() && ring_.front().ready <= now; }
  Cycle next_ready() const { return ring_.empty() ? kNever : ring_.front().ready; }
  const T& front() const { return ring_.front().value; }
  void pop() { ring_.pop(); }
  void prefetch() const { ring_.prefetch(); }

 private:
  // An entry holding a flit (56 bytes) gets a cache line of its own, as a buffer slot does;
  // small ones (credits) stay packed.
  struct alignas(sizeof(Cycle) + sizeof(T) > 32 ? 64 : alignof(Cycle)) Entry {
    Cycle ready = 0;
    T value{};
  };
  unsigned latency_ = 1;
  Ring<Entry> ring_;
};

}  // namespace collnoc
