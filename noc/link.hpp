// A point-to-point channel: flits one way, credits the other.
//
// Latency L >= 1 cycles: a flit sent in cycle t is in the receiver's input buffer in cycle t + L.
// The channel carries at most one flit per cycle, and so at most one credit per cycle back.
//
// The sender writes a flit straight into its slot of the receiver's input buffer (credit flow
// control says the slot is free), stamped with its arrival cycle, and an arrival notice (its
// VC, and what routing reads of a head) goes down a delay line; the receiver takes the notice in
// the arrival cycle and finds the flit in place. So a flit is copied once per hop, not into the
// wire and out again: in a large network each copy is a cache line that does not stay in cache
// between cycles.
#pragma once
#include <memory_resource>
#include <string>
#include <vector>

#include "noc/sim/clocked_block.hpp"
#include "noc/sim/delay_line.hpp"
#include "noc/flit.hpp"

namespace collnoc {

// A flit's sidebands in a receiver's input buffer and the cycle it arrived there, two to a cache
// line (unaligned, some would straddle two). Its payload words are in an array of their own
// beside the slots, the network's flit width apart (4 words by default: four flits to a line):
// a W3 router's buffers take 3 lines per 4-flit VC instead of the 4 of a slot padded to a line
// (W3 x0.85-0.96 the CPU time for it, docs/performance_log.md, twelfth session).
struct alignas(32) BufferSlot {
  FlitHeader flit;
  Cycle arrived = 0;
};
static_assert(sizeof(BufferSlot) == 32, "BufferSlot: half a cache line");

// The notice of a flit's arrival: its VC and, copied from the flit, what a router's route
// computation and allocation read of a head, so that a router first touches the flit's slot when
// the flit leaves.
struct Arrival {
  NodeId dst = 0;
  PacketHandle packet = 0;
  std::uint16_t length = 1;
  std::uint8_t vc = 0;
  std::uint8_t vc_class = 0;

  static Arrival of(const FlitHeader& f, std::uint8_t vc) {
    return Arrival{f.dst, f.packet, f.length, vc, f.vc_class};
  }
  static Arrival of(const FlitHeader& f) { return of(f, f.vc); }
};

// A 1-cycle link's notices (two in flight) and the credits of a 4 x 4-flit buffer on a 1-cycle
// credit line each fit on a cache line with their counts; the credits leave room for the
// address of the sender's mark beside them.
using ArrivalLine = DelayLine<Arrival, 2, 2>;
using CreditLine = DelayLine<std::uint8_t, 16, 2>;
static_assert(sizeof(ArrivalLine) <= 64, "a 1-cycle link's notices: one cache line");
static_assert(sizeof(CreditLine) + sizeof(std::uint8_t*) <= 64,
              "a link's credits and the sender's mark: one cache line");

struct LinkParams {
  unsigned latency_cycles = 1;         // flit: sender's cycle to receiver's buffer
  unsigned credit_latency_cycles = 1;  // credit: receiver's cycle to sender's counter

  static constexpr UintRange latency_range{1, kU32Max};  // both latencies
};

// Throws ParamError naming `<key_prefix>.latency_cycles` or `.credit_latency_cycles`.
void validate(const LinkParams& p, const std::string& key_prefix);

// A passive channel (no process of its own): the blocks at its ends read and write it when they
// evaluate. Kept out of the SystemC object hierarchy so that a network's links sit compactly in
// memory; `name` is for reports.
class alignas(64) Link {
 public:
  explicit Link(std::string name, const LinkParams& params = {});

  // The block that reads the flits (on its input `receiver_port`), with its input buffer for
  // this channel: `depth` slots per VC, VC v's ring at buffer[v * depth ...], and slot k's
  // `payload_words` payload words at payload[k * payload_words ...]. The sender's credits per
  // VC must equal `depth` (checked at wiring).
  void attach_receiver(ClockedModule* receiver, unsigned receiver_port, BufferSlot* buffer,
                       std::uint32_t* payload, unsigned payload_words, unsigned vcs,
                       unsigned depth);
  // The block that sends the flits and reads the credits (for its output `sender_port`): `vcs`
  // VCs of `credits_per_vc` credits. A sender that sleeps collects its credits late, so up to
  // every slot of the receiver's buffer can be waiting on the credit line: it is sized for that.
  // `payload_words`: the payload words the sender holds per flit, at least the receiver's
  // (checked at wiring).
  void attach_sender(ClockedModule* sender, unsigned sender_port, unsigned vcs,
                     unsigned credits_per_vc, unsigned payload_words = kMaxFlitWords);
  const std::string& name() const { return name_; }
  unsigned receiver_block() const { return receiver_block_; }

