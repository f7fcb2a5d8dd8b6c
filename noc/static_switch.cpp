#include "noc/static_switch.hpp"

#include <algorithm>

namespace collnoc {

void validate(const StaticSwitchParams& p) {
  check_range("sn.buffer_flits", p.buffer_flits, StaticSwitchParams::buffer_flits_range);
  check_range("sn.config_cycles", p.config_cycles, StaticSwitchParams::config_cycles_range);
}

StaticSwitch::StaticSwitch(sc_core::sc_module_name name, Clock& clock, unsigned ports,
                           const StaticSwitchParams& params, NetworkContext& net)
    : Clocked<StaticSwitch>(name, clock), ports_(ports), params_(params), net_(net) {
  validate(params_);
  if (ports > kMaxRouterPorts)  // (topologies refuse more, naming their keys)
    throw std::logic_error("static switch: " + std::to_string(ports) + " ports, at most " +
                           std::to_string(kMaxRouterPorts));
  set_ports(ports);
  in_links_.assign(ports, nullptr);
  in_buf_.resize(ports);
  out_.resize(ports);
}

void StaticSwitch::connect_input(unsigned port, Link& link) {
  in_links_.at(port) = &link;
  in_buf_.at(port).attach(link, this, port, 1, params_.buffer_flits);
}

void StaticSwitch::connect_output(unsigned port, Link& link, unsigned downstream_buffer_flits) {
  out_.at(port).link = &link;
  out_[port].credits = downstream_buffer_flits;
  link.attach_sender(this, port, 1, downstream_buffer_flits);
}

void StaticSwitch::configure(unsigned input, std::uint64_t outputs, Cycle effective) {
  if (input >= ports_ || !in_links_[input])
    SC_REPORT_ERROR("collnoc/static_switch", "route from an input that has no link");
  for (unsigned p = 0; p < ports_; ++p)
    if ((outputs >> p & 1) && !out_[p].link)
      SC_REPORT_ERROR("collnoc/static_switch", "route to an output that has no link");
  pending_ = Route{input, outputs, effective};
  has_pending_ = true;
  ++configurations_;
  wake_at(std::max(effective, clock().now() + 1));
}

template <class At>
void StaticSwitch::cycle(At at) {
  const Cycle now = at.now;
  collect_ports_with_work(now);
  if (!trace_valid_.empty()) std::fill(trace_valid_.begin(), trace_valid_.end(), 0);
  for_each_output_with_credits([&](unsigned p) {
    Output& o = out_[p];
    while (o.link->credit_ready(at)) {
      o.link->take_credit();
      ++o.credits;
    }
    return !o.link->has_credits(at);
  });
  for_each_input_with_flits([&](unsigned p) {
    Link* link = in_links_[p];
    while (link->flit_ready(at)) {
      in_buf_[p].arrive(*link);
      ++buffered_;
    }
    return link->flits_in_flight(at) == 0;
  });
  if (has_pending_ && pending_.effective <= now) {
    route_ = pending_;
    has_pending_ = false;
    trace_route_input_ = route_.input;
  }
  InputBuffer& in = in_buf_[route_.input];
  if (route_.outputs == 0 || in.count(0) == 0) return;
  for (unsigned p = 0; p < ports_; ++p)
    if ((route_.outputs >> p & 1) && out_[p].credits == 0) return;  // replicate in lockstep
  const Flit& f = in.front(0);
  for (unsigned p = 0; p < ports_; ++p) {
    if (!(route_.outputs >> p & 1)) continue;
    out_[p].link->send(at, f, out_[p].next_slot);
    --out_[p].credits;
    ++out_[p].flits;
    if (!trace_valid_.empty()) trace_valid_[p] = 1;
    net_.count_flit_move(at);
  }
  in.pop(0);
  --buffered_;
  in_links_[route_.input]->return_credit(at, 0);
}

Cycle StaticSwitch::next_work_cycle(Cycle now) const {
  Cycle next = kNever;
  if (has_pending_) next = std::max(now + 1, pending_.effective);
  if (buffered_ > 0) {
    // Blocked on credits, or waiting for a route: credits wake nobody, so keep evaluating
    // while the route's input holds flits; flits on other inputs wait for a configure().
    if (route_.outputs != 0 && in_buf_[route_.input].count(0) > 0) return now + 1;
  }
  for (std::uint64_t bits = inputs_with_flits(now); bits; bits &= bits - 1)
    next = std::min(next, in_links_[__builtin_ctzll(bits)]->next_flit_cycle());
  return next;
}

void StaticSwitch::trace(sc_core::sc_trace_file* tf, const Topology& topo) {
  trace_valid_.assign(ports_, 0);
  trace_route_input_ = ports_;
  set_always_on(true);
  const std::string base = std::string(name()) + ".";
  for (unsigned p = 0; p < ports_; ++p)
    if (out_[p].link) sc_core::sc_trace(tf, trace_valid_[p], base + "out_valid_" + topo.port_name(p), 1);
  sc_core::sc_trace(tf, trace_route_input_, base + "route_input", 8);
}

void StaticSwitch::report(Tally& t) const {
  std::uint64_t flits = 0;
  for (unsigned p = 0; p < ports(); ++p)
    if (output_connected(p)) flits += output_flits(p);
  t.count("sn.flits_switched", flits);
  t.count("sn.configurations", configurations_);
}

}  // namespace collnoc
