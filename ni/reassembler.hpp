// Reassembler: the NI's ejection side. Flits are taken from the router's ejection port one per
// cycle and sink channel (ni.sink_channels; credits return at once); a compressed packet's stream is gathered and decoded when its
// tail is in (the decoder half of the codec, ni.codec_latency_cycles later); packets are
// reassembled into messages, in any order of arrival, and messages are handed to the front end
// in send order per source. Synthetic packets are checked against their generator instead.
#pragma once
#include <map>
#include <memory>
#include <unordered_set>
#include <vector>

#include "ni/compression.hpp"
#include "ni/interface_context.hpp"
#include "ni/ni_params.hpp"
#include "ni/packetizer.hpp"
#include "ni/payload.hpp"
#include "noc/link.hpp"
#include "noc/report.hpp"

namespace collnoc {

struct ReassemblerCounters {
  std::uint64_t packets_delivered = 0, flits_delivered = 0;
  std::uint64_t window_flits_delivered = 0;  // network flits that arrived in the window
  // application flits (uncompressed size) of packets delivered in the window
  std::uint64_t window_app_flits_delivered = 0;
  std::uint64_t measured_delivered = 0, measured_hops = 0;
  std::uint64_t payload_errors = 0;  // synthetic payload words that arrived altered
  // hardware multicast: copies taken here, those whose every word matched, and the messages
  // whose last copy arrived here
  std::uint64_t multicast_copies = 0, multicast_copies_verified = 0;
  std::uint64_t multicast_delivered = 0;
  std::uint64_t max_flits_per_cycle = 0;  // sink channels: most flits taken in one cycle
};

// A flow's measured packets (stats.per_flow): from one source to this node.
struct FlowStats {
  std::uint64_t packets = 0, flits = 0, latency_sum = 0;
  std::uint32_t latency_max = 0;
};

// A message as the reassembler hands it to the core's side.
struct ReceivedMessage {
  std::vector<std::uint32_t> words;
  std::uint32_t words_received = 0;
  std::uint8_t kind = 0;
  std::uint32_t tag = 0;
  unsigned hops = 0;
  Cycle sent = 0;   // the sender handed it to its NI
  Cycle ready = 0;  // latest cycle one of its packets was ready (decompressed)
};

class TlmFrontEnd;

class Reassembler {
 public:
  // Complete messages go to `front_end`; `arrivals` (the packetizer's policy input, set up
  // before) records the flits received when the selective policy reads them.
  Reassembler(NodeId id, const NetworkInterfaceParams& params, const RouterParams& router,
              NetworkContext& net, InterfaceContext& interfaces, ArrivalWindow& arrivals,
              TlmFrontEnd& front_end);

  // The ejection link (router -> NI) of the NI `ni`, into the ejection buffer; and each further
  // sink channel's (ni.sink_channels), into a buffer of its own.
  void connect(ClockedModule* ni, Link& ejection);
  void connect_sink_channel(ClockedModule* ni, Link& channel);
  void set_payload(const PayloadGenerator& payload) { payload_ = &payload; }
  // Trace-driven traffic: the feed hears of each trace packet's delivery (ni/trace.hpp).
  void set_trace(TraceFeed& feed) {
    trace_ = &feed;
    trace_driven_ = true;
  }
  void set_measurement_window(Cycle begin, Cycle end) { window_begin_ = begin, window_end_ = end; }

  // Takes every flit due this cycle.
  template <class At>
  void eject(At at);

  Cycle next_work_cycle() const {
    Cycle next = ej_->next_flit_cycle();
    for (const auto& c : sinks_) next = std::min(next, c->link->next_flit_cycle());
    return next;
  }
  // Receiving hardware multicast messages (the system's routers replicate them).
  void enable_multicast(Packetizer& forwarder) {
    multicast_ = true;
    forwarder_ = &forwarder;
  }
  void prefetch() const {
    ej_->prefetch_arrivals();
    ej_buffer_.prefetch();
  }

