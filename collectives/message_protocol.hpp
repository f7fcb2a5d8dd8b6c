// Message protocols (msg.protocol): how the message layer carries a send to its receive.
//
//   eager       the core hands the message to its NI at once; the receiving NI buffers whatever
//               arrives (no layer: the firmware talks to the Core directly).
//   rendezvous  MPI's rendezvous protocol over the network: a one-flit request-to-send (RTS),
//               the receiver's clear-to-send (CTS) when it posts the receive, then the data.
//   mpb         RCCE-style (push) over the SCC's message-passing buffers: flags and chunks are
//               one-sided puts into the peer's buffer, polled locally.
//
// A protocol is a MessageLayer decorator around the Core. It is software, linked into the
// firmware the way MPI or RCCE is, so it wraps the program (ProtocolFirmware), not the core:
// the Core stays the hardware (a processor and its NI socket) and every program, collective or
// not, runs under it unchanged. Sends the program leaves behind are flushed before run()
// returns, so the core's finish includes them.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "collectives/firmware.hpp"
#include "noc/registry.hpp"

namespace collnoc {

// Work a protocol layer did on one core, summed over cores into the msg.* results.
struct ProtocolCounters {
  std::uint64_t control_messages = 0;  // RTS + CTS messages, or announce + credit flag puts
  std::uint64_t data_chunks = 0;       // data messages (rendezvous) or chunk puts (mpb)
  std::uint64_t flag_polls = 0;        // mpb: local reads of the flag area
};

// Forwards every call to the layer it wraps; protocols override what they carry differently.
class ProtocolLayer : public MessageLayer {
 public:
  explicit ProtocolLayer(MessageLayer& inner) : inner_(inner) {}
  // Blocks until every send has been handed over (the program has returned).
  virtual void flush() = 0;
  const ProtocolCounters& counters() const { return counters_; }

  void fault(const std::string& why) override { inner_.fault(why); }
  NodeId rank() const override { return inner_.rank(); }
  unsigned size() const override { return inner_.size(); }
  // Network coding codes packets inside the NI; no protocol of this layer carries it.
  void send_coded(const std::vector<NodeId>&, const Words&, const Words&,
                  const SendOptions&) override;
  void xor_words(const Words&, const Words&, const SendOptions&) override;
  // Nor a hardware multicast (its copies bypass the protocol's handshakes): multicast_shape()
  // stays not available.
  void multicast(const std::vector<NodeId>&, const Words&, const SendOptions&) override;
  void compute(Cycle cycles) override { inner_.compute(cycles); }
  void reduced(std::uint64_t elements) override { inner_.reduced(elements); }
  void set_copy_buffers(const CopyBuffers& buffers) override { inner_.set_copy_buffers(buffers); }
  Cycle now() const override { return inner_.now(); }
  void mark_round(unsigned round) override { inner_.mark_round(round); }
  void start_repetition(unsigned rep) override { inner_.start_repetition(rep); }
  bool has_static_network() const override { return inner_.has_static_network(); }
  void sn_configure(unsigned input, std::uint64_t outputs) override {
    inner_.sn_configure(input, outputs);
  }
  void sn_send(const Words& data) override { inner_.sn_send(data); }
  // A wait outside the layer makes no progress, so the layer first hands over every send (the
  // peer waiting for that data may be the one this core is waiting for).
  Words sn_recv(std::size_t words) override {
    flush();
    return inner_.sn_recv(words);
  }
  void put(NodeId dst, std::uint32_t offset, const Words& data) override {
    inner_.put(dst, offset, data);
  }
  Words get(NodeId src, std::uint32_t offset, std::size_t words) override {
    flush();
    return inner_.get(src, offset, words);
  }
  void mpb_write(std::uint32_t offset, const Words& data) override {
    inner_.mpb_write(offset, data);
  }
  Words mpb_read(std::uint32_t offset, std::size_t words) override {
    return inner_.mpb_read(offset, words);
  }
  void mpb_wait() override { inner_.mpb_wait(); }

 protected:
  MessageLayer& inner_;
  ProtocolCounters counters_;
};

// A protocol by name; `make` is empty for eager (no layer).
using MessageProtocolEntry = Registered<std::function<std::unique_ptr<ProtocolLayer>(
    MessageLayer&, const MessageProtocolParams&)>>;
const std::vector<MessageProtocolEntry>& message_protocols();

// `program` under protocol p.protocol: itself for eager, else wrapped so that each core runs it
// through a fresh protocol layer, flushed when it returns. ParamError naming msg.protocol for an
// unknown protocol, mpb without message-passing buffers, or a program that codes packets in
// the network (Firmware::codes_in_network).
std::unique_ptr<Firmware> with_message_protocol(std::unique_ptr<Firmware> program,
                                                const FirmwareParams& p, unsigned cores);

// A channel per message, as iLib sets one up under an MPI layer (a software model's
// channel_setup, collectives/software_model.hpp): rendezvous's handshake with kinds of its own,
// a request (kChannelRequestKind) and a grant, the data, then a teardown from the sender, which
// the receiver takes before its receive returns. The software layer below charges the setup
// work and every message's costs; a msg.protocol below carries the channel's messages as data.
std::unique_ptr<ProtocolLayer> make_channel_layer(MessageLayer& inner);
// (ni/ni_protocol.hpp: 0xf3.. are the protocols' kinds.)
constexpr std::uint8_t kChannelRequestKind = 0xf5, kChannelGrantKind = 0xf6,
                       kChannelTeardownKind = 0xf7;

// The layout of a core's message-passing buffer under mpb, for `cores` cores (byte offsets).
struct MpbLayout {
  static constexpr unsigned kHeaderWords = 8;  // one 32-byte line before each chunk's data
  unsigned cores = 0, buffer_bytes = 0;
  std::uint32_t announce(NodeId sender) const { return 4 * sender; }
  std::uint32_t credit(NodeId receiver) const { return 4 * (cores + receiver); }
  std::uint32_t data_area() const { return 8 * cores; }
  unsigned flag_words() const { return 2 * cores; }
  // Payload words one chunk carries (what the data area holds after the header).
  unsigned chunk_words() const {
    const unsigned area_words = (buffer_bytes - data_area()) / 4;
    return area_words > kHeaderWords ? area_words - kHeaderWords : 0;
  }
};

}  // namespace collnoc
