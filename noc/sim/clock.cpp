#include "noc/sim/clock.hpp"

#include "noc/sim/clocked_block.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <utility>

namespace collnoc {

using namespace sc_core;

namespace {
// Asks for the lines of [begin, begin + bytes), from the one its first byte is on.
inline void prefetch_lines(const void* begin, std::size_t bytes) {
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(begin) & ~std::uintptr_t{63};
  const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(begin) + bytes;
  for (std::uintptr_t line = first; line < end; line += 64)
    __builtin_prefetch(reinterpret_cast<const void*>(line));
}
}  // namespace

void CycleEvent::notify_at(Cycle cycle) {
  if (cycle >= due_) return;
  due_ = cycle;
  clock_.schedule(*this, cycle);
}

Clock::Clock(sc_module_name name, sc_time period)
    : sc_module(name), event_wheel_(kWheel), period_(period), period_ticks_(period.value()) {
  if (period_ticks_ == 0) throw ParamError("sim.clock_period_ns", period.to_string(), "must be > 0");
  SC_HAS_PROCESS(Clock);
  SC_METHOD(on_edge);
  sensitive << edge_;
  // Runs once at time 0 (initialisation): every block evaluates cycle 0.
}

Clock::~Clock() { stop_workers(); }

void Clock::set_threads(unsigned threads, unsigned min_parallel_blocks, bool always) {
  if (threads < 1 || threads > kMaxThreads)
    throw ParamError("sim.threads", std::to_string(threads),
                     "must be in 1.." + std::to_string(kMaxThreads) + " (0: automatic)");
  stop_workers();
  threads_ = threads;
  min_parallel_ = std::max(1u, min_parallel_blocks);
  always_parallel_ = always;
  lanes_.assign(threads, Lane{});
  for (unsigned i = 0; i < threads; ++i) {
    lanes_[i].index = i;
    lanes_[i].wakes.reserve(4096);
    lanes_[i].sleeps.reserve(4096);
  }
}

void Clock::mark_parallel(unsigned block, unsigned affinity) {
  stop_workers();  // the shares are made when they start
  parallel_[block >> 6] |= std::uint64_t{1} << (block & 63);
  affinity_[block] = affinity;
}

unsigned Clock::attach(ClockedModule* block) {
  stop_workers();  // the shares and the lanes' bit sets are made for the blocks there are
  const unsigned index = static_cast<unsigned>(blocks_.size());
  blocks_.push_back(block);
  affinity_.push_back(index);
  spans_.emplace_back();
  due_.push_back(kNever);
  if (awake_.size() * 64 <= index) {
    awake_.push_back(0);
    parallel_.push_back(0);
    evaluated_.push_back(0);
    wheel_.assign(kWheel * awake_.size(), 0);  // blocks are attached before anything is due
  }
  awake_[index >> 6] |= std::uint64_t{1} << (index & 63);
  wave_rows_.clear();  // its place in the rows is unknown
  return index;
}

bool Clock::set_wave_rows(std::vector<std::vector<unsigned>> rows, bool always) {
  wave_rows_.clear();
  if (rows.size() < 2) return false;
  std::vector<bool> seen(blocks_.size(), false);
  std::size_t n = 0;
  std::vector<std::vector<WaveWord>> words;
  for (const std::vector<unsigned>& row : rows) {
    std::vector<WaveWord>& w = words.emplace_back();
    for (std::size_t i = 0; i < row.size(); ++i) {
      const unsigned b = row[i];
      if (b >= blocks_.size() || seen[b] || (i > 0 && b < row[i - 1]) || blocks_[b]->always_on_)
        return false;
      seen[b] = true;
      ++n;
      if (w.empty() || w.back().word != b >> 6) w.push_back(WaveWord{b >> 6, 0});
      w.back().mask |= std::uint64_t{1} << (b & 63);
    }
  }
  if (n != blocks_.size()) return false;
  wave_rows_ = std::move(words);
  wave_always_ = always;
  return true;
}

void Clock::keep_awake(unsigned block) {
  awake_[block >> 6] |= std::uint64_t{1} << (block & 63);
  wave_rows_.clear();  // watched every cycle (waves on a VCD, or the every-cycle check)
}

void Clock::schedule_edge(Cycle cycle) {
  if (cycle >= edge_cycle_) return;  // an earlier (or the same) edge is already pending
  edge_cycle_ = cycle;
  const Cycle now = this->now();
  edge_.notify(delay(cycle > now ? cycle - now : 0));
}

void Clock::wake_earlier(unsigned block, Cycle cycle) {
  if (waving_) {  // run_waves schedules the next edge when the wave is done
    enqueue(block, cycle);
    return;
  }
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

void Clock::schedule(CycleEvent& e, Cycle cycle) {
  const Cycle now = this->now();
  if (cycle <= now) {  // (not asked for: what is delivered is available from a later cycle)
    e.due_ = kNever;
    e.event_.notify(SC_ZERO_TIME);
    return;
  }
  if (cycle - now < kWheel) event_wheel_[cycle % kWheel].emplace_back(cycle, &e);
  else later_events_.emplace(cycle, &e);
  ++event_entries_;
  schedule_edge(cycle);
}

void Clock::notify_events(Cycle now) {
  if (event_entries_ == 0) return;
  while (!later_events_.empty() && later_events_.top().first - now < kWheel) {
    const EventAt e = later_events_.top();
    later_events_.pop();
    if (e.second->due_ == e.first) event_wheel_[e.first % kWheel].push_back(e);
    else --event_entries_;
  }
  std::vector<EventAt>& slot = event_wheel_[now % kWheel];
  event_entries_ -= slot.size();
  notified_.clear();
  resumed_ = 0;
  for (const auto& [cycle, e] : slot) {
    if (cycle != now || e->due_ != now) continue;  // (cancelled, or moved earlier)
    e->due_ = kNever;
    e->event_.notify();  // (the threads waiting run in this delta, after this method)
    notified_.push_back(e->resume_);
  }
  slot.clear();
  for (std::size_t k = 0; k < std::min(kResumeAhead, notified_.size()); ++k)
    prefetch_resume(notified_[k]);
}

void Clock::prefetch_resume(const CycleEvent::ResumeLines& lines) {
  for (const CycleEvent::Lines& l : lines) prefetch_lines(l.begin, l.bytes);
}

Cycle Clock::next_event() const {
  if (event_entries_ == 0) return kNever;
  const Cycle now = this->now();
  for (Cycle c = now + 1; c < now + kWheel; ++c)
    for (const auto& [cycle, e] : event_wheel_[c % kWheel])
      if (cycle == c && e->due_ == c) return c;
  return later_events_.empty() ? kNever : later_events_.top().first;
}

Cycle Clock::next_wakeup() const {
  const std::size_t words = awake_.size();
  for (Cycle c = last_edge_ + 1; c < last_edge_ + kWheel && words > 0; ++c) {
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
  for (std::size_t w = 0; w < words; ++w) take_due(now, w, ~std::uint64_t{0});
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
  // Waves where the cycle would be evaluated on one thread anyway (in waves on two, the rows
  // of a wave would wait on each other).
  if (!wave_rows_.empty() && wave_end_ >= now + 2 &&
      (wave_always_ || (threads_ == 1 && blocks_.size() >= kMinWaveBlocks)) && !events_pending()) {
    run_waves(now, std::min(wave_end_, now + kWaveCycles));
    return;
  }
  // Evaluate the awake blocks in index order (on a parallel cycle, the parallel ones first).
  // Wake-ups made while evaluating are for later cycles (links have a latency of at least one
  // cycle), so the set does not change under us.
  bool any_awake = false;
  bool timed = false, parallel = false;
  std::chrono::steady_clock::time_point start;
  unsigned awake_blocks = 0;
  if (threads_ > 1) {
    unsigned awake_parallel = 0;
    for (std::size_t w = 0; w < words; ++w)
      awake_parallel += static_cast<unsigned>(__builtin_popcountll(awake_[w] & parallel_[w]));
    if (awake_parallel >= min_parallel_) {
      parallel = always_parallel_ || choice_.choose(timed);
      if (timed) {
        for (std::size_t w = 0; w < words; ++w)
          awake_blocks += static_cast<unsigned>(__builtin_popcountll(awake_[w]));
        start = std::chrono::steady_clock::now();
      }
      if (parallel) evaluate_in_parallel(now, any_awake);
    }
  }
  evaluate_serially(now, [&](auto&& f) {
    for (std::size_t w = 0; w < words; ++w) f(w, ~evaluated_[w]);
  }, any_awake);
  if (parallel) std::fill(evaluated_.begin(), evaluated_.end(), 0);
  if (timed)
    choice_.record(parallel,
                   std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
                       .count(),
                   awake_blocks);
  schedule_next_edge(now + 1, any_awake);
  notify_events(now);
}

void Clock::take_due(Cycle cycle, std::size_t word, std::uint64_t mask) {
  std::uint64_t& slot = wheel_[(cycle % kWheel) * awake_.size() + word];
  const std::uint64_t due = slot & mask;
  if (!due) return;
  for (std::uint64_t bits = due; bits; bits &= bits - 1)
    due_[word * 64 + __builtin_ctzll(bits)] = kNever;
  awake_[word] |= due;
  slot &= ~due;
}

template <typename ForEachWord>
void Clock::evaluate_serially(Cycle now, ForEachWord&& for_each_word, bool& any_awake) {
  const auto evaluate = [&](unsigned index) {
    ClockedBlock& block = *blocks_[index];
    block.evaluate(now);
    after_evaluation(index, now, block.always_on_ ? now + 1 : block.next_work_cycle(now),
                     any_awake);
  };
  if (blocks_.size() < kPrefetchBlocks) {
    for_each_word([&](std::size_t w, std::uint64_t mask) {
      for (std::uint64_t bits = awake_[w] & mask; bits; bits &= bits - 1)
        evaluate(static_cast<unsigned>(w * 64 + __builtin_ctzll(bits)));
    });
    return;
  }
  // Large networks outgrow the caches: fetch the state of the block two ahead of the one
  // evaluated (small ones stay cached, and the prefetches would only cost instructions).
  order_.clear();
  for_each_word([&](std::size_t w, std::uint64_t mask) {
    for (std::uint64_t bits = awake_[w] & mask; bits; bits &= bits - 1)
      order_.push_back(static_cast<unsigned>(w * 64 + __builtin_ctzll(bits)));
  });
  const std::size_t n = order_.size();
  prefetch_ahead(order_.data(), n);
  for (std::size_t k = 0; k < n; ++k) {
    prefetch_for(order_.data(), k, n);
    evaluate(order_[k]);
  }
}

void Clock::schedule_next_edge(Cycle next, bool any_awake) {
  if (any_awake) {
    schedule_edge(next);
    return;
  }
  const Cycle wakeup = std::min(next_wakeup(), next_event());
  if (wakeup != kNever) schedule_edge(wakeup);
}

static_assert(Clock::kWaveCycles <= 32, "a wave's wake-ups must not wrap round the wheel");

void Clock::run_waves(Cycle first, Cycle end) {
  // The wheel works as on every edge: a row takes its blocks due at its cycle from the wheel's
  // slot for that cycle, and wake-ups go onto the wheel (a wave is at most half of it long, so
  // they do not wrap round onto a slot still in use).
  waving_ = true;
  const std::size_t rows = wave_rows_.size();
  const std::size_t cycles = end - first;
  bool awake_after = false;  // (only after the wave does a block's awake bit say "next cycle")
  // Wave k: row r at cycle first + k - r, the rows from the highest down, so that row r + 1
  // has done cycle t - 1 and row r - 1 cycle t when row r does cycle t.
  for (std::size_t k = 0; k + 1 < rows + cycles; ++k) {
    const std::size_t lowest = k + 1 >= cycles ? k + 1 - cycles : 0;
    for (std::size_t r = std::min(k, rows - 1) + 1; r-- > lowest;) {
      const Cycle now = first + (k - r);
      const std::vector<WaveWord>& row = wave_rows_[r];
      for (const WaveWord& ww : row) take_due(now, ww.word, ww.mask);
      evaluate_serially(now, [&](auto&& f) {
        for (const WaveWord& ww : row) f(ww.word, ww.mask);
      }, awake_after);
    }
  }
  waving_ = false;
  last_edge_ = end - 1;
  awake_after = std::any_of(awake_.begin(), awake_.end(), [](std::uint64_t w) { return w != 0; });
  schedule_next_edge(end, awake_after);
}

void Clock::set_prefetch_span(unsigned block, std::size_t begin, std::size_t end) {
  spans_[block].begin = static_cast<std::uint16_t>(std::min<std::size_t>(begin, 0xffff));
  spans_[block].end = static_cast<std::uint16_t>(std::min<std::size_t>(end, 0xffff));
}

void Clock::set_prefetch_region(unsigned block, const void* begin, std::size_t bytes) {
  spans_[block].region = static_cast<const char*>(begin);
  spans_[block].region_bytes = static_cast<std::uint32_t>(std::min<std::size_t>(bytes, 0xffffffff));
}

void Clock::prefetch_state(unsigned block) const {
  const char* base = reinterpret_cast<const char*>(blocks_[block]);
  __builtin_prefetch(base);  // the virtual table pointer: evaluate() is called through it
  const Span span = spans_[block];
  for (unsigned offset = span.begin & ~63u; offset < span.end; offset += 64)
    __builtin_prefetch(base + offset);
  prefetch_lines(span.region, span.region_bytes);
}

void Clock::prefetch_for(const unsigned* order, std::size_t k, std::size_t n) const {
  if (k + kPrefetchStateAhead < n) prefetch_state(order[k + kPrefetchStateAhead]);
  if (k + kPrefetchAhead < n) blocks_[order[k + kPrefetchAhead]]->prefetch();
}

// The prefetches for the first blocks of `order`, as if blocks before them had been evaluated.
void Clock::prefetch_ahead(const unsigned* order, std::size_t n) const {
  for (std::size_t k = 0; k < std::min<std::size_t>(kPrefetchStateAhead, n); ++k)
    prefetch_state(order[k]);
  for (std::size_t k = 0; k < std::min<std::size_t>(kPrefetchAhead, n); ++k)
    blocks_[order[k]]->prefetch();
}

void Clock::after_evaluation(unsigned index, Cycle now, Cycle next, bool& any_awake) {
  if (next == now + 1) {
    any_awake = true;
    return;
  }
  awake_[index >> 6] &= ~(std::uint64_t{1} << (index & 63));
  if (next != kNever && next < due_[index]) enqueue(index, next);
}

}  // namespace collnoc
