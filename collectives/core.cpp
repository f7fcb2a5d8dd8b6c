#include "collectives/core.hpp"

#include "ni/static_network_port.hpp"

namespace collnoc {

using namespace sc_core;

namespace {
const char* const kMpbRefused = "access outside the message-passing buffer (or none here)";
}  // namespace

void validate(const CoreParams& p) {
  check_range("core.quantum_cycles", p.quantum_cycles, CoreParams::quantum_cycles_range);
}

Core::Core(sc_module_name name, Clock& clock, NodeId rank, unsigned cores, Firmware& program,
           const CoreParams& params)
    : sc_module(name), socket("socket"), sn_socket("sn_socket"), clock_(clock), rank_(rank), cores_(cores),
      program_(program), params_(params), offset_(SC_ZERO_TIME) {
  SC_HAS_PROCESS(Core);
  SC_THREAD(thread);
  // The command rides on the payload for good (set per transaction, it was a cache miss per
  // message); it is taken off before the payload, which deletes the extensions it holds, dies.
  gp_.set_extension(&cmd_);
}

Core::~Core() { gp_.clear_extension(&cmd_); }

// The program stops here for good; the run control sees fault() and ends the run.
void Core::fault(const std::string& why) {
  if (fault_.empty()) fault_ = why;
  sc_core::wait(halted_);  // never notified
}

void Core::thread() {
  program_.run(*this);
  sync();
  finished_ = true;
  finish_cycle_ = clock_.now();
  if (on_finish_) on_finish_();
}

void Core::sync() {
  if (offset_ != SC_ZERO_TIME) {
    wait(offset_);
    offset_ = SC_ZERO_TIME;
  }
}

bool Core::transport(tlm::tlm_command command, std::uint64_t address, const std::uint32_t* data,
                     std::size_t words, tlm_utils::simple_initiator_socket_optional<Core>* sn) {
  gp_.set_command(command);
  gp_.set_address(address);
  gp_.set_data_ptr(reinterpret_cast<unsigned char*>(const_cast<std::uint32_t*>(data)));
  gp_.set_data_length(static_cast<unsigned>(words * 4));
  gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  if (sn) (*sn)->b_transport(gp_, offset_);
  else socket->b_transport(gp_, offset_);
  return gp_.is_response_ok();
}

Cycle Core::now() const {
  return static_cast<Cycle>((sc_time_stamp() + offset_).value() / clock_.period().value());
}

void Core::mark_round(unsigned round) {
  // The wave shows the change at this core's own cycle (waiting out run-ahead changes no
  // result: what the core sends and receives is stamped with its own time).
  if (traced_) sync();
  round_ = round;
}

void Core::trace(sc_core::sc_trace_file* tf) {
  traced_ = true;
  sc_trace(tf, round_, std::string(name()) + ".round", 32);
}

void Core::compute(Cycle cycles) {
  offset_ += clock_.delay(cycles);
  if (offset_ >= clock_.delay(params_.quantum_cycles)) sync();
}

// One command to the NI: the payload's words and the send options.
void Core::command(tlm::tlm_command c, std::uint64_t address, const Words* data,
                   const SendOptions& opt) {
  cmd_.vc_class = opt.vc_class;
  cmd_.kind = opt.kind;
  cmd_.tag = opt.tag;
  cmd_.round = round_;
  cmd_.element_type = opt.element_type;
  if (data && data->size() > kMaxMessageWords)
    fault("a message of " + std::to_string(data->size()) + " words: at most " +
          std::to_string(kMaxMessageWords));
  if (!transport(c, address, data ? data->data() : nullptr, data ? data->size() : 0))
    fault("NI refused a command (a put or get outside the buffer, or a bad XOR pair?)");
}

void Core::send(NodeId dst, const Words& data, const SendOptions& opt) {
  if (dst >= cores_) fault("send to a rank that does not exist");
  cmd_.peer = dst;
  cmd_.destinations = nullptr;
  cmd_.received = nullptr;
  command(tlm::TLM_WRITE_COMMAND, kSendAddress, &data, opt);
  ++sent_;
  if (offset_ >= clock_.delay(params_.quantum_cycles)) sync();
}

void Core::send_coded(const std::vector<NodeId>& dsts, const Words& a, const Words& b,
                      const SendOptions& opt) {
  for (NodeId d : dsts)
    if (d >= cores_) fault("send to a rank that does not exist");
  cmd_.destinations = &dsts;
  xor_command(kXorSendAddress, a, b, opt);
  cmd_.destinations = nullptr;
  sent_ += dsts.size();
}

void Core::multicast(const std::vector<NodeId>& dsts, const Words& data, const SendOptions& opt) {
  if (!multicast_shape_.available())
    fault("multicast: the network has no HTA routers (hardware multicast, docs/hta.md)");
  if (dsts.empty()) fault("multicast to no destination");
  std::vector<bool> seen(cores_, false);
  for (NodeId d : dsts) {
    if (d >= cores_) fault("multicast to a rank that does not exist");
    if (d == rank_) fault("multicast to its own rank");
    if (seen[d]) fault("multicast to rank " + std::to_string(d) + " twice");
    seen[d] = true;
  }
  if (opt.kind >= kMpbPutKind) fault("multicast of a kind reserved for the NI and its protocols");
  const auto n = static_cast<unsigned>(dsts.size());
  if (multicast_shape_.data_flits(n) == 0)
    fault("multicast to " + std::to_string(n) + " ranks: a multicast VC holds " +
          std::to_string(multicast_shape_.vc_flits) + " flits, so at most " +
          std::to_string(multicast_shape_.vc_flits - 1) + " headers beside a data flit");
  cmd_.destinations = &dsts;
  cmd_.received = nullptr;
  command(tlm::TLM_WRITE_COMMAND, kMulticastAddress, &data, opt);
  cmd_.destinations = nullptr;
  sent_ += dsts.size();
  if (offset_ >= clock_.delay(params_.quantum_cycles)) sync();
}

// A packet pair for the NI's XOR engine: a then b in one payload.
void Core::xor_command(std::uint64_t address, const Words& a, const Words& b,
                       const SendOptions& opt) {
  if (a.size() != b.size() || a.empty())
    fault("XOR of packets that are empty or of unequal length");
  pair_ = a;
  pair_.insert(pair_.end(), b.begin(), b.end());
  cmd_.pair_words = static_cast<std::uint32_t>(a.size());
  cmd_.received = nullptr;
  command(tlm::TLM_WRITE_COMMAND, address, &pair_, opt);
  if (offset_ >= clock_.delay(params_.quantum_cycles)) sync();
}

void Core::xor_words(const Words& a, const Words& b, const SendOptions& opt) {
  xor_command(kXorAddress, a, b, opt);
}

Words Core::recv(NodeId src) { return receive(src).words; }

Message Core::recv_any() { return receive(kAnySource); }

// The receive is issued at this core's own cycle (it may run ahead of simulated time). If the
// message is there by then, the core waits out its offset and takes it; if not, it sleeps until
// the NI has one it takes (from the issue cycle on), one wake-up per message received.
Message Core::receive(NodeId src, bool mpb_reply) {
  Message m;
  waiting_for_ = src;
  receiving_ = true;
  receive_cycle_ = now();
  for (;;) {
    cmd_.peer = src;
    cmd_.received = &m.words;
    cmd_.mpb_reply = mpb_reply;
    // Where this thread resumes: the frames below this one (the kernel's switch) and above it
    // (the firmware's), and this core's own state.
    cmd_.resume_lines[0] = static_cast<const char*>(__builtin_frame_address(0)) - kResumeStackBelow;
    cmd_.resume_bytes[0] = kResumeStackBelow + kResumeStackAbove;
    cmd_.resume_lines[1] = this;
    cmd_.resume_bytes[1] = sizeof(Core);
    cmd_.resume_lines[2] = socket.operator->();  // the NI's socket, that takes the command
    cmd_.resume_bytes[2] = 64;
    command(tlm::TLM_READ_COMMAND, kRecvAddress, nullptr, SendOptions{});
    cmd_.mpb_reply = false;
    if (cmd_.found) break;
    if (cmd_.next_available <= now()) {
      sync();
      continue;
    }
    wait(*cmd_.arrival);
    clock_.thread_resumed();
    offset_ = SC_ZERO_TIME;  // (woken at or after the issue cycle)
  }
  receiving_ = false;
  ++received_;
  m.src = cmd_.source;
  m.kind = cmd_.received_kind;
  m.tag = cmd_.received_tag;
  m.hops = cmd_.received_hops;
  m.sent_cycle = cmd_.received_sent_cycle;
  m.arrival_cycle = cmd_.received_arrival_cycle;
  return m;
}

void Core::put(NodeId dst, std::uint32_t offset, const Words& data) {
  Words message{offset};
  message.insert(message.end(), data.begin(), data.end());
  SendOptions opt;
  opt.kind = kMpbPutKind;
  send(dst, message, opt);
}

Words Core::get(NodeId src, std::uint32_t offset, std::size_t words) {
  SendOptions opt;
  opt.kind = kMpbGetKind;
  send(src, Words{offset, static_cast<std::uint32_t>(words)}, opt);
  return receive(src, true).words;
}

void Core::mpb_write(std::uint32_t offset, const Words& data) {
  sync();  // a remote get served before this core's cycle must not see the words
  if (!transport(tlm::TLM_WRITE_COMMAND, kMpbAddress + offset, data.data(), data.size()))
    fault(kMpbRefused);
}

Words Core::mpb_read(std::uint32_t offset, std::size_t words) {
  sync();  // what the buffer holds depends on other cores' puts
  Words out(words);
  if (!transport(tlm::TLM_READ_COMMAND, kMpbAddress + offset, out.data(), words))
    fault(kMpbRefused);
  mpb_puts_seen_ = cmd_.mpb_puts_landed;
  return out;
}

// The count of landed puts, not the event alone, decides: a put that landed while this core
// was between its read and this wait is not missed.
void Core::mpb_wait() {
  sync();
  waiting_for_ = kAnySource;
  receiving_ = true;  // for the watchdog: blocked on other cores, like a receive
  receive_cycle_ = now();
  for (;;) {
    if (!transport(tlm::TLM_READ_COMMAND, kMpbWatchAddress, nullptr, 0))
      fault("this platform has no message-passing buffer");
    if (cmd_.mpb_puts_landed != mpb_puts_seen_) break;
    wait(*cmd_.arrival);
  }
  receiving_ = false;
}

void Core::sn_write(std::uint64_t address, const Words& data) {
  if (!has_static_network()) fault("this tile has no static network");
  if (!transport(tlm::TLM_WRITE_COMMAND, address, data.data(), data.size(), &sn_socket))
    fault("static network port refused a write");
  if (offset_ >= clock_.delay(params_.quantum_cycles)) sync();
}

void Core::sn_configure(unsigned input, std::uint64_t outputs) {
  sn_write(kSnConfigAddress, Words{input, static_cast<std::uint32_t>(outputs),
                                   static_cast<std::uint32_t>(outputs >> 32)});
}

void Core::sn_send(const Words& data) { sn_write(kSnSendAddress, data); }

Words Core::sn_recv(std::size_t words) {
  if (!has_static_network()) fault("this tile has no static network");
  Words out(words);
  sync();
  for (;;) {
    if (!transport(tlm::TLM_READ_COMMAND, kSnRecvAddress, out.data(), words, &sn_socket))
      fault("static network port refused a read");
    if (cmd_.found) break;
    wait(*cmd_.arrival);
  }
  ++received_;
  return out;
}

}  // namespace collnoc
