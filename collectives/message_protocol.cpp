#include "collectives/message_protocol.hpp"

#include <algorithm>
#include <deque>
#include <optional>

#include "ni/ni_protocol.hpp"

namespace collnoc {

void ProtocolLayer::send_coded(const std::vector<NodeId>&, const Words&, const Words&,
                               const SendOptions&) {
  fault("network coding (send_coded) needs msg.protocol eager");
}

void ProtocolLayer::xor_words(const Words&, const Words&, const SendOptions&) {
  fault("network coding (xor_words) needs msg.protocol eager");
}

void ProtocolLayer::multicast(const std::vector<NodeId>&, const Words&, const SendOptions&) {
  fault("hardware multicast (multicast) needs msg.protocol eager");
}

namespace {

bool reserved_kind(std::uint8_t kind) { return kind >= kMpbPutKind; }
// What a channel layer above hands a protocol as data (make_channel_layer).
bool channel_kind(std::uint8_t kind) {
  return kind == kChannelRequestKind || kind == kChannelGrantKind || kind == kChannelTeardownKind;
}

// What a send leaves with the layer until the receiver lets it go.
struct Outgoing {
  Words data;
  SendOptions opt;
  Cycle sent = 0;              // the program called send
  std::uint32_t next_word = 0;  // mpb: words already pushed
  CopyBuffers copies;          // what the program copies it from (set_copy_buffers)
};

// ------------------------------------------------------------------ rendezvous

// MPI's rendezvous protocol on the NI's messages. A send queues the data here and tells the
// receiver with a one-flit RTS; a receive answers the oldest matching RTS with a CTS and waits
// for the data, which the sender's layer hands to its NI when the CTS comes in. Every wait is
// a receive of the NI's next message, whatever it is, so a blocked core keeps serving CTSs and
// recording RTSs (progress). A receiver posts one CTS at a time and so never holds data it has
// not asked for; the NI delivers a source's messages in order, so RTS i, CTS i and data i pair
// up and a pair's messages keep their order.
// As a channel per message (`channel`, make_channel_layer) it takes the channel's kinds, the
// sender follows the data with a teardown, and a receive returns once the pair's teardown is in
// too. As msg.protocol it carries a channel layer's messages above it as data.
class RendezvousLayer final : public ProtocolLayer {
 public:
  explicit RendezvousLayer(MessageLayer& inner, bool channel = false)
      : ProtocolLayer(inner), waiting_for_cts_(inner.size()), teardown_(channel),
        rts_(channel ? kChannelRequestKind : kRtsKind), cts_(channel ? kChannelGrantKind : kCtsKind),
        teardowns_(channel ? inner.size() : 0, 0) {}

  void send(NodeId dst, const Words& data, const SendOptions& opt) override {
    if (dst >= size()) fault("send to a rank that does not exist");
    if (reserved_kind(opt.kind) && (teardown_ || !channel_kind(opt.kind)))
      fault("a message kind reserved for the NI and its protocols");
    waiting_for_cts_[dst].push_back(Outgoing{data, opt, now(), 0, copies_});
    ++unsent_;
    control(dst, rts_, opt.vc_class);
  }
  Words recv(NodeId src) override { return take(src).words; }
  Message recv_message(NodeId src) override { return take(src); }
  Message recv_any() override { return take(kAnySource); }
  void flush() override {
    while (unsent_ > 0) progress();
  }
  // A send's data leaves later, during another call: it keeps the buffers of its own.
  void set_copy_buffers(const CopyBuffers& buffers) override {
    copies_ = buffers;
    inner_.set_copy_buffers(buffers);
  }

 private:
  struct Announcement {
    NodeId src;
    std::uint8_t vc_class;  // the data will travel on it; the CTS answers on it
  };

  // RTS and CTS: no payload (one flit); the tag carries the data's virtual network.
  void control(NodeId peer, std::uint8_t kind, std::uint8_t vc_class) {
    SendOptions opt;
    opt.kind = kind;
    opt.vc_class = vc_class;
    opt.tag = vc_class;
    inner_.send(peer, Words{}, opt);
    ++counters_.control_messages;
  }

