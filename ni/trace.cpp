#include "ni/trace.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <tuple>

#include "noc/input_file.hpp"

namespace collnoc {

namespace {

// The whitespace-separated fields of a line, up to '#' (a comment).
std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> f;
  std::size_t i = 0;
  const std::size_t end = std::min(line.find('#'), line.size());
  while (i < end) {
    while (i < end && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < end && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) f.push_back(line.substr(i, j - i));
    i = j;
  }
  return f;
}

}  // namespace

// ---------------------------------------------------------------- TraceReader

TraceReader::TraceReader(const std::string& path, const TraceLimits& limits)
    : path_(path), limits_(limits) {
  if (auto problem = input_file_problem(path)) throw TraceError(path, 0, *problem);
  if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    unsigned char magic[2] = {0, 0};
    gzip_ = std::fread(magic, 1, 2, f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    std::fclose(f);
  }
  gzFile gz = gzopen(path.c_str(), "rb");
  if (!gz) throw TraceError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  gzbuffer(gz, static_cast<unsigned>(kBufferBytes));
  gz_ = gz;
}

TraceReader::~TraceReader() {
  if (gz_) gzclose(static_cast<gzFile>(gz_));
}

void TraceReader::fail(const std::string& what) const { throw TraceError(path_, line_, what); }

// One line without its '\n' (any length); false at the end of the file.
bool TraceReader::read_line(std::string& line) {
  line.clear();
  char buf[4096];
  gzFile gz = static_cast<gzFile>(gz_);
  for (;;) {
    if (!gzgets(gz, buf, sizeof buf)) {
      int err = 0;
      const char* msg = gzerror(gz, &err);
      if (err != Z_OK && err != Z_STREAM_END)
        throw TraceError(path_, line_ + 1, std::string("cannot read (") + msg + ")");
      if (line.empty()) return false;
      break;
    }
    line += buf;
    if (!line.empty() && line.back() == '\n') {
      line.pop_back();
      break;
    }
    if (line.size() > 4096) {
      ++line_;
      fail("a line longer than 4096 characters (not a trace line)");
    }
  }
  ++line_;
  return true;
}

bool TraceReader::next(TraceMessage& m) {
  static const char* const names[] = {"cycle", "src", "dst", "bytes", "type", "depends_on", "gap"};
  while (read_line(text_)) {
    const std::vector<std::string> f = split_fields(text_);
    if (f.empty()) continue;  // blank or comment
    if (f.size() < 4 || f.size() > 7)
      fail("has " + std::to_string(f.size()) +
           " fields; a message is `cycle src dst bytes [type] [depends_on [gap]]`");
    std::uint64_t v[7] = {0, 0, 0, 0, 0, kNoDependency, 1};
    for (std::size_t i = 0; i < f.size(); ++i) {
      if (i == 5 && f[i] == "-") continue;  // no dependency
      const std::string& s = f[i];
      std::uint64_t x = 0;
      bool ok = !s.empty() && s.size() <= 19;
      for (char c : s) ok = ok && c >= '0' && c <= '9';
      if (ok) x = std::stoull(s);
      if (!ok) fail(std::string(names[i]) + " = '" + s + "': not a non-negative integer");
      v[i] = x;
    }
    m.index = messages_;
    m.line = line_;
    m.cycle = v[0];
    if (m.cycle > TraceLimits::kMaxCycle)
      fail("cycle = " + f[0] + ": at most " + std::to_string(TraceLimits::kMaxCycle));
    if (messages_ > 0 && m.cycle < last_cycle_)
      fail("cycle = " + f[0] + ": cycles must not decrease (the message before is at cycle " +
           std::to_string(last_cycle_) + ")");
    for (int i : {1, 2})
      if (v[i] >= limits_.nodes)
        fail(std::string(names[i]) + " = " + f[i] + ": must be < " +
             std::to_string(limits_.nodes) + " (the network's node count)");
    m.src = static_cast<NodeId>(v[1]);
    m.dst = static_cast<NodeId>(v[2]);
    if (v[3] == 0 || v[3] > TraceLimits::kMaxBytes)
      fail("bytes = " + f[3] + ": must be in [1, " + std::to_string(TraceLimits::kMaxBytes) + "]");
    m.bytes = v[3];
    if (v[4] >= limits_.vc_classes)
      fail("type = " + f[4] + ": the message's VC class, must be < " +
           std::to_string(limits_.vc_classes) + " (router.vc_classes)");
    m.type = static_cast<unsigned>(v[4]);
    m.depends_on = v[5];
    if (m.depends_on != kNoDependency && m.depends_on >= m.index)
      fail("depends_on = " + f[5] + ": a dependency cycle (message " + std::to_string(m.index) +
           " may depend only on an earlier message, 0.." +
           (m.index ? std::to_string(m.index - 1) : std::string("none")) + ")");
    if (m.depends_on != kNoDependency && m.index - m.depends_on > limits_.max_dependency_distance)
      fail("depends_on = " + f[5] + ": at most " + std::to_string(limits_.max_dependency_distance) +
           " messages back (message " + std::to_string(m.index) + ")");
    if (f.size() == 7 && m.depends_on == kNoDependency)
      fail("gap = " + f[6] + ": a gap needs a dependency");
    if (v[6] < 1 || v[6] > TraceLimits::kMaxCycle)
      fail("gap = " + f[6] + ": must be in [1, " + std::to_string(TraceLimits::kMaxCycle) + "]");
    m.gap = v[6];
    last_cycle_ = m.cycle;
    ++messages_;
    return true;
  }
  return false;
}

