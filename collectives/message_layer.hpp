// The API firmware is written against: MPI-style point-to-point messages between cores.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ni/multicast_shape.hpp"
#include "noc/types.hpp"

namespace collnoc {

using Words = std::vector<std::uint32_t>;

struct SendOptions {
  std::uint8_t vc_class = 0;  // virtual network (e.g. one per collective step)
  std::uint8_t kind = 0;      // tag carried in the header
  // What the words hold (ni/codec.hpp ElementType): int32 and doubles may be compressed by a
  // compressing NI (doubles lossily); raw (0) never is.
  std::uint8_t element_type = 0;
  std::uint32_t tag = 0;      // what the message is, for the receiver (MPI's tag)
};

// Where a data call's payload (a send, a receive, a put, a get, a read of the own buffer) is
// copied from or to, for the software model's cache residency of the copy
// (docs/software_model.md#copies): first `own_words` of the layer's own (a flag), then spans of
// words each of a user buffer of `buffer_bytes`. Words beyond the spans, and every call while
// no span is set, count as a buffer of their own size.
struct CopySpan {
  std::uint64_t words = 0;
  std::uint64_t buffer_bytes = 0;
};
struct CopyBuffers {
  unsigned own_words = 0;
  std::vector<CopySpan> spans;
  // Every payload word after own_words from or to user buffers of `bytes` bytes.
  static CopyBuffers user(std::uint64_t bytes, unsigned own_words = 0);
  // Words [first, first + words) of messages of `sizes` words laid end to end, each message a
  // user buffer of its own (a message per rank pair).
  static CopyBuffers messages(const std::vector<std::uint64_t>& sizes, std::uint64_t first,
                              std::uint64_t words, unsigned own_words = 0);
};

// A received message and what the network says about its trip.
struct Message {
  NodeId src = 0;
  std::uint8_t kind = 0;
  std::uint32_t tag = 0;
  unsigned hops = 0;        // router-to-router links its (last) packet crossed
  Cycle sent_cycle = 0;     // the sender handed it to its NI
  Cycle arrival_cycle = 0;  // available at this NI (tail in, plus the delivery register)
  Words words;
};

class MessageLayer {
 public:
  virtual ~MessageLayer() = default;
  // Firmware asked for something impossible (a rank that does not exist, hardware this platform
  // lacks, an access outside a buffer). A Core records it, stops its program and the run ends
  // as a firmware fault (exit 1); by default, a SystemC error.
  virtual void fault(const std::string& why);
  virtual NodeId rank() const = 0;
  virtual unsigned size() const = 0;  // number of cores
  // Queues `data` for `dst` and returns once the NI has it (the core does not wait for delivery).
  virtual void send(NodeId dst, const Words& data, const SendOptions& opt = {}) = 0;
  // Blocks until the next message from `src` (in send order) has arrived, and returns it.
  virtual Words recv(NodeId src) = 0;
  // Blocks until a message from anyone has arrived (the oldest available), and returns it.
  virtual Message recv_any() = 0;
  // recv(src) with the message's envelope (by default only its words, source and this cycle).
  virtual Message recv_message(NodeId src);
  // Network coding (SPEC 3.1): the NI's XOR engine codes a xor b (equal lengths) and the NI
  // sends the coded packet to each of `dsts`; returns once the NI has the pair.
  virtual void send_coded(const std::vector<NodeId>& dsts, const Words& a, const Words& b,
                          const SendOptions& opt = {}) = 0;
  // Decoding: a xor b (equal lengths) through the NI's XOR engine, pipelined (one pair per
  // cycle). Returns once the NI has the pair; the result arrives later as a message from this
  // core's own rank with opt.kind and opt.tag (recv_any, or recv(rank())).
  virtual void xor_words(const Words& a, const Words& b, const SendOptions& opt) = 0;
  // Hardware multicast (HTA routers, docs/hta.md "Firmware"): one message for every rank of
  // `dsts` (distinct, other than this core's), replicated by the routers; each destination
  // receives it as if it were a send (recv(src), recv_any; kind and tag as given, in order
  // with this core's other messages to it). It takes the routers' multicast class
  // (opt.vc_class is not used) and is not compressed; the NI cuts it into packets that each
  // carry every header (multicast_shape()). Returns once the NI has it. A fault without HTA
  // routers, or with more destinations than multicast_shape() fits beside a data flit.
  virtual void multicast(const std::vector<NodeId>& dsts, const Words& data,
                         const SendOptions& opt = {});
  // How the NI cuts a multicast here; not available() without HTA routers.
  virtual MulticastShape multicast_shape() const { return {}; }
  // Send to `peer` and receive from it.
  virtual Words exchange(NodeId peer, const Words& data, const SendOptions& opt = {}) {
    send(peer, data, opt);
    return recv(peer);
  }
  // Local work: advances this core's time by `cycles`.
  virtual void compute(Cycle cycles) = 0;
  // The program folded `elements` elements of a reduction: what that costs is the software
  // model's (collectives/software_model.hpp); nothing by default.
  virtual void reduced(std::uint64_t /*elements*/) {}
  // The payload of the program's next data calls is copied from or to `buffers` (the software
  // model charges its copies by them; CopyBuffersScope); nothing by default.
  virtual void set_copy_buffers(const CopyBuffers& /*buffers*/) {}
  // This core's current cycle (including time it has run ahead).
  virtual Cycle now() const = 0;
  // Which round (step, phase) of its program this core is in: shown in waves, and carried by
  // the packets it sends so that results count contention per round (contention_by_round).
  virtual void mark_round(unsigned) {}
  // The program starts its repetition `rep` (0, 1, ...; a collective's workload.repetitions):
  // the software model draws each repetition's timing jitter from its own stream.
  virtual void start_repetition(unsigned /*rep*/) {}

