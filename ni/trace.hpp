// Trace-driven traffic (workload.kind = trace): messages read from a file, one a line
// (`cycle src dst bytes [type] [depends_on [gap]]`, docs/traffic.md), injected by the NIs at
// their cycle or, when they depend on an earlier message, once it was delivered. TraceReader
// parses and checks the file as it streams it (plain text or gzip); TraceFeed hands each NI its
// messages, reading ahead only as far as the simulated time, and remembers only outstanding
// dependencies, so a trace of any length runs in bounded memory. TraceRecorder writes the
// messages a run's NIs inject in the same format (`collnoc trace record`).
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <queue>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "noc/report.hpp"
#include "noc/types.hpp"

namespace collnoc {

struct TraceParams {
  std::string file;  // trace.file: the trace to replay (plain text or gzip)
};

// A bad trace: the file, the line and what is wrong with it (a ParamError of trace.file, so that
// the program exits 2 naming it).
class TraceError : public ParamError {
 public:
  TraceError(const std::string& file, std::uint64_t line, const std::string& what)
      : ParamError("trace.file", file,
                   (line ? "line " + std::to_string(line) + ": " : std::string()) + what),
        line_(line) {}
  std::uint64_t line() const { return line_; }

 private:
  std::uint64_t line_;
};

constexpr std::uint64_t kNoDependency = ~std::uint64_t{0};

// One message line. Messages are numbered 0, 1, ... in file order (comments and blank lines are
// not messages).
struct TraceMessage {
  std::uint64_t index = 0;
  std::uint64_t line = 0;  // 1-based line number in the file
  Cycle cycle = 0;
  NodeId src = 0, dst = 0;
  std::uint64_t bytes = 0;
  unsigned type = 0;  // the virtual network (VC class) the message's packets use
  std::uint64_t depends_on = kNoDependency;  // an earlier message's index
  Cycle gap = 1;  // cycles after the dependency's delivery, at least 1
};

struct TraceLimits {
  unsigned nodes = 1;       // src and dst below this
  unsigned vc_classes = 1;  // type below this
  // A dependency reaches back at most this many messages: the feed remembers the delivery
  // cycles of this many recent messages (16 bytes each), whatever the trace's length.
  std::uint64_t max_dependency_distance = kMaxDependencyDistance;
  static constexpr std::uint64_t kMaxDependencyDistance = std::uint64_t{1} << 20;
  static constexpr std::uint64_t kMaxBytes = std::uint64_t{1} << 24;  // 16 MiB per message
  static constexpr Cycle kMaxCycle = std::uint64_t{1} << 48;
};

// Streams a trace file line by line: gzip if the file starts with gzip's magic bytes (1f 8b),
// else plain text. next() throws TraceError for the first bad line.
class TraceReader {
 public:
  TraceReader(const std::string& path, const TraceLimits& limits);
  ~TraceReader();
  TraceReader(const TraceReader&) = delete;
  TraceReader& operator=(const TraceReader&) = delete;
  // The next message; false at the end of the file.
  bool next(TraceMessage& m);
  const std::string& path() const { return path_; }
  bool gzip() const { return gzip_; }
  std::uint64_t messages() const { return messages_; }
  // The reader's buffer: what it holds of the file at once, whatever the file's length.
  static constexpr std::size_t kBufferBytes = 64 * 1024;