std::uint64_t check_trace(const std::string& path, const TraceLimits& limits) {
  TraceReader reader(path, limits);
  TraceMessage m;
  while (reader.next(m)) {
  }
  return reader.messages();
}

// ---------------------------------------------------------------- TraceFeed

TraceFeed::TraceFeed(const TraceParams& params, const TraceLimits& limits,
                     const TracePacketShape& shape, std::function<void(NodeId, Cycle)> wake,
                     std::function<void()> done)
    : reader_(params.file, limits), limits_(limits), shape_(shape), wake_(std::move(wake)),
      done_(std::move(done)), queues_(limits.nodes) {}

void TraceFeed::start() {
  have_next_ = read_next();
  if (error_) throw *error_;
  refill(kNever);  // (the messages of cycle 0)
}

bool TraceFeed::read_next() {
  try {
    return reader_.next(next_);
  } catch (const TraceError& e) {
    error_ = std::make_unique<TraceError>(e);
    return false;
  }
}

// Reads the lines due by the next cycle (`now` kNever: before the simulation, those of cycle 0)
// and hands the next unread line's source NI the next read.
void TraceFeed::refill(Cycle now) {
  const Cycle upto = now == kNever ? 0 : now + 1;
  while (have_next_ && next_.cycle <= upto) {
    admit(next_);
    have_next_ = read_next();
  }
  if (have_next_) {
    reader_node_ = next_.src;
    refill_cycle_ = next_.cycle - 1;
    wake_(reader_node_, refill_cycle_);
  } else {
    reader_node_ = ~NodeId{0};
    refill_cycle_ = kNever;
  }
  if ((done() || error_) && done_) done_();
}

void TraceFeed::admit(const TraceMessage& m) {
  if (m.depends_on == kNoDependency) {
    schedule(m, m.cycle);
    return;
  }
  const Delivery& d = deliveries_.empty()
                          ? Delivery{}
                          : deliveries_[m.depends_on % deliveries_.size()];
  // (The ring grows to the maximum distance as the trace does; an index not in it yet is not
  // delivered yet.)
  if (d.index == m.depends_on) {
    schedule(m, std::max(m.cycle, d.cycle + m.gap));
    return;
  }
  waiting_[m.depends_on].push_back(m);
  ++held_;
  note_held();
}

void TraceFeed::schedule(const TraceMessage& m, Cycle ready) {
  queues_[m.src].push(Due{ready, m.index, m});
  ++held_;
  note_held();
  wake_(m.src, ready);
}

void TraceFeed::note_held() { max_held_ = std::max(max_held_, held_); }

std::uint32_t TraceFeed::take_slot(std::uint64_t index, std::uint64_t packets) {
  std::uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(in_flight_.size());
    in_flight_.emplace_back();
  }
  in_flight_[slot] = InFlight{index, packets};
  // (held_ counts the message still: due, then in flight)
  return slot;
}

