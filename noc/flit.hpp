// Flits carry their packet's header as sideband bits and a slice of the real payload.
#pragma once
#include <array>
#include <cassert>
#include <cstddef>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "noc/types.hpp"

namespace collnoc {

// Widest flit the models support: 8 x 32-bit words = 256 bits. The configured flit width
// (NetworkInterfaceParams::flit_width_bits) must not exceed it.
constexpr unsigned kMaxFlitWords = 8;

// What the network knows of a packet: the header its head flit announces. It is kept once per
// packet in the network's PacketPool while the packet is in flight, and every flit names its
// packet by a handle, so that a flit in a buffer is small (the payload slice and a few bits).
// What the endpoints say to each other (the message layer's fields) is not the network's: the
// pool keeps it beside the header, for its owner (PacketPool::owned).
struct PacketHeader {
  PacketId packet_id = 0;        // unique per simulation
  NodeId src = 0;                // source endpoint
  NodeId dst = 0;                // destination endpoint
  std::uint16_t length_flits = 1;
  std::uint16_t hops = 0;           // router-to-router links traversed by the head (at delivery)
  std::uint8_t vc_class = 0;        // virtual network the packet travels in
  bool measured = false;            // created inside the measurement window
  std::uint16_t multicast_headers = 0;  // a multicast message's header flits (0: unicast)
};
static_assert(sizeof(PacketHeader) == 24, "PacketHeader: its owner's fields fill the line");

using PacketHandle = std::uint32_t;

// Packet ids are (source << 40) | n, n = 1, 2, ... per source. Waves show them as one decimal
// number that reads "source, then n": source * 1,000,000 + n (n modulo 10^6); 0 means idle.
inline std::uint32_t packet_tag(PacketId id) {
  return static_cast<std::uint32_t>((id >> 40) * 1000000u + (id & ((PacketId{1} << 40) - 1)) % 1000000u);
}

// What a flit is. A unicast packet is a head, body flits and a tail (by `seq`). A hardware
// multicast message (HTA, SPEC 5) is its header flits, one destination each (`dst`), then its
// data flits: `seq` numbers them all as the source sent them, so a branch that carries fewer
// headers still ends on the flit with seq + 1 == length.
enum class FlitKind : std::uint8_t { unicast, multicast_header, multicast_data };

// A flit's sideband bits. In a buffer they sit apart from the payload (BufferSlot): a router
// reads them every cycle and the payload only to pass it on.
struct FlitHeader {
  PacketHandle packet = 0;    // header in the PacketPool
  // Copies of the header fields every router needs, so routing does not reach for the pool.
  NodeId dst = 0;
  std::uint16_t length = 1;   // flits in the packet
  std::uint8_t vc_class = 0;
  FlitKind kind = FlitKind::unicast;
  std::uint16_t seq = 0;      // position in the packet, 0 = head
  std::uint8_t vc = 0;        // VC on the channel it currently travels
  std::uint8_t words = 0;     // valid payload words
  std::uint16_t hops = 0;     // head: router-to-router links traversed (the NI copies it into
                              // the header; counting in the header would touch it every hop)
  bool is_head() const { return seq == 0; }
  bool is_tail() const { return seq + 1 == length; }
  bool is_multicast_header() const { return kind == FlitKind::multicast_header; }
};
static_assert(sizeof(FlitHeader) == 20, "FlitHeader: the kind fills a padding byte");

// A flit as the NIs build and take it: the sidebands and the payload slice.
struct Flit : FlitHeader {
  std::array<std::uint32_t, kMaxFlitWords> payload{};
};

// Copies a flit's `words` payload words (a buffer slot's, the network's flit width): fixed-size
// moves for the usual widths, since for 16 bytes the variable-length copy the compiler emits
// otherwise (rep movs) costs more than the move.
inline void copy_payload(std::uint32_t* to, const std::uint32_t* from, unsigned words) {
  switch (words) {
    case 4: std::memcpy(to, from, 4 * sizeof(std::uint32_t)); break;
    case 8: std::memcpy(to, from, 8 * sizeof(std::uint32_t)); break;
    case 2: std::memcpy(to, from, 2 * sizeof(std::uint32_t)); break;
    default: std::memcpy(to, from, words * sizeof(std::uint32_t));
  }
}

// Headers of the packets in flight. The source NI allocates one when it injects a head flit; the
// destination NI releases it when the tail arrives. A record is a PacketHeader and then
// `owner_bytes` that belong to the network's owner (the NIs keep their message fields there):
// one cache line for both, since routers and NIs touch records at random in the pool.
//
// NIs may do so on several threads at once (Clock::set_threads), each through its own lane: a
// lane takes records from its own free list, else from a block of records it has claimed, and
// puts released ones on its own free list. Records never move (blocks of kBlockRecords, claimed
// with one atomic count), so a header may be read on one thread while another thread allocates.
// Which record a packet gets may then depend on the threads' timing; handles are never part of
// a result. Between parallel cycles, rebalance() moves records from lanes that release more than
// they allocate to lanes that ran out, so the pool stays as large as the packets in flight.
class PacketPool {
 public:
  static constexpr std::size_t kOwnerOffset = sizeof(PacketHeader);
  explicit PacketPool(std::size_t owner_bytes = 0)
      : record_bytes_((kOwnerOffset + owner_bytes + 7) / 8 * 8) {}
  std::size_t owner_bytes() const { return record_bytes_ - kOwnerOffset; }
  PacketHandle allocate(unsigned lane = 0) {
    LaneState& l = lanes_[lane];
    ++l.live;
    if (!l.free.empty()) {
      const PacketHandle h = l.free.back();
      l.free.pop_back();
      return h;
    }
    if (l.next == l.end) claim_block(l);
    return l.next++;
  }
  void release(PacketHandle h, unsigned lane = 0) {
    LaneState& l = lanes_[lane];
    --l.live;
    l.free.push_back(h);
  }
  PacketHeader& operator[](PacketHandle h) {
    return *std::launder(reinterpret_cast<PacketHeader*>(record(h)));
  }
  const PacketHeader& operator[](PacketHandle h) const {
    return *std::launder(reinterpret_cast<const PacketHeader*>(record(h)));
  }
  // The owner's part of record `h`, a T made there by emplace_owned (T: plain data that fits
  // the record's owner bytes).
  template <typename T>
  T& emplace_owned(PacketHandle h, const T& value) {
    check_owned<T>();
    return *new (record(h) + kOwnerOffset) T(value);
  }
  template <typename T>
  T& owned(PacketHandle h) {
    check_owned<T>();
    return *std::launder(reinterpret_cast<T*>(record(h) + kOwnerOffset));
  }
  // Where, in its owner bytes, the owner keeps the cycle each packet was created (the age that
  // oldest-first allocators compare; kNoField: none, routers then use a head's arrival cycle).
  static constexpr std::size_t kNoField = ~std::size_t{0};
  void set_created_cycle_field(std::size_t offset) {
    assert(offset + sizeof(Cycle) <= owner_bytes());
    created_cycle_field_ = offset;
  }
  bool has_created_cycle() const { return created_cycle_field_ != kNoField; }
  Cycle created_cycle(PacketHandle h) const {
    Cycle c;
    std::memcpy(&c, record(h) + kOwnerOffset + created_cycle_field_, sizeof c);
    return c;
  }
  // Packets in flight (between parallel cycles).
  std::size_t live() const {
    std::int64_t n = 0;
    for (const LaneState& l : lanes_) n += l.live;
    return static_cast<std::size_t>(n);
  }
  // Between parallel cycles: a lane with no free record gets half of the largest free list.
  void rebalance() {
    for (LaneState& l : lanes_) {
      if (!l.free.empty()) continue;
      LaneState* donor = &lanes_[0];
      for (LaneState& d : lanes_)
        if (d.free.size() > donor->free.size()) donor = &d;
      const auto give = static_cast<std::ptrdiff_t>(donor->free.size() / 2);
      l.free.insert(l.free.end(), donor->free.end() - give, donor->free.end());
      donor->free.erase(donor->free.end() - give, donor->free.end());
    }
  }