 private:
  bool read_line(std::string& line);
  [[noreturn]] void fail(const std::string& what) const;
  std::string path_;
  TraceLimits limits_;
  void* gz_ = nullptr;  // gzFile (zlib reads plain files as they are)
  bool gzip_ = false;
  std::uint64_t line_ = 0, messages_ = 0;
  Cycle last_cycle_ = 0;
  std::string text_;
};

// Reads a whole trace once, checking every line (what `collnoc run` does before the simulation,
// so that a bad line is refused before any result): its message count.
std::uint64_t check_trace(const std::string& path, const TraceLimits& limits);

// What the NIs do with a trace message: cut it into packets of at most `packet_flits` flits of
// `flit_bytes` bytes.
struct TracePacketShape {
  unsigned flit_bytes = 16;
  unsigned packet_flits = 16;
  // Flits of a message of `bytes` bytes (at least 1).
  std::uint64_t flits(std::uint64_t bytes) const {
    return bytes == 0 ? 1 : (bytes + flit_bytes - 1) / flit_bytes;
  }
};

// One packet of a trace message, as its source NI queues it.
struct TracePacket {
  NodeId dst;
  unsigned flits;
  unsigned vc_class;
  std::uint32_t slot;  // the message's in the feed (TraceFeed::delivered)
  bool first;          // the message's first packet
  std::uint64_t message_bytes;
};

struct TraceCounters {
  std::uint64_t messages = 0, bytes = 0, packets = 0;  // handed to the NIs
  std::uint64_t dependent_messages = 0;
  // Cycles dependent messages were injected after their line's cycle (the network's answer).
  std::uint64_t dependency_delay_cycles = 0;
  Cycle last_injection_cycle = 0;
};

// The trace's messages for the NIs of one network. Runs on the clock's thread (the NIs of a
// trace run are evaluated there): an NI asks for its messages due (take) when it evaluates, and
// the one NI that owns the next unread line reads on when it is one cycle away, so that every
// NI has its messages of the next cycle a cycle ahead, whatever the evaluation order.
class TraceFeed {
 public:
  // `wake(n, cycle)`: NI n has work at `cycle` (> now); `done()`: the last message was delivered.
  TraceFeed(const TraceParams& params, const TraceLimits& limits, const TracePacketShape& shape,
            std::function<void(NodeId, Cycle)> wake, std::function<void()> done);
  // Before the simulation: the messages of cycle 0.
  void start();
  // The earliest cycle NI n has something to do for the trace (kNever: nothing known yet).
  Cycle next_cycle(NodeId n) const {
    Cycle c = queues_[n].empty() ? kNever : queues_[n].top().ready;
    return n == reader_node_ && refill_cycle_ < c ? refill_cycle_ : c;
  }
  // NI n at cycle `now`: reads on if it owns the next line and the line is due next cycle, then
  // calls f(TracePacket) for each packet of its messages due by now, in order.
  template <class F>
  void take(NodeId n, Cycle now, F&& f) {
    if (n == reader_node_ && now >= refill_cycle_) refill(now);
    auto& q = queues_[n];
    while (!q.empty() && q.top().ready <= now) {
      const Due d = q.top();
      q.pop();
      emit(d, now, f);
    }
  }
  // The packet of message `slot` was delivered (its tail, at `now`).
  void delivered(std::uint32_t slot, Cycle now);
  // Every message read, injected and delivered.
  bool done() const;
  const TraceCounters& counters() const { return counters_; }
  // A bad line met during the run (the file changed after it was checked, or was never
  // checked): the run stops, and the program refuses it as bad input. Null: none.
  const TraceError* error() const { return error_ ? error_.get() : nullptr; }
  // Messages the feed holds now (due at an NI, waiting for a dependency, or in flight): what
  // its memory grows with, not the trace's length.
  std::size_t held() const { return held_; }
  std::size_t max_held() const { return max_held_; }
  // trace.* results (docs/results.md).
  void report(Report& r) const;

