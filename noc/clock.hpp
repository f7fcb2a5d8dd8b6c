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

#include "noc/types.hpp"

namespace collnoc {

class ClockedBlock;
class ClockedModule;

// One thread of a parallel cycle. The wake-ups its blocks' sends ask for wait here until
// every thread is done, and the clock's thread makes them.
struct alignas(64) Lane {  // each thread's on a cache line of its own
  unsigned index = 0;  // 0: the clock's own thread
  bool any_awake = false;  // a block it evaluated stays awake for the next cycle
  // Wakes `block` for `cycle` (> now) once the parallel part is done. Most are for the next
  // cycle and for blocks that stay awake anyway: those are a bit per block, and the clock
  // wakes only the ones that went to sleep.
  void wake(unsigned block, Cycle cycle, Cycle now) {
    if (cycle == now + 1) wake_next[block >> 6] |= std::uint64_t{1} << (block & 63);
    else wakes.emplace_back(block, cycle);
  }
  std::vector<std::uint64_t> wake_next;           // for now + 1, a bit per block
  std::vector<std::pair<unsigned, Cycle>> wakes;  // for later cycles
  // The blocks it evaluated that go to sleep, and the cycle each has work again (kNever: none
  // of its own). Most blocks of a busy cycle stay awake, so only these are handed back.
  std::vector<std::pair<unsigned, Cycle>> sleeps;
};

// The cycle a block is evaluating and how it reaches its links in it: on the clock's own thread
// (SerialCycle), or on one of the threads of a parallel cycle (ParallelCycle), when the block
// at a link's other end may be evaluating at the same time. A block is written once, as a
// template over this (Clocked), and hands it to its links (Link) and to its network's
// per-thread state (NetworkContext::lane); it never asks which one it is.
struct SerialCycle {
  static constexpr bool kParallel = false;
  Cycle now;
  unsigned thread() const { return 0; }
};
struct ParallelCycle {
  static constexpr bool kParallel = true;
  Cycle now;
  Lane& lane;  // the thread's (wake-ups are applied after the parallel part)
  unsigned thread() const { return lane.index; }
};

// Whether a busy cycle is evaluated on one thread or on all: hold the way chosen for a number of
// busy cycles, then time some cycles on one thread, then some on all, and hold the faster. Each
// way is timed for kTimedCycles cycles, or fewer (at least kMinTimedCycles) once kTimedNs have
// been timed: a large network's cycles are long, and the slower way costs while it is timed.
// The ways are compared by their median time per block evaluated, not by their sums: on a
// shared machine one parallel cycle whose other thread lost its core for a time slice would
// otherwise outweigh the rest and hold a 32x32 mesh on one thread, at half the speed, for a
// thousand cycles or more (5 runs in 30 did, docs/performance_log.md, thirteenth session).
class ThreadingChoice {
 public:
  // For a busy cycle: true to evaluate it on all threads. `timed`: time it, and record().
  bool choose(bool& timed);
  void record(bool parallel, double ns, unsigned blocks);

  static constexpr unsigned kSettleCycles = 8, kTimedCycles = 64, kMinTimedCycles = 4;
  static constexpr double kTimedNs = 5e6;
  static constexpr unsigned kFirstHold = 1024, kMaxHold = 32768;

 private:
  enum class Phase : std::uint8_t { hold, time_serial, time_parallel };
  float median(unsigned way);
  Phase phase_ = Phase::time_serial;
  bool use_parallel_ = false;
  unsigned phase_cycles_ = 0;
  unsigned hold_cycles_ = kFirstHold;
  double timed_ns_[2] = {0, 0};          // [parallel]: wall time of the timed cycles
  unsigned timed_count_[2] = {0, 0};     // how many were timed
  float ns_per_block_[2][kTimedCycles];  // each one's time per block evaluated
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

// What the clock calls on every evaluation of a block, and the block's port marks, apart from
// the sc_module: an sc_module's own fields fill several cache lines, so a block's virtual table
// pointer (at the sc_module's start) would be a line of its own that each evaluation misses. As
// the second base of ClockedModule, this part sits at the end of the sc_module, on one line with
// the first fields of the block's own class (put its hot fields first).
class alignas(64) ClockedBlock {
 protected:
  friend class Clock;
  ~ClockedBlock() = default;  // (not deleted through this base)
  // One cycle of the block's hardware.
  virtual void evaluate(Cycle now) = 0;
  // Earliest cycle after `now` at which the block has work of its own (a timer, a queued
  // message, flits due on its links); kNever if only a new arrival can give it work.
  // now + 1 keeps it awake.
  virtual Cycle next_work_cycle(Cycle now) const = 0;
  // Asks the memory system for what evaluate() will read; called a little before it. Large
  // networks do not fit in cache, and the clock knows which block comes next. (The block's own
  // fields, up to set_prefetch_end's, were asked for earlier.)
  virtual void prefetch() const {}

