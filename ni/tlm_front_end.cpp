#include "ni/tlm_front_end.hpp"

#include <algorithm>

namespace collnoc {

using namespace sc_core;

TlmFrontEnd::TlmFrontEnd(ClockedModule& ni, NodeId id, const NetworkInterfaceParams& params,
                         Packetizer& packetizer)
    : ni_(ni), packetizer_(packetizer), id_(id),
      send_overhead_cycles_(params.send_overhead_cycles),
      recv_overhead_cycles_(params.recv_overhead_cycles),
      wake_(ni.clock()), xor_engine_("xor_engine", params.xor_engine), mpb_(params.mpb_bytes) {}

void TlmFrontEnd::send(NodeId dst, std::vector<std::uint32_t>&& words, const NiCommand& cmd,
                       Cycle issue, Cycle ready, Cycle core_now) {
  packetizer_.queue_message(dst, std::move(words), cmd, issue, ready, core_now);
  ++counters_.messages_sent;
  ni_.wake_at(ready);
}

Cycle TlmFrontEnd::code(const std::uint32_t* pair, std::size_t words, Cycle earliest,
                        std::vector<std::uint32_t>& coded) {
  const Cycle accept = std::max(earliest, xor_next_accept_);
  xor_engine_.submit(pair, pair + words, words, accept);
  const Cycle ready = accept + xor_engine_.latency_cycles();
  coded = xor_engine_.take(ready);
  xor_next_accept_ = accept + xor_engine_.issue_interval_cycles();
  return ready;
}

void TlmFrontEnd::b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
  NiCommand* cmd = nullptr;
  gp.get_extension(cmd);
  if (!cmd || gp.get_data_length() % 4 != 0) {
    gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  cmd->mpb_puts_landed = counters_.mpb_puts;
  const Cycle now = clock().now();
  const Cycle issue = static_cast<Cycle>(
      (sc_time_stamp() + delay).value() / clock().period().value());
  const auto* data = reinterpret_cast<const std::uint32_t*>(gp.get_data_ptr());
  const std::size_t words = gp.get_data_length() / 4;
  if (gp.is_write() && gp.get_address() == kSendAddress) {
    std::vector<std::uint32_t> message(data, data + words);
    // A put or get must fit the buffers (every NI has the same size).
    const bool put = cmd->kind == kMpbPutKind, get = cmd->kind == kMpbGetKind;
    if ((put || get) && (message.size() < (put ? 1u : 2u) ||
                         !mpb_.holds(message[0], put ? message.size() - 1 : message[1]))) {
      gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    send(cmd->peer, std::move(message), *cmd, issue, issue + send_overhead_cycles_, now);
    delay += clock().delay(send_overhead_cycles_);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (gp.is_write() && gp.get_address() == kMulticastAddress) {
    const Cycle ready = issue + send_overhead_cycles_;
    if (!cmd->destinations ||
        !packetizer_.queue_multicast(*cmd->destinations,
                                     std::vector<std::uint32_t>(data, data + words), *cmd, issue,
                                     ready, now)) {
      gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    counters_.messages_sent += cmd->destinations->size();  // (one message to each)
    ni_.wake_at(ready);
    delay += clock().delay(send_overhead_cycles_);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  // The engine is this NI's own and only its core feeds it, in the core's time order, so when
  // a pair is coded depends on nothing else: it is computed here, ahead, like a send.
  if (gp.is_write() && (gp.get_address() == kXorSendAddress || gp.get_address() == kXorAddress)) {
    const std::size_t n = cmd->pair_words;
    if (n == 0 || words != 2 * n) {
      gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
      return;
    }
    std::vector<std::uint32_t> coded;
    const Cycle ready = code(data, n, issue + send_overhead_cycles_, coded);
    if (gp.get_address() == kXorAddress) {
      // Decoding: each result comes back to the core like a message from itself, so the core
      // goes on receiving while the engine works.
      ReceivedMessage r;
      r.words = std::move(coded);
      r.kind = cmd->kind;
      r.tag = cmd->tag;
      r.sent = issue;
      // (No wake-up: the core issuing it is not waiting; its next receive finds it queued.)
      // Issued ahead of simulated time, it waits for its cycle: what is delivered until then
      // goes before it.
      if (issue > now) {
        held_results_.push_back(HeldResult{issue, ready + 1, std::move(r)});
      } else {
        if (!held_results_.empty()) admit_held_results(now + 1);
        deliveries_.push(id_, ready + 1, std::move(r));
      }
    } else {
      const NodeId one[] = {cmd->peer};
      const NodeId* dst = cmd->destinations ? cmd->destinations->data() : one;
      const std::size_t n = cmd->destinations ? cmd->destinations->size() : 1;
      for (std::size_t i = 0; i < n; ++i)  // (the last takes the engine's result itself)
        send(dst[i], i + 1 < n ? std::vector<std::uint32_t>(coded) : std::move(coded), *cmd,
             issue, ready, now);
    }
    delay += clock().delay(send_overhead_cycles_);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (mpb_access(gp, delay)) return;
  if (gp.is_read() && gp.get_address() == kMpbWatchAddress && mpb_.size_bytes() > 0) {
    cmd->arrival = &mpb_landed_;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (gp.is_read() && gp.get_address() == kRecvAddress) {
    receive(*cmd, issue, now, delay);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// The oldest available message the command asks for, or when the next one becomes available.
//
// A receive issued ahead of the simulated time (the core runs ahead: temporal decoupling)
// takes nothing yet: up to its issue cycle only messages are appended, so the message it finds
// now is the one it finds then, and the core waits out its offset to take it (so too for one
// of its own XOR results, held until their cycles: messages delivered until then go first).
// If it finds none, the core waits until the first cycle from its issue cycle at which one it
// takes is available (WaitingReceive), without stopping at the issue cycle or at deliveries it
// does not take.
void TlmFrontEnd::receive(NiCommand& cmd, Cycle issue, Cycle now, sc_time& delay) {
  waiting_.valid = false;
  cmd.found = false;
  Cycle held_match = kNever;  // the first of its own XOR results held for later cycles it takes
  if (!held_results_.empty()) {
    admit_held_results(now + 1);
    for (const HeldResult& h : held_results_)
      if (DeliveryStore::takes(cmd.peer, cmd.mpb_reply, id_, h.message.kind))
        held_match = std::min(held_match, h.available);
  }
  const DeliveryStore::Found f = deliveries_.find(cmd.peer, cmd.mpb_reply, issue);
  if (f.message != DeliveryStore::kNone || held_match <= issue) {
    if (issue > now) {  // there at the issue cycle: taken then
      cmd.next_available = f.message != DeliveryStore::kNone
                               ? deliveries_.at(f.message).available
                               : held_match;
      return;
    }
    DeliveryStore::Delivered m = deliveries_.take(f.message);
    cmd.found = true;
    cmd.source = m.src;
    cmd.received_kind = m.kind;
    cmd.received_tag = m.tag;
    cmd.received_hops = m.hops;
    cmd.received_sent_cycle = m.sent;
    cmd.received_arrival_cycle = m.available;
    if (cmd.received) *cmd.received = std::move(m.words);
    delay += clock().delay(recv_overhead_cycles_);
    return;
  }
  // The core waits: woken for the first message it takes, from its issue cycle on.
  waiting_ = WaitingReceive{true, cmd.peer, cmd.mpb_reply, issue};
  for (unsigned r = 0; r < CycleEvent::kResumeRegions; ++r)
    wake_.set_resume_lines(r, cmd.resume_lines[r], cmd.resume_bytes[r]);
  wake_.cancel();  // (a wake-up for a message it has taken since)
  const Cycle next_match = std::min(f.next_match, held_match);
  if (next_match != kNever) wake_.notify_at(next_match);
  cmd.next_available = next_match;
  cmd.arrival = &wake_.event();
}

void TlmFrontEnd::admit_held_results(Cycle until) {
  while (!held_results_.empty() && held_results_.front().issue < until) {
    HeldResult& h = held_results_.front();
    deliveries_.push(id_, h.available, std::move(h.message));
    held_results_.pop_front();
  }
}

void TlmFrontEnd::deliver(NodeId src, Cycle available, ReceivedMessage&& m) {
  const Cycle now = clock().now();
  if (!held_results_.empty()) admit_held_results(now);  // (issued in earlier cycles)
  // Puts and gets are the buffer's business; everything else goes to the core.
  if (!serve_mpb(src, m.kind, m.words, available)) {
    wake_for(src, m.kind, available);
    deliveries_.push(src, available, std::move(m));
  } else if (m.kind == kMpbPutKind) {
    mpb_landed_.notify(clock().delay(available - now));  // a poll of the buffer sees it
  }
  ++counters_.messages_delivered;
}

bool TlmFrontEnd::serve_mpb(NodeId src, std::uint8_t kind, const std::vector<std::uint32_t>& words,
                            Cycle ready) {
  if (kind == kMpbPutKind) {  // the sender checked the range against its own, equal, buffer
    mpb_.write(words[0], words.data() + 1, words.size() - 1);
    ++counters_.mpb_puts;
    counters_.mpb_words_written += words.size() - 1;
    return true;
  }
  if (kind == kMpbGetKind) {
    std::vector<std::uint32_t> reply(words[1]);
    mpb_.read(words[0], reply.data(), reply.size());
    counters_.mpb_words_read += reply.size();
    NiCommand answer;
    answer.kind = kMpbReplyKind;
    send(src, std::move(reply), answer, ready, ready, kNever);
    ++counters_.mpb_gets;
    return true;
  }
  return false;
}

// The core reads or writes its own message-passing buffer: one cycle, no network.
bool TlmFrontEnd::mpb_access(tlm::tlm_generic_payload& gp, sc_time& delay) {
  const std::uint64_t address = gp.get_address();
  if (address < kMpbAddress || mpb_.size_bytes() == 0) return false;
  const std::uint64_t offset = address - kMpbAddress, count = gp.get_data_length() / 4;
  if (!mpb_.holds(offset, count)) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return true;
  }
  auto* data = reinterpret_cast<std::uint32_t*>(gp.get_data_ptr());
  if (gp.is_write()) mpb_.write(offset, data, count), counters_.mpb_words_written += count;
  else mpb_.read(offset, data, count), counters_.mpb_words_read += count;
  delay += clock().delay(1);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void TlmFrontEnd::report(Tally& t, bool with_core) const {
  if (with_core) {
    t.count("messages.sent", counters_.messages_sent);
    t.count("messages.delivered", counters_.messages_delivered);
  }
  t.count("nc.xor_operations", xor_engine_.xor_operations());
  t.count("nc.xor_busy_cycles", xor_engine_.busy_cycles());
  t.maximum("ni.delivery_queue_max_messages", counters_.max_delivery_queue_messages);
}

}  // namespace collnoc