 private:
  struct Due {
    Cycle ready;
    std::uint64_t index;  // (ties: file order)
    TraceMessage m;
    bool operator>(const Due& o) const { return ready != o.ready ? ready > o.ready : index > o.index; }
  };
  struct InFlight {
    std::uint64_t index = 0;
    std::uint64_t packets_left = 0;  // 0: free slot
  };
  struct Delivery {  // (ring of recent deliveries, by index modulo the distance)
    std::uint64_t index = kNoDependency;
    Cycle cycle = 0;
  };
  void refill(Cycle now);
  bool read_next();  // into next_; false at the end or on a bad line (error_)
  void admit(const TraceMessage& m);        // a message just read
  void schedule(const TraceMessage& m, Cycle ready);
  template <class F>
  void emit(const Due& d, Cycle now, F& f) {
    const TraceMessage& m = d.m;
    const std::uint64_t flits = shape_.flits(m.bytes);
    const std::uint64_t packets = (flits + shape_.packet_flits - 1) / shape_.packet_flits;
    const std::uint32_t slot = take_slot(m.index, packets);
    ++counters_.messages;
    counters_.bytes += m.bytes;
    counters_.packets += packets;
    counters_.last_injection_cycle = now;
    if (m.depends_on != kNoDependency) {
      ++counters_.dependent_messages;
      counters_.dependency_delay_cycles += now - m.cycle;
    }
    for (std::uint64_t left = flits; left > 0;) {
      const unsigned n = static_cast<unsigned>(std::min<std::uint64_t>(left, shape_.packet_flits));
      f(TracePacket{m.dst, n, m.type, slot, left == flits, m.bytes});
      left -= n;
    }
  }
  std::uint32_t take_slot(std::uint64_t index, std::uint64_t packets);
  void note_held();

  TraceReader reader_;
  TraceLimits limits_;
  TracePacketShape shape_;
  std::function<void(NodeId, Cycle)> wake_;
  std::function<void()> done_;
  // Per NI: its messages due, earliest first.
  std::vector<std::priority_queue<Due, std::vector<Due>, std::greater<Due>>> queues_;
  TraceMessage next_;  // the next unread line (read ahead)
  bool have_next_ = false;
  NodeId reader_node_ = ~NodeId{0};  // the NI that reads on (next_'s source) ...
  Cycle refill_cycle_ = kNever;      // ... at this cycle (next_'s minus one)
  std::unordered_map<std::uint64_t, std::vector<TraceMessage>> waiting_;  // by dependency
  std::vector<InFlight> in_flight_;  // by slot
  std::vector<std::uint32_t> free_slots_;
  std::vector<Delivery> deliveries_;  // grows up to limits_.max_dependency_distance
  std::size_t held_ = 0, max_held_ = 0;
  TraceCounters counters_;
  std::unique_ptr<TraceError> error_;
};

// The messages a run's NIs create, written as a trace when the run ends (`collnoc trace
// record`): the cycle the message entered its source queue, its endpoints and bytes, its VC
// class as the type, and, for a firmware message, the message last delivered to its source
// core before it was sent as its dependency (gap: from that delivery to this message).
class TraceRecorder {
 public:
  // A message of `bytes` bytes from src to dst created at `cycle`; its id for delivered().
  // `after_delivery`: it depends on what its source received last.
  std::uint64_t created(Cycle cycle, NodeId src, NodeId dst, std::uint64_t bytes,
                        unsigned vc_class, bool after_delivery);
  // Message `id` was delivered to its destination at `cycle`.
  void delivered(std::uint64_t id, Cycle cycle);
  // Firmware messages are identified at delivery by (src, dst, message sequence number).
  void firmware_created(std::uint64_t id, NodeId src, NodeId dst, std::uint32_t seq);
  void firmware_delivered(NodeId src, NodeId dst, std::uint32_t seq, Cycle cycle);
  std::size_t messages() const { return records_.size(); }
  // The trace, in cycle order (ties: creation order), dependencies renumbered to line order.
  void write(std::ostream& os, const std::string& header) const;

 private:
  struct Record {
    Cycle cycle;
    NodeId src, dst;
    std::uint64_t bytes;
    unsigned vc_class;
    std::uint64_t depends_on = kNoDependency;  // a record id
    Cycle gap = 1;
  };
  std::vector<Record> records_;
  struct LastDelivery {
    std::uint64_t id = kNoDependency;
    Cycle cycle = 0;
  };
  std::vector<LastDelivery> last_delivered_;  // per destination node
  std::map<std::tuple<NodeId, NodeId, std::uint32_t>, std::uint64_t> firmware_ids_;  // (src, dst, seq) -> id
  std::unordered_map<std::uint64_t, NodeId> pending_dst_;          // id -> dst, until delivered
};

}  // namespace collnoc