  Message take(NodeId src) {
    const auto match = [&] {
      return std::find_if(announced_.begin(), announced_.end(), [&](const Announcement& a) {
        return src == kAnySource || a.src == src;
      });
    };
    auto it = match();
    for (; it == announced_.end(); it = match()) progress();
    const Announcement rts = *it;
    announced_.erase(it);
    expected_ = rts.src;
    control(rts.src, cts_, rts.vc_class);
    while (!answer_) progress();
    Message m = std::move(*answer_);
    answer_.reset();
    expected_ = kAnySource;
    if (teardown_) {
      while (teardowns_[rts.src] == 0) progress();
      --teardowns_[rts.src];
    }
    return m;
  }

  // Takes the NI's next message and does what it asks.
  void progress() {
    Message m = inner_.recv_any();
    if (m.kind == rts_) {
      announced_.push_back(Announcement{m.src, static_cast<std::uint8_t>(m.tag)});
    } else if (m.kind == cts_) {
      auto& queue = waiting_for_cts_[m.src];
      if (queue.empty()) fault("rendezvous: a CTS for a message never announced");
      Outgoing out = std::move(queue.front());
      queue.pop_front();
      inner_.set_copy_buffers(out.copies);
      inner_.send(m.src, out.data, out.opt);
      inner_.set_copy_buffers(copies_);
      --unsent_;
      ++counters_.data_chunks;
      if (teardown_) control(m.src, kChannelTeardownKind, out.opt.vc_class);
    } else if (m.kind == kChannelTeardownKind && teardown_) {
      ++teardowns_[m.src];
    } else {
      if (answer_ || m.src != expected_) fault("rendezvous: data that was not asked for");
      answer_ = std::move(m);
    }
  }

  std::vector<std::deque<Outgoing>> waiting_for_cts_;  // per destination, in send order
  std::size_t unsent_ = 0;
  std::deque<Announcement> announced_;  // RTSs not yet answered, oldest first
  NodeId expected_ = kAnySource;        // the source of the one CTS outstanding
  std::optional<Message> answer_;
  bool teardown_;
  std::uint8_t rts_, cts_;           // the handshake's kinds
  std::vector<unsigned> teardowns_;  // per sender: teardowns in, not yet taken
  CopyBuffers copies_;               // the program's current ones
};

// ------------------------------------------------------------------ mpb

// RCCE-style messages through the message-passing buffers (push variant), all one-sided puts.
// Each core's buffer holds, per peer, an announce counter (written by that peer as sender) and a
// credit counter (written by that peer as receiver), then one data area (MpbLayout). A send
// queues the data here and puts its new announce count into the receiver's buffer. A receive
// waits for an announce, then per chunk grants its data area (puts a credit count into the
// sender's buffer) and waits for the chunk: the sender's layer, seeing the credit, puts a header
// line and up to chunk_words() words into the receiver's data area. The NI writes a put when its
// last flit is in, so the header (source, chunk number) is never seen before its data. One
// grant at a time per receiver: its data area is never written unasked.
//
// Cores see flags by reading their own buffer. A poll loop is modelled as one read (1 cycle),
// then a sleep until the NI reports a remote put landed in this buffer (mpb_wait): the same
// cycle at which a core reading every cycle would see it. recv_any takes the lowest-ranked
// announced sender: a poll sees counters, not the order they were written in.
class MpbLayer final : public ProtocolLayer {
 public:
  MpbLayer(MessageLayer& inner, unsigned buffer_bytes)
      : ProtocolLayer(inner), layout_{inner.size(), buffer_bytes}, outgoing_(inner.size()),
        announced_(inner.size(), 0), credits_used_(inner.size(), 0), taken_(inner.size(), 0),
        granted_(inner.size(), 0) {}

  void send(NodeId dst, const Words& data, const SendOptions& opt) override {
    if (dst >= size()) fault("send to a rank that does not exist");
    outgoing_[dst].push_back(Outgoing{data, opt, now(), 0, {}});
    ++unsent_;
    flag_put(dst, layout_.announce(rank()), ++announced_[dst]);
  }
  Words recv(NodeId src) override { return take(src).words; }
  Message recv_message(NodeId src) override { return take(src); }
  Message recv_any() override { return take(kAnySource); }
  void flush() override {
    if (unsent_ > 0) poll_until([&](const Words&) { return unsent_ == 0; });
  }