  // The ports with work, as the block knows them: an input port whose link holds flits (due
  // now or later), an output port whose link holds credits. Its own: nobody else writes them.
  // They come from the marks its links leave (PortMarks, taken by take_marks()). Blocks look
  // only at these ports, not at every link every cycle. A credit wakes nobody: a block with
  // flits to send is awake, and an idle one collects its credits when it next evaluates, with
  // the same result.
  std::uint64_t flit_pending_ = 0;
  std::uint64_t credit_pending_ = 0;
  PortMarks marks_;
  // Set while the block is evaluated on a parallel cycle: its thread's Lane.
  Lane* lane_ = nullptr;
  bool always_on_ = false;  // evaluated every cycle (ClockedModule::set_always_on)
};

class ClockedModule : public sc_core::sc_module, public ClockedBlock {
 public:
  ClockedModule(sc_core::sc_module_name name, Clock& clock);

  // Schedules an evaluation at `cycle` (> now) if the block sleeps; a no-op when it is awake.
  void wake_at(Cycle cycle) { clock_.wake(index_, cycle); }
  // Evaluate every cycle instead of sleeping (tracing, or checking the optimisation).
  void set_always_on(bool on) {
    always_on_ = on;
    if (on) clock_.keep_awake(index_);
  }
  Clock& clock() const { return clock_; }

  unsigned block_index() const { return index_; }
  // The marks, for the links attached to the block (PortMarks): the byte for a flit due on
  // input `port`, and for a credit on output `port`.
  std::uint8_t* flit_mark(unsigned port) { return marks_.flit_mark(port); }
  std::uint8_t* credit_mark(unsigned port) { return marks_.credit_mark(port); }

 protected:
  // May be evaluated on any thread of a parallel cycle (see Clock::mark_parallel).
  void set_parallel(unsigned affinity) { clock_.mark_parallel(index_, affinity); }
  void set_parallel() { set_parallel(index_); }
  // The block's hot fields run from ClockedBlock's to `end` (a member's address).
  void set_prefetch_end(const void* end);
  // And its hot state outside the object, in an allocation of its own: [begin, end).
  void set_prefetch_region(const void* begin, const void* end);

  // Ports up to `ports` (before links are attached; 8 without).
  void set_ports(unsigned ports) { marks_.resize(ports); }
  // The ports with work: an input port whose link holds flits (due now or later), an output
  // port whose link holds credits. A block that looks only at these, not at every link every
  // cycle, collects them at the start of its evaluation (its links leave marks; a block that
  // polls its one or two links, an NI, need not). Then for_each_* call f(port) for each; f
  // returns true when the port's link is now empty.
  void collect_ports_with_work(Cycle now) { marks_.take(now, flit_pending_, credit_pending_); }
  template <typename F>
  void for_each_input_with_flits(F&& f) { for_each_pending(flit_pending_, f); }
  template <typename F>
  void for_each_output_with_credits(F&& f) { for_each_pending(credit_pending_, f); }
  std::uint64_t outputs_with_credits() const { return credit_pending_; }
  // For next_work_cycle at `now`: the inputs whose links hold flits, those marked during this
  // cycle too (a sender evaluated before the block in this cycle woke it while it was awake,
  // which does nothing).
  std::uint64_t inputs_with_flits(Cycle now) const {
    return flit_pending_ | marks_.flits_marked(now);
  }
  // For prefetch(): the ports the next evaluation will find with work (no store).
  void peek_ports_with_work(std::uint64_t& inputs, std::uint64_t& outputs) const {
    inputs = flit_pending_;
    outputs = credit_pending_;
    marks_.peek(inputs, outputs);
  }

 private:
  template <typename F>
  static void for_each_pending(std::uint64_t& mask, F&& f) {
    for (std::uint64_t bits = mask; bits; bits &= bits - 1) {
      const unsigned port = static_cast<unsigned>(__builtin_ctzll(bits));
      if (f(port)) mask &= ~(std::uint64_t{1} << port);
    }
  }
  Clock& clock_;
  unsigned index_;
};

// The base of a block class `Block` (CRTP): the clock's evaluation calls
// Block::cycle(At) with the SerialCycle or ParallelCycle the block is evaluated in.
template <class Block>
class Clocked : public ClockedModule {
 public:
  using ClockedModule::ClockedModule;

 protected:
  void evaluate(Cycle now) final {
    if (lane_) static_cast<Block*>(this)->cycle(ParallelCycle{now, *lane_});
    else static_cast<Block*>(this)->cycle(SerialCycle{now});
  }
};

}  // namespace collnoc
