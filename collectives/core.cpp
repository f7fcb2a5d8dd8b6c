#include "collectives/core.hpp"

namespace collnoc {

using namespace sc_core;

Core::Core(sc_module_name name, Clock& clock, NodeId rank, unsigned cores, Firmware& program,
           const CoreParams& params)
    : sc_module(name), socket("socket"), clock_(clock), rank_(rank), cores_(cores),
      program_(program), params_(params), offset_(SC_ZERO_TIME) {
  SC_HAS_PROCESS(Core);
  SC_THREAD(thread);
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

void Core::transport() {
  // The command rides on the payload only for the call: a payload deletes the extensions it
  // still holds when it is destroyed, and cmd_ is a member.
  gp_.set_extension(&cmd_);
  socket->b_transport(gp_, offset_);
  gp_.clear_extension(&cmd_);
}

Cycle Core::now() const {
  return static_cast<Cycle>((sc_time_stamp() + offset_).value() / clock_.period().value());
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
  cmd_.element_type = opt.element_type;
  gp_.set_command(c);
  gp_.set_address(address);
  gp_.set_data_ptr(data ? reinterpret_cast<unsigned char*>(const_cast<std::uint32_t*>(data->data()))
                        : nullptr);
  gp_.set_data_length(data ? static_cast<unsigned>(data->size() * 4) : 0);
  gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  transport();
  if (!gp_.is_response_ok()) SC_REPORT_ERROR("collnoc/core", "NI refused a command");
}

void Core::send(NodeId dst, const Words& data, const SendOptions& opt) {
  if (dst >= cores_) SC_REPORT_ERROR("collnoc/core", "send to a rank that does not exist");
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
    if (d >= cores_) SC_REPORT_ERROR("collnoc/core", "send to a rank that does not exist");
  cmd_.destinations = &dsts;
  xor_command(kXorSendAddress, a, b, opt);
  cmd_.destinations = nullptr;
  sent_ += dsts.size();
}

// A packet pair for the NI's XOR engine: a then b in one payload.
void Core::xor_command(std::uint64_t address, const Words& a, const Words& b,
                       const SendOptions& opt) {
  if (a.size() != b.size() || a.empty())
    SC_REPORT_ERROR("collnoc/core", "XOR of packets that are empty or of unequal length");
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

Message Core::receive(NodeId src) {
  Message m;
  sync();
  waiting_for_ = src;
  receiving_ = true;
  for (;;) {
    cmd_.peer = src;
    cmd_.received = &m.words;
    command(tlm::TLM_READ_COMMAND, kRecvAddress, nullptr, SendOptions{});
    if (cmd_.found) break;
    if (cmd_.next_available == kNever) wait(*cmd_.arrival);
    else wait(clock_.delay(cmd_.next_available - clock_.now()), *cmd_.arrival);
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

}  // namespace collnoc
