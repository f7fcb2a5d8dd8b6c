// The network clock and the activity-driven evaluation every clocked block shares.
//
// One Clock per simulated system (no global state). Routers and NIs are ClockedModules: the
// clock's one SC_METHOD evaluates, on each cycle, the blocks that are awake, in the order they
// were built. A block that has nothing to do goes to sleep and is woken for the cycle a flit is
// due (Link::send wakes its receiver) or for a timer of its own. Links are delay lines, so the
// order of evaluation within a cycle never changes a result. One kernel activation per cycle
// instead of one per block per cycle: at this granularity the activation costs more than most
// blocks' work.
//
// Because of the delay lines, the routers (and synthetic-traffic NIs) of one cycle are
// independent: on a busy cycle the clock evaluates them on several threads (sim.threads), then
// the other blocks on its own. A block's flits and credits go straight into its links (see
// DelayLine), its neighbours' ports are marked with plain stores (PortMarks), and what changes
// the clock's own state (wake-ups, its next cycle) is held back per thread and applied by the
// clock's thread afterwards; all of it is order-independent, so the results do not depend on
// which thread evaluated which block.
#pragma once
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

#include <systemc>

#include "noc/sim/lane.hpp"
#include "noc/sim/threading_choice.hpp"
#include "noc/types.hpp"

namespace collnoc {

class Clock;
class ClockedBlock;
class ClockedModule;

// An event the clock notifies on a cycle's edge, after the cycle's blocks: how an NI wakes its
// core for a message available from that cycle. The clock keeps these on its wheel of cycles,
// beside the blocks' wake-ups, instead of the kernel's queue of timed notifications, and
// notifies those of a cycle in the order they were asked for (a thread waiting on one runs
// after the clock's method in that delta, as it would after a timed notification).
class CycleEvent {
 public:
  explicit CycleEvent(Clock& clock) : clock_(clock) {}
  CycleEvent(const CycleEvent&) = delete;
  CycleEvent& operator=(const CycleEvent&) = delete;
  // Notifies the event on the edge of `cycle` (> now) unless an earlier notification is
  // pending: the earliest stands, as for a timed notification of an sc_event.
  void notify_at(Cycle cycle);
  void cancel() {
    due_ = kNever;
    event_.cancel();
  }
  const sc_core::sc_event& event() const { return event_; }
  // Lines the thread it wakes touches first (its stack, its own state): the clock fetches them
  // while the threads woken before it on the same edge run (Clock::thread_resumed).
  struct Lines {
    const char* begin = nullptr;
    std::uint32_t bytes = 0;
  };
  static constexpr unsigned kResumeRegions = 3;
  using ResumeLines = std::array<Lines, kResumeRegions>;
  void set_resume_lines(unsigned region, const void* begin, std::size_t bytes) {
    resume_[region] = Lines{static_cast<const char*>(begin), static_cast<std::uint32_t>(bytes)};
  }

 private:
  friend class Clock;
  Clock& clock_;
  sc_core::sc_event event_;
  Cycle due_ = kNever;  // the pending notification's cycle
  ResumeLines resume_{};
};

class Clock : public sc_core::sc_module {
 public:
  Clock(sc_core::sc_module_name name, sc_core::sc_time period);
  ~Clock() override;

  // Evaluate the parallel blocks (routers, synthetic-traffic NIs) of a cycle on `threads` threads (1..kMaxThreads)
  // when at least `min_parallel_blocks` of them are awake (fewer are not worth waking a thread)
  // and, unless `always`, while that is measured to be faster than one thread: now and then the
  // clock times busy cycles both ways. (Other programs on the machine's cores, or a network
  // whose state fits one core's cache, can make one thread the faster.)
  // (An 8x8 mesh at 0.1 flits/node/cycle has some 45 of its 128 routers and NIs awake per
  // cycle, a cycle of 6-7 us on one thread; handing half to another core and back costs
  // well under 1 us, so two threads pay from a few dozen awake blocks on.)
  static constexpr unsigned kMinParallelBlocks = 16;
  void set_threads(unsigned threads, unsigned min_parallel_blocks = kMinParallelBlocks,
                   bool always = false);
  unsigned threads() const { return threads_; }
  // Called on the clock's thread after the parallel part of each parallel cycle, before the
  // other blocks are evaluated (the network's bookkeeping that its blocks left to it).
  void set_after_parallel(std::function<void()> f) { after_parallel_ = std::move(f); }
  // A block whose evaluation touches only itself and its links (and its network's per-thread
  // state): it may be evaluated on any thread. Blocks of close `affinity` (block indices: a
  // router's, for the router and its NIs, which share links) go to the same thread.
  void mark_parallel(unsigned block, unsigned affinity);

  const sc_core::sc_time& period() const { return period_; }
  Cycle now() const { return static_cast<Cycle>(sc_core::sc_time_stamp().value() / period_ticks_); }
  sc_core::sc_time delay(Cycle cycles) const { return period_ * static_cast<double>(cycles); }
  sc_core::sc_time at(Cycle cycle) const { return period_ * static_cast<double>(cycle); }