  // The blocks at the two ends call these during their evaluation, with the cycle they are
  // evaluating (SerialCycle or ParallelCycle, see clock.hpp): on a parallel cycle the block at
  // the other end may be evaluating on another thread, so an entry is published after it is
  // written (DelayLine) and the receiver is woken through the thread's lane afterwards.
  //
  // Sender side: the flit goes into the receiver's buffer, at `next_slot` of its VC's ring (the
  // sender's write position for that VC, which it keeps beside the VC's credits and this
  // advances), its notice on the line; the receiver is told of it and woken for its cycle.
  template <class At>
  void send(At at, const Flit& flit, std::uint16_t& next_slot) {
    forward(at, flit, flit.payload.data(), flit.vc, flit.hops, next_slot);
  }
  // The same for a flit that a router passes on (sidebands and payload from its buffer): it
  // leaves on VC `vc` with hop count `hops`, set in the copy in the receiver's buffer. (Setting
  // them in the router's own copy first would make the copy's loads wait for those stores to
  // reach the cache.)
  template <class At>
  void forward(At at, const FlitHeader& flit, const std::uint32_t* payload,
               std::uint8_t vc, std::uint16_t hops, std::uint16_t& next_slot) {
    const Cycle now = at.now;
    deposit(flit, payload, vc, hops, now, next_slot);
    arrivals_.push<At::kParallel>(Arrival::of(flit, vc), now);
    PortMarks::mark(receiver_mark_, now);
    if constexpr (At::kParallel) at.lane.wake(receiver_block_, now + arrivals_.latency(), now);
    else clock_->wake(receiver_block_, now + arrivals_.latency());
  }
  template <class At>
  bool credit_ready(At at) const { return credits_.ready<At::kParallel>(at.now); }
  std::uint8_t take_credit() {
    std::uint8_t vc = credits_.front();
    credits_.pop();
    return vc;
  }
  template <class At>
  bool has_credits(At) const { return !credits_.empty<At::kParallel>(); }

  // Receiver side: a flit has arrived by the cycle; take_arrival() returns its notice, and the
  // flit is in the receiver's buffer, behind the ones that arrived on its VC before it.
  template <class At>
  bool flit_ready(At at) const { return arrivals_.ready<At::kParallel>(at.now); }
  Arrival take_arrival() {
    const Arrival a = arrivals_.front();
    arrivals_.pop();
    return a;
  }
  template <class At>
  void return_credit(At at, std::uint8_t vc) {
    credits_.push<At::kParallel>(vc, at.now);
    PortMarks::mark(sender_mark_, at.now);
  }
  // What the receiver reads of a marked input (the notice), and the sender of a marked output
  // (the credits): first the line with their counts (no load: a block calls this for the
  // blocks it is about to evaluate), then, that line in cache, the credits' entry if it is
  // apart from it (a long credit line's: one for more than 16 credits or a longer latency).
  void prefetch_arrivals() const { arrivals_.prefetch(); }
  void prefetch_credits() const { credits_.prefetch(); }
  void prefetch_credit_entry() const { credits_.prefetch_entry(); }
  // What the sender writes and reads to send a flit: the notices' line and the receiver's
  // addresses (the slot and the payload words are asked for by the router, which knows them).
  void prefetch_sending() const {
    arrivals_.prefetch();
    __builtin_prefetch(&buffer_);
  }

  // The cycle the next flit arrives (kNever: none on the way). From any thread: the sender may
  // be evaluating on another (for a block's next_work_cycle).
  Cycle next_flit_cycle() const { return arrivals_.next_ready<true>(); }
  template <class At>
  std::size_t flits_in_flight(At) const { return arrivals_.size<At::kParallel>(); }
  // (Outside an evaluation: reports, the conservation check.)
  std::size_t flits_in_flight() const { return arrivals_.size<true>(); }

  // One control line per VC beside the flits (HTA's delayed header routing, SPEC 5): the
  // sender raises it when every header of the message it sends on that VC has been routed at
  // its end; the receiver sees it `latency` cycles later and lowers it when the message has
  // left its buffer. Lines exist once enable_control_lines() was called (multicast networks).
  // (Multicast runs evaluate on one thread: plain stores.)
  void enable_control_lines() { control_.assign(receiver_vcs_, kNever); }
  void raise_control_line(unsigned vc, Cycle now) { control_[vc] = now + arrivals_.latency(); }
  bool control_line_high(unsigned vc, Cycle now) const { return control_[vc] <= now; }
  void lower_control_line(unsigned vc) { control_[vc] = kNever; }
  const LinkParams& params() const { return params_; }

