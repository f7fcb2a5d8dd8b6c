// Packetizer: the NI's injection side. Messages (from the core through the front end, or from a
// synthetic source) wait in the source queue in order of readiness; the head message is cut
// into packets of at most max_packet_flits flits, each compressed if the policy says so (the
// encoder half of the codec), and injected one flit per cycle onto the router's local input
// with credit flow control under the router's switching rule.
#pragma once
#include <array>
#include <memory>
#include <utility>
#include <vector>

#include "ni/column_path.hpp"
#include "ni/compression.hpp"
#include "ni/interface_context.hpp"
#include "ni/ni_params.hpp"
#include "ni/ni_protocol.hpp"
#include "ni/payload.hpp"
#include "ni/tile_injections.hpp"
#include "ni/trace.hpp"
#include "ni/traffic.hpp"
#include "noc/link.hpp"
#include "noc/report.hpp"
#include "noc/router/router.hpp"
#include "noc/sim/fifo.hpp"

namespace collnoc {

// Words through one element type's codec (energy estimates): into and out of the encoder
// (every packet the policy chose, shortened or not), and restored by the destinations'
// decoders (the packets sent compressed).
struct CodecWords {
  std::uint64_t encoded_in = 0, encoded_out = 0, decoded_out = 0;
};

struct PacketizerCounters {
  // (what a synthetic source's cycle updates first, together)
  std::uint64_t packets_created = 0, packets_injected = 0;
  std::uint64_t flits_created = 0, flits_injected = 0;
  std::uint64_t source_queue_packet_cycles = 0;  // integral of queued packets, for the average
  // measurement window
  std::uint64_t window_flits_created = 0, measured_created = 0;
  // compression
  std::uint64_t packets_compressed = 0;
  std::uint64_t compressed_original_bits = 0, compressed_wire_bits = 0;
  std::uint64_t codec_busy_cycles = 0;
  double max_relative_error = 0;  // LSB-cut, over finite non-zero values
  std::uint64_t max_source_queue_packets = 0;
  std::uint64_t multicast_created = 0;  // multicast messages
  std::uint64_t multicast_forwarded = 0;  // column-path copies sent on by their destination
  std::uint64_t messages_throttled = 0;  // drawn while the source queue was at its limit
};

class Packetizer {
 public:
  // Kind of the packets a synthetic source makes (their payload is checked, not delivered).
  static constexpr std::uint8_t kSyntheticKind = kSyntheticMessageKind;

  Packetizer(NodeId id, const NetworkInterfaceParams& params, const RouterParams& router,
             NetworkContext& net, InterfaceContext& interfaces);

  // The injection link (NI -> router local input) of the NI `ni`.
  void connect(ClockedModule* ni, Link& injection);
  void set_source(std::unique_ptr<SyntheticSource> source, const PayloadGenerator& payload);
  // Trace-driven traffic (ni/trace.hpp): the feed's messages from this NI, as synthetic packets
  // (payload from the generator) on the message's VC class.
  void set_trace(TraceFeed& feed, const PayloadGenerator& payload);
  // Column-path multicast (traffic.multicast_scheme = column_path): the paths' planner.
  void set_column_paths(const ColumnPaths& paths) { column_paths_ = &paths; }
  void set_measurement_window(Cycle begin, Cycle end) { window_ = {begin, end}; }

  // Queues a synthetic packet or multicast message (its payload from the generator, checked at
  // the destinations) created at `created`, as the source would have: for tests and studies
  // that place messages by hand (outside an evaluation; the NI must be awake then).
  void queue_synthetic(SyntheticSource::Packet p, Cycle created);

