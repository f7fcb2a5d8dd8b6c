// Network interface: between a core (TLM-2.0 target socket) and its router's local port.
//
// Injection: messages from the core (or packets from a synthetic source) wait in the source
// queue, are cut into packets of at most max_packet_flits flits, and are injected one flit per
// cycle with credit flow control under the router's switching rule. Ejection: flits are taken one
// per cycle (credits return at once), packets are reassembled into messages, and messages are
// delivered to the core in order per source.
#pragma once
#include <deque>
#include <map>
#include <memory>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

#include "ni/ni_protocol.hpp"
#include "ni/compression.hpp"
#include "ni/interface_context.hpp"
#include "ni/message_passing_buffer.hpp"
#include "ni/payload.hpp"
#include "ni/traffic.hpp"
#include "ni/xor_engine.hpp"
#include "noc/sim/clocked_block.hpp"
#include "noc/link.hpp"
#include "noc/router/router.hpp"

namespace collnoc {

struct NetworkInterfaceParams {
  unsigned flit_width_bits = 128;      // payload bits per flit (multiple of 32, <= 256)
  unsigned max_packet_flits = 16;      // the packetizer's longest packet
  unsigned ejection_buffer_flits = 0;  // per VC at the ejection port; 0 = router.buffer_flits
  unsigned send_overhead_cycles = 1;   // core hands a message to the NI
  unsigned recv_overhead_cycles = 1;   // NI hands a message to the core
  CompressionParams compression;       // policy never: no codec on the path
  XorEngineParams xor_engine;          // network coding (nc.xor_latency_cycles)
  unsigned mpb_bytes = 0;              // message-passing buffer beside the NI (SCC); 0 = none

  static constexpr UintRange flit_width_bits_range{32, 32 * kMaxFlitWords};  // multiples of 32
  static constexpr UintRange max_packet_flits_range{1, 65535};
  static constexpr UintRange ejection_buffer_flits_range{0, 65535};
  static constexpr UintRange overhead_cycles_range{1, kU32Max};  // send and receive

  unsigned words_per_flit() const { return flit_width_bits / 32; }
  unsigned ejection_buffer(const RouterParams& router) const {
    return ejection_buffer_flits ? ejection_buffer_flits : router.buffer_flits;
  }
};

void validate(const NetworkInterfaceParams& p);

// Per-NI statistics, summed over the system at the end of a run.
struct NiCounters {
  // (the counters a synthetic source's cycle updates come first, together)
  std::uint64_t packets_created = 0, packets_injected = 0, packets_delivered = 0;
  std::uint64_t flits_created = 0, flits_injected = 0, flits_delivered = 0;
  std::uint64_t source_queue_packet_cycles = 0;  // integral of queued packets, for the average
  std::uint64_t window_flits_delivered = 0;
  std::uint64_t messages_sent = 0, messages_delivered = 0;
  // measurement window
  std::uint64_t window_flits_created = 0;
  std::uint64_t measured_created = 0, measured_delivered = 0;
  std::uint64_t measured_hops = 0;
  std::uint64_t payload_errors = 0;  // synthetic payload words that arrived altered
  // application flits (uncompressed size) of packets delivered in the window; the network
  // flits are window_flits_delivered
  std::uint64_t window_app_flits_delivered = 0;
  // compression (at the source NI)
  std::uint64_t packets_compressed = 0;
  std::uint64_t compressed_original_bits = 0, compressed_wire_bits = 0;
  std::uint64_t codec_busy_cycles = 0;
  double max_relative_error = 0;  // LSB-cut, over finite non-zero values
  // queues
  std::uint64_t max_source_queue_packets = 0;
  std::uint64_t max_delivery_queue_messages = 0;
  // network coding: the XOR engine's pairs (coding and decoding) and its busy cycles
  std::uint64_t xor_operations = 0, xor_busy_cycles = 0;
  std::uint64_t mpb_puts = 0, mpb_gets = 0;  // served by this NI's message-passing buffer
};

class NetworkInterface : public Clocked<NetworkInterface> {
 public:
  NetworkInterface(sc_core::sc_module_name name, Clock& clock, NodeId id,
                   const NetworkInterfaceParams& params, const RouterParams& router,
                   NetworkContext& net, InterfaceContext& interfaces);