 private:
  void deposit(const FlitHeader& flit, const std::uint32_t* payload, std::uint8_t vc,
               std::uint16_t hops, Cycle now, std::uint16_t& next_slot) {
    const unsigned k = vc * depth_ + next_slot;
    BufferSlot& s = buffer_[k];
    next_slot = static_cast<std::uint16_t>(ring_next(next_slot, depth_));
    copy_payload(payload_ + k * payload_words_, payload, payload_words_);
    s.flit = flit;
    s.flit.vc = vc;
    s.flit.hops = hops;
    s.arrived = now + arrivals_.latency();
  }
  void check_wiring() const;

  // Three cache lines. The notices' (the sender writes it and the receiver reads it, one line
  // per flit); the credits' (the other way round), with what the receiver needs to mark a
  // credit; and, read-only once wired, what the sender needs to deliver a flit: the receiver's
  // buffer (slots and payload words), mark and clock. The wiring checks, the name and
  // parameters last.
  alignas(64) ArrivalLine arrivals_;
  alignas(64) CreditLine credits_;
  std::uint8_t* sender_mark_ = nullptr;       // the sender's credit_mark(port)
  alignas(64) BufferSlot* buffer_ = nullptr;  // the receiver's
  std::uint32_t* payload_ = nullptr;          // the receiver's, payload_words_ per slot
  Clock* clock_ = nullptr;
  std::uint8_t* receiver_mark_ = nullptr;     // the receiver's flit_mark(port)
  unsigned receiver_block_ = 0;               // the receiver's index at the clock
  std::uint16_t depth_ = 0;                   // the receiver's slots per VC
  std::uint8_t payload_words_ = 0;            // the receiver's payload words per slot
  unsigned receiver_vcs_ = 0, sender_vcs_ = 0, sender_credits_per_vc_ = 0;  // wiring checks
  unsigned sender_payload_words_ = 0;
  std::vector<Cycle> control_;  // per VC: the cycle its control line is high from
  std::string name_;
  LinkParams params_;
};

// A receiver's input buffer for one channel that it reads in arrival order per VC (an NI's
// ejection port, a static switch's input): `depth` slots per VC, each VC's front and count.
// (A router keeps its buffers in its own state, beside each VC's packet state.)
class InputBuffer {
 public:
  explicit InputBuffer(std::pmr::memory_resource* memory = std::pmr::get_default_resource())
      : slots_(memory), payload_(memory), vcs_(memory) {}
  // Flits of up to `payload_words` payload words.
  void attach(Link& link, ClockedModule* receiver, unsigned port, unsigned vcs, unsigned depth,
              unsigned payload_words = kMaxFlitWords) {
    slots_.assign(static_cast<std::size_t>(vcs) * depth, BufferSlot{});
    payload_.assign(static_cast<std::size_t>(vcs) * depth * payload_words, 0);
    vcs_.assign(vcs, Vc{});
    depth_ = depth;
    payload_words_ = payload_words;
    link.attach_receiver(receiver, port, slots_.data(), payload_.data(), payload_words, vcs,
                         depth);
  }
  // Takes the notice of a flit that has arrived on `link` (flit_ready): returns its VC.
  unsigned arrive(Link& link) {
    const unsigned vc = link.take_arrival().vc;
    ++vcs_[vc].count;
    return vc;
  }
  unsigned count(unsigned vc) const { return vcs_[vc].count; }
  void prefetch() const { __builtin_prefetch(vcs_.data()); }
  // A copy of `vc`'s front flit (its sidebands and payload are stored apart).
  Flit front(unsigned vc) const {
    const std::size_t k = vc * depth_ + vcs_[vc].head;
    Flit f;
    static_cast<FlitHeader&>(f) = slots_[k].flit;
    copy_payload(f.payload.data(), &payload_[k * payload_words_], payload_words_);
    return f;
  }
  void pop(unsigned vc) {
    Vc& v = vcs_[vc];
    v.head = ring_next(v.head, depth_);
    --v.count;
  }

 private:
  struct Vc {
    unsigned head = 0, count = 0;
  };
  std::pmr::vector<BufferSlot> slots_;
  std::pmr::vector<std::uint32_t> payload_;
  std::pmr::vector<Vc> vcs_;
  unsigned depth_ = 0, payload_words_ = 0;
};

}  // namespace collnoc
