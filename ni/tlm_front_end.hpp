// TLM front end: the NI's side toward its core. Decodes the core's commands (the NiCommand
// extension of a TLM-2.0 generic payload, ni/ni_protocol.hpp): a send hands a message to the
// packetizer; a receive takes a delivered message from the delivery queue; the XOR commands run
// a packet pair through the NI's XOR engine; and it serves the message-passing buffer, to its
// own core directly and to remote cores' puts and gets as they arrive from the reassembler.
#pragma once
#include <vector>

#include <tlm>

#include "ni/delivery_store.hpp"
#include "ni/message_passing_buffer.hpp"
#include "ni/ni_params.hpp"
#include "ni/ni_protocol.hpp"
#include "ni/packetizer.hpp"
#include "ni/reassembler.hpp"
#include "ni/xor_engine.hpp"
#include "noc/report.hpp"
#include "noc/sim/clocked_block.hpp"
#include "noc/sim/fifo.hpp"

namespace collnoc {

struct FrontEndCounters {
  std::uint64_t messages_sent = 0, messages_delivered = 0;
  std::uint64_t max_delivery_queue_messages = 0;
  std::uint64_t mpb_puts = 0, mpb_gets = 0;  // served by this NI's message-passing buffer
  // Words read from and written into it, by remote puts and gets and by its own core.
  std::uint64_t mpb_words_read = 0, mpb_words_written = 0;
};

class TlmFrontEnd {
 public:
  // `ni`: the NI it sits in (its clock; woken when a message is queued for injection).
  TlmFrontEnd(ClockedModule& ni, NodeId id, const NetworkInterfaceParams& params,
              Packetizer& packetizer);

  // The target socket's blocking transport (the core's commands).
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

  // A complete message from the reassembler, in order, available to the core from `available`.
  void deliver(NodeId src, Cycle available, ReceivedMessage&& m);
  // The delivery queue's high-water mark is sampled each time the reassembler completes a
  // message (the XOR engine's results for the core are counted there too).
  void sample_delivery_queue() {
    counters_.max_delivery_queue_messages =
        std::max<std::uint64_t>(counters_.max_delivery_queue_messages, deliveries_.size());
  }

  const FrontEndCounters& counters() const { return counters_; }
  // The delivery queue holds a message from `src` (kAnySource: from anyone), available now or
  // at a later cycle: a core that waits for it will be woken (the run's firmware watchdog asks).
  bool holds_message_from(NodeId src) const { return deliveries_.holds_from(src); }
  const XorEngine& xor_engine() const { return xor_engine_; }
  // `with_core`: a core is bound to the NI (the message counts are its).
  void report(Tally& t, bool with_core) const;

 private:
  // Hands the packetizer a message for `dst` and wakes the NI for it (`core_now`:
  // Packetizer::queue_message).
  void send(NodeId dst, std::vector<std::uint32_t>&& words, const NiCommand& cmd, Cycle issue,
            Cycle ready, Cycle core_now);
  // Runs a packet pair through the XOR engine; the engine takes it at the first free cycle
  // from `earliest`. Returns the cycle the coded packet is ready.
  Cycle code(const std::uint32_t* pair, std::size_t words, Cycle earliest,
             std::vector<std::uint32_t>& coded);
  // A put or get that arrived for the message-passing buffer; false if `kind` is neither.
  bool serve_mpb(NodeId src, std::uint8_t kind, const std::vector<std::uint32_t>& words,
                 Cycle ready);
  bool mpb_access(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void receive(NiCommand& cmd, Cycle issue, Cycle now, sc_core::sc_time& delay);
  // The held XOR results issued before cycle `until` join the delivery queue, in order.
  void admit_held_results(Cycle until);
  Clock& clock() const { return ni_.clock(); }

  ClockedModule& ni_;
  Packetizer& packetizer_;
  NodeId id_;
  unsigned send_overhead_cycles_, recv_overhead_cycles_;
  FrontEndCounters counters_;
  DeliveryStore deliveries_;
  // The core's XOR results for itself issued ahead of simulated time, in its order: each joins
  // the delivery queue at its cycle (as the core's thread would, after the NI's evaluation).
  struct HeldResult {
    Cycle issue, available;
    ReceivedMessage message;
  };
  Fifo<HeldResult> held_results_;
  // The receive the core waits in, if it waits: it is woken (wake_) for the first cycle from
  // `from` (its issue cycle) at which a message it takes is available, and only then.
  struct WaitingReceive {
    bool valid = false;
    NodeId peer = 0;
    bool mpb_reply = false;
    Cycle from = 0;
  };
  // Wakes the waiting core for a message available from `available` (if it takes it).
  void wake_for(NodeId src, std::uint8_t kind, Cycle available) {
    const WaitingReceive& w = waiting_;
    if (w.valid && DeliveryStore::takes(w.peer, w.mpb_reply, src, kind))
      wake_.notify_at(std::max(available, w.from));
  }
  WaitingReceive waiting_;
  CycleEvent wake_;  // the core's interrupt line: a message it waits for is available
  XorEngine xor_engine_;
  Cycle xor_next_accept_ = 0;  // the engine takes a pair every issue_interval_cycles()
  MessagePassingBuffer mpb_;
  sc_core::sc_event mpb_landed_;  // a remote put was written into mpb_
};

}  // namespace collnoc
