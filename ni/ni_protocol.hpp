// What a core and its NI say to each other over TLM-2.0.
//
// The core is the initiator, the NI the target. A generic payload carries the message words
// (data pointer, length in bytes, a multiple of 4) and an NiCommand extension with the rest:
//   write to kSendAddress: queue a message for `peer` (it joins the source queue at the issue
//     cycle, however far ahead of simulated time the core is: Packetizer::queue_message);
//   read from kRecvAddress: take the oldest complete message from `peer` (or from anyone when
//     peer == kAnySource) available at the issue cycle (simulated time plus the annotated
//     delay). Taken only when the issue cycle is the simulated one: issued ahead, `found` is
//     false and `next_available` the cycle the message is available from (at or before the
//     issue cycle), and the core waits out its offset and asks again. If there is none,
//     `found` is false and `arrival` is the event the NI notifies for the first cycle from the
//     issue cycle at which a message the receive takes is available (the core's interrupt
//     line: not raised for messages it does not take), `next_available` the earliest such
//     cycle among the queued messages (kNever: none yet).
//   write to kXorSendAddress: the words are two equal-length packets a then b; the NI's XOR
//     engine codes a xor b and the NI queues the result for `peer`, or for every node of
//     `destinations` when that is set (coded once, sent to each).
//   write to kXorAddress: the same pair, XORed for the core (decoding at a node): the result
//     comes back as a message from the core's own node with `kind` and `tag`, one cycle after
//     the engine has it (the delivery register); it joins the delivery queue at the issue
//     cycle, behind what is delivered until then.
//   write to kMulticastAddress: queue one message for every node of `destinations` as a
//     hardware multicast (HTA routers replicate it; ni/multicast_shape.hpp says how it is cut).
//     Refused (TLM_GENERIC_ERROR_RESPONSE) without HTA routers or with more destinations than
//     a multicast VC holds.
// The annotated delay is the core's local time offset (temporal decoupling); the NI adds its
// interface latency to it.
#pragma once
#include <cstdint>
#include <vector>

#include <tlm>

#include "noc/types.hpp"

namespace collnoc {

constexpr std::uint64_t kSendAddress = 0x0000;
constexpr std::uint64_t kRecvAddress = 0x1000;
constexpr std::uint64_t kXorSendAddress = 0x2000;
constexpr std::uint64_t kXorAddress = 0x3000;
constexpr std::uint64_t kMulticastAddress = 0x5000;
constexpr NodeId kAnySource = ~NodeId{0};
// Message-passing buffer (NetworkInterfaceParams::mpb_bytes > 0): the core's own buffer is
// mapped at kMpbAddress + byte offset (read / write, no network). A send of kind kMpbPutKind
// carries {offset, words...} into the destination's buffer; kMpbGetKind carries {offset, count}
// and the destination's NI answers with a message of kind kMpbReplyKind, which only a receive
// with `mpb_reply` set takes.
constexpr std::uint64_t kMpbAddress = 0x100000;
constexpr std::uint8_t kMpbPutKind = 0xf0, kMpbGetKind = 0xf1, kMpbReplyKind = 0xf2;
// A read of kMpbWatchAddress returns, with no delay, `mpb_puts_landed` (remote puts written into
// this NI's buffer so far) and in `arrival` the event the NI notifies when the next one lands
// (the cycle a core polling its buffer would see it). Every command's answer carries the count.
constexpr std::uint64_t kMpbWatchAddress = 0x4000;
// Kinds 0xf3.. are the message protocols' control messages (collectives/message_protocol.hpp):
// rendezvous request-to-send and clear-to-send. Firmware data must not use kinds >= 0xf0 (the
// rendezvous layer refuses them as a firmware fault).
constexpr std::uint8_t kRtsKind = 0xf3, kCtsKind = 0xf4;

struct NiCommand : tlm::tlm_extension<NiCommand> {
  NodeId peer = 0;                 // send: destination; recv: source or kAnySource
  std::uint8_t vc_class = 0;       // send: virtual network
  std::uint8_t kind = 0;           // send: user tag carried in the header (0 = data)
  std::uint8_t element_type = 0;   // send: what the words hold (ElementType; 0 = raw)
  std::uint32_t tag = 0;           // send: carried to the receiver (what the message is)
  std::uint32_t round = 0;         // send: the round the core is in (per-round contention)
  const std::vector<NodeId>* destinations = nullptr;  // coded send, multicast: destinations
  std::uint32_t pair_words = 0;    // XOR commands: words of a (and of b)
  bool mpb_reply = false;          // recv: take the answer to a get, not a message
  std::uint64_t mpb_puts_landed = 0;  // every answer: remote puts written into the buffer
  // recv results
  bool found = false;
  NodeId source = 0;
  std::uint8_t received_kind = 0;
  std::uint32_t received_tag = 0;
  unsigned received_hops = 0;       // router-to-router links its (last) packet crossed
  Cycle received_sent_cycle = 0;    // the cycle the sender handed it to its NI
  Cycle received_arrival_cycle = 0; // the cycle it was available at this NI
  std::vector<std::uint32_t>* received = nullptr;  // where the NI copies the message words
  const sc_core::sc_event* arrival = nullptr;
  Cycle next_available = kNever;
  // recv: what the core touches first when it is woken (its stack where it waits, its own
  // state): the NI has them fetched just before (CycleEvent::set_resume_lines).
  const void* resume_lines[3] = {nullptr, nullptr, nullptr};
  std::uint32_t resume_bytes[3] = {0, 0, 0};

  tlm::tlm_extension_base* clone() const override { return new NiCommand(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const NiCommand&>(other);
  }
};

}  // namespace collnoc
