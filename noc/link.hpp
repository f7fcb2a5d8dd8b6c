// A point-to-point channel: flits one way, credits the other, each a delay line.
//
// Latency L >= 1 cycles: a flit sent in cycle t is in the receiver's input buffer in cycle t + L.
// The channel carries at most one flit per cycle, and so at most one credit per cycle back.
#pragma once
#include <string>

#include "noc/clock.hpp"
#include "noc/delay_line.hpp"
#include "noc/flit.hpp"

namespace collnoc {

struct LinkParams {
  unsigned latency_cycles = 1;         // flit: sender's cycle to receiver's buffer
  unsigned credit_latency_cycles = 1;  // credit: receiver's cycle to sender's counter
};

// Throws ParamError naming `<key_prefix>.latency_cycles` or `.credit_latency_cycles`.
void validate(const LinkParams& p, const std::string& key_prefix);

// A passive channel (no process of its own): the blocks at its ends read and write it when they
// evaluate. Kept out of the SystemC object hierarchy so that a network's links sit compactly in
// memory; `name` is for reports.
class alignas(64) Link {
 public:
  explicit Link(std::string name, const LinkParams& params = {});

  // The block that reads the flits (on its input `receiver_port`) and the one that reads the
  // credits (for its output `sender_port`). A sender that sleeps collects its credits late, so
  // up to every slot of the receiver's buffers can be waiting on the credit line: it is sized
  // for that.
  void attach_receiver(ClockedModule* receiver, unsigned receiver_port) {
    clock_ = &receiver->clock();
    receiver_block_ = receiver->block_index();
    receiver_flits_ = receiver->flit_flags();
    receiver_port_ = receiver_port;
  }
  void attach_sender(ClockedModule* sender, unsigned sender_port, std::size_t receiver_buffer_slots) {
    sender_credits_ = sender->credit_flags();
    sender_port_ = sender_port;
    credits_.reset(params_.credit_latency_cycles,
                   receiver_buffer_slots + params_.credit_latency_cycles + 2);
  }
  const std::string& name() const { return name_; }
  unsigned receiver_block() const { return receiver_block_; }

  // Sender side: the flit goes on the line, the receiver's input port is flagged and the
  // receiver woken for the flit's cycle.
  void send(const Flit& flit, Cycle now) {
    flits_.push(flit, now);
    *receiver_flits_ |= std::uint64_t{1} << receiver_port_;
    clock_->wake(receiver_block_, now + flits_.latency());
  }
  // The same on a parallel cycle (from the thread of `lane`): the receiver may be evaluating
  // on another thread, so its port is flagged atomically and the clock wakes it afterwards.
  void send_shared(const Flit& flit, Cycle now, Lane& lane) {
    flits_.push<true>(flit, now);
    __atomic_fetch_or(receiver_flits_, std::uint64_t{1} << receiver_port_, __ATOMIC_RELEASE);
    lane.wakes.emplace_back(receiver_block_, now + flits_.latency());
  }
  template <bool Shared = false>
  bool credit_ready(Cycle now) const { return credits_.ready<Shared>(now); }
  std::uint8_t take_credit() {
    std::uint8_t vc = credits_.front();
    credits_.pop();
    return vc;
  }
  template <bool Shared = false>
  bool has_credits() const { return !credits_.empty<Shared>(); }

  // Receiver side (Shared: on a parallel cycle, see DelayLine).
  template <bool Shared = false>
  bool flit_ready(Cycle now) const { return flits_.ready<Shared>(now); }
  const Flit& peek_flit() const { return flits_.front(); }
  void pop_flit() { flits_.pop(); }
  void return_credit(std::uint8_t vc, Cycle now) {
    credits_.push(vc, now);
    *sender_credits_ |= std::uint64_t{1} << sender_port_;
  }
  void return_credit_shared(std::uint8_t vc, Cycle now) {
    credits_.push<true>(vc, now);
    __atomic_fetch_or(sender_credits_, std::uint64_t{1} << sender_port_, __ATOMIC_RELEASE);
  }
  void prefetch() const {
    __builtin_prefetch(this);
    flits_.prefetch();
    credits_.prefetch();
  }

  template <bool Shared = false>
  Cycle next_flit_cycle() const { return flits_.next_ready<Shared>(); }
  template <bool Shared = false>
  std::size_t flits_in_flight() const { return flits_.size<Shared>(); }
  const LinkParams& params() const { return params_; }

 private:
  // What the two ends use on every flit and credit comes first, on as few cache lines as it
  // takes (the links of a large network do not stay in cache between cycles); the name and
  // parameters last.
  DelayLine<Flit> flits_;
  DelayLine<std::uint8_t> credits_;
  Clock* clock_ = nullptr;
  std::uint64_t* receiver_flits_ = nullptr;   // the receiver's flit_flags()
  std::uint64_t* sender_credits_ = nullptr;   // the sender's credit_flags()
  unsigned receiver_port_ = 0;
  unsigned receiver_block_ = 0;  // the receiver's index at the clock
  unsigned sender_port_ = 0;
  std::string name_;
  LinkParams params_;
};

}  // namespace collnoc
