#include "noc/clock.hpp"

namespace collnoc {

using namespace sc_core;

Clock::Clock(sc_module_name name, sc_time period)
    : sc_module(name), period_(period), period_ticks_(period.value()) {
  if (period_ticks_ == 0) throw ParamError("sim.clock_period_ns", period.to_string(), "must be > 0");
  SC_HAS_PROCESS(Clock);
  SC_METHOD(on_edge);
  sensitive << edge_;
  // Runs once at time 0 (initialisation): every block evaluates cycle 0.
}

unsigned Clock::attach(ClockedModule* block) {
  const unsigned index = static_cast<unsigned>(blocks_.size());
  blocks_.push_back(block);
  due_.push_back(kNever);
  if (awake_.size() * 64 <= index) {
    awake_.push_back(0);
    wheel_.assign(kWheel * awake_.size(), 0);  // blocks are attached before anything is due
  }
  awake_[index >> 6] |= std::uint64_t{1} << (index & 63);
  return index;
}

void Clock::keep_awake(unsigned block) {
  awake_[block >> 6] |= std::uint64_t{1} << (block & 63);
}

void Clock::schedule_edge(Cycle cycle) {
  if (cycle >= edge_cycle_) return;  // an earlier (or the same) edge is already pending
  edge_cycle_ = cycle;
  const Cycle now = this->now();
  edge_.notify(delay(cycle > now ? cycle - now : 0));
}

void Clock::wake_earlier(unsigned block, Cycle cycle) {
  // A wake-up is always for a later cycle: what is sent in a cycle is readable in the next at
  // the earliest. (After the edge of `now` has run, now + 1 is the earliest edge there is.)
  const Cycle now = this->now();
  if (cycle <= now) cycle = now + 1;
  enqueue(block, cycle);
  schedule_edge(cycle);
}

void Clock::enqueue(unsigned block, Cycle cycle) {
  due_[block] = cycle;
  if (cycle - last_edge_ < kWheel)
    wheel_[(cycle % kWheel) * awake_.size() + (block >> 6)] |= std::uint64_t{1} << (block & 63);
  else
    later_.emplace(cycle, block);
}

Cycle Clock::next_wakeup() const {
  const std::size_t words = awake_.size();
  for (Cycle c = last_edge_ + 1; c < last_edge_ + kWheel; ++c) {
    const std::uint64_t* slot = &wheel_[(c % kWheel) * words];
    for (std::size_t w = 0; w < words; ++w)
      if (slot[w]) return c;
  }
  return later_.empty() ? kNever : later_.top().first;
}

void Clock::on_edge() {
  const Cycle now = this->now();
  edge_cycle_ = kNever;
  last_edge_ = now;
  const std::size_t words = awake_.size();
  std::uint64_t* slot = &wheel_[(now % kWheel) * words];
  for (std::size_t w = 0; w < words; ++w) {
    for (std::uint64_t bits = slot[w]; bits; bits &= bits - 1)
      due_[w * 64 + __builtin_ctzll(bits)] = kNever;
    awake_[w] |= slot[w];
    slot[w] = 0;
  }
  while (!later_.empty() && later_.top().first <= now) {
    const auto [cycle, block] = later_.top();
    later_.pop();
    if (due_[block] != cycle) continue;  // superseded by an earlier wake-up
    due_[block] = kNever;
    awake_[block >> 6] |= std::uint64_t{1} << (block & 63);
  }
  // Far wake-ups that have come within reach of the wheel move onto it.
  while (!later_.empty() && later_.top().first - now < kWheel) {
    const auto [cycle, block] = later_.top();
    later_.pop();
    if (due_[block] == cycle) enqueue(block, cycle);
  }
  // Evaluate the awake blocks in index order. Wake-ups made while evaluating are for later
  // cycles (links have a latency of at least one cycle), so the set does not change under us.
  bool any_awake = false;
  const auto evaluate = [&](unsigned index) {
    ClockedModule& block = *blocks_[index];
    block.evaluate(now);
    const Cycle next = block.always_on_ ? now + 1 : block.next_work_cycle(now);
    if (next == now + 1) {
      any_awake = true;
      return;
    }
    awake_[index >> 6] &= ~(std::uint64_t{1} << (index & 63));
    if (next != kNever && next < due_[index]) enqueue(index, next);
  };
  if (blocks_.size() < kPrefetchBlocks) {
    for (std::size_t w = 0; w < words; ++w)
      for (std::uint64_t bits = awake_[w]; bits; bits &= bits - 1)
        evaluate(static_cast<unsigned>(w * 64 + __builtin_ctzll(bits)));
  } else {
    // Large networks outgrow the caches: fetch the state of the block two ahead of the one
    // evaluated (small ones stay cached, and the prefetches would only cost instructions).
    order_.clear();
    for (std::size_t w = 0; w < words; ++w)
      for (std::uint64_t bits = awake_[w]; bits; bits &= bits - 1)
        order_.push_back(static_cast<unsigned>(w * 64 + __builtin_ctzll(bits)));
    constexpr std::size_t kAhead = 2;
    for (std::size_t k = 0; k < std::min(kAhead, order_.size()); ++k) blocks_[order_[k]]->prefetch();
    for (std::size_t k = 0; k < order_.size(); ++k) {
      if (k + kAhead < order_.size()) blocks_[order_[k + kAhead]]->prefetch();
      evaluate(order_[k]);
    }
  }
  if (any_awake) schedule_edge(now + 1);
  else if (const Cycle next = next_wakeup(); next != kNever) schedule_edge(next);
}

ClockedModule::ClockedModule(sc_module_name name, Clock& clock)
    : sc_module(name), clock_(clock), index_(clock.attach(this)) {}

}  // namespace collnoc