  // injection: NI -> router local input (router buffers per VC); ejection: router -> NI.
  void connect(Link& injection, Link& ejection);

  // Synthetic traffic instead of a core.
  void set_traffic(const TrafficParams& params, const TrafficPattern& pattern,
                   const PayloadGenerator& payload, std::uint64_t seed);
  void set_measurement_window(Cycle begin, Cycle end) { window_begin_ = begin, window_end_ = end; }

  NodeId id() const { return id_; }
  const NiCounters& counters() const { return counters_; }
  const std::vector<std::uint32_t>& latency_samples() const { return latency_; }
  const std::vector<std::uint32_t>& network_latency_samples() const { return network_latency_; }
  bool idle() const { return queued_packets_ == 0 && !cut_; }
  void finish(Cycle now);

  void trace(sc_core::sc_trace_file* tf);

 protected:
  friend class Clocked<NetworkInterface>;
  template <class At>
  void cycle(At at);
  Cycle next_work_cycle(Cycle now) const override;
  void prefetch() const override;

 private:
  static constexpr std::uint8_t kSyntheticKind = 0xff;
  struct TxMessage {
    PacketInfo hdr;  // message-wide fields; packet fields filled per packet
    std::vector<std::uint32_t> words;
    unsigned synthetic_flits = 0;  // > 0: one synthetic packet, payload from the generator
    Cycle ready = 0;
    std::uint32_t next_word = 0;
    unsigned packets_left = 0;
  };
  struct RxMessage {
    std::vector<std::uint32_t> words;
    std::uint32_t words_received = 0;
    std::uint8_t kind = 0;
    std::uint32_t tag = 0;
    unsigned hops = 0;
    Cycle sent = 0;   // the sender handed it to its NI
    Cycle ready = 0;  // latest cycle one of its packets was ready (decompressed)
  };
  struct Delivered {
    NodeId src;
    Cycle available;
    RxMessage message;
  };

  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void enqueue(TxMessage&& m);
  // Queues a message of the core's (or, for a get, of the buffer's) for `dst`, with the
  // command's header fields; it may be injected from `ready`.
  void queue_message(NodeId dst, std::vector<std::uint32_t>&& words, const NiCommand& cmd,
                     Cycle issue, Cycle ready);
  // Runs a packet pair through the XOR engine; the engine takes it at the first free cycle
  // from `earliest`. Returns the cycle the coded packet is ready.
  Cycle code(const std::uint32_t* pair, std::size_t words, Cycle earliest,
             std::vector<std::uint32_t>& coded);
  // A put or get that arrived for the message-passing buffer; false if `kind` is neither.
  bool serve_mpb(NodeId src, std::uint8_t kind, const std::vector<std::uint32_t>& words,
                 Cycle ready);
  bool mpb_access(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  template <class At>
  void generate(At at);
  template <class At>
  void inject(At at);
  template <class At>
  void eject(At at);
  void complete_message(NodeId src, std::uint32_t seq, RxMessage&& m);
  void cut_packet(Cycle now);
  void compress(PacketInfo& h, Cycle now);
  void receive_payload(const PacketHeader& h, const MessageFields& m, const std::uint32_t* words,
                       std::uint32_t first,
                       std::uint32_t count, Cycle ready);
  void check_synthetic(const PacketHeader& h, const MessageFields& m, const std::uint32_t* words,
                       std::uint32_t first,
                       std::uint32_t count);
  unsigned packets_for(std::uint32_t words) const;
  unsigned flits_for(std::uint32_t words) const;
  bool in_window(Cycle c) const { return c >= window_begin_ && c < window_end_; }
  // The network's per-thread state outside an evaluation (a core's command): the clock's.
  NetworkLane& lane() { return net_.lanes[0]; }
  // Flits a packet of `words` payload words takes uncompressed (at least one).
  std::uint16_t plain_flits(std::uint32_t words) const {
    return static_cast<std::uint16_t>(words == 0 ? 1 : (words + words_per_flit_ - 1) / words_per_flit_);
  }

  // What a cycle of a synthetic source reads and writes comes first, together, from the line
  // of the block's flags (ClockedBlock) on: a large network's NIs do not stay in cache between
  // cycles (the clock prefetches them up to counters_: set_prefetch_end), and a small one's
  // outgrow the L1 cache.
  unsigned tx_vc_ = 0;
  unsigned vc_ptr_ = 0;
  bool cut_ = false;             // the head packet is cut and compressed, waiting for a VC
  bool sending_ = false;         // ... and its flits are being injected
  bool traced_ = false;
  bool congestion_window_ = false;  // arrivals_ is kept (a selective compression policy)
  std::uint8_t words_per_flit_;     // params_.words_per_flit()
  NetworkContext& net_;
  InterfaceContext& interfaces_;
  Link* inj_ = nullptr;
  Link* ej_ = nullptr;
  std::unique_ptr<SyntheticSource> source_;
  const PayloadGenerator* payload_ = nullptr;
  Cycle window_begin_ = 0, window_end_ = kNever;
  // injection
  std::size_t queued_packets_ = 0;
  Cycle queue_since_ = 0;
  std::uint64_t next_packet_ = 1;  // per-source packet number (0: no packet, in waves)
  struct InjectionVc {  // the router's local input VC
    unsigned credits = 0;
    std::uint16_t next_slot = 0;  // where the next flit lands (Link::send)
  };
  std::pmr::vector<InjectionVc> inj_vcs_{net_.state.resource()};
  InputBuffer ej_buffer_{net_.state.resource()};  // the ejection port's buffer
  NiCounters counters_;
  std::deque<TxMessage> source_queue_;
  Flit tx_flit_;
  PacketInfo tx_hdr_;            // the packet being sent
  std::vector<std::uint32_t> tx_plain_;  // its words, uncompressed
  std::vector<std::uint32_t> tx_wire_;   // what its flits carry (the codec's stream if compressed)
  std::vector<std::uint32_t> check_;  // regenerated synthetic words, to compare with arrivals
  std::vector<std::uint32_t> latency_, network_latency_;
  NodeId id_;
  NetworkInterfaceParams params_;
  RouterParams router_;

  std::vector<std::uint32_t> next_seq_out_;  // per destination

  // compression
  std::unique_ptr<CompressionPolicy> policy_;
  CodecSet codecs_;
  BitWriter writer_;
  std::vector<std::uint32_t> scratch_;
  Ring<Cycle> arrivals_;  // cycles of the flits received in the congestion window (selective)

  // ejection
  std::vector<std::vector<std::uint32_t>> rx_wire_;  // per VC: compressed packet being received
  std::vector<Cycle> last_delivery_;               // per source: keeps delivery in order
  std::map<std::uint64_t, RxMessage> reassembly_;  // key: src << 32 | message seq
  std::vector<std::uint32_t> next_seq_in_;         // per source, next to deliver
  std::map<std::uint64_t, RxMessage> out_of_order_;
  std::deque<Delivered> delivery_queue_;
  XorEngine xor_engine_;
  Cycle xor_next_accept_ = 0;  // the engine takes one pair per cycle
  sc_core::sc_event delivered_;

  MessagePassingBuffer mpb_;
  sc_core::sc_event mpb_landed_;  // a remote put was written into mpb_

  // trace
  bool tr_inj_valid_ = false, tr_ej_valid_ = false;
  unsigned tr_inj_packet_ = 0, tr_ej_packet_ = 0, tr_queue_ = 0;

 public:
  // Optional: an NI fed by a synthetic source has no core bound to it. (Declared last: its
  // kilobyte would otherwise sit between the block's fields and the NI's own.)
  tlm_utils::simple_target_socket_optional<NetworkInterface> socket;
};

}  // namespace collnoc
