// What the NIs of one network share beyond the network itself (NetworkContext): the message
// fields they keep beside each packet's header, per firmware round the packets sent and the
// contention they met, and the payloads of packets whose size is only modelled.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "noc/network_context.hpp"

namespace collnoc {

class TraceRecorder;

constexpr NodeId kNoNode = ~NodeId{0};
// MessageFields::kind of a synthetic source's packets (each a message of its own).
constexpr std::uint8_t kSyntheticMessageKind = 0xff;

// What a source NI tells the destination NI about a packet besides what the network carries
// (PacketHeader): the message layer's fields. Kept in the packet's pool record, beside the
// header (PacketPool::owned), so that header and fields share a cache line.
struct MessageFields {
  Cycle created_cycle = 0;          // entered the source queue
  Cycle injected_cycle = 0;         // head flit left the NI
  std::uint32_t message_seq = 0;    // per (src, dst) message sequence number
  std::uint32_t message_words = 0;  // payload words of the whole message
  std::uint32_t word_offset = 0;    // first message word this packet carries
  std::uint32_t tag = 0;            // the sender's tag (what the message is)
  std::uint16_t packet_words = 0;   // payload words in this packet
  std::uint16_t round = 0;          // the sender's round (mark_round), saturating
  std::uint8_t kind = 0;            // the message layer's (0 = data)
  std::uint8_t element_type = 0;    // what the payload words hold (ni/codec.hpp ElementType)
  bool last_of_message = false;
  bool compressed = false;          // the flits carry the codec's stream, not the words
};
static_assert(sizeof(PacketHeader) + sizeof(MessageFields) <= 64,
              "a packet's header and message fields: one cache line");

// A packet as an NI builds and reads it: the network's header and the message fields.
struct PacketInfo : PacketHeader, MessageFields {};

// Software and column-path multicast (traffic.multicast_scheme = software | column_path) send
// a message as unicast packets; each carries the message's number in the network (1, 2, ...:
// InterfaceContext::next_multicast_number) in `tag` (0: not part of one), also when a
// destination forwards it. The message's key: apart from every packet id ((src << 40) | n,
// n < 2^39).
inline std::uint64_t multicast_message_key(std::uint32_t number) {
  return (std::uint64_t{1} << 39) | number;
}
// What a synthetic packet's payload is generated from: its id, or its message's key (every
// unicast of a software or column-path multicast carries the message's data).
inline std::uint64_t synthetic_payload_key(const PacketHeader& h, const MessageFields& m) {
  return m.tag ? multicast_message_key(m.tag) : h.packet_id;
}

// What happened in one round of the firmware (MessageLayer::mark_round; each packet carries its
// sender's round): packets created, and contention events their flits met, on router-to-router
// links and at ejection ports. A round is the sender's: rounds of different cores may overlap.
struct RoundTally {
  std::uint64_t packets = 0;
  std::uint64_t contention_links = 0;  // between messages (PacketObserver::contended)
  std::uint64_t contention_ejection = 0;
  std::uint64_t contention_links_packets = 0;  // per packet, its own message's included
  std::uint64_t contention_ejection_packets = 0;
};
// One output port's share of a round (stats.per_round_links): flits of the round's unicast
// packets allocated to it, and the contention events they met there.
struct LinkRoundTally {
  std::uint64_t flits = 0;
  std::uint64_t contention_events = 0;  // between messages
  std::uint64_t contention_events_packets = 0;
};
// Per round, per output port (router x kMaxRouterPorts + port), in port order.
using LinksByRound = std::vector<std::map<std::uint32_t, LinkRoundTally>>;

class InterfaceContext final : public PacketObserver {
 public:
  explicit InterfaceContext(NetworkContext& net) : net_(net) {
    if (net.packets.owner_bytes() >= sizeof(MessageFields))  // (the NIs check it when made)
      net.packets.set_created_cycle_field(offsetof(MessageFields, created_cycle));
  }
  // Counting per round: on (firmware runs) the routers report their contention here.
  void tally_rounds() { net_.packet_observer = this; }
  // And per round and output port too (the routers must report_allocations()).
  void tally_round_links() { round_links_ = true; }
  void count_packets(std::uint16_t round, std::uint64_t packets) {
    tally(0, round).packets += packets;  // (a core's command: not during an evaluation)
  }
  void contended(PacketHandle packet, RouterId router, unsigned port, bool on_link,
                 bool per_packet, bool per_message, unsigned thread) override {
    const std::uint16_t round = net_.packets.owned<MessageFields>(packet).round;
    RoundTally& t = tally(thread, round);
    if (per_message) ++(on_link ? t.contention_links : t.contention_ejection);
    if (per_packet) ++(on_link ? t.contention_links_packets : t.contention_ejection_packets);
    if (!round_links_) return;
    LinkRoundTally& l = link_tally(thread, round, router, port);
    l.contention_events += per_message;
    l.contention_events_packets += per_packet;
  }
  // A unicast message is what the source NI cut from one command: its packets carry the
  // same (source, destination, per-destination message number), as reassembly finds them.
  // A hardware multicast packet, and a synthetic one, is a message of its own.
  MessageKey message_of(PacketHandle packet) const override {
    const PacketHeader& h = net_.packets[packet];
    const MessageFields& m = net_.packets.owned<MessageFields>(packet);
    if (h.multicast_headers || m.kind == kSyntheticMessageKind) return {h.packet_id, ~0ull};
    return {(std::uint64_t{h.src} << 32) | h.dst, m.message_seq};
  }
  void allocated(PacketHandle packet, RouterId router, unsigned port, unsigned flits,
                 unsigned thread) override {
    const std::uint16_t round = net_.packets.owned<MessageFields>(packet).round;
    link_tally(thread, round, router, port).flits += flits;
  }
  // Each round's packets and contention, over the threads.
  std::vector<RoundTally> round_totals() const {
    std::vector<RoundTally> total;
    for (const PerThread& p : rounds_)
      for (std::size_t r = 0; r < p.rounds.size(); ++r) {
        if (r >= total.size()) total.resize(r + 1);
        total[r].packets += p.rounds[r].packets;
        total[r].contention_links += p.rounds[r].contention_links;
        total[r].contention_ejection += p.rounds[r].contention_ejection;
        total[r].contention_links_packets += p.rounds[r].contention_links_packets;
        total[r].contention_ejection_packets += p.rounds[r].contention_ejection_packets;
      }
    return total;
  }
  LinksByRound links_by_round() const {
    LinksByRound total;
    for (const PerThread& p : rounds_)
      for (std::size_t r = 0; r < p.links.size(); ++r) {
        if (r >= total.size()) total.resize(r + 1);
        for (const auto& [port, t] : p.links[r]) {
          LinkRoundTally& sum = total[r][port];
          sum.flits += t.flits;
          sum.contention_events += t.contention_events;
          sum.contention_events_packets += t.contention_events_packets;
        }
      }
    return total;
  }

