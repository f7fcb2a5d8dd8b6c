// Flits carry their packet's header as sideband bits and a slice of the real payload.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "noc/types.hpp"

namespace collnoc {

// Widest flit the models support: 8 x 32-bit words = 256 bits. The configured flit width
// (NetworkInterfaceParams::flit_width_bits) must not exceed it.
constexpr unsigned kMaxFlitWords = 8;

// What the head flit announces about its packet: the header sidebands. It is kept once per
// packet in the network's PacketPool while the packet is in flight, and every flit names its
// packet by a handle, so that a flit in a buffer is small (the payload slice and a few bits).
struct PacketHeader {
  PacketId packet_id = 0;        // unique per simulation
  NodeId src = 0;                // source endpoint
  NodeId dst = 0;                // destination endpoint
  Cycle created_cycle = 0;       // entered the source queue
  Cycle injected_cycle = 0;      // head flit left the NI
  std::uint32_t message_seq = 0; // per (src, dst) message sequence number
  std::uint32_t message_words = 0;  // payload words of the whole message
  std::uint32_t word_offset = 0;    // first message word this packet carries
  std::uint32_t tag = 0;            // message layer: the sender's tag (what the message is)
  std::uint16_t length_flits = 1;
  std::uint16_t packet_words = 0;   // payload words in this packet
  std::uint16_t hops = 0;           // router-to-router links traversed by the head
  std::uint16_t round = 0;          // message layer: the sender's round (mark_round), saturating
  std::uint8_t vc_class = 0;        // virtual network the packet travels in
  std::uint8_t kind = 0;            // owner-defined (message layer: 0 = data)
  std::uint8_t element_type = 0;    // what the payload words hold (ni/codec.hpp ElementType)
  bool measured = false;            // created inside the measurement window
  bool last_of_message = false;
  bool compressed = false;          // the flits carry the codec's stream, not the words
  std::uint16_t original_flits = 1; // flits the packet would take uncompressed
};

// One cache line per header: the routers and NIs touch headers at random in the pool.
static_assert(sizeof(PacketHeader) <= 64, "PacketHeader grew past a cache line");

using PacketHandle = std::uint32_t;

// Packet ids are (source << 40) | n, n = 1, 2, ... per source. Waves show them as one decimal
// number that reads "source, then n": source * 1,000,000 + n (n modulo 10^6); 0 means idle.
inline std::uint32_t packet_tag(PacketId id) {
  return static_cast<std::uint32_t>((id >> 40) * 1000000u + (id & ((PacketId{1} << 40) - 1)) % 1000000u);
}

struct Flit {
  PacketHandle packet = 0;    // header in the PacketPool
  // Copies of the header fields every router needs, so routing does not reach for the pool.
  NodeId dst = 0;
  std::uint16_t length = 1;   // flits in the packet
  std::uint8_t vc_class = 0;
  std::uint16_t seq = 0;      // position in the packet, 0 = head
  std::uint8_t vc = 0;        // VC on the channel it currently travels
  std::uint8_t words = 0;     // valid payload words
  std::array<std::uint32_t, kMaxFlitWords> payload{};

  bool is_head() const { return seq == 0; }
  bool is_tail() const { return seq + 1 == length; }
};

// Headers of the packets in flight. The source NI allocates one when it injects a head flit; the
// destination NI releases it when the tail arrives.
class PacketPool {
 public:
  PacketHandle allocate() {
    if (!free_.empty()) {
      const PacketHandle h = free_.back();
      free_.pop_back();
      return h;
    }
    records_.emplace_back();
    return static_cast<PacketHandle>(records_.size() - 1);
  }
  void release(PacketHandle h) { free_.push_back(h); }
  PacketHeader& operator[](PacketHandle h) { return records_[h]; }
  const PacketHeader& operator[](PacketHandle h) const { return records_[h]; }
  std::size_t live() const { return records_.size() - free_.size(); }

 private:
  std::vector<PacketHeader> records_;
  std::vector<PacketHandle> free_;
};

}  // namespace collnoc
