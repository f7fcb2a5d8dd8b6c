#include "ni/network_interface.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ni/lsb_cut_codec.hpp"

namespace collnoc {

using namespace sc_core;

void validate(const NetworkInterfaceParams& p) {
  using P = NetworkInterfaceParams;
  if (!P::flit_width_bits_range.contains(p.flit_width_bits) || p.flit_width_bits % 32)
    throw ParamError("ni.flit_width_bits", std::to_string(p.flit_width_bits),
                     "must be a multiple of 32 " + range_text(P::flit_width_bits_range));
  check_range("ni.max_packet_flits", p.max_packet_flits, P::max_packet_flits_range);
  check_range("ni.ejection_buffer_flits", p.ejection_buffer_flits, P::ejection_buffer_flits_range);
  check_range("ni.send_overhead_cycles", p.send_overhead_cycles, P::overhead_cycles_range);
  check_range("ni.recv_overhead_cycles", p.recv_overhead_cycles, P::overhead_cycles_range);
  validate(p.compression);
  validate(p.xor_engine);
}

NetworkInterface::NetworkInterface(sc_module_name name, Clock& clock, NodeId id,
                                   const NetworkInterfaceParams& params,
                                   const RouterParams& router, NetworkContext& net,
                                   InterfaceContext& interfaces)
    : Clocked<NetworkInterface>(name, clock), words_per_flit_(static_cast<std::uint8_t>(params.words_per_flit())),
      net_(net), interfaces_(interfaces), id_(id), params_(params), router_(router),
      xor_engine_("xor_engine", params.xor_engine), mpb_(params.mpb_bytes), socket("socket") {
  validate(params_);
  if (net.packets.owner_bytes() < sizeof(MessageFields))  // (a wiring error of the system's)
    throw std::logic_error("NetworkInterface " + std::string(name) +
                           ": the network's packet records have no room for the NIs' message "
                           "fields: build the NetworkContext with sizeof(MessageFields)");
  socket.register_b_transport(this, &NetworkInterface::b_transport);
  inj_vcs_.assign(router.vcs, InjectionVc{router.buffer_flits, 0});
  policy_ = make_compression_policy(params_.compression.policy);
  codecs_ = CodecSet(params_.compression.codec);
  if (policy_->needs_window()) arrivals_.reset(params_.compression.congestion_window_cycles);
  congestion_window_ = arrivals_.capacity() > 0;
  rx_wire_.resize(router.vcs);
}

void NetworkInterface::connect(Link& injection, Link& ejection) {
  inj_ = &injection;
  ej_ = &ejection;
  injection.attach_sender(this, 0, router_.vcs, router_.buffer_flits);
  ej_buffer_.attach(ejection, this, 0, router_.vcs, params_.ejection_buffer(router_),
                    params_.words_per_flit());
}

void NetworkInterface::set_traffic(const TrafficParams& params, const TrafficPattern& pattern,
                                   const PayloadGenerator& payload, std::uint64_t seed) {
  source_ = std::make_unique<SyntheticSource>(params, pattern, id_, seed);
  payload_ = &payload;
  // A synthetic source touches only the NI, its links and its network's lanes, so it may be
  // evaluated on any thread like a router (a core's NI has SystemC events; modelled compressed
  // sizes keep the words in one map).
  const bool modelled = params_.compression.policy != "never" &&
                        params_.compression.size_mode == CompressedSize::fixed_ratio;
  if (!modelled) set_parallel(inj_ ? inj_->receiver_block() : block_index());  // with its router
  set_prefetch_end(&counters_ + 1);
}

// (In 64 bits: a message's words come close to 2^32 at the largest flits and packets.)
unsigned NetworkInterface::packets_for(std::uint32_t words) const {
  const std::uint64_t per_packet = std::uint64_t{params_.words_per_flit()} * params_.max_packet_flits;
  return words == 0 ? 1 : static_cast<unsigned>((words + per_packet - 1) / per_packet);
}

unsigned NetworkInterface::flits_for(std::uint32_t words) const {
  const std::uint64_t wpf = params_.words_per_flit();
  const std::uint64_t per_packet = wpf * params_.max_packet_flits;
  if (words == 0) return 1;
  return static_cast<unsigned>((words / per_packet) * params_.max_packet_flits +
                               (words % per_packet + wpf - 1) / wpf);
}

void NetworkInterface::enqueue(TxMessage&& m) {
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

Cycle NetworkInterface::code(const std::uint32_t* pair, std::size_t words, Cycle earliest,
                             std::vector<std::uint32_t>& coded) {
  const Cycle accept = std::max(earliest, xor_next_accept_);
  xor_engine_.submit(std::vector<std::uint32_t>(pair, pair + words),
                     std::vector<std::uint32_t>(pair + words, pair + 2 * words), accept);
  const Cycle ready = accept + xor_engine_.latency_cycles();
  coded = xor_engine_.take(ready);
  xor_next_accept_ = accept + 1;
  counters_.xor_operations = xor_engine_.xor_operations();
  counters_.xor_busy_cycles = xor_engine_.busy_cycles();
  return ready;
}

void NetworkInterface::b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
  NiCommand* cmd = nullptr;
  gp.get_extension(cmd);
  if (!cmd || gp.get_data_length() % 4 != 0) {
    gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  cmd->mpb_puts_landed = counters_.mpb_puts;
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
    queue_message(cmd->peer, std::move(message), *cmd, issue, issue + params_.send_overhead_cycles);
    delay += clock().delay(params_.send_overhead_cycles);
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
    if (gp.get_address() == kXorAddress) {
      // Decoding: each result comes back to the core like a message from itself, so the core
      // goes on receiving while the engine works.
      const Cycle ready = code(data, n, issue + params_.send_overhead_cycles, coded);
      RxMessage r;
      r.words = std::move(coded);
      r.kind = cmd->kind;
      r.tag = cmd->tag;
      r.sent = issue;
      delivery_queue_.push_back(Delivered{id_, ready + 1, std::move(r)});
      delivered_.notify(clock().delay(ready + 1 - clock().now()));
      delay += clock().delay(params_.send_overhead_cycles);
    } else {
      const Cycle ready = code(data, n, issue + params_.send_overhead_cycles, coded);
      const std::vector<NodeId> one{cmd->peer};
      for (NodeId dst : cmd->destinations ? *cmd->destinations : one)
        queue_message(dst, std::vector<std::uint32_t>(coded), *cmd, issue, ready);
      delay += clock().delay(params_.send_overhead_cycles);
    }
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
    cmd->found = false;
    cmd->next_available = kNever;
    for (auto it = delivery_queue_.begin(); it != delivery_queue_.end(); ++it) {
      if (it->available > issue) {  // still being decompressed, or decoded
        cmd->next_available = std::min(cmd->next_available, it->available);
        continue;
      }
      if (cmd->peer != kAnySource && it->src != cmd->peer) continue;
      if ((it->message.kind == kMpbReplyKind) != cmd->mpb_reply) continue;
      cmd->found = true;
      cmd->source = it->src;
      cmd->received_kind = it->message.kind;
      cmd->received_tag = it->message.tag;
      cmd->received_hops = it->message.hops;
      cmd->received_sent_cycle = it->message.sent;
      cmd->received_arrival_cycle = it->available;
      if (cmd->received) *cmd->received = std::move(it->message.words);
      delivery_queue_.erase(it);
      delay += clock().delay(params_.recv_overhead_cycles);
      break;
    }
    cmd->arrival = &delivered_;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// Queues a message for `dst` with the command's header fields, ready for injection at `ready`.
void NetworkInterface::queue_message(NodeId dst, std::vector<std::uint32_t>&& words,
                                     const NiCommand& cmd, Cycle issue, Cycle ready) {
  TxMessage m;
  m.words = std::move(words);
  if (dst >= next_seq_out_.size()) next_seq_out_.resize(dst + 1, 0);
  m.hdr.src = id_;
  m.hdr.dst = dst;
  m.hdr.created_cycle = issue;
  m.hdr.message_seq = next_seq_out_[dst]++;
  m.hdr.message_words = static_cast<std::uint32_t>(m.words.size());
  m.hdr.vc_class = cmd.vc_class;
  m.hdr.kind = cmd.kind;
  m.hdr.tag = cmd.tag;
  m.hdr.round = static_cast<std::uint16_t>(std::min<std::uint32_t>(cmd.round, 0xffff));
  m.hdr.element_type = cmd.element_type;
  m.hdr.measured = in_window(issue);
  m.ready = ready;
  m.packets_left = packets_for(m.hdr.message_words);
  counters_.packets_created += m.packets_left;
  interfaces_.count_packets(m.hdr.round, m.packets_left);
  counters_.flits_created += flits_for(m.hdr.message_words);
  if (m.hdr.measured) {
    counters_.measured_created += m.packets_left;
    lane().measured_outstanding += m.packets_left;
    counters_.window_flits_created += flits_for(m.hdr.message_words);
  }
  enqueue(std::move(m));
  ++counters_.messages_sent;
  wake_at(ready);
}

bool NetworkInterface::serve_mpb(NodeId src, std::uint8_t kind,
                                 const std::vector<std::uint32_t>& words, Cycle ready) {
  if (kind == kMpbPutKind) {  // the sender checked the range against its own, equal, buffer
    mpb_.write(words[0], words.data() + 1, words.size() - 1);
    ++counters_.mpb_puts;
    return true;
  }
  if (kind == kMpbGetKind) {
    std::vector<std::uint32_t> reply(words[1]);
    mpb_.read(words[0], reply.data(), reply.size());
    NiCommand answer;
    answer.kind = kMpbReplyKind;
    queue_message(src, std::move(reply), answer, ready, ready);
    ++counters_.mpb_gets;
    return true;
  }
  return false;
}

// The core reads or writes its own message-passing buffer: one cycle, no network.
bool NetworkInterface::mpb_access(tlm::tlm_generic_payload& gp, sc_time& delay) {
  const std::uint64_t address = gp.get_address();
  if (address < kMpbAddress || mpb_.size_bytes() == 0) return false;
  const std::uint64_t offset = address - kMpbAddress, count = gp.get_data_length() / 4;
  if (!mpb_.holds(offset, count)) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return true;
  }
  auto* data = reinterpret_cast<std::uint32_t*>(gp.get_data_ptr());
  if (gp.is_write()) mpb_.write(offset, data, count);
  else mpb_.read(offset, data, count);
  delay += clock().delay(1);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

template <class At>
void NetworkInterface::generate(At at) {
  const Cycle now = at.now;
  while (source_ && source_->next_cycle() <= now) {
    const Cycle created = source_->next_cycle();
    const SyntheticSource::Packet p = source_->take();
    TxMessage m;
    m.hdr.src = id_;
    m.hdr.dst = p.dst;
    m.hdr.created_cycle = created;
    m.hdr.kind = kSyntheticKind;
    m.hdr.element_type = static_cast<std::uint8_t>(payload_->element_type());
    m.hdr.vc_class = 0;
    m.hdr.measured = in_window(created);
    m.synthetic_flits = p.flits;
    m.hdr.message_words = p.flits * words_per_flit_;
    m.ready = created;
    m.packets_left = 1;
    counters_.packets_created++;
    counters_.flits_created += p.flits;
    if (m.hdr.measured) {
      counters_.measured_created++;
      counters_.window_flits_created += p.flits;
      ++net_.lane(at).measured_outstanding;
    }
    enqueue(std::move(m));
  }
}

// Cuts the next packet of the head message and, if the policy says so, compresses it.
void NetworkInterface::cut_packet(Cycle now) {
  TxMessage& m = source_queue_.front();
  const std::uint32_t wpf = params_.words_per_flit();
  PacketInfo& h = tx_hdr_;
  h = m.hdr;
  h.packet_id = (static_cast<PacketId>(id_) << 40) | next_packet_++;
  h.word_offset = m.next_word;
  if (m.synthetic_flits) {
    h.packet_words = static_cast<std::uint16_t>(m.synthetic_flits * wpf);
  } else {
    const std::uint32_t left = m.hdr.message_words - m.next_word;
    const std::uint32_t words = std::min<std::uint32_t>(left, wpf * params_.max_packet_flits);
    h.packet_words = static_cast<std::uint16_t>(words);
  }
  h.length_flits = plain_flits(h.packet_words);
  h.last_of_message = m.packets_left == 1;
  h.hops = 0;
  h.compressed = false;
  tx_plain_.resize(h.packet_words);
  if (m.synthetic_flits) payload_->fill(h.packet_id, 0, h.packet_words, tx_plain_.data());
  else std::copy_n(m.words.begin() + h.word_offset, h.packet_words, tx_plain_.begin());
  compress(h, now);
  if (!h.compressed) tx_wire_.swap(tx_plain_);  // the words go as they are
  cut_ = true;
}

void NetworkInterface::compress(PacketInfo& h, Cycle now) {
  const std::uint16_t original_flits = plain_flits(h.packet_words);
  const Codec* codec = codecs_.codec_for(static_cast<ElementType>(h.element_type));
  if (!codec || h.packet_words == 0 || h.packet_words % codec->words_per_unit() != 0) return;
  std::uint64_t recent = 0;
  if (policy_->needs_window()) {
    const Cycle window = params_.compression.congestion_window_cycles;
    while (!arrivals_.empty() && arrivals_.front() + window <= now) arrivals_.pop();
    recent = arrivals_.size();
  }
  const CompressionContext context{original_flits, recent, queued_packets_ - 1,
                                   params_.compression.threshold()};
  if (!policy_->compress(context)) return;

  writer_.clear();
  codec->encode(tx_plain_.data(), tx_plain_.size(), writer_);
  const std::uint64_t bits = writer_.bit_count();
  const bool modelled = params_.compression.size_mode == CompressedSize::fixed_ratio;
  const unsigned wire_flits =
      modelled ? static_cast<unsigned>(std::ceil(original_flits / params_.compression.fixed_ratio))
               : static_cast<unsigned>((bits + params_.flit_width_bits - 1) / params_.flit_width_bits);
  // A packet the codec does not shorten goes as it is (the encoder knows the size as it encodes).
  if (std::max(1u, wire_flits) >= original_flits) return;
  h.compressed = true;
  h.length_flits = static_cast<std::uint16_t>(std::max(1u, wire_flits));
  ++counters_.packets_compressed;
  counters_.compressed_original_bits += 32ull * h.packet_words;
  counters_.compressed_wire_bits += modelled ? 32ull * h.packet_words / params_.compression.fixed_ratio : bits;
  counters_.codec_busy_cycles += params_.compression.codec_latency_cycles;
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

template <class At>
void NetworkInterface::inject(At at) {
  const Cycle now = at.now;
  if (!cut_) {
    if (source_queue_.empty() || source_queue_.front().ready > now) return;
    cut_packet(now);
  }
  if (!sending_) {
    // Pick a VC of the packet's class at the router's local input (round-robin).
    const unsigned per_class = router_.vcs_per_class();
    const unsigned base = tx_hdr_.vc_class * per_class;
    const unsigned need =
        router_.switching == Switching::wormhole ? 1u : static_cast<unsigned>(tx_hdr_.length_flits);
    bool found = false;
    for (unsigned i = 0; i < per_class && !found; ++i) {
      const unsigned vc = base + (vc_ptr_ + i) % per_class;
      if (inj_vcs_[vc].credits >= need) {
        tx_vc_ = vc;
        vc_ptr_ = (vc_ptr_ + i + 1) % per_class;
        found = true;
      }
    }
    if (!found) return;
    tx_hdr_.injected_cycle = now;
    tx_flit_.packet = net_.packets.allocate(at.thread());
    net_.packets[tx_flit_.packet] = tx_hdr_;
    net_.packets.emplace_owned<MessageFields>(tx_flit_.packet, tx_hdr_);
    if (tx_hdr_.compressed && tx_wire_.empty())
      interfaces_.modelled_payloads[tx_flit_.packet] = tx_plain_;
    tx_flit_.length = tx_hdr_.length_flits;
    tx_flit_.dst = tx_hdr_.dst;
    tx_flit_.vc_class = tx_hdr_.vc_class;
    tx_flit_.seq = 0;
    tx_flit_.hops = 0;
    tx_flit_.vc = static_cast<std::uint8_t>(tx_vc_);
    sending_ = true;
    ++counters_.packets_injected;
  }
  InjectionVc& vc = inj_vcs_[tx_vc_];
  if (vc.credits == 0) return;
  // Send one flit: its slice of the wire words.
  const std::uint32_t wpf = words_per_flit_;
  const std::uint32_t first = tx_flit_.seq * wpf;
  const std::uint32_t total = static_cast<std::uint32_t>(tx_wire_.size());
  const std::uint32_t words = first >= total ? 0 : std::min(wpf, total - first);
  tx_flit_.words = static_cast<std::uint8_t>(words);
  for (std::uint32_t w = 0; w < words; ++w) tx_flit_.payload[w] = tx_wire_[first + w];
  inj_->send(at, tx_flit_, vc.next_slot);
  --vc.credits;
  ++counters_.flits_injected;
  ++net_.lane(at).flit_moves;
  if (traced_) {
    tr_inj_valid_ = true;
    tr_inj_packet_ = packet_tag(tx_hdr_.packet_id);
  }
  if (!tx_flit_.is_tail()) {
    ++tx_flit_.seq;
    return;
  }
  sending_ = cut_ = false;
  TxMessage& m = source_queue_.front();
  m.next_word += tx_hdr_.packet_words;
  --m.packets_left;
  --queued_packets_;
  if (m.packets_left == 0) source_queue_.pop_front();
}

template <class At>
void NetworkInterface::eject(At at) {
  const Cycle now = at.now;
  while (ej_->flit_ready(at)) {
    const unsigned vc = ej_buffer_.arrive(*ej_);
    const Flit& f = ej_buffer_.front(vc);
    PacketHeader& h = net_.packets[f.packet];
    const MessageFields& m = net_.packets.owned<MessageFields>(f.packet);
    if (f.is_head()) h.hops = f.hops;
    ++counters_.flits_delivered;
    ++net_.lane(at).flit_moves;
    if (in_window(now)) ++counters_.window_flits_delivered;
    if (congestion_window_) {
      if (arrivals_.full()) arrivals_.pop();
      arrivals_.push(now);
    }
    if (traced_) {
      tr_ej_valid_ = true;
      tr_ej_packet_ = packet_tag(h.packet_id);
    }
    if (!m.compressed) {
      receive_payload(h, m, f.payload.data(), f.seq * words_per_flit_, f.words, now);
    } else {
      // The codec's stream is gathered and decoded when the tail is in; the decompressor
      // delivers the packet codec_latency_cycles later (the whole D is charged here, once).
      std::vector<std::uint32_t>& wire = rx_wire_[f.vc];
      if (f.is_head()) wire.clear();
      wire.insert(wire.end(), f.payload.begin(), f.payload.begin() + f.words);
      if (f.is_tail()) {
        scratch_.resize(m.packet_words);
        auto modelled = interfaces_.modelled_payloads.find(f.packet);
        if (modelled != interfaces_.modelled_payloads.end()) {
          scratch_ = std::move(modelled->second);
          interfaces_.modelled_payloads.erase(modelled);
        } else {
          const Codec* codec = codecs_.codec_for(static_cast<ElementType>(m.element_type));
          BitReader reader(wire, 32ull * wire.size());
          codec->decode(reader, scratch_.size(), scratch_.data());
        }
        receive_payload(h, m, scratch_.data(), 0, m.packet_words,
                        now + params_.compression.codec_latency_cycles);
      }
    }
    if (f.is_tail()) {
      const Cycle ready = m.compressed ? now + params_.compression.codec_latency_cycles : now;
      ++counters_.packets_delivered;
      if (in_window(now)) counters_.window_app_flits_delivered += plain_flits(m.packet_words);
      if (h.measured) {
        ++counters_.measured_delivered;
        counters_.measured_hops += h.hops;
        latency_.push_back(static_cast<std::uint32_t>(ready - m.created_cycle));
        network_latency_.push_back(static_cast<std::uint32_t>(ready - m.injected_cycle));
        --net_.lane(at).measured_outstanding;
        // The last one after the window ends the workload.
        if (now >= window_end_) net_.measured_delivered_late(at);
      }
      net_.packets.release(f.packet, at.thread());
    }
    ej_->return_credit(at, f.vc);
    ej_buffer_.pop(vc);
  }
}

// Words [first, first + count) of packet `h`'s payload have arrived (decompressed if need be);
// the packet will be ready for its core at `ready`.
void NetworkInterface::receive_payload(const PacketHeader& h, const MessageFields& m,
                                       const std::uint32_t* words, std::uint32_t first,
                                       std::uint32_t count, Cycle ready) {
  if (m.kind == kSyntheticKind) {
    check_synthetic(h, m, words, first, count);
    return;
  }
  const std::uint64_t key = (static_cast<std::uint64_t>(h.src) << 32) | m.message_seq;
  RxMessage& rx = reassembly_[key];
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
    RxMessage done = std::move(rx);
    reassembly_.erase(key);
    complete_message(h.src, m.message_seq, std::move(done));
  }
}

// Synthetic payloads are regenerated here and compared: exactly, or as the codec must have
// delivered them for a lossy one.
void NetworkInterface::check_synthetic(const PacketHeader& h, const MessageFields& m,
                                       const std::uint32_t* words, std::uint32_t first,
                                       std::uint32_t count) {
  const Codec* codec =
      m.compressed ? codecs_.codec_for(static_cast<ElementType>(m.element_type)) : nullptr;
  if (!codec || codec->lossless()) {
    check_.resize(count);
    payload_->fill(h.packet_id, first, count, check_.data());
    for (std::uint32_t w = 0; w < count; ++w)
      if (words[w] != check_[w]) ++counters_.payload_errors;
    return;
  }
  std::vector<std::uint32_t> expected(m.packet_words);
  for (std::uint32_t w = 0; w < m.packet_words; ++w) expected[w] = payload_->word(h.packet_id, w);
  writer_.clear();
  codec->encode(expected.data(), expected.size(), writer_);
  BitReader reader(writer_);
  codec->decode(reader, expected.size(), expected.data());
  for (std::uint32_t w = 0; w < count; ++w)
    if (words[w] != expected[first + w]) ++counters_.payload_errors;
}

// A message is complete; hand it, and any later messages of its source that were waiting for
// it, to the delivery queue: each from the cycle after it was ready, and never before the
// source's previous message (messages of a source reach the core in send order).
void NetworkInterface::complete_message(NodeId src, std::uint32_t seq, RxMessage&& m) {
  if (src >= next_seq_in_.size()) {
    next_seq_in_.resize(src + 1, 0);
    last_delivery_.resize(src + 1, 0);
  }
  const std::uint64_t base = static_cast<std::uint64_t>(src) << 32;
  out_of_order_.emplace(base | seq, std::move(m));
  const Cycle now = clock().now();
  for (auto it = out_of_order_.find(base | next_seq_in_[src]); it != out_of_order_.end();
       it = out_of_order_.find(base | next_seq_in_[src])) {
    const Cycle available = std::max(it->second.ready + 1, last_delivery_[src]);
    last_delivery_[src] = available;
    // Puts and gets are the buffer's business; everything else goes to the core.
    if (!serve_mpb(src, it->second.kind, it->second.words, available)) {
      delivery_queue_.push_back(Delivered{src, available, std::move(it->second)});
      delivered_.notify(clock().delay(available - now));
    } else if (it->second.kind == kMpbPutKind) {
      mpb_landed_.notify(clock().delay(available - now));  // a poll of the buffer sees it
    }
    out_of_order_.erase(it);
    ++next_seq_in_[src];
    ++counters_.messages_delivered;
  }
  counters_.max_delivery_queue_messages =
      std::max<std::uint64_t>(counters_.max_delivery_queue_messages, delivery_queue_.size());
}

template <class At>
void NetworkInterface::cycle(At at) {
  const Cycle now = at.now;
  counters_.source_queue_packet_cycles += queued_packets_ * (now - queue_since_);
  queue_since_ = now;
  if (traced_) tr_inj_valid_ = tr_ej_valid_ = false;
  while (inj_->credit_ready(at)) ++inj_vcs_[inj_->take_credit()].credits;
  eject(at);
  generate(at);
  inject(at);
  if (traced_) tr_queue_ = static_cast<unsigned>(queued_packets_);
}

// The links' lines and the buffers' states (the slots wait for the notices: which VC a flit
// is on, the notice says).
void NetworkInterface::prefetch() const {
  if (!inj_) return;  // (not connected)
  ej_->prefetch_arrivals();
  inj_->prefetch_credits();
  if (sending_) inj_->prefetch_sending();
  __builtin_prefetch(inj_vcs_.data());
  ej_buffer_.prefetch();
}

Cycle NetworkInterface::next_work_cycle(Cycle now) const {
  if (sending_) return now + 1;
  Cycle next = ej_->next_flit_cycle();
  if (!source_queue_.empty()) next = std::min(next, std::max(now + 1, source_queue_.front().ready));
  if (source_) next = std::min(next, std::max(now + 1, source_->next_cycle()));
  return next;
}

void NetworkInterface::finish(Cycle now) {
  counters_.source_queue_packet_cycles += queued_packets_ * (now - queue_since_);
  queue_since_ = now;
}

void NetworkInterface::trace(sc_trace_file* tf) {
  traced_ = true;
  set_always_on(true);
  const std::string base = std::string(name()) + ".";
  sc_trace(tf, tr_inj_valid_, base + "inject_valid");
  sc_trace(tf, tr_inj_packet_, base + "inject_packet", 32);
  sc_trace(tf, tr_ej_valid_, base + "eject_valid");
  sc_trace(tf, tr_ej_packet_, base + "eject_packet", 32);
  sc_trace(tf, tr_queue_, base + "source_queue", 16);
}

}  // namespace collnoc