  const ReassemblerCounters& counters() const { return counters_; }
  // Per-flow statistics of the measured unicast packets, per source (stats.per_flow).
  void record_flows(NodeId nodes) { flows_.assign(nodes, FlowStats{}); }
  const std::vector<FlowStats>& flows() const { return flows_; }
  const SampleCounts& latency_samples() const { return latency_; }
  const SampleCounts& network_latency_samples() const { return network_latency_; }
  void report(Tally& t) const;
  void trace(sc_core::sc_trace_file* tf, const std::string& base);

  // The hot part, for the NI's prefetch: [hot_begin(), hot_end()).
  const void* hot_begin() const { return &ej_; }
  const void* hot_end() const { return &counters_ + 1; }

 private:
  // Words [first, first + count) of a packet's payload have arrived (decompressed if need be);
  // the packet is ready for its core at `ready`.
  void receive_payload(const PacketHeader& h, const MessageFields& m, const std::uint32_t* words,
                       std::uint32_t first, std::uint32_t count, Cycle ready);
  void check_synthetic(const PacketHeader& h, const MessageFields& m, const std::uint32_t* words,
                       std::uint32_t first, std::uint32_t count);
  // Takes the flit that arrived on `link` into `buffer`; `lane` numbers the channel's VCs among
  // all sink channels' (channel c's VC v: c x vcs + v).
  template <class At>
  __attribute__((always_inline)) inline void take_flit(At at, Link& link, InputBuffer& buffer,
                                                       unsigned lane_base);
  // A data flit of a hardware multicast's copy (its payload checked); at the copy's tail, the
  // message ends if this was its last copy.
  template <class At>
  void receive_multicast(At at, const Flit& f, const PacketHeader& h, const MessageFields& m,
                         unsigned lane);
  // A firmware multicast's copy is in (its words in rx_copy_[lane]): checked against the words
  // sent and reassembled like a unicast packet of this node's message from the source.
  // Returns whether it matched.
  bool receive_multicast_copy(const PacketHeader& h, const MessageFields& m, unsigned lane,
                              Cycle now);
  // A copy of multicast message `message` (InterfaceContext::multicasts) is in at `now`: it
  // counts, and the message ends with its last copy (its latency sampled if measured).
  struct CopyEnd {
    bool last, measured;
    NodeId forward_to;  // column-path multicast: the next stop of this copy's path, or kNoNode
  };
  CopyEnd copy_delivered(std::uint64_t message, NodeId here, bool verified, Cycle now);
  void complete_message(NodeId src, std::uint32_t seq, ReceivedMessage&& m);
  // A compressed packet's flit: its stream is decoded when the tail is in, the words ready at
  // `ready` (meaningful at the tail).
  void receive_compressed(const Flit& f, const PacketHeader& h, const MessageFields& m,
                          Cycle ready, unsigned lane);
  bool in_window(Cycle c) const { return c >= window_begin_ && c < window_end_; }
  std::uint16_t plain_flits(std::uint32_t words) const {
    return static_cast<std::uint16_t>(words == 0 ? 1 : (words + words_per_flit_ - 1) / words_per_flit_);
  }

  // What a cycle reads and writes first, together (the NI prefetches it).
  Link* ej_ = nullptr;
  bool traced_ = false;
  bool count_arrivals_;  // arrivals_.on(): a selective policy reads them
  bool trace_driven_ = false;  // trace_ is set
  std::uint8_t words_per_flit_;
  unsigned codec_latency_cycles_;
  NetworkContext& net_;
  Cycle window_begin_ = 0, window_end_ = kNever;
  InputBuffer ej_buffer_{net_.state.resource()};  // the ejection port's buffer
  ReassemblerCounters counters_;