  // CycleEvent::notify_at.
  void schedule(CycleEvent& e, Cycle cycle);
  // Called by a thread woken by a CycleEvent when it runs: the threads woken on an edge run in
  // the order they were notified, so the clock fetches the resume lines of the one
  // kResumeAhead places behind it (a core's state is out of cache by the time it is woken in a
  // large system, and its thread misses on every line it touches first).
  void thread_resumed() {
    if (++resumed_ + kResumeAhead - 1 < notified_.size())
      prefetch_resume(notified_[resumed_ + kResumeAhead - 1]);
  }

  // Block bookkeeping, used by ClockedModule.
  unsigned attach(ClockedModule* block);
  // Inline: most wake-ups find the block already due by then (every flit of a busy link).
  void wake(unsigned block, Cycle cycle) {
    if (!awake(block) && cycle < due_[block]) wake_earlier(block, cycle);
  }
  void keep_awake(unsigned block);
  bool awake(unsigned block) const { return (awake_[block >> 6] >> (block & 63)) & 1u; }
  // The bytes [begin, end) from a block's address that its evaluation reads first (see
  // prefetch_state).
  void set_prefetch_span(unsigned block, std::size_t begin, std::size_t end);
  void set_prefetch_region(unsigned block, const void* begin, std::size_t bytes);

  // Wavefront evaluation. A large network's state does not stay in cache from one cycle to the
  // next; but a block of cycle t reads only what its neighbours sent by cycle t - 1, so the
  // clock may run a band of rows several cycles ahead of the rows behind it, and fetch each
  // row's state once for several cycles. `rows` hold every block once, in index order within
  // a row, and every link joins blocks of the same or adjacent rows (breadth-first levels of
  // the network do). Row r at cycle t is evaluated after rows r - 1 and r + 1 at cycle t - 1
  // and row r - 1 at cycle t: each link's two ends are then exactly as evaluating whole cycles,
  // row after row, leaves them, so the results are the same. Only for blocks that nothing else
  // looks at between cycles (synthetic traffic, no cores, no waves on a VCD): a block attached
  // later, or one evaluated every cycle (ClockedModule::set_always_on), keeps it off. Used on
  // one thread in networks of kMinWaveBlocks blocks or more, or `always` (sim.waves = on).
  // Returns false (and keeps it off) if `rows` do not hold every block once.
  static constexpr std::size_t kMinWaveBlocks = 1024;  // 512 routers and their NIs
  static constexpr Cycle kWaveCycles = 8;              // cycles per wave
  bool set_wave_rows(std::vector<std::vector<unsigned>> rows, bool always = false);
  // Cycles before `end` may be evaluated in waves (the run control's next stop: nothing may look
  // at the blocks before it). 0: none.
  void set_wave_end(Cycle end) { wave_end_ = end; }

 private:
  void wake_earlier(unsigned block, Cycle cycle);
  void on_edge();
  // Evaluates cycles [first, end) in waves of rows (see set_wave_rows).
  void run_waves(Cycle first, Cycle end);
  // The blocks of `word` (those in `mask`) due at `cycle` on the wheel are awake.
  void take_due(Cycle cycle, std::size_t word, std::uint64_t mask);
  // Evaluates at `now`, on this thread and in index order, the awake blocks of the words
  // for_each_word(f) names (f(word, mask)), prefetching ahead in large networks.
  template <typename ForEachWord>
  void evaluate_serially(Cycle now, ForEachWord&& for_each_word, bool& any_awake);
  // The next edge: `next` if a block stayed awake, else the first wake-up due.
  void schedule_next_edge(Cycle next, bool any_awake);
  bool wave_always_ = false;
  struct WaveWord {  // a row's blocks in one word of the clock's bit sets
    unsigned word;
    std::uint64_t mask;
  };
  std::vector<std::vector<WaveWord>> wave_rows_;
  Cycle wave_end_ = 0;
  bool waving_ = false;  // in run_waves: a wake-up goes onto the wheel, and no edge is scheduled
  void schedule_edge(Cycle cycle);