  // Queues a message for `dst` with the command's header fields; it may be injected from
  // `ready` (the NI must be awake then). `core_now`: handed over by the core at simulated
  // cycle `core_now`. The message enters the source queue at its core's cycle `issue`, as if
  // the core had waited for it: one issued ahead of simulated time (a core runs ahead while
  // it computes and sends) is held until the NI's first evaluation after `issue`, so what
  // the queue holds at each cycle (its order, length and statistics, the compression
  // policy's view) does not depend on how far ahead the core ran. kNever: the NI's own
  // message (a get's reply), queued at once during its evaluation.
  void queue_message(NodeId dst, std::vector<std::uint32_t>&& words, const NiCommand& cmd,
                     Cycle issue, Cycle ready, Cycle core_now);
  // The same for every node of `dsts` as one hardware multicast, cut by multicast_shape() into
  // packets that each carry every header; false (nothing queued) if the routers cannot carry
  // it (no HTA routers, or more destinations than a multicast VC holds beside a data flit).
  bool queue_multicast(const std::vector<NodeId>& dsts, std::vector<std::uint32_t>&& words,
                       const NiCommand& cmd, Cycle issue, Cycle ready, Cycle core_now);
  const MulticastShape& multicast_shape() const { return multicast_shape_; }

  // Column-path multicast: this node took its copy of message `number` (`flits` data flits)
  // and sends it on to `next`, the next stop of its path, from the next cycle (absorb and
  // forward; the copy joins the source queue like any message, and is not throttled).
  template <class At>
  void forward_copy(At at, NodeId next, std::uint32_t number, unsigned flits, bool measured);

  // One cycle, in the NI's order: start (credits back from the router), then, after the
  // ejection side, generate (the synthetic source), inject, and end (the waves' queue length).
  template <class At>
  void start_cycle(At at);
  template <class At>
  void generate(At at);
  template <class At>
  [[gnu::noinline, gnu::cold]] void generate_trace(At at);
  template <class At>
  void inject(At at);
  void end_cycle() {
    if (traced_) tr_queue_ = static_cast<unsigned>(queued_packets_);
  }
  bool sending() const { return sending_; }

  Cycle next_work_cycle(Cycle now) const;
  void prefetch() const;
  void finish(Cycle now);  // closes the source queue's time integral
  bool idle() const { return queued_packets_ == 0 && !cut_ && admit_from_ == kNever; }
  bool synthetic() const { return source_ != nullptr || trace_driven_; }
  Link* injection_link() const { return inj_; }
  const NetworkInterfaceParams& params() const { return params_; }
  // The flits received in the latest window (the selective policy's N): the ejection side
  // records them.
  ArrivalWindow& arrivals() { return arrivals_; }

  const PacketizerCounters& counters() const { return counters_; }
  // By element type (ElementType), the words through its codec.
  const std::array<CodecWords, 4>& codec_words() const { return codec_words_; }
  // Its counters into the results, the queue's time average up to `now`.
  void report(Tally& t, Cycle now) const;
  // Tells `tile` of every packet's injection, head to tail, as core `core` of its tile (the
  // cores of a tile injecting at once: contention_events_cores).
  void count_tile_injections(TileInjections* tile, unsigned core) {
    tile_ = tile;
    tile_core_ = core;
  }
  void trace(sc_core::sc_trace_file* tf, const std::string& base);

 private:
  struct Message {
    PacketInfo hdr;  // message-wide fields; packet fields filled per packet
    std::vector<std::uint32_t> words;
    unsigned synthetic_flits = 0;  // > 0: one synthetic packet, payload from the generator
    std::vector<NodeId> multicast_dsts;  // a hardware multicast message's destinations
    std::vector<std::uint32_t> multicast_seqs;  // ... a firmware one's message_seq at each
    unsigned packet_flits_max = 0;  // a firmware message is cut into packets of this many
    bool last_of_group = false;  // the last unicast of a software multicast
    Cycle ready = 0;
    std::uint32_t next_word = 0;
    unsigned packets_left = 0;
  };
  struct MeasurementWindow {
    Cycle begin = 0, end = kNever;
  };
  struct InjectionVc {  // the router's local input VC
    unsigned credits = 0;
    std::uint16_t next_slot = 0;  // where the next flit lands (Link::send)
  };