  SampleCounts latency_, network_latency_;
  SampleCounts multicast_latency_;  // creation to the last copy's delivery
  std::vector<FlowStats> flows_;                  // per source; empty unless record_flows()
  std::vector<bool> copy_altered_;                // per lane: the copy arriving on it
  std::vector<std::vector<std::uint32_t>> rx_copy_;  // per lane: a firmware multicast's words
  NodeId id_;
  std::unordered_set<PacketId> altered_copies_;   // software multicast packets with a bad word
  bool multicast_ = false;
  Packetizer* forwarder_ = nullptr;  // this NI's: column-path copies go on from here
  TraceFeed* trace_ = nullptr;       // trace-driven traffic: told of each trace packet's tail
  ArrivalWindow& arrivals_;
  InterfaceContext& interfaces_;
  TlmFrontEnd& front_end_;
  const PayloadGenerator* payload_ = nullptr;
  CodecSet decoders_;
  CodecUnit decoder_;  // the decoders' timing (ni.codec_pipelined)
  bool codec_pipelined_;
  unsigned vcs_, buffer_flits_;  // the ejection buffer's VCs and flits per VC
  std::vector<std::vector<std::uint32_t>> rx_wire_;  // per lane: compressed packet being received
  struct SinkChannel {  // a further sink channel (ni.sink_channels)
    explicit SinkChannel(std::pmr::memory_resource* memory) : buffer(memory) {}
    Link* link = nullptr;
    InputBuffer buffer;
  };
  std::vector<std::unique_ptr<SinkChannel>> sinks_;
  std::vector<std::uint32_t> scratch_;
  std::vector<std::uint32_t> check_;  // regenerated synthetic words, to compare with arrivals
  BitWriter writer_;                  // (re-encodes synthetic words a lossy codec altered)
  std::map<std::uint64_t, ReceivedMessage> reassembly_;  // key: src << 32 | message seq
  std::map<std::uint64_t, ReceivedMessage> out_of_order_;  // complete, waiting for earlier ones
  std::vector<std::uint32_t> next_seq_in_;  // per source, next to deliver
  std::vector<Cycle> last_delivery_;        // per source: keeps delivery in order
  // trace
  bool tr_valid_ = false;
  unsigned tr_packet_ = 0;
};

template <class At>
void Reassembler::eject(At at) {
  if (traced_) tr_valid_ = false;
  const std::uint64_t before = counters_.flits_delivered;
  while (ej_->flit_ready(at)) take_flit(at, *ej_, ej_buffer_, 0);
  if (sinks_.empty()) return;
  for (std::size_t c = 0; c < sinks_.size(); ++c) {
    SinkChannel& sink = *sinks_[c];
    while (sink.link->flit_ready(at))
      take_flit(at, *sink.link, sink.buffer, static_cast<unsigned>(c + 1) * vcs_);
  }
  counters_.max_flits_per_cycle =
      std::max(counters_.max_flits_per_cycle, counters_.flits_delivered - before);
}

template <class At>
void Reassembler::take_flit(At at, Link& link, InputBuffer& buffer, unsigned lane_base) {
  const Cycle now = at.now;
  const unsigned vc = buffer.arrive(link);
  const Flit& f = buffer.front(vc);
  PacketHeader& h = net_.packets[f.packet];
  const MessageFields& m = net_.packets.owned<MessageFields>(f.packet);
  ++counters_.flits_delivered;
  net_.count_flit_move(at);
  if (in_window(now)) ++counters_.window_flits_delivered;
  if (count_arrivals_) arrivals_.record(now);
  if (traced_) {
    tr_valid_ = true;
    tr_packet_ = packet_tag(h.packet_id);
  }
  if (f.kind != FlitKind::unicast) {
    receive_multicast(at, f, h, m, lane_base + f.vc);
    link.return_credit(at, f.vc);
    buffer.pop(vc);
    return;
  }
  if (f.is_head()) h.hops = f.hops;
  // (A compressed packet is decoded once its tail is in: D later, after any wait for an
  // unpipelined decoder.)
  const Cycle ready =
      m.compressed && f.is_tail() ? decoder_.start(now) + codec_latency_cycles_ : now;
  if (!m.compressed) receive_payload(h, m, f.payload.data(), f.seq * words_per_flit_, f.words, now);
  else receive_compressed(f, h, m, ready, lane_base + f.vc);
  if (f.is_tail()) {
    ++counters_.packets_delivered;
    if (in_window(now)) counters_.window_app_flits_delivered += plain_flits(m.packet_words);
    // (A unicast of a software multicast: its latency is the message's, at its last copy.)
    const bool copy = m.tag != 0 && m.kind == Packetizer::kSyntheticKind;
    // (Column path: the copy goes on along its path.)
    if (copy) {
      const CopyEnd end = copy_delivered(multicast_message_key(m.tag), id_,
                                         altered_copies_.erase(h.packet_id) == 0, ready);
      if (end.forward_to != kNoNode)
        forwarder_->forward_copy(at, end.forward_to, m.tag, plain_flits(m.packet_words),
                                 end.measured);
    }
    // (A trace packet carries its message's slot in the feed, plus one.)
    if (trace_driven_ && m.message_seq && m.kind == Packetizer::kSyntheticKind)
      trace_->delivered(m.message_seq - 1, ready);
    if (h.measured) {
      ++counters_.measured_delivered;
      counters_.measured_hops += h.hops;
      if (!copy) {
        const auto latency = static_cast<std::uint32_t>(ready - m.created_cycle);
        latency_.add(latency);
        network_latency_.add(static_cast<std::uint32_t>(ready - m.injected_cycle));
        if (!flows_.empty()) {
          FlowStats& flow = flows_[h.src];
          ++flow.packets;
          flow.flits += f.length;
          flow.latency_sum += latency;
          flow.latency_max = std::max(flow.latency_max, latency);
        }
      }
      net_.measured_delivered(at);
      // The last one after the window ends the workload.
      if (now >= window_end_) net_.measured_delivered_late(at);
    }
    net_.release_packet(at, f.packet);
  }
  link.return_credit(at, f.vc);
  buffer.pop(vc);
}

template <class At>
void Reassembler::receive_multicast(At at, const Flit& f, const PacketHeader& h,
                                    const MessageFields& m, unsigned lane) {
  const Cycle now = at.now;
  if (copy_altered_.size() <= lane) copy_altered_.resize(lane + 1u, false);
  const std::uint32_t first = (f.seq - h.multicast_headers) * words_per_flit_;
  const bool firmware = m.kind != Packetizer::kSyntheticKind;
  if (firmware) {  // the words are the core's: gathered, and checked against the sent ones
    if (rx_copy_.size() <= lane) rx_copy_.resize(lane + 1u);
    std::vector<std::uint32_t>& copy = rx_copy_[lane];
    if (first == 0) copy.clear();
    copy.insert(copy.end(), f.payload.begin(), f.payload.begin() + f.words);
  } else {
    check_.resize(f.words);
    payload_->fill(h.packet_id, first, f.words, check_.data());
    for (unsigned w = 0; w < f.words; ++w)
      if (f.payload[w] != check_[w]) {
        ++counters_.payload_errors;
        copy_altered_[lane] = true;
      }
  }
  if (!f.is_tail()) return;
  if (in_window(now)) counters_.window_app_flits_delivered += f.length - h.multicast_headers;
  if (firmware && !receive_multicast_copy(h, m, lane, now)) copy_altered_[lane] = true;
  const CopyEnd end = copy_delivered(h.packet_id, id_, !copy_altered_[lane], now);
  copy_altered_[lane] = false;
  if (!end.last) return;  // the last copy: the message is delivered
  ++counters_.packets_delivered;
  net_.diverted_multicasts.erase(f.packet);
  if (end.measured) {
    ++counters_.measured_delivered;
    net_.measured_delivered(at);
    if (now >= window_end_) net_.measured_delivered_late(at);
  }
  net_.release_packet(at, f.packet);
}

}  // namespace collnoc