  // CycleEvents: those of the next kWheel cycles by cycle, later ones in a heap (an entry
  // whose event was since cancelled or moved earlier is dropped when its cycle comes).
  using EventAt = std::pair<Cycle, CycleEvent*>;
  std::vector<std::vector<EventAt>> event_wheel_;
  std::priority_queue<EventAt, std::vector<EventAt>, std::greater<EventAt>> later_events_;
  std::size_t event_entries_ = 0;  // on the wheel and in the heap (none: nothing to look at)
  void notify_events(Cycle now);
  static constexpr std::size_t kResumeAhead = 2;
  // The resume lines of the events notified on the last edge, in order (copied: the events
  // themselves are out of cache by the time their turn comes).
  std::vector<CycleEvent::ResumeLines> notified_;
  std::size_t resumed_ = 0;  // of them, those whose thread has run
  static void prefetch_resume(const CycleEvent::ResumeLines& lines);
  Cycle next_event() const;
  bool events_pending() const { return event_entries_ > 0; }
  sc_core::sc_time period_;
  sc_core::sc_time::value_type period_ticks_;
  sc_core::sc_event edge_;
  Cycle edge_cycle_ = 0;  // the cycle edge_ is pending for (kNever: none)
  std::vector<ClockedBlock*> blocks_;  // (each a ClockedModule)
  std::vector<unsigned> order_;       // this edge's awake blocks, in index order
  std::vector<std::uint64_t> awake_;  // bit per block: evaluate on the next edge
  std::vector<Cycle> due_;            // per sleeping block: the cycle it is to be woken
  // Wake-ups of the next kWheel cycles: a timing wheel of block bit sets (a block may be woken
  // once too often, when an earlier wake-up overtook a later one: evaluating a block with
  // nothing to do changes nothing). Later ones wait in a heap.
  static constexpr Cycle kWheel = 64;
  static constexpr std::size_t kPrefetchBlocks = 1024;
  // Prefetches in two steps ahead of the block evaluated, so that neither waits on a miss:
  // kPrefetchStateAhead blocks ahead the lines of a block's own state (no loads), then
  // kPrefetchAhead blocks ahead its prefetch(), which follows the pointers in that state.
  static constexpr unsigned kPrefetchStateAhead = 6, kPrefetchAhead = 2;
  struct Span {
    std::uint16_t begin = 0, end = 0;  // bytes of a block's hot state, from its address
    std::uint32_t region_bytes = 0;    // and its hot state elsewhere (set_prefetch_region)
    const char* region = nullptr;
  };
  std::vector<Span> spans_;  // per block
  void prefetch_state(unsigned block) const;
  // The prefetches made while position k of `order` (of n) is evaluated, for the blocks ahead.
  void prefetch_for(const unsigned* order, std::size_t k, std::size_t n) const;
  void prefetch_ahead(const unsigned* order, std::size_t n) const;
  std::vector<std::uint64_t> wheel_;  // kWheel slots of awake_.size() words
  Cycle last_edge_ = 0;
  using Wakeup = std::pair<Cycle, unsigned>;
  std::priority_queue<Wakeup, std::vector<Wakeup>, std::greater<Wakeup>> later_;
  void enqueue(unsigned block, Cycle cycle);
  Cycle next_wakeup() const;
  // Puts a block evaluated this cycle to sleep until `next` (now + 1: it stays awake).
  void after_evaluation(unsigned block, Cycle now, Cycle next, bool& any_awake);

  // Parallel cycles.
  void evaluate_in_parallel(Cycle now, bool& any_awake);
  // Takes a chunk of positions of par_order_: from the front of the thread's own share, else
  // from the back of another's.
  bool take(unsigned lane, unsigned& begin, unsigned& end);
  bool take_from(unsigned share, bool front, unsigned& begin, unsigned& end);
  void run(unsigned begin, unsigned end, Lane& lane);
  void work(unsigned lane);
  void start_workers();
  void stop_workers();

  ThreadingChoice choice_;
  bool always_parallel_ = false;

  std::function<void()> after_parallel_;
  unsigned threads_ = 1;
  unsigned min_parallel_ = kMinParallelBlocks;
  std::vector<std::uint64_t> parallel_;  // bit per block: may be evaluated on any thread
  std::vector<std::uint64_t> evaluated_; // bit per block evaluated in this edge's parallel part
  std::vector<unsigned> par_order_;      // this edge's awake parallel blocks, share after share
  Cycle par_now_ = 0;
  std::vector<Lane> lanes_;              // one per thread
  std::vector<std::thread> workers_;
  // Each thread's share of a parallel cycle: the awake parallel blocks of a fixed range of
  // affinities, so that a router's state stays in one core's cache; par_order_ holds the
  // shares one after the other, each in index order. Positions [front, back) of par_order_ not
  // taken yet are one word, front << 32 | back, so that a thread takes a chunk with one
  // compare-and-swap: the owner from the front, half of what is left (few compare-and-swaps
  // on a short cycle), a thread done with its own share a few blocks from the back (a thread
  // that is not running holds nobody up).
  struct alignas(64) Share {
    std::atomic<std::uint64_t> work{0};
  };
  std::vector<unsigned> affinity_;        // per block (mark_parallel)
  std::vector<std::uint64_t> share_masks_;  // [share * words + word]: the share's blocks
  std::unique_ptr<Share[]> shares_;  // one per thread
  // Counts the parallel cycles: a worker waits for it to change, on a line nothing else
  // writes, then takes work (polling the shares' words would pull them away from the thread
  // that takes its chunks from them).
  alignas(64) std::atomic<std::uint64_t> epoch_{0};
  alignas(64) std::atomic<unsigned> done_{0};  // positions evaluated
  std::atomic<unsigned> sleepers_{0};          // workers waiting on wake_workers_
  std::atomic<bool> stop_{false};
  std::mutex sleep_mutex_;
  std::condition_variable wake_workers_;
};

}  // namespace collnoc
