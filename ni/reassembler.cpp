#include "ni/reassembler.hpp"

#include <algorithm>

#include "ni/tlm_front_end.hpp"
#include "ni/trace.hpp"

namespace collnoc {

Reassembler::Reassembler(NodeId id, const NetworkInterfaceParams& params, const RouterParams& router,
                         NetworkContext& net, InterfaceContext& interfaces,
                         ArrivalWindow& arrivals, TlmFrontEnd& front_end)
    : count_arrivals_(arrivals.on()),
      words_per_flit_(static_cast<std::uint8_t>(params.words_per_flit())),
      codec_latency_cycles_(params.compression.codec_latency_cycles), net_(net),
      id_(id), arrivals_(arrivals), interfaces_(interfaces), front_end_(front_end),
      decoders_(params.compression.codec),
      decoder_(params.compression.codec_pipelined, params.compression.codec_latency_cycles),
      codec_pipelined_(params.compression.codec_pipelined),
      vcs_(router.vcs),
      buffer_flits_(params.ejection_buffer(router)) {
  rx_wire_.resize(vcs_);
}

void Reassembler::connect(ClockedModule* ni, Link& ejection) {
  ej_ = &ejection;
  ej_buffer_.attach(ejection, ni, 0, vcs_, buffer_flits_, words_per_flit_);
}

void Reassembler::connect_sink_channel(ClockedModule* ni, Link& channel) {
  auto& sink = sinks_.emplace_back(std::make_unique<SinkChannel>(net_.state.resource()));
  sink->link = &channel;
  // (The NI polls its links: every channel marks its port 0.)
  sink->buffer.attach(channel, ni, 0, vcs_, buffer_flits_, words_per_flit_);
  rx_wire_.resize((sinks_.size() + 1) * vcs_);
}

// The codec's stream is gathered and decoded when the tail is in; the decompressor delivers
// the packet codec_latency_cycles later (the whole D is charged here, once).
void Reassembler::receive_compressed(const Flit& f, const PacketHeader& h, const MessageFields& m,
                                     Cycle ready, unsigned lane) {
  std::vector<std::uint32_t>& wire = rx_wire_[lane];
  if (f.is_head()) wire.clear();
  wire.insert(wire.end(), f.payload.begin(), f.payload.begin() + f.words);
  if (!f.is_tail()) return;
  scratch_.resize(m.packet_words);
  auto modelled = interfaces_.modelled_payloads.find(f.packet);
  if (modelled != interfaces_.modelled_payloads.end()) {
    scratch_ = std::move(modelled->second);
    interfaces_.modelled_payloads.erase(modelled);
  } else {
    const Codec* codec = decoders_.codec_for(static_cast<ElementType>(m.element_type));
    BitReader reader(wire, 32ull * wire.size());
    codec->decode(reader, scratch_.size(), scratch_.data());
  }
  receive_payload(h, m, scratch_.data(), 0, m.packet_words, ready);
}

void Reassembler::receive_payload(const PacketHeader& h, const MessageFields& m,
                                  const std::uint32_t* words, std::uint32_t first,
                                  std::uint32_t count, Cycle ready) {
  if (m.kind == Packetizer::kSyntheticKind) {
    check_synthetic(h, m, words, first, count);
    return;
  }
  if (first == 0 && count == m.message_words && count == m.packet_words) {
    // The whole message in one packet (and one call): complete at once, not kept by key.
    ReceivedMessage done;
    done.words.assign(words, words + count);
    done.words_received = count;
    done.kind = m.kind;
    done.tag = m.tag;
    done.sent = m.created_cycle;
    done.hops = h.hops;
    done.ready = ready;
    complete_message(h.src, m.message_seq, std::move(done));
    return;
  }
  const std::uint64_t key = (static_cast<std::uint64_t>(h.src) << 32) | m.message_seq;
  ReceivedMessage& rx = reassembly_[key];
  if (rx.words.size() != m.message_words) rx.words.resize(m.message_words);
  rx.kind = m.kind;
  rx.tag = m.tag;
  rx.sent = m.created_cycle;
  rx.hops = std::max<unsigned>(rx.hops, h.hops);
  rx.ready = std::max(rx.ready, ready);
  std::copy(words, words + count, rx.words.begin() + m.word_offset + first);
  rx.words_received += count;
  // Packets of a message may arrive in any order (adaptive routing): it is complete when the
  // last missing word is in. (A message of no words is one packet: complete at once.)
  if (first + count == m.packet_words && rx.words_received == m.message_words) {
    ReceivedMessage done = std::move(rx);
    reassembly_.erase(key);
    complete_message(h.src, m.message_seq, std::move(done));
  }
}

// Synthetic payloads are regenerated here and compared: exactly, or as the codec must have
// delivered them for a lossy one.
void Reassembler::check_synthetic(const PacketHeader& h, const MessageFields& m,
                                  const std::uint32_t* words, std::uint32_t first,
                                  std::uint32_t count) {
  const Codec* codec =
      m.compressed ? decoders_.codec_for(static_cast<ElementType>(m.element_type)) : nullptr;
  if (!codec || codec->lossless()) {
    check_.resize(count);
    payload_->fill(synthetic_payload_key(h, m), first, count, check_.data());
    for (std::uint32_t w = 0; w < count; ++w)
      if (words[w] != check_[w]) {
        ++counters_.payload_errors;
        if (m.tag) altered_copies_.insert(h.packet_id);
      }
    return;
  }
  std::vector<std::uint32_t> expected(m.packet_words);
  for (std::uint32_t w = 0; w < m.packet_words; ++w)
    expected[w] = payload_->word(synthetic_payload_key(h, m), w);
  writer_.clear();
  codec->encode(expected.data(), expected.size(), writer_);
  BitReader reader(writer_);
  codec->decode(reader, expected.size(), expected.data());
  for (std::uint32_t w = 0; w < count; ++w)
    if (words[w] != expected[first + w]) {
      ++counters_.payload_errors;
      if (m.tag) altered_copies_.insert(h.packet_id);
    }
}

bool Reassembler::receive_multicast_copy(const PacketHeader& h, const MessageFields& m,
                                         unsigned lane, Cycle now) {
  const InterfaceContext::MulticastInFlight& sent = interfaces_.multicasts.at(h.packet_id);
  std::vector<std::uint32_t>& copy = rx_copy_[lane];
  copy.resize(m.packet_words);  // (the last flit's unused slots)
  bool same = true;
  for (std::size_t w = 0; w < copy.size(); ++w)
    if (copy[w] != sent.words[w]) {
      ++counters_.payload_errors;
      same = false;
    }
  const auto me = std::find(sent.destinations.begin(), sent.destinations.end(), id_);
  if (me == sent.destinations.end())  // (a header routed to the wrong node)
    throw std::logic_error("Reassembler: a multicast copy for a node it was not sent to");
  MessageFields mine = m;
  mine.message_seq = sent.message_seqs[static_cast<std::size_t>(me - sent.destinations.begin())];
  receive_payload(h, mine, copy.data(), 0, m.packet_words, now);
  return same;
}

Reassembler::CopyEnd Reassembler::copy_delivered(std::uint64_t message, NodeId here,
                                                  bool verified, Cycle now) {
  ++counters_.multicast_copies;
  if (verified) ++counters_.multicast_copies_verified;
  const auto it = interfaces_.multicasts.find(message);
  const bool measured = it->second.measured;
  if (--it->second.copies_left > 0)
    return CopyEnd{false, measured, it->second.next_stop(here)};
  ++counters_.multicast_delivered;
  if (measured) multicast_latency_.add(static_cast<std::uint32_t>(now - it->second.created));
  interfaces_.multicasts.erase(it);
  return CopyEnd{true, measured, kNoNode};
}

// A message is complete; hand it, and any later messages of its source that were waiting for
// it, to the front end: each from the cycle after it was ready, and never before the source's
// previous message (messages of a source reach the core in send order).
void Reassembler::complete_message(NodeId src, std::uint32_t seq, ReceivedMessage&& m) {
  if (src >= next_seq_in_.size()) {
    next_seq_in_.resize(src + 1, 0);
    last_delivery_.resize(src + 1, 0);
  }
  const auto hand_over = [&](std::uint32_t s, ReceivedMessage&& r) {
    const Cycle available = std::max(r.ready + 1, last_delivery_[src]);
    last_delivery_[src] = available;
    if (TraceRecorder* rec = interfaces_.trace_recorder)
      rec->firmware_delivered(src, id_, s, r.ready);
    front_end_.deliver(src, available, std::move(r));
    ++next_seq_in_[src];
  };
  const std::uint64_t base = static_cast<std::uint64_t>(src) << 32;
  if (seq == next_seq_in_[src]) hand_over(seq, std::move(m));  // (in order: no waiting)
  else out_of_order_.emplace(base | seq, std::move(m));
  while (!out_of_order_.empty()) {
    const auto it = out_of_order_.find(base | next_seq_in_[src]);
    if (it == out_of_order_.end()) break;
    hand_over(next_seq_in_[src], std::move(it->second));
    out_of_order_.erase(it);
  }
  front_end_.sample_delivery_queue();
}

void Reassembler::report(Tally& t) const {
  const ReassemblerCounters& c = counters_;
  t.count("packets.delivered", c.packets_delivered);
  t.count("packets.measured_delivered", c.measured_delivered);
  t.count("flits.delivered", c.flits_delivered);
  if (!sinks_.empty()) t.maximum("ni.max_flits_ejected_per_cycle", c.max_flits_per_cycle);
  if (!codec_pipelined_) t.count("compression.decoder_wait_cycles", decoder_.wait_cycles());
  t.distribution("latency_cycles", latency_);
  if (multicast_) {
    t.distribution("unicast.latency_cycles", latency_);
    t.distribution("multicast.latency_cycles", multicast_latency_);
    t.count("multicast.messages_delivered", c.multicast_delivered);
    t.count("multicast.copies_delivered", c.multicast_copies);
    t.count("multicast.copies_verified", c.multicast_copies_verified);
  }
  t.distribution("network_latency_cycles", network_latency_);
  t.ratio("hops.mean", c.measured_hops, c.measured_delivered, 0.0);
  t.per_node_cycle("throughput.accepted_flits_per_node_cycle", c.window_app_flits_delivered);
  // (the network's figure: the flits that crossed it, compressed size)
  t.per_node_cycle("throughput.accepted_network_flits_per_node_cycle", c.window_flits_delivered);
}

void Reassembler::trace(sc_core::sc_trace_file* tf, const std::string& base) {
  traced_ = true;
  sc_trace(tf, tr_valid_, base + "eject_valid");
  sc_trace(tf, tr_packet_, base + "eject_packet", 32);
}

}  // namespace collnoc