  void enqueue(Message&& m);
  // A message from the core with the command's header fields (not yet cut or counted).
  Message firmware_message(std::vector<std::uint32_t>&& words, const NiCommand& cmd,
                           Cycle issue, Cycle ready) const;
  // Counts a firmware message's packets and flits as created and queues it, or holds it
  // (queue_message's `core_now`).
  void queue_firmware(Message&& m, Cycle issue, Cycle core_now);
  // The held messages issued before cycle `until` join the source queue, in the core's order.
  void admit_held(Cycle until);
  // Whether the source queue takes another message of p's kind (the injection limits).
  bool room_for(const SyntheticSource::Packet& p) const {
    return p.multicast_dsts.empty() ? queued_messages_[0] < params_.max_unicast_in_queue
                                    : queued_messages_[1] < params_.max_multicast_in_queue;
  }
  // The message of a synthetic packet, counted as created (measured: the caller tells the
  // network, in or out of an evaluation).
  Message synthetic_message(SyntheticSource::Packet&& p, Cycle created, bool measured,
                            std::uint32_t group = 0, bool record = true);
  // `collnoc trace record`: a synthetic message (each destination of a multicast) into the
  // recorder's trace.
  void record_synthetic(const SyntheticSource::Packet& p, Cycle created) const;
  void record_firmware(const Message& m, NodeId dst, std::uint32_t seq) const;
  // A software or column-path multicast: a unicast to each destination (software) or to the
  // first destination of each path (column_path), all with the message's payload, queued one
  // after the other; returns how many are measured.
  unsigned queue_multicast_unicasts(SyntheticSource::Packet&& p, Cycle created);
  void start_multicast();  // registers the message for its destinations (InterfaceContext)
  void end_packet();       // the tail has left
  void cut_packet(Cycle now);
  void compress(PacketInfo& h, Cycle now);
  // Packets and data flits of a message of `words` words cut into packets of `packet_flits`.
  unsigned packets_for(std::uint32_t words, unsigned packet_flits) const;
  unsigned flits_for(std::uint32_t words, unsigned packet_flits) const;
  bool in_window(Cycle c) const { return c >= window_.begin && c < window_.end; }
  // The network's per-thread state outside an evaluation (a core's command): the clock's.
  // Flits a packet of `words` payload words takes uncompressed (at least one).
  std::uint16_t plain_flits(std::uint32_t words) const {
    return static_cast<std::uint16_t>(words == 0 ? 1 : (words + words_per_flit_ - 1) / words_per_flit_);
  }

  // What a cycle reads and writes comes first, together: it follows the NI's block flags on
  // their cache line, and the clock prefetches it (NetworkInterface::set_traffic).
  unsigned tx_vc_ = 0;
  std::uint8_t multicast_class_ = 0;  // the routers' replicating class (router.hta)
  unsigned vc_ptr_ = 0;
  bool cut_ = false;      // the head packet is cut and compressed, waiting for a VC
  Cycle tx_start_ = 0;    // ... and may start then (after an unpipelined encoder's wait)
  bool sending_ = false;  // ... and its flits are being injected
  bool limit_injection_ = false;  // the source's traffic has multicast: ni.max_*_in_queue
  bool unicast_multicast_ = false;  // ... sent as unicast packets (software, column_path)
  unsigned queued_messages_[2] = {0, 0};  // synthetic unicast, multicast messages queued
  bool traced_ = false;
  std::uint8_t words_per_flit_;
  bool trace_driven_ = false;  // trace_ is set (a flag on the hot line: the feed is not)
  Cycle admit_from_ = kNever;  // the first cycle the first held message joins the queue
  NetworkContext& net_;
  Link* inj_ = nullptr;
  std::unique_ptr<SyntheticSource> source_;
  const PayloadGenerator* payload_ = nullptr;
  MeasurementWindow window_;
  TileInjections* tile_ = nullptr;  // (count_tile_injections)
  unsigned tile_core_ = 0;
  std::size_t queued_packets_ = 0;
  Cycle queue_since_ = 0;
  std::uint64_t next_packet_ = 1;  // per-source packet number (0: no packet, in waves)
  std::pmr::vector<InjectionVc> inj_vcs_{net_.state.resource()};
  PacketizerCounters counters_;

 public:
  // (The end of the hot part: NetworkInterface prefetches up to here.)
  const void* hot_end() const { return &counters_ + 1; }