  // Payloads of packets whose size is modelled (ni.compression.size_mode = fixed_ratio): the
  // flits are counted, the words travel here, from the source NI to the destination NI.
  std::unordered_map<PacketHandle, std::vector<std::uint32_t>> modelled_payloads;

  // Multicast messages in flight, by key (a hardware multicast's packet id, else
  // multicast_message_key): the copies still to arrive. The source NI adds one; the NI that
  // takes the last copy ends it. (Multicast runs evaluate on one thread.)
  struct MulticastInFlight {
    unsigned copies_left = 0;
    Cycle created = 0;
    bool measured = false;
    // Column-path multicast: its paths, one after the other, each ended by kNoNode; the
    // destination of a copy sends the message on to the node after it (absorb-and-forward).
    std::vector<NodeId> paths;
    NodeId next_stop(NodeId here) const {
      if (paths.empty()) return kNoNode;
      const auto it = std::find(paths.begin(), paths.end(), here);
      return it == paths.end() || it + 1 == paths.end() ? kNoNode : *(it + 1);
    }
    // A firmware multicast packet (MessageLayer::multicast): the words every copy must carry,
    // and per destination its message sequence number from the source.
    std::vector<std::uint32_t> words;
    std::vector<NodeId> destinations;
    std::vector<std::uint32_t> message_seqs;
  };
  std::unordered_map<std::uint64_t, MulticastInFlight> multicasts;
  std::uint32_t next_multicast_number = 0;  // software and column-path messages, from 1
  // `collnoc trace record` (ni/trace.hpp): the messages the NIs create, when set.
  TraceRecorder* trace_recorder = nullptr;

 private:
  struct alignas(64) PerThread {  // each thread's on lines of its own
    std::vector<RoundTally> rounds;
    LinksByRound links;
  };
  RoundTally& tally(unsigned thread, std::uint32_t round) {
    std::vector<RoundTally>& rounds = rounds_[thread].rounds;
    if (round >= rounds.size()) rounds.resize(round + std::size_t{1});
    return rounds[round];
  }
  LinkRoundTally& link_tally(unsigned thread, std::uint16_t round, RouterId router,
                             unsigned port) {
    LinksByRound& links = rounds_[thread].links;
    if (round >= links.size()) links.resize(round + std::size_t{1});
    return links[round][router * kMaxRouterPorts + port];
  }
  NetworkContext& net_;
  bool round_links_ = false;
  std::array<PerThread, kMaxThreads> rounds_;
};

}  // namespace collnoc
