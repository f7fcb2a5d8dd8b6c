// A first-in first-out queue that keeps its storage. A std::deque allocates and frees a block
// every few entries as its contents move through memory (every other entry, for entries of a
// few hundred bytes), and in a large network those blocks are cold; this one keeps one short
// vector and reuses it from its start each time it empties. It lets go of a long one's storage
// then (a burst, such as all_pairs' 1,023 messages per NI, is not kept), and moves what is left
// to the front once the part already taken is as long as the rest. An entry may also go before
// others (a source queue is kept in order of readiness).
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace collnoc {

template <typename T>
class Fifo {
 public:
  using const_iterator = typename std::vector<T>::const_iterator;

  bool empty() const { return head_ == items_.size(); }
  std::size_t size() const { return items_.size() - head_; }
  T& front() { return items_[head_]; }
  const T& front() const { return items_[head_]; }
  const_iterator begin() const { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
  const_iterator end() const { return items_.end(); }

  void push_back(T&& v) { items_.push_back(std::move(v)); }
  void insert(const_iterator pos, T&& v) { items_.insert(pos, std::move(v)); }
  void pop_front() {
    if (head_ + 1 == items_.size()) {  // the last: emptied
      if (items_.capacity() > kKeptEntries) items_ = std::vector<T>();
      else items_.clear();
      head_ = 0;
      return;
    }
    items_[head_++] = T();  // (what it holds is freed now, as a deque's pop would)
    if (head_ >= kCompactFrom && 2 * head_ >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }
  void clear() {
    items_.clear();
    head_ = 0;
  }

 private:
  // Storage for a few entries is kept (more, unused, only spreads a large network's NIs over
  // more cache lines: F1 ran slower keeping 64).
  static constexpr std::size_t kKeptEntries = 8, kCompactFrom = 32;
  std::vector<T> items_;
  std::size_t head_ = 0;  // the front's place; entries before it are taken
};

}  // namespace collnoc