 private:
  static constexpr PacketHandle kBlockRecords = 4096;  // 256 KB
  static constexpr std::size_t kMaxBlocks = 4096;      // 16 M packets in flight
  struct alignas(64) LaneState {  // one thread's, on lines of its own
    std::vector<PacketHandle> free;
    PacketHandle next = 0, end = 0;  // records of its current block not handed out yet
    std::int64_t live = 0;           // allocated minus released through this lane
  };
  void claim_block(LaneState& l);

  std::byte* record(PacketHandle h) const {
    return blocks_[h / kBlockRecords].get() + (h % kBlockRecords) * record_bytes_;
  }
  template <typename T>
  void check_owned() const {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
    static_assert(kOwnerOffset % alignof(T) == 0);
    assert(kOwnerOffset + sizeof(T) <= record_bytes_);
  }
  struct FreeBlock {
    void operator()(std::byte* p) const { ::operator delete[](p, std::align_val_t{64}); }
  };
  std::size_t record_bytes_;
  std::size_t created_cycle_field_ = kNoField;
  std::array<std::unique_ptr<std::byte[], FreeBlock>, kMaxBlocks> blocks_;
  std::atomic<std::size_t> blocks_claimed_{0};
  std::array<LaneState, kMaxThreads> lanes_;
};

}  // namespace collnoc