 private:
  // Chunk header, one line: who, which grant, the message's length and envelope.
  enum Header : unsigned {
    kSource, kChunk, kMessageWords, kChunkWords, kKind, kTag, kSentLo, kSentHi
  };

  void flag_put(NodeId dst, std::uint32_t offset, std::uint32_t count) {
    inner_.put(dst, offset, Words{count});
    ++counters_.control_messages;
  }

  // The sender whose announced message a receive takes: `src`, or the lowest-ranked one.
  NodeId announced_by(const Words& flags, NodeId src) const {
    const auto waiting = [&](NodeId s) { return flags[layout_.announce(s) / 4] > taken_[s]; };
    if (src != kAnySource) return waiting(src) ? src : kAnySource;
    for (NodeId s = 0; s < size(); ++s)
      if (waiting(s)) return s;
    return kAnySource;
  }

  Message take(NodeId src) {
    if (src != kAnySource && src >= size()) fault("receive from a rank that does not exist");
    NodeId from = kAnySource;
    poll_until([&](const Words& flags) { return (from = announced_by(flags, src)) != kAnySource; });
    ++taken_[from];
    Message m;
    m.src = from;
    std::uint32_t total = 0;
    do {
      const std::uint32_t chunk = ++granted_[from];
      flag_put(from, layout_.credit(rank()), chunk);
      const unsigned h = layout_.flag_words();  // the header follows the flags
      Words header;
      poll_until([&](const Words& area) {
        if (area[h + kSource] != from || area[h + kChunk] != chunk) return false;
        header.assign(area.begin() + h, area.end());
        return true;
      });
      const Words part = inner_.mpb_read(layout_.data_area() + 4 * MpbLayout::kHeaderWords,
                                         header[kChunkWords]);
      m.words.insert(m.words.end(), part.begin(), part.end());
      total = header[kMessageWords];
      m.kind = static_cast<std::uint8_t>(header[kKind]);
      m.tag = header[kTag];
      m.sent_cycle = (Cycle{header[kSentHi]} << 32) | header[kSentLo];
    } while (m.words.size() < total);
    m.arrival_cycle = now();
    return m;
  }

  // One poll: a local read of the flags and the data area's header; chunks for every new
  // credit go out; then `done` looks at what was read, or the core sleeps until a put lands.
  template <typename Done>
  void poll_until(Done done) {
    for (;;) {
      const Words area = inner_.mpb_read(0, layout_.flag_words() + MpbLayout::kHeaderWords);
      ++counters_.flag_polls;
      push_granted_chunks(area);
      if (done(area)) return;
      inner_.mpb_wait();
    }
  }

  void push_granted_chunks(const Words& flags) {
    for (NodeId dst = 0; dst < size(); ++dst)
      while (credits_used_[dst] < flags[layout_.credit(dst) / 4] && !outgoing_[dst].empty())
        push_chunk(dst, ++credits_used_[dst]);
  }

  void push_chunk(NodeId dst, std::uint32_t chunk_number) {
    Outgoing& out = outgoing_[dst].front();
    const auto words = std::min<std::uint32_t>(
        layout_.chunk_words(), static_cast<std::uint32_t>(out.data.size()) - out.next_word);
    Words line(MpbLayout::kHeaderWords, 0);
    line[kSource] = rank();
    line[kChunk] = chunk_number;
    line[kMessageWords] = static_cast<std::uint32_t>(out.data.size());
    line[kChunkWords] = words;
    line[kKind] = out.opt.kind;
    line[kTag] = out.opt.tag;
    line[kSentLo] = static_cast<std::uint32_t>(out.sent);
    line[kSentHi] = static_cast<std::uint32_t>(out.sent >> 32);
    line.insert(line.end(), out.data.begin() + out.next_word,
                out.data.begin() + out.next_word + words);
    inner_.put(dst, layout_.data_area(), line);
    ++counters_.data_chunks;
    out.next_word += words;
    if (out.next_word == out.data.size()) {
      outgoing_[dst].pop_front();
      --unsent_;
    }
  }

