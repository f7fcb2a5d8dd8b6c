#include "noc/router.hpp"

#include <algorithm>
#include <ostream>

namespace collnoc {

using namespace sc_core;

void validate(const RouterParams& p) {
  if (p.vcs < 1 || p.vcs > 32)
    throw ParamError("router.vcs", std::to_string(p.vcs), "must be in 1..32");
  if (p.vc_classes < 1 || p.vc_classes > p.vcs || p.vcs % p.vc_classes != 0)
    throw ParamError("router.vc_classes", std::to_string(p.vc_classes),
                     "must be >= 1 and divide router.vcs = " + std::to_string(p.vcs));
  if (p.buffer_flits < 1 || p.buffer_flits > 65535)
    throw ParamError("router.buffer_flits", std::to_string(p.buffer_flits), "must be in 1..65535");
  if (p.hop_latency_cycles < 1 || p.hop_latency_cycles > 1000)
    throw ParamError("router.hop_latency_cycles", std::to_string(p.hop_latency_cycles),
                     "must be in 1..1000");
}

Router::Router(sc_module_name name, Clock& clock, RouterId id, unsigned ports,
               const RouterParams& params, const RoutingFunction& routing,
               NetworkContext& net)
    : ClockedModule(name, clock), id_(id), ports_(ports), params_(params), routing_(routing),
      net_(net) {
  validate(params_);
  if (ports > 64) throw ParamError("topology", std::to_string(ports) + " ports", "a router has at most 64");
  const AllocatorShape shape{ports, params.vcs};
  vc_alloc_ = make_vc_allocator(params.vc_allocator, shape);
  sw_alloc_ = make_switch_allocator(params.switch_allocator, shape);
  const std::size_t n_vcs = static_cast<std::size_t>(ports) * params.vcs;
  const std::size_t words = (n_vcs + 63) / 64, n_slots = n_vcs * params.buffer_flits;
  storage_.reset(new unsigned char[Array<Link*>::bytes(ports) + Array<std::uint64_t>::bytes(words) +
                                   Array<OutputVc>::bytes(n_vcs) + Array<OutputPort>::bytes(ports) +
                                   Array<InputVc>::bytes(n_vcs) + Array<Slot>::bytes(n_slots)]);
  unsigned char* at = storage_.get();
  in_links_.place(at, ports);
  nonempty_.place(at, words);
  out_vcs_.place(at, n_vcs);
  out_.place(at, ports);
  in_vcs_.place(at, n_vcs);
  slots_.place(at, n_slots);
  for (std::size_t i = 0; i < in_vcs_.size(); ++i) {
    in_vcs_[i].buf.slots = &slots_[i * params.buffer_flits];
    in_vcs_[i].buf.depth = static_cast<std::uint16_t>(params.buffer_flits);
    in_vcs_[i].port = static_cast<std::uint8_t>(i / params.vcs);
    in_vcs_[i].vc = static_cast<std::uint8_t>(i % params.vcs);
  }
  for (unsigned p = 0; p < ports; ++p) out_[p].vcs = &out_vcs_[p * params.vcs];
  for (NetworkLane& lane : net_.lanes) {  // big enough for the largest router of the network
    RouterScratch& s = lane.scratch;
    if (s.won.size() < in_vcs_.size()) s.won.assign(in_vcs_.size(), 0);
    if (s.port_granted.size() < ports) s.port_granted.assign(ports, 0);
    // Room for every request at once, and never a cache line shared with another thread's.
    const std::size_t room = std::max<std::size_t>(64, in_vcs_.size() * ports);
    s.vc_requests.reserve(room);
    s.vc_grants.reserve(room);
    s.sw_requests.reserve(room);
    s.sw_winners.reserve(room);
    s.routing_vcs.reserve(room);
  }
  // A router touches only itself, its links and its lane: any thread may evaluate it.
  set_parallel();
  set_prefetch_end(&routing_count_ + 1);
}

void Router::connect_input(unsigned port, Link& link) {
  in_links_.at(port) = &link;
  link.attach_receiver(this, port);
}

void Router::connect_output(unsigned port, Link& link, unsigned downstream_buffer_flits,
                            bool to_router) {
  OutputPort& o = out_.at(port);
  o.link = &link;
  o.to_router = to_router;
  for (unsigned v = 0; v < params_.vcs; ++v) o.vcs[v].credits = downstream_buffer_flits;
  link.attach_sender(this, port, static_cast<std::size_t>(params_.vcs) * downstream_buffer_flits);
}

void Router::start_head(unsigned ivc_index, Cycle earliest) {
  InputVc& ivc = in_vcs_[ivc_index];
  const Slot& head = ivc.buf.front();
  ivc.state = VcState::routing;
  ++routing_count_;
  ivc.contended = false;
  ivc.ready_cycle = std::max<Cycle>(head.arrived + params_.hop_latency_cycles - 1, earliest);
  ivc.route.clear();
  const unsigned port = ivc.port;
  const unsigned class_vc = ivc.vc % params_.vcs_per_class();
  routing_.route(RouteRequest{id_, port, class_vc, head.flit.dst, net_.packets[head.flit.packet]},
                 ivc.route);
}

bool Router::head_ready(const InputVc& ivc, Cycle now) const {
  if (ivc.ready_cycle > now) return false;
  if (params_.switching != Switching::store_and_forward) return true;
  // Store-and-forward: the whole packet must be buffered, and its tail must have had the
  // router's pipeline latency too.
  const unsigned len = ivc.buf.front().flit.length;
  if (ivc.buf.size() < len) return false;
  return ivc.buf.at(len - 1).arrived + params_.hop_latency_cycles - 1 <= now;
}

void Router::hold(OutputPort& out, Cycle now) {
  if (out.held_vcs++ == 0) out.busy_since = now;
}

void Router::release(OutputPort& out, Cycle now) {
  if (--out.held_vcs == 0) out.counters.busy_cycles += now - out.busy_since + 1;
}

void Router::finish(Cycle now) {
  for (OutputPort& o : out_)
    if (o.held_vcs > 0) {
      o.counters.busy_cycles += now - o.busy_since;
      o.busy_since = now;
    }
}

void Router::count_contention(InputVc& ivc, unsigned port) {
  if (ivc.contended) return;
  ivc.contended = true;
  ++out_[port].counters.contention_events;
  if (net_.tally_rounds) charge_round(ivc.buf.front().flit.packet, out_[port].to_router);
}

// The front flit is the losing packet's own. Only firmware runs have rounds; out of line so the
// allocation stages stay lean.
void Router::charge_round(PacketHandle packet, bool link) {
  const std::uint32_t round = net_.packets[packet].round;
  RoundTally& t = net_.lane_of(lane_).round(round);
  ++(link ? t.contention_links : t.contention_ejection);
}

void Router::evaluate(Cycle now) {
  if (lane_) cycle<true>(now);
  else serial_cycle(now);
}

// The serial cycle with its stages and allocators inlined into one function, as they were
// when there was only this one (from two callers the compiler stops inlining them by itself).
__attribute__((flatten)) void Router::serial_cycle(Cycle now) { cycle<false>(now); }

// Shared: on a parallel cycle, where the blocks at the other ends of the links may be
// evaluating on other threads (see Link and DelayLine); otherwise exactly the serial code.
template <bool Shared>
void Router::cycle(Cycle now) {
  occupancy_flit_cycles_ += static_cast<std::uint64_t>(buffered_) * (now - occupancy_since_);
  occupancy_since_ = now;
  if (!trace_.empty())
    for (PortTrace& t : trace_) t.out_valid = false;

  // Credits returned by the downstream buffers.
  const auto take_credits = [&](unsigned p) {
    OutputPort& o = out_[p];
    while (o.link->credit_ready<Shared>(now)) ++o.vcs[o.link->take_credit()].credits;
    return !o.link->has_credits<Shared>();
  };
  if constexpr (Shared)
    for_each_pending_shared(credit_pending_, take_credits,
                            [&](unsigned p) { return !out_[p].link->has_credits<true>(); });
  else
    for_each_pending(credit_pending_, take_credits);
  // Flits arriving from the input links.
  const auto take_flits = [&](unsigned p) {
    Link* link = in_links_[p];
    while (link->flit_ready<Shared>(now)) {
      const Flit& f = link->peek_flit();
      const unsigned index = p * params_.vcs + f.vc;
      InputVc& ivc = in_vcs_[index];
      Slot& slot = ivc.buf.push_slot();
      slot.flit = f;
      slot.arrived = now;
      link->pop_flit();
      ++buffered_;
      nonempty_[index >> 6] |= std::uint64_t{1} << (index & 63);
      if (ivc.state == VcState::idle) start_head(index, now);
    }
    return link->flits_in_flight<Shared>() == 0;
  };
  if constexpr (Shared)
    for_each_pending_shared(flit_pending_, take_flits,
                            [&](unsigned p) { return in_links_[p]->flits_in_flight<true>() == 0; });
  else
    for_each_pending(flit_pending_, take_flits);
  max_buffered_ = std::max(max_buffered_, buffered_);
  if (buffered_ > 0) {
    if (routing_count_ > 0) allocate_vcs(now, lane<Shared>().scratch);
    traverse_switch<Shared>(now);
  }
  if (!trace_.empty()) {
    for (unsigned p = 0; p < ports_; ++p) {
      PortTrace& t = trace_[p];
      t.in_occupancy = 0;
      for (unsigned v = 0; v < params_.vcs; ++v)
        t.in_occupancy += static_cast<unsigned>(in_vcs_[p * params_.vcs + v].buf.size());
      t.out_credits = 0;
      for (unsigned v = 0; v < params_.vcs; ++v) t.out_credits += out_[p].vcs[v].credits;
    }
  }
}

void Router::allocate_vcs(Cycle now, RouterScratch& s) {
  s.vc_requests.clear();
  s.routing_vcs.clear();
  const unsigned per_class = params_.vcs_per_class();
  const bool whole_packet = params_.switching != Switching::wormhole;
  for_each_nonempty([&](unsigned i) {
    InputVc& ivc = in_vcs_[i];
    if (ivc.state != VcState::routing || !head_ready(ivc, now)) return;
    s.routing_vcs.push_back(i);
    const Flit& head = ivc.buf.front().flit;
    const unsigned base = head.vc_class * per_class;
    for (unsigned c = 0; c < ivc.route.size(); ++c) {
      const RouteCandidate& cand = ivc.route[c];
      const OutputPort& o = out_[cand.port];
      std::uint32_t mask = 0;
      for (unsigned v = base + cand.vc_begin; v < base + cand.vc_end; ++v) {
        const OutputVc& ov = o.vcs[v];
        if (ov.owner >= 0) continue;
        if (whole_packet && ov.credits < head.length) continue;
        mask |= 1u << v;
      }
      s.vc_requests.push_back(VcRequest{static_cast<std::uint16_t>(i), cand.port, mask});
    }
  });
  if (s.routing_vcs.empty()) return;
  vc_alloc_->allocate(s.vc_requests, s.vc_grants);
  for (const VcGrant& g : s.vc_grants) {
    InputVc& ivc = in_vcs_[g.input];
    ivc.state = VcState::active;
    --routing_count_;
    ivc.out_port = g.out_port;
    ivc.out_vc = g.out_vc;
    OutputPort& o = out_[g.out_port];
    o.vcs[g.out_vc].owner = g.input;
    hold(o, now);
  }
  // A ready head that got no output VC lost it to another packet (held, or won this cycle).
  for (unsigned i : s.routing_vcs) {
    InputVc& ivc = in_vcs_[i];
    if (ivc.state == VcState::routing && ivc.route.size() > 0) count_contention(ivc, ivc.route[0].port);
  }
}

template <bool Shared>
void Router::traverse_switch(Cycle now) {
  RouterScratch& s = lane<Shared>().scratch;
  std::vector<SwitchRequest>& requests = s.sw_requests;
  std::vector<unsigned>& winners = s.sw_winners;
  requests.clear();
  for_each_nonempty([&](unsigned i) {
    InputVc& ivc = in_vcs_[i];
    if (ivc.state != VcState::active) return;
    if (out_[ivc.out_port].vcs[ivc.out_vc].credits == 0) {
      // A head whose output VC is still full of an earlier packet waits on that packet.
      if (ivc.buf.front().flit.is_head()) count_contention(ivc, ivc.out_port);
      return;
    }
    requests.push_back(SwitchRequest{ivc.port, ivc.vc, ivc.out_port});
  });
  if (requests.empty()) return;
  sw_alloc_->allocate(requests, winners);

  // Contention: a packet with a flit ready to leave that lost its output to another packet
  // (the switch went to someone else). Losing only the arbitration among the VCs of its own
  // input port is not contention for the output.
  if (winners.size() < requests.size()) {
    for (unsigned w : winners) {
      s.won[w] = 1;
      s.port_granted[requests[w].out_port] = 1;
    }
    for (unsigned i = 0; i < requests.size(); ++i) {
      const SwitchRequest& r = requests[i];
      if (!s.won[i] && s.port_granted[r.out_port])
        count_contention(in_vcs_[r.in_port * params_.vcs + r.in_vc], r.out_port);
    }
    for (unsigned w : winners) {
      s.won[w] = 0;
      s.port_granted[requests[w].out_port] = 0;
    }
  }

  for (unsigned w : winners) {
    const SwitchRequest& r = requests[w];
    const unsigned index = r.in_port * params_.vcs + r.in_vc;
    InputVc& ivc = in_vcs_[index];
    OutputPort& o = out_[r.out_port];
    OutputVc& ov = o.vcs[ivc.out_vc];

    Flit& f = ivc.buf.front().flit;
    const bool tail = f.is_tail();
    f.vc = ivc.out_vc;
    if (f.is_head() && o.to_router) ++net_.packets[f.packet].hops;
    if constexpr (Shared) o.link->send_shared(f, now, *lane_);
    else o.link->send(f, now);
    --ov.credits;
    ++o.counters.flits;
    if (!trace_.empty()) {
      PortTrace& t = trace_[r.out_port];
      t.out_valid = true;
      t.out_packet = packet_tag(net_.packets[f.packet].packet_id);
      t.out_vc = f.vc;
    }
    ivc.buf.pop();
    --buffered_;
    if (ivc.buf.empty()) nonempty_[index >> 6] &= ~(std::uint64_t{1} << (index & 63));
    ++lane<Shared>().flit_moves;
    if constexpr (Shared) in_links_[r.in_port]->return_credit_shared(r.in_vc, now);
    else in_links_[r.in_port]->return_credit(r.in_vc, now);
    if (tail) {
      ov.owner = -1;
      release(o, now);
      ivc.state = VcState::idle;
      if (!ivc.buf.empty()) start_head(index, now + 1);
    }
  }
}

void Router::prefetch() const {
  __builtin_prefetch(out_vcs_.data());
  for (std::uint64_t bits = __atomic_load_n(&flit_pending_, __ATOMIC_RELAXED); bits;
       bits &= bits - 1)
    in_links_[__builtin_ctzll(bits)]->prefetch();
  for (std::uint64_t bits = __atomic_load_n(&credit_pending_, __ATOMIC_RELAXED); bits;
       bits &= bits - 1)
    out_[__builtin_ctzll(bits)].link->prefetch();
  for_each_nonempty([&](unsigned i) {
    const InputVc& ivc = in_vcs_[i];
    __builtin_prefetch(&ivc);
    __builtin_prefetch(&ivc.buf.front());
  });
}

Cycle Router::next_work_cycle(Cycle now) const {
  // A router holding flits evaluates every cycle; an empty one sleeps until a flit is due
  // (credits are collected when it next evaluates).
  if (buffered_ > 0) return now + 1;
  Cycle next = kNever;
  // (Acquire loads: on a parallel cycle the links' writers may be on other threads.)
  for (std::uint64_t bits = __atomic_load_n(&flit_pending_, __ATOMIC_ACQUIRE); bits;
       bits &= bits - 1)
    next = std::min(next, in_links_[__builtin_ctzll(bits)]->next_flit_cycle<true>());
  return next;
}

void Router::describe_blocked(std::ostream& os, const Topology& topo) const {
  for (unsigned i = 0; i < in_vcs_.size(); ++i) {
    const InputVc& ivc = in_vcs_[i];
    if (ivc.buf.empty()) continue;
    const Flit& f = ivc.buf.front().flit;
    const PacketHeader& h = net_.packets[f.packet];
    os << "  router " << id_ << " input " << topo.port_name(i / params_.vcs) << " vc "
       << i % params_.vcs << ": " << ivc.buf.size() << " flit(s), front = packet " << h.packet_id
       << " flit " << f.seq << " (" << h.src << " -> " << h.dst << ")";
    if (ivc.state == VcState::routing) {
      os << " waits for an output VC on";
      for (unsigned c = 0; c < ivc.route.size(); ++c) os << " " << topo.port_name(ivc.route[c].port);
    } else if (ivc.state == VcState::active) {
      const OutputVc& ov = out_[ivc.out_port].vcs[ivc.out_vc];
      os << " holds output " << topo.port_name(ivc.out_port) << " vc " << unsigned(ivc.out_vc)
         << ", credits " << ov.credits;
    }
    os << "\n";
  }
}

void Router::trace(sc_trace_file* tf, const Topology& topo) {
  trace_.assign(ports_, PortTrace{});
  set_always_on(true);
  const std::string base = std::string(name()) + ".";
  for (unsigned p = 0; p < ports_; ++p) {
    const std::string port = base + topo.port_name(p) + ".";
    PortTrace& t = trace_[p];
    if (out_[p].link) {
      sc_trace(tf, t.out_valid, port + "out_valid");
      sc_trace(tf, t.out_packet, port + "out_packet", 32);
      sc_trace(tf, t.out_vc, port + "out_vc", 8);
      sc_trace(tf, t.out_credits, port + "out_credits", 16);
    }
    if (in_links_[p]) sc_trace(tf, t.in_occupancy, port + "in_occupancy", 16);
  }
}

}  // namespace collnoc
