#include "ni/static_network_port.hpp"

#include <algorithm>
#include <cstring>

namespace collnoc {

using namespace sc_core;

StaticNetworkPort::StaticNetworkPort(sc_module_name name, Clock& clock, StaticSwitch& sw,
                                     unsigned words_per_flit, NetworkContext& net)
    : Clocked<StaticNetworkPort>(name, clock), socket("socket"), switch_(sw), words_per_flit_(words_per_flit),
      net_(net) {
  socket.register_b_transport(this, &StaticNetworkPort::b_transport);
}

void StaticNetworkPort::connect(Link& to_switch, Link& from_switch, unsigned switch_buffer_flits) {
  to_switch_ = &to_switch;
  from_switch_ = &from_switch;
  credits_ = switch_buffer_flits;
  to_switch.attach_sender(this, 0, 1, switch_buffer_flits);
  rx_buffer_.attach(from_switch, this, 0, 1, switch_buffer_flits);
}

void StaticNetworkPort::b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
  const Cycle issue =
      static_cast<Cycle>((sc_time_stamp() + delay).value() / clock().period().value());
  const std::size_t words = gp.get_data_length() / 4;
  auto* data = reinterpret_cast<std::uint32_t*>(gp.get_data_ptr());
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  if (gp.is_write() && gp.get_address() == kSnSendAddress) {
    if (words == 0) return;
    tx_.push_back(Chunk{std::vector<std::uint32_t>(data, data + words), issue + 1, 0});
    delay += clock().delay(1);
    wake_at(issue + 1);
  } else if (gp.is_write() && gp.get_address() == kSnConfigAddress && words == 3) {
    const std::uint64_t outputs = data[1] | static_cast<std::uint64_t>(data[2]) << 32;
    const unsigned cost = switch_.config_cycles();
    switch_.configure(data[0], outputs, issue + cost);
    delay += clock().delay(cost);  // the core waits until its route is in force
  } else if (gp.is_read() && gp.get_address() == kSnRecvAddress) {
    NiCommand* cmd = nullptr;
    gp.get_extension(cmd);
    if (!cmd) {
      gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    cmd->arrival = &arrived_;
    cmd->found = rx_.size() >= words && (words == 0 || rx_available_[words - 1] <= issue);
    if (cmd->found) {
      std::copy_n(rx_.begin(), words, data);
      rx_.erase(rx_.begin(), rx_.begin() + static_cast<std::ptrdiff_t>(words));
      rx_available_.erase(rx_available_.begin(),
                          rx_available_.begin() + static_cast<std::ptrdiff_t>(words));
      delay += clock().delay(1);
    }
  } else {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
}

template <class At>
void StaticNetworkPort::cycle(At at) {
  const Cycle now = at.now;
  while (to_switch_->credit_ready(at)) {
    to_switch_->take_credit();
    ++credits_;
  }
  bool got = false;
  while (from_switch_->flit_ready(at)) {
    const unsigned vc = rx_buffer_.arrive(*from_switch_);
    const Flit& f = rx_buffer_.front(vc);
    for (unsigned w = 0; w < f.words; ++w) {
      rx_.push_back(f.payload[w]);
      rx_available_.push_back(now + 1);  // the delivery register
    }
    from_switch_->return_credit(at, 0);
    rx_buffer_.pop(vc);
    ++flits_received_;
    net_.count_flit_move(at);
    got = true;
  }
  if (got) arrived_.notify(clock().delay(1));
  if (tx_.empty() || tx_.front().ready > now || credits_ == 0) return;
  Chunk& c = tx_.front();
  Flit f;
  f.words = static_cast<std::uint8_t>(std::min<std::size_t>(words_per_flit_, c.words.size() - c.next));
  std::copy_n(c.words.begin() + static_cast<std::ptrdiff_t>(c.next), f.words, f.payload.begin());
  c.next += f.words;
  to_switch_->send(at, f, tx_next_slot_);
  --credits_;
  ++flits_sent_;
  net_.count_flit_move(at);
  if (c.next >= c.words.size()) tx_.pop_front();
}

Cycle StaticNetworkPort::next_work_cycle(Cycle now) const {
  Cycle next = from_switch_->next_flit_cycle();
  if (!tx_.empty()) next = std::min(next, std::max(now + 1, tx_.front().ready));
  return next;
}

}  // namespace collnoc
