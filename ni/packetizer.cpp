#include "ni/packetizer.hpp"

#include <algorithm>
#include <cmath>

#include "ni/lsb_cut_codec.hpp"

namespace collnoc {

Packetizer::Packetizer(NodeId id, const NetworkInterfaceParams& params, const RouterParams& router,
                       NetworkContext& net, InterfaceContext& interfaces)
    : words_per_flit_(static_cast<std::uint8_t>(params.words_per_flit())), net_(net),
      interfaces_(interfaces), id_(id), params_(params), router_(router),
      encoder_(params.compression.codec_pipelined, params.compression.codec_latency_cycles) {
  validate(params_);
  if (router.hta.enabled) multicast_class_ = static_cast<std::uint8_t>(router.vc_classes - 1);
  multicast_shape_ = collnoc::multicast_shape(params_, router);
  inj_vcs_.assign(router.vcs, InjectionVc{router.buffer_flits, 0});
  policy_ = make_compression_policy(params_.compression.policy);
  encoders_ = CodecSet(params_.compression.codec);
  if (policy_->needs_window()) arrivals_.reset(params_.compression.congestion_window_cycles);
}

void Packetizer::connect(ClockedModule* ni, Link& injection) {
  inj_ = &injection;
  injection.attach_sender(ni, 0, router_.vcs, router_.buffer_flits);
}

void Packetizer::set_source(std::unique_ptr<SyntheticSource> source,
                            const PayloadGenerator& payload) {
  source_ = std::move(source);
  payload_ = &payload;
  limit_injection_ = source_->multicast();
  unicast_multicast_ = source_->unicast_multicast();
}

void Packetizer::set_trace(TraceFeed& feed, const PayloadGenerator& payload) {
  trace_ = &feed;
  trace_driven_ = true;
  payload_ = &payload;
}

// (In 64 bits: a message's words come close to 2^32 at the largest flits and packets.)
unsigned Packetizer::packets_for(std::uint32_t words, unsigned packet_flits) const {
  const std::uint64_t per_packet = std::uint64_t{params_.words_per_flit()} * packet_flits;
  return words == 0 ? 1 : static_cast<unsigned>((words + per_packet - 1) / per_packet);
}

unsigned Packetizer::flits_for(std::uint32_t words, unsigned packet_flits) const {
  const std::uint64_t wpf = params_.words_per_flit();
  const std::uint64_t per_packet = wpf * packet_flits;
  if (words == 0) return 1;
  return static_cast<unsigned>((words / per_packet) * packet_flits +
                               (words % per_packet + wpf - 1) / wpf);
}

void Packetizer::enqueue(Message&& m) {
  queued_packets_ += m.packets_left;
  // In order of readiness: a coded packet leaves the XOR engine after messages the core handed
  // over later may be ready. The head is never passed once it is being sent.
  auto pos = source_queue_.end();
  const auto first = source_queue_.begin() + ((cut_ || sending_) && !source_queue_.empty());
  while (pos != first && std::prev(pos)->ready > m.ready) --pos;
  source_queue_.insert(pos, std::move(m));
  counters_.max_source_queue_packets =
      std::max<std::uint64_t>(counters_.max_source_queue_packets, queued_packets_);
}

void Packetizer::record_synthetic(const SyntheticSource::Packet& p, Cycle created) const {
  const std::uint64_t bytes = std::uint64_t{p.flits} * params_.flit_width_bits / 8;
  if (p.multicast_dsts.empty())
    interfaces_.trace_recorder->created(created, id_, p.dst, bytes, 0, false);
  for (NodeId d : p.multicast_dsts)
    interfaces_.trace_recorder->created(created, id_, d, bytes, 0, false);
}

Packetizer::Message Packetizer::synthetic_message(SyntheticSource::Packet&& p, Cycle created,
                                                  bool measured, std::uint32_t group,
                                                  bool record) {
  if (record && interfaces_.trace_recorder) record_synthetic(p, created);
  Message m;
  m.hdr.tag = group;
  m.hdr.src = id_;
  m.hdr.dst = p.dst;
  m.hdr.created_cycle = created;
  m.hdr.kind = kSyntheticKind;
  m.hdr.element_type = static_cast<std::uint8_t>(payload_->element_type());
  m.hdr.vc_class = 0;
  m.hdr.measured = measured;
  m.synthetic_flits = p.flits;
  m.hdr.message_words = p.flits * words_per_flit_;
  m.ready = created;
  m.packets_left = 1;
  counters_.packets_created++;
  counters_.flits_created += p.flits;
  if (!p.multicast_dsts.empty()) {  // its header flits, then the data flits
    m.hdr.vc_class = multicast_class_;
    m.hdr.multicast_headers = static_cast<std::uint16_t>(p.multicast_dsts.size());
    counters_.flits_created += p.multicast_dsts.size();
    ++counters_.multicast_created;
    m.multicast_dsts = std::move(p.multicast_dsts);
  }
  if (m.hdr.measured) {
    counters_.measured_created++;
    counters_.window_flits_created += p.flits;
  }
  if (!group) ++queued_messages_[!m.multicast_dsts.empty()];  // (a group counts once)
  return m;
}

unsigned Packetizer::queue_multicast_unicasts(SyntheticSource::Packet&& p, Cycle created) {
  const std::uint32_t number = ++interfaces_.next_multicast_number;
  InterfaceContext::MulticastInFlight& record = interfaces_.multicasts[multicast_message_key(number)];
  record.copies_left = static_cast<unsigned>(p.multicast_dsts.size());
  record.created = created;
  record.measured = in_window(created);
  ++counters_.multicast_created;
  ++queued_messages_[1];
  // Software: a unicast to each destination. Column path: to each path's first stop; the
  // record keeps the paths for the stops to forward along.
  std::vector<NodeId> firsts;
  if (column_paths_) {
    for (const std::vector<NodeId>& path : column_paths_->paths(id_, p.multicast_dsts)) {
      firsts.push_back(path.front());
      record.paths.insert(record.paths.end(), path.begin(), path.end());
      record.paths.push_back(kNoNode);
    }
  } else {
    firsts = std::move(p.multicast_dsts);
  }
  unsigned measured = 0;
  for (std::size_t i = 0; i < firsts.size(); ++i) {
    Message m = synthetic_message(SyntheticSource::Packet{firsts[i], p.flits, {}}, created,
                                  record.measured, number);
    m.last_of_group = i + 1 == firsts.size();
    measured += m.hdr.measured;
    enqueue(std::move(m));
  }
  return measured;
}

void Packetizer::queue_synthetic(SyntheticSource::Packet p, Cycle created) {
  if (unicast_multicast_ && !p.multicast_dsts.empty()) {
    net_.measured_created_outside_cycle(queue_multicast_unicasts(std::move(p), created));
    return;
  }
  if (!p.multicast_dsts.empty() && !router_.hta.enabled)
    throw std::logic_error("Packetizer: a multicast message on a network without multicast");
  Message m = synthetic_message(std::move(p), created, in_window(created));
  if (m.hdr.measured) net_.measured_created_outside_cycle(1);
  enqueue(std::move(m));
}

Packetizer::Message Packetizer::firmware_message(std::vector<std::uint32_t>&& words,
                                                 const NiCommand& cmd, Cycle issue,
                                                 Cycle ready) const {
  Message m;
  m.words = std::move(words);
  m.hdr.src = id_;
  m.hdr.created_cycle = issue;
  m.hdr.message_words = static_cast<std::uint32_t>(m.words.size());
  m.hdr.vc_class = cmd.vc_class;
  m.hdr.kind = cmd.kind;
  m.hdr.tag = cmd.tag;
  m.hdr.round = static_cast<std::uint16_t>(std::min<std::uint32_t>(cmd.round, 0xffff));
  m.hdr.element_type = cmd.element_type;
  m.hdr.measured = in_window(issue);
  m.ready = ready;
  m.packet_flits_max = params_.max_packet_flits;
  return m;
}

// `collnoc trace record`: a firmware message depends on what its core received last.
void Packetizer::record_firmware(const Message& m, NodeId dst, std::uint32_t seq) const {
  TraceRecorder* rec = interfaces_.trace_recorder;
  if (!rec) return;
  const std::uint64_t bytes = std::max<std::uint64_t>(1, std::uint64_t{m.hdr.message_words} * 4);
  const unsigned type = m.hdr.multicast_headers ? 0u : m.hdr.vc_class;  // (a copy: a unicast)
  rec->firmware_created(rec->created(m.ready, id_, dst, bytes, type, true), id_, dst, seq);
}

void Packetizer::queue_firmware(Message&& m, Cycle issue, Cycle core_now) {
  const unsigned headers = m.hdr.multicast_headers;
  m.packets_left = packets_for(m.hdr.message_words, m.packet_flits_max);
  if (m.packets_left > 1 && !headers) net_.multi_packet_messages = true;
  const unsigned flits = flits_for(m.hdr.message_words, m.packet_flits_max) + m.packets_left * headers;
  counters_.packets_created += m.packets_left;
  if (headers) counters_.multicast_created += m.packets_left;
  interfaces_.count_packets(m.hdr.round, m.packets_left);
  counters_.flits_created += flits;
  if (m.hdr.measured) {
    counters_.measured_created += m.packets_left;
    net_.measured_created_outside_cycle(m.packets_left);
    counters_.window_flits_created += flits;
  }
  if (core_now != kNever) {  // (a core's: after what it handed over before)
    if (issue > core_now) {
      held_.push_back(Held{issue, std::move(m)});
      admit_from_ = held_.front().issue + 1;
      return;
    }
    if (!held_.empty()) admit_held(core_now + 1);
  }
  enqueue(std::move(m));
}

void Packetizer::admit_held(Cycle until) {
  while (!held_.empty() && held_.front().issue < until) {
    enqueue(std::move(held_.front().message));
    held_.pop_front();
  }
  admit_from_ = held_.empty() ? kNever : held_.front().issue + 1;
}

void Packetizer::queue_message(NodeId dst, std::vector<std::uint32_t>&& words,
                               const NiCommand& cmd, Cycle issue, Cycle ready, Cycle core_now) {
  Message m = firmware_message(std::move(words), cmd, issue, ready);
  if (dst >= next_seq_out_.size()) next_seq_out_.resize(dst + 1, 0);
  m.hdr.dst = dst;
  m.hdr.message_seq = next_seq_out_[dst]++;
  record_firmware(m, dst, m.hdr.message_seq);
  queue_firmware(std::move(m), issue, core_now);
}

bool Packetizer::queue_multicast(const std::vector<NodeId>& dsts,
                                 std::vector<std::uint32_t>&& words, const NiCommand& cmd,
                                 Cycle issue, Cycle ready, Cycle core_now) {
  const unsigned headers = static_cast<unsigned>(dsts.size());
  if (dsts.empty() || multicast_shape_.data_flits(headers) == 0) return false;
  Message m = firmware_message(std::move(words), cmd, issue, ready);
  m.hdr.dst = dsts.front();
  m.hdr.vc_class = multicast_class_;
  m.hdr.multicast_headers = static_cast<std::uint16_t>(headers);
  m.packet_flits_max = multicast_shape_.data_flits(headers);
  m.multicast_dsts = dsts;
  // Each destination's sequence number from this source: its messages reach its core in
  // send order, unicast and multicast alike.
  for (NodeId d : dsts) {
    if (d >= next_seq_out_.size()) next_seq_out_.resize(d + 1, 0);
    m.multicast_seqs.push_back(next_seq_out_[d]++);
    record_firmware(m, d, m.multicast_seqs.back());
  }
  queue_firmware(std::move(m), issue, core_now);
  return true;
}

// Cuts the next packet of the head message and, if the policy says so, compresses it.
void Packetizer::cut_packet(Cycle now) {
  Message& m = source_queue_.front();
  const std::uint32_t wpf = params_.words_per_flit();
  PacketInfo& h = tx_hdr_;
  h = m.hdr;
  h.packet_id = (static_cast<PacketId>(id_) << 40) | next_packet_++;
  h.word_offset = m.next_word;
  if (m.synthetic_flits) {
    h.packet_words = static_cast<std::uint16_t>(m.synthetic_flits * wpf);
  } else {
    const std::uint32_t left = m.hdr.message_words - m.next_word;
    const std::uint32_t words = std::min<std::uint32_t>(left, wpf * m.packet_flits_max);
    h.packet_words = static_cast<std::uint16_t>(words);
  }
  h.length_flits = plain_flits(h.packet_words);
  h.last_of_message = m.packets_left == 1;
  h.hops = 0;
  h.compressed = false;
  tx_start_ = now;
  tx_plain_.resize(h.packet_words);
  if (m.synthetic_flits)
    payload_->fill(synthetic_payload_key(h, h), 0, h.packet_words, tx_plain_.data());
  else std::copy_n(m.words.begin() + h.word_offset, h.packet_words, tx_plain_.begin());
  if (h.multicast_headers) {  // headers, then the data (not compressed: SPEC 5's messages)
    h.length_flits = static_cast<std::uint16_t>(h.length_flits + h.multicast_headers);
    tx_dsts_ = m.multicast_dsts;
    tx_wire_.swap(tx_plain_);
    cut_ = true;
    return;
  }
  compress(h, now);
  if (!h.compressed) tx_wire_.swap(tx_plain_);  // the words go as they are
  cut_ = true;
}

void Packetizer::compress(PacketInfo& h, Cycle now) {
  const std::uint16_t original_flits = plain_flits(h.packet_words);
  const Codec* codec = encoders_.codec_for(static_cast<ElementType>(h.element_type));
  if (!codec || h.packet_words == 0 || h.packet_words % codec->words_per_unit() != 0) return;
  const std::uint64_t recent = policy_->needs_window() ? arrivals_.flits(now) : 0;
  const CompressionContext context{original_flits, recent, queued_packets_ - 1,
                                   params_.compression.threshold(),
                                   params_.compression.n_threshold_flits,
                                   params_.compression.q_threshold_packets};
  if (!policy_->compress(context)) return;

  writer_.clear();
  codec->encode(tx_plain_.data(), tx_plain_.size(), writer_);
  const std::uint64_t bits = writer_.bit_count();
  CodecWords& words = codec_words_[h.element_type];
  words.encoded_in += tx_plain_.size();
  words.encoded_out += (bits + 31) / 32;
  const bool modelled = params_.compression.size_mode == CompressedSize::fixed_ratio;
  const unsigned wire_flits =
      modelled ? static_cast<unsigned>(std::ceil(original_flits / params_.compression.fixed_ratio))
               : static_cast<unsigned>((bits + params_.flit_width_bits - 1) / params_.flit_width_bits);
  // A packet the codec does not shorten goes as it is (the encoder knows the size as it encodes).
  if (std::max(1u, wire_flits) >= original_flits) return;
  h.compressed = true;
  h.length_flits = static_cast<std::uint16_t>(std::max(1u, wire_flits));
  ++counters_.packets_compressed;
  words.decoded_out += h.packet_words;
  counters_.compressed_original_bits += 32ull * h.packet_words;
  counters_.compressed_wire_bits += modelled ? 32ull * h.packet_words / params_.compression.fixed_ratio : bits;
  counters_.codec_busy_cycles += params_.compression.codec_latency_cycles;
  tx_start_ = encoder_.start(now);  // (an unpipelined encoder may still be busy)
  if (!codec->lossless()) {
    scratch_.resize(tx_plain_.size());
    BitReader reader(writer_.words(), bits);
    codec->decode(reader, scratch_.size(), scratch_.data());
    counters_.max_relative_error = std::max(
        counters_.max_relative_error,
        double_error_stats(tx_plain_.data(), scratch_.data(), scratch_.size()).max_relative_error);
  }
  if (modelled) {
    // The size is the model's; the words (as the codec would deliver them) travel beside.
    if (!codec->lossless()) tx_plain_ = scratch_;
    tx_wire_.clear();
  } else {
    tx_wire_ = writer_.words();
  }
}

void Packetizer::start_multicast() {
  InterfaceContext::MulticastInFlight& m = interfaces_.multicasts[tx_hdr_.packet_id];
  m.copies_left = tx_hdr_.multicast_headers;
  m.created = tx_hdr_.created_cycle;
  m.measured = tx_hdr_.measured;
  if (tx_hdr_.kind == kSyntheticKind) return;
  // A firmware multicast: its words, which every copy must match, and each destination's
  // message sequence number.
  m.words = tx_wire_;
  m.destinations = tx_dsts_;
  m.message_seqs = source_queue_.front().multicast_seqs;
}

// The link's credit line, and the VCs' credits (a flit to send waits for them).
void Packetizer::prefetch() const {
  inj_->prefetch_credits();
  if (sending_) inj_->prefetch_sending();
  __builtin_prefetch(inj_vcs_.data());
}

void Packetizer::finish(Cycle now) {
  counters_.source_queue_packet_cycles += queued_packets_ * (now - queue_since_);
  queue_since_ = now;
}

void Packetizer::report(Tally& t, Cycle now) const {
  const PacketizerCounters& c = counters_;
  t.count("packets.created", c.packets_created);
  t.count("packets.injected", c.packets_injected);
  t.count("packets.queued", c.packets_created - c.packets_injected);  // still in the queue
  t.count("packets.measured", c.measured_created);
  t.count("flits.created", c.flits_created);
  t.count("flits.injected", c.flits_injected);
  t.per_node_cycle("throughput.offered_flits_per_node_cycle", c.window_flits_created);
  t.label("compression.policy", params_.compression.policy);
  t.count("compression.packets_compressed", c.packets_compressed);
  t.ratio("compression.share", c.packets_compressed, c.packets_injected, 0.0);
  t.ratio("compression.ratio", c.compressed_original_bits, c.compressed_wire_bits, 1.0);
  t.maximum("compression.max_relative_error", c.max_relative_error);
  t.count("compression.codec_busy_cycles", c.codec_busy_cycles);
  if (!params_.compression.codec_pipelined)
    t.count("compression.encoder_wait_cycles", encoder_.wait_cycles());
  t.maximum("ni.source_queue_max_packets", c.max_source_queue_packets);
  if (limit_injection_) t.count("multicast.messages_created", c.multicast_created);
  if (limit_injection_) t.count("ni.messages_throttled", c.messages_throttled);
  if (column_paths_) t.count("multicast.copies_forwarded", c.multicast_forwarded);
  t.average("ni.source_queue_mean_packets",
            now ? static_cast<double>(c.source_queue_packet_cycles) / now : 0.0);
}

void Packetizer::trace(sc_core::sc_trace_file* tf, const std::string& base) {
  traced_ = true;
  sc_trace(tf, tr_valid_, base + "inject_valid");
  sc_trace(tf, tr_packet_, base + "inject_packet", 32);
  sc_trace(tf, tr_queue_, base + "source_queue", 16);
}

}  // namespace collnoc
