// The clock's parallel cycles: the awake parallel blocks of a busy cycle evaluated on several
// threads (Clock::set_threads), each thread taking chunks of its own share first.
#include "noc/sim/clock.hpp"

#include <algorithm>
#include <chrono>

#include "noc/sim/clocked_block.hpp"

namespace collnoc {

using namespace sc_core;

namespace {
// A polite busy-wait step (tells a hyper-threaded core to let its sibling run).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}
}  // namespace

void Clock::evaluate_in_parallel(Cycle now, bool& any_awake) {
  const std::size_t words = awake_.size();
  if (workers_.empty()) start_workers();
  // The awake parallel blocks, share after share, each in index order.
  unsigned n = 0;
  std::array<unsigned, kMaxThreads + 1> fronts;
  for (unsigned t = 0; t < threads_; ++t) {
    fronts[t] = n;
    const std::uint64_t* mask = &share_masks_[t * words];
    for (std::size_t w = 0; w < words; ++w) {
      const std::uint64_t awake = awake_[w] & mask[w];
      evaluated_[w] |= awake;
      for (std::uint64_t bits = awake; bits; bits &= bits - 1)
        par_order_[n++] = static_cast<unsigned>(w * 64 + __builtin_ctzll(bits));
    }
  }
  fronts[threads_] = n;
  par_now_ = now;
  done_.store(0, std::memory_order_relaxed);
  // Only now may the workers take from it (a worker still looking for work of the last cycle
  // may find this one's: it is ready).
  for (unsigned t = 0; t < threads_; ++t)
    shares_[t].work.store(std::uint64_t{fronts[t]} << 32 | fronts[t + 1],
                          std::memory_order_release);
  epoch_.fetch_add(1, std::memory_order_seq_cst);
  if (sleepers_.load(std::memory_order_seq_cst) > 0) {
    std::lock_guard<std::mutex> lock(sleep_mutex_);
    wake_workers_.notify_all();
  }
  unsigned begin, end;
  while (take(0, begin, end)) run(begin, end, lanes_[0]);
  // Another thread may still be on its last chunk.
  for (unsigned spins = 0; done_.load(std::memory_order_acquire) < n; ++spins) {
    if (spins < 4096) cpu_relax();
    else std::this_thread::yield();
  }
  // What the threads held back: the blocks that go to sleep, then the wake-ups of the
  // receivers of the flits sent (in any order: the same state).
  for (Lane& lane : lanes_) {
    for (const auto& [block, next] : lane.sleeps) after_evaluation(block, now, next, any_awake);
    lane.sleeps.clear();
    any_awake |= std::exchange(lane.any_awake, false);
  }
  for (Lane& lane : lanes_) {
    for (std::size_t w = 0; w < words; ++w) {
      const std::uint64_t bits = std::exchange(lane.wake_next[w], 0);
      for (std::uint64_t asleep = bits & ~awake_[w]; asleep; asleep &= asleep - 1)
        wake(static_cast<unsigned>(w * 64 + __builtin_ctzll(asleep)), now + 1);
    }
    for (const auto& [block, cycle] : lane.wakes) wake(block, cycle);
    lane.wakes.clear();
  }
  if (after_parallel_) after_parallel_();
}

bool Clock::take(unsigned lane, unsigned& begin, unsigned& end) {
  if (take_from(lane, true, begin, end)) return true;
  for (unsigned t = 1; t < threads_; ++t)
    if (take_from((lane + t) % threads_, false, begin, end)) return true;
  return false;
}

bool Clock::take_from(unsigned share, bool front_end, unsigned& begin, unsigned& end) {
  std::atomic<std::uint64_t>& work = shares_[share].work;
  std::uint64_t w = work.load(std::memory_order_acquire);
  for (;;) {
    const unsigned front = static_cast<unsigned>(w >> 32), back = static_cast<unsigned>(w);
    if (front >= back) return false;
    constexpr unsigned kChunk = 4;
    const unsigned left = back - front;
    const unsigned chunk = std::min(left, front_end ? std::max(kChunk, left / 2) : kChunk);
    begin = front_end ? front : back - chunk;
    end = front_end ? front + chunk : back;
    const std::uint64_t rest = front_end ? (std::uint64_t{end} << 32 | back)
                                         : (std::uint64_t{front} << 32 | begin);
    if (work.compare_exchange_weak(w, rest, std::memory_order_acq_rel, std::memory_order_acquire))
      return true;
  }
}

void Clock::run(unsigned begin, unsigned end, Lane& lane) {
  const bool prefetch = blocks_.size() >= kPrefetchBlocks;
  if (prefetch) prefetch_ahead(par_order_.data() + begin, end - begin);
  const Cycle now = par_now_;
  for (unsigned k = begin; k < end; ++k) {
    if (prefetch) prefetch_for(par_order_.data() + begin, k - begin, end - begin);
    const unsigned index = par_order_[k];
    ClockedBlock& block = *blocks_[index];
    block.lane_ = &lane;
    block.evaluate(now);
    const Cycle next = block.always_on_ ? now + 1 : block.next_work_cycle(now);
    block.lane_ = nullptr;
    if (next == now + 1) lane.any_awake = true;
    else lane.sleeps.emplace_back(index, next);
  }
  done_.fetch_add(end - begin, std::memory_order_release);
}

void Clock::work(unsigned lane) {
  using Steady = std::chrono::steady_clock;
  // Spin a while between parallel cycles (they come every few microseconds in a busy network),
  // then sleep until the next one.
  constexpr auto kSpin = std::chrono::microseconds(200);
  std::uint64_t seen = epoch_.load(std::memory_order_acquire);
  while (!stop_.load(std::memory_order_relaxed)) {
    auto idle_since = Steady::now();
    for (unsigned polls = 1; epoch_.load(std::memory_order_acquire) == seen; ++polls) {
      cpu_relax();
      if (polls % 256 != 0 || Steady::now() - idle_since < kSpin) continue;
      std::unique_lock<std::mutex> lock(sleep_mutex_);
      sleepers_.fetch_add(1, std::memory_order_seq_cst);
      wake_workers_.wait(lock, [&] {
        return stop_.load(std::memory_order_relaxed) ||
               epoch_.load(std::memory_order_seq_cst) != seen;
      });
      sleepers_.fetch_sub(1, std::memory_order_relaxed);
      break;
    }
    if (stop_.load(std::memory_order_relaxed)) break;
    seen = epoch_.load(std::memory_order_acquire);
    unsigned begin, end;
    while (take(lane, begin, end)) run(begin, end, lanes_[lane]);
  }
}

void Clock::start_workers() {
  // Shares: equal numbers of parallel blocks, by affinity.
  std::vector<std::pair<unsigned, unsigned>> by_affinity;  // (affinity, block)
  for (unsigned b = 0; b < blocks_.size(); ++b)
    if ((parallel_[b >> 6] >> (b & 63)) & 1u) by_affinity.emplace_back(affinity_[b], b);
  std::sort(by_affinity.begin(), by_affinity.end());
  const std::size_t words = awake_.size(), total = by_affinity.size();
  share_masks_.assign(threads_ * words, 0);
  for (std::size_t rank = 0; rank < total; ++rank) {
    const unsigned b = by_affinity[rank].second;
    share_masks_[rank * threads_ / total * words + (b >> 6)] |= std::uint64_t{1} << (b & 63);
  }
  par_order_.assign(total, 0);
  for (Lane& lane : lanes_) lane.wake_next.assign(words, 0);
  shares_.reset(new Share[threads_]);
  stop_.store(false);
  for (unsigned t = 1; t < threads_; ++t) workers_.emplace_back(&Clock::work, this, t);
}

void Clock::stop_workers() {
  if (workers_.empty()) return;
  {
    std::lock_guard<std::mutex> lock(sleep_mutex_);
    stop_.store(true);
  }
  wake_workers_.notify_all();
  for (std::thread& t : workers_) t.join();
  workers_.clear();
}

}  // namespace collnoc