void TraceFeed::delivered(std::uint32_t slot, Cycle now) {
  InFlight& f = in_flight_[slot];
  if (--f.packets_left > 0) return;
  const std::uint64_t index = f.index;
  free_slots_.push_back(slot);
  --held_;
  // Remember the delivery for dependents still to be read (a ring over the maximum distance).
  const std::uint64_t ring = limits_.max_dependency_distance;
  if (deliveries_.size() < ring && index >= deliveries_.size()) {
    // Grow to cover `index` (by doubling): entries move to their slot in the larger ring.
    std::size_t size = std::max<std::size_t>(deliveries_.size(), 1024);
    while (size <= index && size < ring) size *= 2;
    size = std::min<std::size_t>(size, ring);
    std::vector<Delivery> grown(size);
    for (const Delivery& d : deliveries_)
      if (d.index != kNoDependency) grown[d.index % size] = d;
    deliveries_.swap(grown);
  }
  deliveries_[index % deliveries_.size()] = Delivery{index, now};
  const auto it = waiting_.find(index);
  if (it != waiting_.end()) {
    for (const TraceMessage& m : it->second) {
      --held_;
      schedule(m, std::max(m.cycle, now + m.gap));
    }
    waiting_.erase(it);
  }
  if (done() && done_) done_();
}

void TraceFeed::report(Report& r) const {
  const TraceCounters& c = counters_;
  const std::pair<const char*, std::uint64_t> results[] = {
      {"trace.messages", c.messages},
      {"trace.bytes", c.bytes},
      {"trace.packets", c.packets},
      {"trace.dependent_messages", c.dependent_messages},
      {"trace.dependency_delay_cycles", c.dependency_delay_cycles},
      {"trace.last_injection_cycle", c.last_injection_cycle},
      {"trace.max_held_messages", max_held_}};
  for (const auto& [key, value] : results) r.set(key, value);
}

// (held_ counts the messages due at the NIs, waiting and in flight: no queue to look through.)
bool TraceFeed::done() const { return !have_next_ && held_ == 0; }

// ---------------------------------------------------------------- TraceRecorder

std::uint64_t TraceRecorder::created(Cycle cycle, NodeId src, NodeId dst, std::uint64_t bytes,
                                     unsigned vc_class, bool after_delivery) {
  Record r{cycle, src, dst, bytes, vc_class};
  if (after_delivery && src < last_delivered_.size()) {
    const LastDelivery& last = last_delivered_[src];
    if (last.id != kNoDependency && last.cycle < cycle) {
      r.depends_on = last.id;
      r.gap = cycle - last.cycle;
    }
  }
  records_.push_back(r);
  const std::uint64_t id = records_.size() - 1;
  pending_dst_[id] = dst;
  return id;
}

void TraceRecorder::delivered(std::uint64_t id, Cycle cycle) {
  const auto it = pending_dst_.find(id);
  if (it == pending_dst_.end()) return;
  const NodeId dst = it->second;
  pending_dst_.erase(it);
  if (dst >= last_delivered_.size()) last_delivered_.resize(dst + 1);
  LastDelivery& last = last_delivered_[dst];
  if (last.id == kNoDependency || cycle >= last.cycle) last = LastDelivery{id, cycle};
}

void TraceRecorder::firmware_created(std::uint64_t id, NodeId src, NodeId dst, std::uint32_t seq) {
  firmware_ids_[std::make_tuple(src, dst, seq)] = id;
}

void TraceRecorder::firmware_delivered(NodeId src, NodeId dst, std::uint32_t seq, Cycle cycle) {
  const auto it = firmware_ids_.find(std::make_tuple(src, dst, seq));
  if (it == firmware_ids_.end()) return;
  delivered(it->second, cycle);
  firmware_ids_.erase(it);
}

void TraceRecorder::write(std::ostream& os, const std::string& header) const {
  std::vector<std::uint64_t> order(records_.size());
  for (std::uint64_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::uint64_t a, std::uint64_t b) {
    return records_[a].cycle < records_[b].cycle;
  });
  std::vector<std::uint64_t> line_of(records_.size());
  for (std::uint64_t i = 0; i < order.size(); ++i) line_of[order[i]] = i;
  os << header;
  for (std::uint64_t i = 0; i < order.size(); ++i) {
    const Record& r = records_[order[i]];
    os << r.cycle << ' ' << r.src << ' ' << r.dst << ' ' << r.bytes << ' ' << r.vc_class;
    // (A dependency is delivered before its dependent is created: it sorts earlier.)
    if (r.depends_on != kNoDependency && line_of[r.depends_on] < i)
      os << ' ' << line_of[r.depends_on] << ' ' << r.gap;
    os << '\n';
  }
}

}  // namespace collnoc