 private:
  Fifo<Message> source_queue_;
  struct Held {
    Cycle issue;
    Message message;
  };
  Fifo<Held> held_;  // a core's messages issued ahead of simulated time, in its order
  Flit tx_flit_;
  PacketInfo tx_hdr_;                    // the packet being sent
  std::vector<NodeId> tx_dsts_;          // its destinations, if a multicast message
  std::vector<std::uint32_t> tx_plain_;  // its words, uncompressed
  std::vector<std::uint32_t> tx_wire_;   // what its flits carry (the codec's stream if compressed)
  InterfaceContext& interfaces_;
  ArrivalWindow arrivals_;
  NodeId id_;
  NetworkInterfaceParams params_;
  RouterParams router_;
  MulticastShape multicast_shape_;
  std::vector<std::uint32_t> next_seq_out_;  // per destination
  const ColumnPaths* column_paths_ = nullptr;  // column-path multicast
  TraceFeed* trace_ = nullptr;  // trace-driven traffic instead of a synthetic source
  std::unique_ptr<CompressionPolicy> policy_;
  CodecSet encoders_;
  CodecUnit encoder_;  // the encoders' timing (ni.codec_pipelined)
  BitWriter writer_;
  std::vector<std::uint32_t> scratch_;
  std::array<CodecWords, 4> codec_words_{};  // (apart from counters_: not in the hot part)
  // trace
  bool tr_valid_ = false;
  unsigned tr_packet_ = 0, tr_queue_ = 0;
};

// The cycle's steps are defined here, in the header, so that they inline into the NI's
// evaluation (the hot path of every run).

template <class At>
void Packetizer::start_cycle(At at) {
  const Cycle now = at.now;
  if (now >= admit_from_) admit_held(now);  // (issued in an earlier cycle, after its evaluation)
  counters_.source_queue_packet_cycles += queued_packets_ * (now - queue_since_);
  queue_since_ = now;
  if (traced_) tr_valid_ = false;
  while (inj_->credit_ready(at)) ++inj_vcs_[inj_->take_credit()].credits;
}

template <class At>
void Packetizer::generate(At at) {
  const Cycle now = at.now;
  while (source_ && source_->next_cycle() <= now) {
    const Cycle created = source_->next_cycle();
    SyntheticSource::Packet p = source_->take();
    if (limit_injection_ && !room_for(p)) {
      ++counters_.messages_throttled;
      continue;
    }
    if (unicast_multicast_ && !p.multicast_dsts.empty()) {
      const unsigned measured = queue_multicast_unicasts(std::move(p), created);
      if (measured) net_.measured_created(at, measured);
      continue;
    }
    Message m = synthetic_message(std::move(p), created, in_window(created));
    if (m.hdr.measured) net_.measured_created(at);
    enqueue(std::move(m));
  }
  if (trace_driven_) generate_trace(at);
}

// A trace message is one or more packets, queued at once; their tails tell the feed (Reassembler).
template <class At>
void Packetizer::generate_trace(At at) {
  const Cycle now = at.now;
  trace_->take(id_, now, [&](const TracePacket& p) {
    if (TraceRecorder* rec = interfaces_.trace_recorder; rec && p.first)
      rec->created(now, id_, p.dst, p.message_bytes, p.vc_class, false);
    Message m = synthetic_message(SyntheticSource::Packet{p.dst, p.flits, {}}, now, in_window(now),
                                  0, false);
    m.hdr.vc_class = static_cast<std::uint8_t>(p.vc_class);
    m.hdr.message_seq = p.slot + 1;  // (0: not a trace packet)
    if (m.hdr.measured) net_.measured_created(at);
    enqueue(std::move(m));
  });
}

template <class At>
void Packetizer::forward_copy(At at, NodeId next, std::uint32_t number, unsigned flits,
                              bool measured) {
  Message m = synthetic_message(SyntheticSource::Packet{next, flits, {}}, at.now + 1, measured,
                                number);
  ++counters_.multicast_forwarded;
  if (measured) net_.measured_created(at);
  enqueue(std::move(m));
}

template <class At>
void Packetizer::inject(At at) {
  const Cycle now = at.now;
  if (!cut_) {
    if (source_queue_.empty() || source_queue_.front().ready > now) return;
    cut_packet(now);
  }
  if (!sending_) {
    if (now < tx_start_) return;
    // A VC of the packet's class at the router's local input (round-robin) with room for what
    // the switching rule asks: a flit (wormhole) or the whole packet.
    const unsigned per_class = router_.vcs_per_class();
    const unsigned base = tx_hdr_.vc_class * per_class;
    // (A multicast message takes an empty VC: it holds one message, SPEC 5.)
    const unsigned need = tx_hdr_.multicast_headers ? router_.buffer_flits
                          : router_.switching == Switching::wormhole
                              ? 1u
                              : static_cast<unsigned>(tx_hdr_.length_flits);
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
    if (tile_) tile_->head_left(tile_core_, now);
    tx_flit_.packet = net_.allocate_packet(at);
    net_.packets[tx_flit_.packet] = tx_hdr_;
    net_.packets.emplace_owned<MessageFields>(tx_flit_.packet, tx_hdr_);
    if (tx_hdr_.compressed && tx_wire_.empty())
      interfaces_.modelled_payloads[tx_flit_.packet] = tx_plain_;
    if (tx_hdr_.multicast_headers) start_multicast();
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
  // Send one flit: a multicast message's header (headers > 0), or its slice of the wire words.
  const unsigned headers = tx_hdr_.multicast_headers;
  if (tx_flit_.seq < headers) {
    tx_flit_.kind = FlitKind::multicast_header;
    tx_flit_.dst = tx_dsts_[tx_flit_.seq];
    tx_flit_.words = 0;
  } else {
    const std::uint32_t wpf = words_per_flit_;
    const std::uint32_t first = (tx_flit_.seq - headers) * wpf;
    const std::uint32_t total = static_cast<std::uint32_t>(tx_wire_.size());
    const std::uint32_t words = first >= total ? 0 : std::min(wpf, total - first);
    tx_flit_.words = static_cast<std::uint8_t>(words);
    for (std::uint32_t w = 0; w < words; ++w) tx_flit_.payload[w] = tx_wire_[first + w];
    if (headers) tx_flit_.kind = FlitKind::multicast_data;
  }
  inj_->send(at, tx_flit_, vc.next_slot);
  --vc.credits;
  ++counters_.flits_injected;
  net_.count_flit_move(at);
  if (traced_) {
    tr_valid_ = true;
    tr_packet_ = packet_tag(tx_hdr_.packet_id);
  }
  // Every header has left: the router may route them (delayed header routing).
  if (headers && tx_flit_.seq + 1u == headers) inj_->raise_control_line(tx_vc_, at.now);
  if (!tx_flit_.is_tail()) {
    ++tx_flit_.seq;
    return;
  }
  tx_flit_.kind = FlitKind::unicast;
  if (tile_) tile_->tail_left(tile_core_, tx_hdr_.injected_cycle, now);
  end_packet();
}

inline void Packetizer::end_packet() {
  sending_ = cut_ = false;
  Message& m = source_queue_.front();
  m.next_word += tx_hdr_.packet_words;
  --m.packets_left;
  --queued_packets_;
  if (m.packets_left > 0) return;
  if (m.synthetic_flits && (m.hdr.tag == 0 || m.last_of_group))
    --queued_messages_[m.hdr.tag != 0 || !m.multicast_dsts.empty()];
  source_queue_.pop_front();
}

inline Cycle Packetizer::next_work_cycle(Cycle now) const {
  if (sending_) return now + 1;
  Cycle next = kNever;
  if (cut_) next = std::max(now + 1, tx_start_);
  else if (!source_queue_.empty()) next = std::max(now + 1, source_queue_.front().ready);
  if (admit_from_ != kNever) next = std::min(next, std::max(now + 1, held_.front().message.ready));
  if (source_) next = std::min(next, std::max(now + 1, source_->next_cycle()));
  if (trace_driven_) next = std::min(next, std::max(now + 1, trace_->next_cycle(id_)));
  return next;
}

}  // namespace collnoc