  MpbLayout layout_;
  std::vector<std::deque<Outgoing>> outgoing_;  // per destination, in send order
  std::size_t unsent_ = 0;
  // Counters this core keeps of what it wrote into peers' flags and what it has taken.
  std::vector<std::uint32_t> announced_;     // per receiver: messages announced
  std::vector<std::uint32_t> credits_used_;  // per receiver: its credits answered with a chunk
  std::vector<std::uint32_t> taken_;         // per sender: announced messages received
  std::vector<std::uint32_t> granted_;       // per sender: chunks granted
};

// ------------------------------------------------------------------ the program under a protocol

class ProtocolFirmware final : public Firmware {
 public:
  ProtocolFirmware(std::unique_ptr<Firmware> program, const MessageProtocolEntry& protocol,
                   const MessageProtocolParams& params)
      : program_(std::move(program)), protocol_(protocol), params_(params) {}

  void run(MessageLayer& ml) override {
    const std::unique_ptr<ProtocolLayer> layer = protocol_.make(ml, params_);
    program_->run(*layer);
    layer->flush();
    const ProtocolCounters& c = layer->counters();
    totals_.control_messages += c.control_messages;
    totals_.data_chunks += c.data_chunks;
    totals_.flag_polls += c.flag_polls;
  }
  void report(Report& out) const override {
    program_->report(out);
    out.set("msg.protocol", std::string(protocol_.name));
    out.set("msg.control_messages", totals_.control_messages);
    out.set("msg.data_chunks", totals_.data_chunks);
    out.set("msg.flag_polls", totals_.flag_polls);
  }
  bool data_verified() const override { return program_->data_verified(); }
  std::string failure() const override { return program_->failure(); }

 private:
  std::unique_ptr<Firmware> program_;
  const MessageProtocolEntry& protocol_;
  MessageProtocolParams params_;
  ProtocolCounters totals_;  // over the cores that finished
};

}  // namespace

const std::vector<MessageProtocolEntry>& message_protocols() {
  static const std::vector<MessageProtocolEntry> table = {
      {"eager", "the core hands each message to its NI at once; the receiving NI buffers it", {}},
      {"rendezvous", "MPI rendezvous: RTS, the receiver's CTS, then the data (flow control)",
       [](MessageLayer& ml, const MessageProtocolParams&) {
         return std::make_unique<RendezvousLayer>(ml);
       }},
      {"mpb",
       "RCCE-style on the message-passing buffers (scc): flag puts, chunks pushed on credit",
       [](MessageLayer& ml, const MessageProtocolParams& p) {
         return std::make_unique<MpbLayer>(ml, p.mpb_bytes);
       }},
  };
  return table;
}

std::unique_ptr<ProtocolLayer> make_channel_layer(MessageLayer& inner) {
  return std::make_unique<RendezvousLayer>(inner, true);
}

std::unique_ptr<Firmware> with_message_protocol(std::unique_ptr<Firmware> program,
                                                const FirmwareParams& p, unsigned cores) {
  const MessageProtocolEntry& e = lookup(message_protocols(), p.protocol.name, "msg.protocol");
  if (!e.make) return program;
  if (program->codes_in_network())
    throw ParamError("msg.protocol", p.protocol.name,
                     "eager for a program that codes packets in the network "
                     "(workload.kind all_to_all_broadcast)");
  if (p.protocol.name == "mpb") {
    if (program->owns_message_passing_buffers())
      throw ParamError("msg.protocol", p.protocol.name,
                       "eager or rendezvous for a program that lays out the message-passing "
                       "buffers itself (broadcast onesided, the nocmsg set's _mpb forms)");
    const MpbLayout layout{cores, p.protocol.mpb_bytes};
    if (p.protocol.mpb_bytes == 0 || layout.chunk_words() == 0)
      throw ParamError("msg.protocol", p.protocol.name,
                       "eager or rendezvous: mpb needs message-passing buffers of more than " +
                           std::to_string(layout.data_area() + 4 * MpbLayout::kHeaderWords) +
                           " bytes per core (platform scc)");
  }
  return std::make_unique<ProtocolFirmware>(std::move(program), e, p.protocol);
}

}  // namespace collnoc