  // Static network (platform tilepro's SN), where the tile has one; elsewhere a fault.
  virtual bool has_static_network() const { return false; }
  // Routes this tile's switch from input port `input` to the output ports set in `outputs`
  // (ports as the topology numbers them; the local port delivers to this core). The core
  // waits sn.config_cycles, until the route is in force.
  virtual void sn_configure(unsigned input, std::uint64_t outputs);
  // Injects `data` into this tile's switch (local input); returns once the port has it.
  virtual void sn_send(const Words& data);
  // Blocks until `words` words have arrived from the switch, and takes them.
  virtual Words sn_recv(std::size_t words);

  // Message-passing buffers (platform scc), one-sided. put: writes `data` into core `dst`'s
  // buffer at byte `offset` and returns once the NI has it (the owner is not told: firmware
  // puts a flag after the data). get: reads `words` words at `offset` of core `src`'s buffer,
  // blocking until they are back. Elsewhere a fault, as is an access outside the buffer.
  virtual void put(NodeId dst, std::uint32_t offset, const Words& data);
  virtual Words get(NodeId src, std::uint32_t offset, std::size_t words);
  // This core's own buffer, directly (1 cycle, no network).
  virtual void mpb_write(std::uint32_t offset, const Words& data);
  virtual Words mpb_read(std::uint32_t offset, std::size_t words);
  // Polling this core's own buffer: blocks until a remote put has landed in it since this
  // core's last mpb_read (at once if one has). Cycle-equivalent to reading a flag every cycle.
  virtual void mpb_wait();

 protected:
  void missing(const char* what);
};

// Sets a layer's copy buffers for the calls within its scope, and clears them after.
class CopyBuffersScope {
 public:
  CopyBuffersScope(MessageLayer& ml, const CopyBuffers& buffers) : ml_(ml) {
    ml_.set_copy_buffers(buffers);
  }
  ~CopyBuffersScope() { ml_.set_copy_buffers({}); }
  CopyBuffersScope(const CopyBuffersScope&) = delete;
  CopyBuffersScope& operator=(const CopyBuffersScope&) = delete;

 private:
  MessageLayer& ml_;
};

}  // namespace collnoc
