#include "noc/router/router.hpp"

#include <algorithm>
#include <ostream>

namespace collnoc {

using namespace sc_core;

void validate(const RouterParams& p) {
  check_range("router.vcs", p.vcs, RouterParams::vcs_range);
  if (p.vc_classes < 1 || p.vc_classes > p.vcs || p.vcs % p.vc_classes != 0)
    throw ParamError("router.vc_classes", std::to_string(p.vc_classes),
                     "must be >= 1 and divide router.vcs = " + std::to_string(p.vcs));
  check_range("router.buffer_flits", p.buffer_flits, RouterParams::buffer_flits_range);
  check_range("router.hop_latency_cycles", p.hop_latency_cycles,
              RouterParams::hop_latency_cycles_range);
  check_range("router.islip_iterations", p.islip_iterations, RouterParams::islip_iterations_range);
  check_range("hta.timeout_cycles", p.hta.timeout_cycles, HtaParams::timeout_cycles_range);
  check_range("hta.reinjection_delay_cycles", p.hta.reinjection_delay_cycles,
              HtaParams::reinjection_delay_cycles_range);
}

const char* to_string(VcRealloc r) {
  switch (r) {
    case VcRealloc::automatic: return "auto";
    case VcRealloc::tail: return "tail";
    case VcRealloc::empty: return "empty";
  }
  return "?";
}

const char* to_string(HeaderTiming t) {
  return t == HeaderTiming::delayed ? "delayed" : "immediate";
}

const std::vector<HeaderTiming>& header_timings() {
  static const std::vector<HeaderTiming> timings{HeaderTiming::delayed, HeaderTiming::immediate};
  return timings;
}

const std::vector<VcRealloc>& vc_realloc_modes() {
  static const std::vector<VcRealloc> modes{VcRealloc::automatic, VcRealloc::tail,
                                            VcRealloc::empty};
  return modes;
}

void check_vc_realloc(const RouterParams& p, const RoutingFunction& routing,
                      const std::string& routing_name) {
  if (p.vc_realloc == VcRealloc::tail && p.switching == Switching::wormhole &&
      routing.adaptive_vcs() != 0)
    throw ParamError("router.vc_realloc", "tail",
                     "routing.algorithm = " + routing_name +
                         " takes VCs adaptively: with wormhole switching they must be empty "
                         "before they are reallocated, or the network can deadlock (Duato); use "
                         "auto or empty");
}

Router::Router(sc_module_name name, Clock& clock, RouterId id, unsigned ports,
               const RouterParams& params, const RoutingFunction& routing,
               NetworkContext& net)
    : Clocked<Router>(name, clock), net_(net),
      buffer_flits_(static_cast<std::uint16_t>(params.buffer_flits)),
      hop_latency_cycles_(static_cast<std::uint16_t>(params.hop_latency_cycles)),
      vcs_(static_cast<std::uint8_t>(params.vcs)),
      vcs_per_class_(static_cast<std::uint8_t>(params.vc_classes ? params.vcs_per_class() : 0)),
      flit_words_(static_cast<std::uint8_t>(params.flit_words)),
      switching_(params.switching), routing_(routing), id_(id), ports_(ports), params_(params) {
  validate(params_);
  // (Set by the system from ni.flit_width_bits, which the NIs' validate() bounds.)
  if (params.flit_words < 1 || params.flit_words > kMaxFlitWords)
    throw std::logic_error("router: flit_words " + std::to_string(params.flit_words) +
                           " is not in 1.." + std::to_string(kMaxFlitWords));
  if (ports > kMaxRouterPorts)  // (topologies refuse more, naming their keys)
    throw std::logic_error("router: " + std::to_string(ports) + " ports, at most " +
                           std::to_string(kMaxRouterPorts));
  set_ports(ports);
  {
    const std::uint32_t all_vcs =
        params.vcs >= 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << params.vcs) - 1;
    std::uint32_t adaptive = 0;  // the routing function's adaptive VCs, in every class
    for (unsigned c = 0; c < params.vc_classes; ++c)
      adaptive |= routing.adaptive_vcs() << (c * params.vcs_per_class());
    switch (params.vc_realloc) {
      case VcRealloc::automatic:
        // (Ejection ports need not wait: an NI drains its buffers whatever the network does.)
        if (params.switching == Switching::wormhole) empty_realloc_to_router_ = adaptive & all_vcs;
        break;
      case VcRealloc::tail:
        break;
      case VcRealloc::empty:
        empty_realloc_to_router_ = empty_realloc_to_ni_ = all_vcs;
        break;
    }
  }
  // The router's state, from the network's state memory in this order (see the members).
  StateMemory& state = net_.state;
  const AllocatorShape shape{ports, params.vcs, params.islip_iterations};
  vc_alloc_ = vc_allocator_maker(params.vc_allocator)(shape, state);
  sw_alloc_ = switch_allocator_maker(params.switch_allocator)(shape, state);
  const std::size_t n_vcs = static_cast<std::size_t>(ports) * params.vcs;
  created_.assign(n_vcs, 0);
  ages_ = vc_alloc_->use_ages(created_.data()) | sw_alloc_->use_ages(created_.data());
  heads_wait_ = !vc_alloc_->moves_without_grants();
  if (!ages_) created_ = std::vector<Cycle>();
  const std::size_t words = (n_vcs + 63) / 64, n_slots = n_vcs * params.buffer_flits;
  nonempty_words_ = static_cast<std::uint8_t>(words);  // (at most 64 ports x 32 VCs: 32 words)
  in_links_ = state.array<Link*>(ports);
  nonempty_ = state.array<std::uint64_t>(words);
  port_of_ = state.array<std::uint8_t>(n_vcs);
  stats_ = state.array<OutputStats>(ports);
  out_ = state.array<unsigned char>(ports * port_block_bytes(), 64);  // each port's block on a line
  for (unsigned p = 0; p < ports; ++p) {
    new (&out(p)) OutputPort{};
    for (unsigned v = 0; v < params.vcs; ++v) new (&out_vc(p, v)) OutputVc{};
  }
  in_vcs_ = state.array<InputVc>(n_vcs);
  routes_ = state.array<HeadRoute>(n_vcs);
  slots_ = state.array<BufferSlot>(n_slots);
  payload_ = state.array<std::uint32_t>(n_slots * params.flit_words, 64);  // a VC's on few lines
  for (std::size_t i = 0; i < n_vcs; ++i) port_of_[i] = static_cast<std::uint8_t>(i / params.vcs);
  // Room for every request at once (big enough for the largest router of the network), and
  // never a cache line shared with another thread's.
  net_.reserve_router_scratch(std::max<std::size_t>(64, n_vcs * ports));
  // A router touches only itself, its links and its thread's scratch: any thread may evaluate it.
  set_parallel();
  set_prefetch_end(&payload_ + 1);
  // And in the state memory, what every evaluation reads: the allocators' state, the small
  // arrays, the output ports and the input VCs (not the routes, read for waiting heads only,
  // nor the slots).
  set_prefetch_region(vc_alloc_.get(), in_vcs_ + n_vcs);
}

void Router::enable_multicast(const HeaderRouting& headers) {
  if (!params_.hta.enabled || params_.vc_classes < 2)
    throw std::logic_error("router: multicast needs hta.enabled and a class for it");
  header_routing_ = &headers;
  multicast_class_ = static_cast<std::uint8_t>(params_.vc_classes - 1);
  const std::size_t n_vcs = static_cast<std::size_t>(ports_) * vcs_;
  dq_index_ = static_cast<unsigned>(n_vcs);  // the deadlock queue: one source beyond the VCs
  mc_.assign(n_vcs + 1, MulticastVc{});
  mc_out_vc_.assign((n_vcs + 1) * ports_, 0);
  tie_rng_.reseed(hash64(params_.hta.seed, id_));
  for (unsigned p = 0; p < ports_; ++p)
    if (in_links_[p]) in_links_[p]->enable_control_lines();
}

void Router::connect_input(unsigned port, Link& link) {
  check_port(port);
  in_links_[port] = &link;
  const std::size_t first = static_cast<std::size_t>(port) * vcs_ * buffer_flits_;
  link.attach_receiver(this, port, &slots_[first], &payload_[first * flit_words_], flit_words_,
                       vcs_, buffer_flits_);
}

void Router::connect_output(unsigned port, Link& link, unsigned downstream_buffer_flits,
                            bool to_router) {
  check_port(port);
  OutputPort& o = out(port);
  o.link = &link;
  o.to_router = to_router;
  if (out_depth_.empty()) out_depth_.assign(ports_, 0);
  out_depth_[port] = static_cast<std::uint16_t>(downstream_buffer_flits);
  link.attach_sender(this, port, vcs_, downstream_buffer_flits, flit_words_);
  const std::uint32_t empty_realloc = to_router ? empty_realloc_to_router_ : empty_realloc_to_ni_;
  for (unsigned v = 0; v < vcs_; ++v) {
    OutputVc& ov = out_vc(port, v);
    ov.credits = static_cast<std::uint16_t>(downstream_buffer_flits);
    ov.realloc_credits = (empty_realloc >> v) & 1u ? ov.credits : std::uint16_t{0};
  }
  if (empty_realloc != 0 || switching_ != Switching::wormhole)
    credit_frees_ |= std::uint64_t{1} << port;
}

void Router::start_head(unsigned ivc_index, const Arrival& head, Cycle arrived, Cycle earliest) {
  if (head.vc_class == multicast_class_) return start_multicast(ivc_index);
  InputVc& ivc = in_vcs_[ivc_index];
  ivc.state = VcState::routing;
  ++routing_count_;
  ivc.contended = 0;
  ivc.ready_cycle = std::max<Cycle>(arrived + hop_latency_cycles_ - 1, earliest);
  if (ages_)  // (once per packet and router, for oldest-first allocators only)
    created_[ivc_index] =
        net_.packets.has_created_cycle() ? net_.packets.created_cycle(head.packet) : arrived;
  HeadRoute& r = routes_[ivc_index];
  r.length = head.length;
  r.vc_class = head.vc_class;
  r.route.clear();
  const unsigned port = port_of_[ivc_index];
  const unsigned class_vc = (ivc_index - port * vcs_) % vcs_per_class_;
  routing_.route(RouteRequest{id_, port, class_vc, head.dst, net_.packets[head.packet]}, r.route);
}

bool Router::head_ready(unsigned i, Cycle now) const {
  const InputVc& ivc = in_vcs_[i];
  if (ivc.ready_cycle > now) return false;
  if (switching_ != Switching::store_and_forward) return true;
  // Store-and-forward: the whole packet must be buffered, and its tail must have had the
  // router's pipeline latency too.
  const unsigned len = routes_[i].length;
  if (ivc.count < len) return false;
  return slot_at(i, len - 1).arrived + hop_latency_cycles_ - 1 <= now;
}

void Router::hold(unsigned port, unsigned vc, Cycle now) {
  if (vc_usage_) vc_busy_[port * vcs_ + vc].since = now;  // (a flag on a line a cycle reads)
  OutputPort& o = out(port);
  if (o.held_vcs++ == 0) {
    o.busy_since = now;
    held_ports_ |= std::uint64_t{1} << port;
  }
}

void Router::release(unsigned port, unsigned vc, Cycle now) {
  if (vc_usage_) {
    VcBusy& b = vc_busy_[port * vcs_ + vc];
    b.cycles += now - b.since + 1;
  }
  changed_ports_ |= std::uint64_t{1} << port;
  OutputPort& o = out(port);
  if (--o.held_vcs == 0) {
    stats_[port].busy_cycles += now - o.busy_since + 1;
    held_ports_ &= ~(std::uint64_t{1} << port);
  }
}

void Router::finish(Cycle now) {
  for (unsigned p = 0; p < ports_ && vc_usage_; ++p)
    for (unsigned v = 0; v < vcs_; ++v)
      if (out_vc(p, v).owner >= 0) {
        VcBusy& b = vc_busy_[p * vcs_ + v];
        b.cycles += now - b.since;
        b.since = now;
      }
  for (unsigned p = 0; p < ports_; ++p) {
    OutputPort& o = out(p);
    if (o.held_vcs > 0) {
      stats_[p].busy_cycles += now - o.busy_since;
      o.busy_since = now;
    }
  }
}

void Router::track_messages() {
  if (!net_.packet_observer) return;
  grant_hooks_ |= kTrackMessages;
  // (No packet yet: a key no message has.)
  vc_messages_.assign(2u * ports_ * vcs_, MessageKey{~0ull, ~0ull});
  message_contention_.assign(ports_, 0);
}

void Router::granted(const VcGrant& g, unsigned thread) {
  // This packet's message, and the one before on this VC. (Before any message had several
  // packets, the keys stay unknown: a packet granted then is of another message than any
  // packet that will lose to it.)
  if ((grant_hooks_ & kTrackMessages) && net_.multi_packet_messages) {
    MessageKey* m = &vc_messages_[2u * (g.out_port * vcs_ + g.out_vc)];
    m[1] = m[0];
    m[0] = message_at(g.input);
  }
  if (grant_hooks_ & kReportAllocations)
    net_.packet_observer->allocated(front(g.input).flit.packet, id_, g.out_port,
                                    routes_[g.input].length, thread);
}

void Router::count_observed_contention(unsigned i, unsigned port, unsigned thread, Rival rival,
                                       const RouterScratch& s) {
  InputVc& ivc = in_vcs_[i];
  if (!tracking() || !net_.multi_packet_messages) {  // (each packet its own message, so far)
    ivc.contended = kContendedBoth;
    ++stats_[port].contention_events;
    if (tracking()) ++message_contention_[port];
    return report_contention(i, port, thread, true, true);
  }
  const bool per_packet = !(ivc.contended & kContendedPacket);
  const bool per_message =
      !(ivc.contended & kContendedMessage) && other_message(i, port, rival, s, message_at(i));
  if (per_packet) {
    ivc.contended |= kContendedPacket;
    ++stats_[port].contention_events;
  }
  if (per_message) {
    ivc.contended |= kContendedMessage;
    ++message_contention_[port];
  }
  if (per_packet || per_message) report_contention(i, port, thread, per_packet, per_message);
}

bool Router::other_message(unsigned i, unsigned port, Rival rival, const RouterScratch& s,
                           const MessageKey& mine) const {
  switch (rival) {
    case Rival::multicast:  // (a multicast message is never a unicast packet's own)
      return true;
    case Rival::downstream: {
      const InputVc& ivc = in_vcs_[i];
      return vc_messages_[2u * (ivc.out_port * vcs_ + ivc.out_vc) + 1] != mine;
    }
    case Rival::switch_winner: {
      const SwitchGrants& g = s.sw_grants;
      for (unsigned w = 0; w < g.count; ++w)
        if (g.winners[w].out_port == port)
          return message_at(g.winners[w].in_port * vcs_ + g.winners[w].in_vc) != mine;
      return true;
    }
    case Rival::vc_holders: {
      // The VCs of its first candidate, as it asked for them: held by a packet (or granted to
      // one this cycle), or free but not yet reallocatable while the last packet's flits fill
      // the downstream buffer. A free VC it could have had lost to another head: counted.
      const HeadRoute& head = routes_[i];
      const unsigned base = head.vc_class * vcs_per_class_;
      const bool whole_packet = switching_ != Switching::wormhole;
      for (unsigned v = base + head.route[0].vc_begin; v < base + head.route[0].vc_end; ++v) {
        const OutputVc& ov = out_vc(port, v);
        if (ov.owner >= 0) {
          if (static_cast<unsigned>(ov.owner) >= ports_ * vcs_ || message_at(ov.owner) != mine)
            return true;
        } else if (ov.credits < ov.realloc_credits || (whole_packet && ov.credits < head.length)) {
          if (vc_messages_[2u * (port * vcs_ + v)] != mine) return true;
        } else {
          return true;
        }
      }
      return false;
    }
  }
  return true;
}

// The front flit is the losing packet's own.
void Router::report_contention(unsigned i, unsigned port, unsigned thread, bool per_packet,
                               bool per_message) {
  net_.packet_observer->contended(front(i).flit.packet, id_, port, out(port).to_router,
                                  per_packet, per_message, thread);
}

// At: on a parallel cycle the blocks at the other ends of the links may be evaluating on
// other threads (see Link and DelayLine); otherwise exactly the serial code.
template <class At>
__attribute__((flatten)) void Router::cycle(At at) {
  const Cycle now = at.now;
  occupancy_flit_cycles_ += static_cast<std::uint64_t>(buffered_) * (now - occupancy_since_);
  occupancy_since_ = now;
  if (traced_) {
    for (PortTrace& t : trace_) t.out_valid = false;
    mc_trace_.headers = 0;
  }

  receive(at);
  max_buffered_ = std::max(max_buffered_, buffered_);
  if (multicast_work_) {
    multicast_cycle(at);
  } else if (buffered_ > 0) {
    RouterScratch& s = net_.router_scratch(at);
    collect_requests(at, s);
    if (!s.routing_vcs.empty()) allocate_vcs(at, s);
    if (s.switch_requests > 0) {
      allocate_switch(at, s);
      traverse(at, s);
    }
  }
  if (traced_) {
    for (unsigned p = 0; p < ports_; ++p) {
      PortTrace& t = trace_[p];
      t.in_occupancy = 0;
      for (unsigned v = 0; v < vcs_; ++v) t.in_occupancy += in_vcs_[p * vcs_ + v].count;
      t.out_credits = 0;
      for (unsigned v = 0; v < vcs_; ++v) t.out_credits += out_vc(p, v).credits;
      t.mc_outputs = 0;
      if (header_routing_)
        for (unsigned v = 0; v < vcs_; ++v)
          if (in_vcs_[p * vcs_ + v].state == VcState::multicast)
            t.mc_outputs |= static_cast<unsigned>(mc_[p * vcs_ + v].outputs);
    }
    if (header_routing_) {
      mc_trace_.queue_flits = held_.empty() ? 0 : static_cast<unsigned>(held_.front().flits.size() - dq_next_);
      mc_trace_.memory_messages = held_.empty() ? 0 : static_cast<unsigned>(held_.size() - 1);
    }
  }
}

template <class At>
void Router::receive(At at) {
  const Cycle now = at.now;
  collect_ports_with_work(now);
  // Ask for the credits' entries (in a large network, prefetch() has fetched their links'
  // lines), then take the flits, then the credits: the prefetches get a little time. (Flits
  // and credits touch different state: their order changes no result.)
  for (std::uint64_t bits = outputs_with_credits(); bits; bits &= bits - 1)
    out(static_cast<unsigned>(__builtin_ctzll(bits))).link->prefetch_credit_entry();
  // Flits arriving from the input links (the sender has put them in their slots).
  for_each_input_with_flits([&](unsigned p) {
    Link* link = in_links_[p];
    while (link->flit_ready(at)) {
      const Arrival a = link->take_arrival();
      const unsigned index = p * vcs_ + a.vc;
      // Where the flit is (the sender wrote it a cycle or more ago, and a large network's
      // buffers do not stay in cache that long): a body flit behind a moving packet leaves
      // again this cycle.
      const BufferSlot& arriving = slot_at(index, in_vcs_[index].count);
      __builtin_prefetch(&arriving);
      __builtin_prefetch(payload_of(arriving));
      ++in_vcs_[index].count;
      ++buffered_;
      nonempty_[index >> 6] |= std::uint64_t{1} << (index & 63);
      // An idle VC was empty: this is a head (the notice has what routing needs).
      if (in_vcs_[index].state == VcState::idle) start_head(index, a, now, now);
    }
    return link->flits_in_flight(at) == 0;
  });
  // Credits returned by the downstream buffers.
  changed_ports_ |= outputs_with_credits() & credit_frees_;
  for_each_output_with_credits([&](unsigned p) {
    Link* link = out(p).link;
    while (link->credit_ready(at)) ++out_vc(p, link->take_credit()).credits;
    return !link->has_credits(at);
  });
}

template <class At>
void Router::collect_requests(At at, RouterScratch& s) {
  s.sw_requests.ports = 0;
  s.switch_requests = 0;
  s.vc_requests.clear();
  s.routing_vcs.clear();
  // (The changes made after this, by this cycle's grants and departures, are for the next.)
  const std::uint64_t changed = changed_ports_;
  changed_ports_ = 0;
  for_each_nonempty([&](unsigned i) {
    InputVc& ivc = in_vcs_[i];
    const VcState state = ivc.state;
    if (state == VcState::active) {
      request_switch(at, i, s);
    } else if (state == VcState::routing) {
      if (head_ready(i, at.now)) request_vc(i, at.now, s);
    } else if (state == VcState::waiting && ((changed >> ivc.out_port) & 1u)) {
      ivc.state = VcState::routing;
      request_vc(i, at.now, s);
    }
  });
}

void Router::request_vc(unsigned i, Cycle now, RouterScratch& s) {
  s.routing_vcs.push_back(i);
  const RouteResult& route = routes_[i].route;
  std::uint8_t order[RouteResult::kMax];
  const bool select = route.alternatives() > 1;
  if (select) select_candidates(i, now, order);
  for (unsigned c = 0; c < route.size(); ++c) {
    const RouteCandidate& cand = route[select ? order[c] : c];
    const unsigned port = sinks_ && sink_group_of_[cand.port] != kNoPort ? pick_sink(cand.port)
                                                                         : cand.port;
    request_port(i, port, cand.vc_begin, cand.vc_end, s);
  }
}

// routing.selection: the order in which the head asks for its adaptive alternatives this cycle
// (the credits of each one's acceptable output VCs, if the strategy reads them).
void Router::select_candidates(unsigned i, Cycle now, std::uint8_t* order) const {
  const RouteResult& route = routes_[i].route;
  const SelectionStrategy& selection = *routing_.selection();
  // (min: a bound the compiler cannot see)
  const unsigned n = std::min(route.alternatives(), RouteResult::kMax);
  SelectionChoice choices[RouteResult::kMax];
  const unsigned base = routes_[i].vc_class * vcs_per_class_;
  for (unsigned c = 0; c < n; ++c) {
    choices[c] = SelectionChoice{static_cast<std::uint8_t>(c), 0};
    if (!selection.needs_credits()) continue;
    const OutputVc* ovcs = &out_vc(route[c].port, 0);
    for (unsigned v = base + route[c].vc_begin; v < base + route[c].vc_end; ++v)
      if (ovcs[v].owner < 0) choices[c].free_credits += ovcs[v].credits;
  }
  const PacketId packet = net_.packets[front(i).flit.packet].packet_id;
  selection.order(choices, n, packet, now);
  for (unsigned c = 0; c < RouteResult::kMax; ++c)  // (the rest keep their places)
    order[c] = c < n ? choices[c].candidate : static_cast<std::uint8_t>(c);
}

void Router::request_port(unsigned i, unsigned port, unsigned vc_begin, unsigned vc_end,
                          RouterScratch& s) {
  s.vc_requests.push_back(VcRequest{static_cast<std::uint16_t>(i), static_cast<std::uint16_t>(port),
                                    free_vcs(i, port, vc_begin, vc_end)});
}

std::uint32_t Router::free_vcs(unsigned i, unsigned port, unsigned vc_begin,
                               unsigned vc_end) const {
  const HeadRoute& head = routes_[i];
  const unsigned base = head.vc_class * vcs_per_class_;
  const bool whole_packet = switching_ != Switching::wormhole;
  const OutputVc* ovcs = &out_vc(port, 0);
  std::uint32_t mask = 0;
  for (unsigned v = base + vc_begin; v < base + vc_end; ++v) {
    const OutputVc& ov = ovcs[v];
    if (ov.owner >= 0 || ov.credits < ov.realloc_credits) continue;
    if (whole_packet && ov.credits < head.length) continue;
    mask |= 1u << v;
  }
  return mask;
}

// Asking again changes nothing until a VC of its port is released, or credits come back on it
// where they can free one (release and receive mark the port; a grant frees nothing), and its
// loss is counted already (count_contention returns at once).
// (Several candidates, each a port of its own, keep asking: rarely all blocked.)
void Router::wait_if_blocked(unsigned i) {
  const RouteResult& route = routes_[i].route;
  // (A packet whose loss to another message is not counted yet keeps asking: with messages of
  // several packets, whether its rivals are of its own message can change with their flits.)
  if (!heads_wait_ || route.size() != 1 || in_vcs_[i].contended != kContendedBoth) return;
  const RouteCandidate& c = route[0];
  if (free_vcs(i, c.port, c.vc_begin, c.vc_end) != 0) return;
  in_vcs_[i].state = VcState::waiting;
  in_vcs_[i].out_port = c.port;
}

std::uint64_t Router::fold_sinks(std::uint64_t ports) const {
  for (const std::vector<std::uint8_t>& group : sink_groups_)
    for (std::uint8_t q : group)
      if ((ports >> q) & 1u) ports |= std::uint64_t{1} << group[0];
  return ports;
}

unsigned Router::sink_for(unsigned local, std::uint64_t free) const {
  for (std::uint8_t q : sink_groups_[sink_group_of_[local]])
    if ((free >> q) & 1u) return q;
  return local;
}

unsigned Router::pick_sink(unsigned local) {
  const std::vector<std::uint8_t>& group = sink_groups_[sink_group_of_[local]];
  const unsigned n = static_cast<unsigned>(group.size());
  const unsigned start = sink_rr_++ % n;
  unsigned best = group[start];
  for (unsigned k = 1; k < n; ++k) {
    const unsigned q = group[(start + k) % n];
    if (out(q).held_vcs < out(best).held_vcs) best = q;
  }
  return best;
}

void Router::add_sink_channel(unsigned local, unsigned extra) {
  check_port(local);
  check_port(extra);
  if (sink_group_of_.empty()) sink_group_of_.assign(ports_, kNoPort);
  if (sink_group_of_[local] == kNoPort) {
    sink_group_of_[local] = static_cast<std::uint8_t>(sink_groups_.size());
    sink_groups_.push_back({static_cast<std::uint8_t>(local)});
  }
  sink_group_of_[extra] = sink_group_of_[local];
  sink_groups_[sink_group_of_[local]].push_back(static_cast<std::uint8_t>(extra));
  sinks_ = true;
  heads_wait_ = false;
}

template <class At>
void Router::request_switch(At at, unsigned i, RouterScratch& s) {
  const InputVc& ivc = in_vcs_[i];
  if (out_vc(ivc.out_port, ivc.out_vc).credits == 0) {
    // A head whose output VC is still full of an earlier packet waits on that packet.
    if (front(i).flit.is_head())
      count_contention(i, ivc.out_port, at.thread(), Rival::downstream, s);
    return;
  }
  SwitchRequests& req = s.sw_requests;
  const unsigned port = port_of_[i];
  const std::uint64_t port_bit = std::uint64_t{1} << port;
  if (!(req.ports & port_bit)) {
    req.ports |= port_bit;
    req.vcs[port] = 0;
  }
  req.vcs[port] |= std::uint32_t{1} << (i - port * vcs_);
  req.out_port[i] = static_cast<std::uint8_t>(ivc.out_port);
  ++s.switch_requests;
}

template <class At>
void Router::allocate_vcs(At at, RouterScratch& s) {
  const Cycle now = at.now;
  vc_alloc_->allocate(s.vc_requests, s.vc_grants);
  vc_alloc_->grants += s.vc_grants.size();
  for (const VcGrant& g : s.vc_grants) {
    InputVc& ivc = in_vcs_[g.input];
    ivc.state = VcState::active;
    --routing_count_;
    ivc.out_port = g.out_port;
    ivc.out_vc = g.out_vc;
    out_vc(g.out_port, g.out_vc).owner = static_cast<std::int16_t>(g.input);
    hold(g.out_port, g.out_vc, now);
    if (grant_hooks_) granted(g, at.thread());
  }
  // A ready head that got no output VC lost it to another packet (held, or won this cycle).
  for (unsigned i : s.routing_vcs)
    if (in_vcs_[i].state == VcState::routing && routes_[i].route.size() > 0) {
      count_contention(i, routes_[i].route[0].port, at.thread(), Rival::vc_holders, s);
      wait_if_blocked(i);
    }
  for (const VcGrant& g : s.vc_grants) request_switch(at, g.input, s);
}

template <class At>
void Router::allocate_switch(At at, RouterScratch& s) {
  SwitchRequests& req = s.sw_requests;
  SwitchGrants& g = s.sw_grants;
  sw_alloc_->allocate(req, g);
  // Contention: a packet with a flit ready to leave that lost its output to another packet
  // (the switch went to someone else). Losing only the arbitration among the VCs of its own
  // input port is not contention for the output.
  if (g.count == s.switch_requests) return;
  for (unsigned w = 0; w < g.count; ++w)
    req.vcs[g.winners[w].in_port] &= ~(std::uint32_t{1} << g.winners[w].in_vc);
  for (std::uint64_t ports = req.ports; ports; ports &= ports - 1) {
    const unsigned p = static_cast<unsigned>(__builtin_ctzll(ports));
    for (std::uint32_t vcs = req.vcs[p]; vcs; vcs &= vcs - 1) {
      const unsigned index = p * vcs_ + static_cast<unsigned>(__builtin_ctz(vcs));
      const unsigned out = req.out_port[index];
      if ((g.outputs >> out) & 1u)
        count_contention(index, out, at.thread(), Rival::switch_winner, s);
    }
  }
}

template <class At>
void Router::traverse(At at, RouterScratch& s) {
  const Cycle now = at.now;
  const SwitchGrants& g = s.sw_grants;
  for (unsigned w = 0; w < g.count; ++w) {
    const SwitchGrants::Winner& win = g.winners[w];
    const unsigned index = win.in_port * vcs_ + win.in_vc;
    InputVc& ivc = in_vcs_[index];
    OutputPort& o = out(win.out_port);
    OutputVc& ov = out_vc(win.out_port, ivc.out_vc);

    const BufferSlot& slot = front(index);
    const FlitHeader& f = slot.flit;
    const bool tail = f.is_tail();
    // A head counts the router-to-router links (no branch).
    const auto hops = static_cast<std::uint16_t>(f.hops + (f.is_head() & o.to_router));
    o.link->forward(at, f, payload_of(slot), ivc.out_vc, hops, ov.next_slot);
    --ov.credits;
    ++o.flits;
    if (traced_) {
      PortTrace& t = trace_[win.out_port];
      t.out_valid = true;
      t.out_packet = packet_tag(net_.packets[f.packet].packet_id);
      t.out_vc = ivc.out_vc;
    }
    pop(ivc);
    --buffered_;
    // (no branch: whether the VC is now empty changes from one flit to the next)
    nonempty_[index >> 6] &= ~(std::uint64_t{ivc.count == 0} << (index & 63));
    net_.count_flit_move(at);
    in_links_[win.in_port]->return_credit(at, win.in_vc);
    if (tail) {
      ov.owner = -1;
      release(win.out_port, ivc.out_vc, now);
      ivc.state = VcState::idle;
      if (ivc.count > 0) {  // the next packet's head is queued behind
        const BufferSlot& next = front(index);
        start_head(index, Arrival::of(next.flit), next.arrived, now + 1);
      }
    }
  }
}

void Router::start_multicast(unsigned i) {
  in_vcs_[i].state = VcState::multicast;
  ++multicast_vcs_;
  multicast_work_ = true;
  mc_[i] = MulticastVc{};
}

template <class At>
void Router::take_front(At at, unsigned i) {
  InputVc& ivc = in_vcs_[i];
  const unsigned port = port_of_[i];
  pop(ivc);
  --buffered_;
  if (ivc.count == 0) nonempty_[i >> 6] &= ~(std::uint64_t{1} << (i & 63));
  in_links_[port]->return_credit(at, static_cast<std::uint8_t>(i - port * vcs_));
}

bool Router::mc_front_is_header(unsigned i) const {
  if (i == dq_index_) {
    const HeldMessage& m = held_.front();
    return dq_next_ < m.flits.size() && m.flits[dq_next_].is_multicast_header();
  }
  return in_vcs_[i].count > 0 && front(i).flit.is_multicast_header();
}

template <class At>
void Router::mc_pop(At at, unsigned i) {
  if (i == dq_index_) ++dq_next_, ++mc_counters_.queue_moves;
  else take_front(at, i);
}

void Router::hold_flit(HeldMessage& m, const FlitHeader& f, const std::uint32_t* payload) {
  ++mc_counters_.queue_moves;
  m.flits.push_back(f);
  m.payload.insert(m.payload.end(), payload, payload + flit_words_);
}

Router::HeldMessage* Router::start_diversion(Cycle now, PacketHandle packet) {
  ++mc_counters_.diversions;
  if (net_.diverted_multicasts.insert(packet).second) ++mc_counters_.potentially_deadlocked;
  note(now, RecoveryEvent::What::diverted, packet);
  if (held_.empty()) {
    dq_busy_since_ = now;
  } else {  // the deadlock queue holds one: into the node's memory
    ++mc_counters_.absorbed;
    note(now, RecoveryEvent::What::absorbed, packet);
  }
  held_.emplace_back();
  multicast_work_ = true;
  mc_counters_.max_memory_messages =
      std::max<std::uint64_t>(mc_counters_.max_memory_messages, held_.size() - 1);
  return &held_.back();
}

void Router::finish_reinjection(Cycle now) {
  ++mc_counters_.reinjected;
  held_.pop_front();
  dq_next_ = 0;
  mc_[dq_index_] = MulticastVc{};
  dq_ready_ = kNever;
  if (held_.empty()) {
    mc_counters_.queue_busy_cycles += now - dq_busy_since_ + 1;
    update_multicast_work();
    return;
  }
  // Fetched back from memory (it wins over new messages: the queue serves it first).
  if (held_.front().complete) {
    dq_ready_ = now + params_.hta.reinjection_delay_cycles;
    note(now, RecoveryEvent::What::queued, held_.front().flits[0].packet);
  }
}

std::uint64_t Router::held_flits() const {
  std::uint64_t n = 0;
  for (const HeldMessage& m : held_) n += m.flits.size();
  return n - (held_.empty() ? 0 : dq_next_);
}

template <class At>
__attribute__((flatten)) void Router::multicast_cycle(At at) {
  RouterScratch& s = net_.router_scratch(at);
  move_multicast(at, s);
  collect_requests(at, s);
  if (!s.routing_vcs.empty()) allocate_vcs(at, s);
  if (s.multicast_inputs | s.multicast_outputs) withdraw_requests(at.thread(), s);
  if (s.switch_requests > 0) {
    allocate_switch(at, s);
    traverse(at, s);
  }
}

template <class At>
void Router::move_multicast(At at, RouterScratch& s) {
  s.multicast_inputs = s.multicast_outputs = 0;
  // The deadlock queue first (a re-injected message before new ones), then the input VCs,
  // round-robin among them for the crossbar's ports.
  if (!held_.empty() && dq_ready_ <= at.now) {
    if (mc_front(dq_index_).is_multicast_header()) route_header(at, dq_index_, s);
    else copy_data(at, dq_index_, s);
  }
  mc_order_.clear();
  for_each_nonempty([&](unsigned i) {
    if (in_vcs_[i].state == VcState::multicast) mc_order_.push_back(i);
  });
  if (mc_order_.empty()) return;
  const std::size_t n = mc_order_.size(), first = multicast_rr_++ % n;
  for (std::size_t k = 0; k < n; ++k) {
    const unsigned i = mc_order_[(first + k) % n];
    if ((s.multicast_inputs >> port_of_[i]) & 1u) continue;  // its input port sent already
    if (front(i).flit.is_multicast_header()) route_header(at, i, s);
    else copy_data(at, i, s);
  }
}

template <class At>
bool Router::route_header(At at, unsigned i, RouterScratch& s) {
  const Cycle now = at.now;
  const FlitHeader f = mc_front(i);
  MulticastVc& m = mc_[i];
  const bool queue = i == dq_index_;
  const unsigned in_port = queue ? 0 : port_of_[i];
  if (!queue) {
    if (front(i).arrived + hop_latency_cycles_ - 1 > now) return false;  // the routing pipeline
    if (params_.hta.header_routing == HeaderTiming::delayed &&
        !in_links_[in_port]->control_line_high(i - in_port * vcs_, now))
      return false;  // upstream still routes headers of this message
  }
  // Ports with a free multicast VC: free, and empty downstream (a VC holds one message).
  const unsigned base = multicast_class_ * vcs_per_class_;
  std::uint64_t free = 0;
  for (unsigned p = 0; p < ports_; ++p) {
    if (!out(p).link) continue;
    for (unsigned v = base; v < base + vcs_per_class_; ++v) {
      const OutputVc& ov = out_vc(p, v);
      if (ov.owner < 0 && ov.credits == out_depth_[p]) {
        free |= std::uint64_t{1} << p;
        break;
      }
    }
  }
  // (Sink channels: a local port is free, or allocated, when one of its channels is.)
  HeaderDecision d = header_routing_->route(HeaderRoutingInput{
      id_, f.dst, sinks_ ? fold_sinks(m.outputs) : m.outputs, sinks_ ? fold_sinks(free) : free,
      static_cast<std::uint32_t>(tie_rng_.next() >> 32)});
  const bool consume = d.action == HeaderDecision::Action::consume;
  if (consume && sinks_) d.port = sink_for(d.port, free);
  const std::uint64_t bit = std::uint64_t{1} << d.port;
  // A forwarded header crosses the switch: its output must be free of other copies this cycle.
  const bool routed = d.action != HeaderDecision::Action::blocked &&
                      (consume || !(s.multicast_outputs & bit));
  if (!routed) {
    // Deadlock detection: blocked for the timeout, the header leaves the network with its
    // message; once one has, the others follow at once unless they can be routed. (The
    // deadlock queue's own message waits: it is the way out.)
    if (d.action == HeaderDecision::Action::blocked) ++mc_counters_.blocked_header_cycles;
    if (queue) return false;
    if (!m.divert) {
      if (d.action != HeaderDecision::Action::blocked) return false;  // only the crossbar
      if (m.blocked_since == kNever) {
        m.blocked_since = now;
        note(now, RecoveryEvent::What::blocked, f.packet);
      }
      if (now - m.blocked_since < params_.hta.timeout_cycles) return false;
      m.divert = start_diversion(now, f.packet);
    }
    hold_flit(*m.divert, f, mc_front_payload(i));
    if (traced_) trace_header(f.packet, f.dst, 0, 2);
    take_front(at, i);
    s.multicast_inputs |= std::uint64_t{1} << in_port;
  } else {
    const unsigned p = d.port;
    if (queue && dq_next_ == 0) note(now, RecoveryEvent::What::reinjecting, f.packet);
    if (!(m.outputs & bit)) {  // a VC on a new output for this message
      unsigned v = base;
      while (out_vc(p, v).owner >= 0 || out_vc(p, v).credits != out_depth_[p]) ++v;
      out_vc(p, v).owner = static_cast<std::int16_t>(i);
      mc_out_vc_[i * ports_ + p] = static_cast<std::uint8_t>(v);
      m.outputs |= bit;
      hold(p, v, now);
      ++mc_counters_.vc_allocations;
    }
    m.blocked_since = kNever;
    ++mc_counters_.headers_routed;
    if (traced_) trace_header(f.packet, f.dst, p, consume ? 1 : 0);
    if (consume) {
      ++mc_counters_.consumed;
    } else {
      OutputPort& o = out(p);
      const std::uint8_t v = mc_out_vc_[i * ports_ + p];
      OutputVc& ov = out_vc(p, v);
      o.link->forward(at, f, mc_front_payload(i), v,
                      static_cast<std::uint16_t>(f.hops + o.to_router), ov.next_slot);
      --ov.credits;
      ++o.flits;
      net_.count_flit_move(at);
      s.multicast_outputs |= bit;
    }
    // (A consumed header is read out of its buffer too: the input port's flit this cycle.)
    if (!queue) s.multicast_inputs |= std::uint64_t{1} << in_port;
    mc_pop(at, i);
  }
  // Delayed header routing: the last header handled here tells downstream.
  if (params_.hta.header_routing == HeaderTiming::delayed && !mc_front_is_header(i))
    signal_headers_routed(at, i);
  return true;
}

template <class At>
void Router::signal_headers_routed(At at, unsigned i) {
  MulticastVc& m = mc_[i];
  if (m.signalled) return;
  m.signalled = true;
  for (std::uint64_t bits = m.outputs; bits; bits &= bits - 1) {
    const unsigned p = static_cast<unsigned>(__builtin_ctzll(bits));
    if (out(p).to_router) out(p).link->raise_control_line(mc_out_vc_[i * ports_ + p], at.now);
  }
}

template <class At>
bool Router::copy_data(At at, unsigned i, RouterScratch& s) {
  const Cycle now = at.now;
  MulticastVc& m = mc_[i];
  const bool queue = i == dq_index_;
  if (params_.hta.header_routing == HeaderTiming::delayed) signal_headers_routed(at, i);
  // Lockstep: every allocated output free this cycle and with a credit, or no copy at all.
  // (The headers deadlock recovery took get their copy in the router's own memory.)
  if (m.outputs & s.multicast_outputs) return false;
  for (std::uint64_t bits = m.outputs; bits; bits &= bits - 1) {
    const unsigned p = static_cast<unsigned>(__builtin_ctzll(bits));
    if (out_vc(p, mc_out_vc_[i * ports_ + p]).credits == 0) return false;
  }
  const FlitHeader f = mc_front(i);
  const std::uint32_t* payload = mc_front_payload(i);
  unsigned copies = 0;
  for (std::uint64_t bits = m.outputs; bits; bits &= bits - 1) {
    const unsigned p = static_cast<unsigned>(__builtin_ctzll(bits));
    OutputPort& o = out(p);
    const std::uint8_t v = mc_out_vc_[i * ports_ + p];
    OutputVc& ov = out_vc(p, v);
    o.link->forward(at, f, payload, v, f.hops, ov.next_slot);
    --ov.credits;
    ++o.flits;
    net_.count_flit_move(at);
    ++copies;
    if (f.is_tail()) {
      ov.owner = -1;
      release(p, v, now);
    }
  }
  if (m.divert) {
    hold_flit(*m.divert, f, payload);
    ++copies;
  }
  mc_counters_.replicated += copies - 1;
  s.multicast_outputs |= m.outputs;
  if (queue) {
    ++dq_next_;
    ++mc_counters_.queue_moves;
    if (f.is_tail()) finish_reinjection(now);
    return true;
  }
  const unsigned in_port = port_of_[i];
  s.multicast_inputs |= std::uint64_t{1} << in_port;  // (one flit a cycle out of a port)
  take_front(at, i);
  if (!f.is_tail()) return true;
  if (m.divert) {  // the held message is whole: the deadlock queue's re-injects after the delay
    m.divert->complete = true;
    if (m.divert == &held_.front()) {
      dq_ready_ = now + params_.hta.reinjection_delay_cycles;
      note(now, RecoveryEvent::What::queued, f.packet);
    }
  }
  InputVc& ivc = in_vcs_[i];
  in_links_[in_port]->lower_control_line(i - in_port * vcs_);
  ivc.state = VcState::idle;
  --multicast_vcs_;
  update_multicast_work();
  if (ivc.count > 0) {  // the next message (or packet) is queued behind
    const BufferSlot& next = front(i);
    start_head(i, Arrival::of(next.flit), next.arrived, now + 1);
  }
  return true;
}

void Router::withdraw_requests(unsigned thread, RouterScratch& s) {
  SwitchRequests& req = s.sw_requests;
  unsigned left = 0;
  for (std::uint64_t ports = req.ports; ports; ports &= ports - 1) {
    const unsigned p = static_cast<unsigned>(__builtin_ctzll(ports));
    if ((s.multicast_inputs >> p) & 1u) {
      req.vcs[p] = 0;
      continue;
    }
    for (std::uint32_t vcs = req.vcs[p]; vcs; vcs &= vcs - 1) {
      const unsigned v = static_cast<unsigned>(__builtin_ctz(vcs));
      const unsigned index = p * vcs_ + v;
      if ((s.multicast_outputs >> req.out_port[index]) & 1u) {
        req.vcs[p] &= ~(std::uint32_t{1} << v);
        count_contention(index, req.out_port[index], thread, Rival::multicast, s);
      } else {
        ++left;
      }
    }
  }
  for (std::uint64_t ports = req.ports; ports; ports &= ports - 1) {
    const unsigned p = static_cast<unsigned>(__builtin_ctzll(ports));
    if (req.vcs[p] == 0) req.ports &= ~(std::uint64_t{1} << p);
  }
  s.switch_requests = left;
}

void Router::prefetch() const {
  __builtin_prefetch(out_);
  std::uint64_t flits, credits;
  peek_ports_with_work(flits, credits);
  for (std::uint64_t bits = flits; bits; bits &= bits - 1)
    in_links_[__builtin_ctzll(bits)]->prefetch_arrivals();
  for (std::uint64_t bits = credits; bits; bits &= bits - 1)
    out(static_cast<unsigned>(__builtin_ctzll(bits))).link->prefetch_credits();
  // The links the packets in progress send on.
  for (std::uint64_t bits = held_ports_; bits; bits &= bits - 1)
    out(static_cast<unsigned>(__builtin_ctzll(bits))).link->prefetch_sending();
  // (Not through for_each_nonempty: GCC finds a lambda that only prefetches free of side
  // effects and drops the call, and the loop with it.)
  for (std::size_t w = 0; w < nonempty_words_; ++w)
    for (std::uint64_t bits = nonempty_[w]; bits; bits &= bits - 1) {
      const unsigned i = static_cast<unsigned>(w * 64 + __builtin_ctzll(bits));
      __builtin_prefetch(&in_vcs_[i]);
      __builtin_prefetch(&front(i));
      __builtin_prefetch(payload_of(front(i)));
    }
}

Cycle Router::next_work_cycle(Cycle now) const {
  // A router holding flits evaluates every cycle; an empty one sleeps until a flit is due
  // (credits are collected when it next evaluates).
  if (buffered_ > 0) return now + 1;
  Cycle next = kNever;
  // A message in the deadlock queue re-injects when its delay is over.
  if (multicast_work_ && !held_.empty() && dq_ready_ != kNever)
    next = std::max(now + 1, dq_ready_);
  // (With this cycle's marks: a sender evaluated before this router in this cycle woke it while
  // it was awake, which does nothing. On a parallel cycle the links' writers may be on other
  // threads: acquire loads.)
  for (std::uint64_t bits = inputs_with_flits(now); bits; bits &= bits - 1)
    next = std::min(next, in_links_[__builtin_ctzll(bits)]->next_flit_cycle());
  return next;
}

void Router::report(Tally& t, const Topology& topo) const {
  const Cycle cycles = clock().now();
  std::uint64_t flits = 0, link_flits = 0, contention = 0, link_contention = 0;
  std::uint64_t packet_contention = 0, link_packet_contention = 0;
  for (unsigned p = 0; p < ports_; ++p) {
    if (!output_connected(p)) continue;
    const OutputCounters c = output_counters(p);
    flits += c.flits;
    contention += c.contention_events;
    packet_contention += c.contention_events_packets;
    const bool local = topo.is_local_port(p);
    if (!local) {
      link_flits += c.flits;
      link_contention += c.contention_events;
      link_packet_contention += c.contention_events_packets;
    }
    Report link;
    link.set("router", static_cast<std::uint64_t>(id_));
    link.set("port", topo.port_name(p));
    if (local) link.set("to_node", static_cast<std::uint64_t>(topo.endpoint_at(id_, p - topo.network_ports())));
    else link.set("to_router", static_cast<std::uint64_t>(topo.peer(id_, p).router));
    link.set("flits", c.flits);
    link.set("utilization", cycles ? static_cast<double>(c.flits) / cycles : 0.0);
    link.set("busy_cycles", c.busy_cycles);
    link.set("contention_events", c.contention_events);
    link.set("contention_events_packets", c.contention_events_packets);
    if (vc_usage_) {
      std::vector<std::uint64_t> busy(vcs_);
      std::vector<double> share(vcs_);
      for (unsigned v = 0; v < vcs_; ++v) {
        busy[v] = vc_busy_[p * vcs_ + v].cycles;
        share[v] = cycles ? static_cast<double>(busy[v]) / static_cast<double>(cycles) : 0.0;
      }
      link.set("vc_busy_cycles", std::move(busy));
      link.set("vc_utilization", std::move(share));
    }
    t.row("links", std::move(link));
  }
  t.count("flits.router_traversals", flits);  // flit-hops, ejection included
  t.count("flits.link_traversals", link_flits);
  t.count("contention_events", contention);
  t.count("contention_events_links", link_contention);
  t.count("contention_events_ejection", contention - link_contention);
  t.count("contention_events_packets", packet_contention);
  t.count("contention_events_links_packets", link_packet_contention);
  t.count("contention_events_ejection_packets", packet_contention - link_packet_contention);
  const double occupancy =
      cycles ? static_cast<double>(occupancy_flit_cycles(cycles)) / cycles : 0.0;
  t.average("routers.buffer_occupancy_mean_flits", occupancy);
  t.maximum("routers.buffer_occupancy_max_flits", std::uint64_t{max_buffered_});
  // Per router too: where packets wait (collnoc plot heatmap colours the routers by it).
  Report buffers;
  buffers.set("router", static_cast<std::uint64_t>(id_));
  buffers.set("buffer_occupancy_mean_flits", occupancy);
  buffers.set("buffer_occupancy_max_flits", std::uint64_t{max_buffered_});
  t.row("router_buffers", std::move(buffers));
  if (header_routing_) {
    t.count("hta.headers_routed", mc_counters_.headers_routed);
    t.count("hta.headers_consumed", mc_counters_.consumed);
    t.count("hta.flits_replicated", mc_counters_.replicated);
    t.count("hta.blocked_header_cycles", mc_counters_.blocked_header_cycles);
    t.count("hta.potentially_deadlocked", mc_counters_.potentially_deadlocked);
    t.count("hta.diversions", mc_counters_.diversions);
    t.count("hta.absorbed", mc_counters_.absorbed);
    t.count("hta.reinjected", mc_counters_.reinjected);
    t.maximum("hta.memory_max_messages", mc_counters_.max_memory_messages);
    const std::uint64_t busy =
        mc_counters_.queue_busy_cycles + (held_.empty() ? 0 : cycles - dq_busy_since_);
    t.average("hta.deadlock_queue_occupancy", cycles ? static_cast<double>(busy) / cycles : 0.0);
  }
}

RouterEvents Router::events() const {
  RouterEvents e;
  // Every unicast head routed here got an output VC, or still waits for one.
  e.route_computations = vc_alloc_->grants + routing_count_ + mc_counters_.headers_routed;
  e.vc_allocations = vc_alloc_->grants + mc_counters_.vc_allocations;
  for (unsigned p = 0; p < ports_; ++p) e.crossbar_traversals += out(p).flits;
  e.switch_allocations = e.crossbar_traversals;
  e.deadlock_queue_moves = mc_counters_.queue_moves;
  e.flits_held = buffered_;
  for (unsigned p = 0; p < ports_; ++p)
    if (in_links_[p]) e.flits_held += in_links_[p]->flits_in_flight();
  return e;
}

void Router::describe_blocked(std::ostream& os, const Topology& topo) const {
  if (!held_.empty())
    os << "  router " << id_ << " deadlock queue: " << held_.front().flits.size() - dq_next_
       << " flit(s) of packet " << net_.packets[held_.front().flits[0].packet].packet_id
       << (held_.front().complete ? "" : ", filling") << "; " << held_.size() - 1
       << " message(s) in the node's memory\n";
  for (unsigned i = 0; i < ports_ * vcs_; ++i) {
    const InputVc& ivc = in_vcs_[i];
    if (ivc.count == 0) continue;
    const FlitHeader& f = front(i).flit;
    const PacketHeader& h = net_.packets[f.packet];
    os << "  router " << id_ << " input " << topo.port_name(i / vcs_) << " vc "
       << i % vcs_ << ": " << ivc.count << " flit(s), front = packet " << h.packet_id
       << " flit " << f.seq << " (" << h.src << " -> " << h.dst << ")";
    if (ivc.state == VcState::routing || ivc.state == VcState::waiting) {
      os << " waits for an output VC on";
      const RouteResult& route = routes_[i].route;
      for (unsigned c = 0; c < route.size(); ++c) os << " " << topo.port_name(route[c].port);
    } else if (ivc.state == VcState::multicast) {
      os << " multicast, outputs";
      for (unsigned p = 0; p < ports_; ++p)
        if ((mc_[i].outputs >> p) & 1u) os << " " << topo.port_name(p);
      if (mc_[i].blocked_since != kNever) os << ", header blocked since cycle " << mc_[i].blocked_since;
      if (mc_[i].divert) os << ", leaving for the deadlock queue";
    } else if (ivc.state == VcState::active) {
      const OutputVc& ov = out_vc(ivc.out_port, ivc.out_vc);
      os << " holds output " << topo.port_name(ivc.out_port) << " vc " << unsigned(ivc.out_vc)
         << ", credits " << ov.credits;
    }
    os << "\n";
  }
}

void Router::trace(sc_trace_file* tf, const Topology& topo) {
  trace_.assign(ports_, PortTrace{});
  traced_ = true;
  set_always_on(true);
  const std::string base = std::string(name()) + ".";
  for (unsigned p = 0; p < ports_; ++p) {
    const std::string port = base + topo.port_name(p) + ".";
    PortTrace& t = trace_[p];
    if (out(p).link) {
      sc_trace(tf, t.out_valid, port + "out_valid");
      sc_trace(tf, t.out_packet, port + "out_packet", 32);
      sc_trace(tf, t.out_vc, port + "out_vc", 8);
      sc_trace(tf, t.out_credits, port + "out_credits", 16);
    }
    if (in_links_[p]) sc_trace(tf, t.in_occupancy, port + "in_occupancy", 16);
    if (in_links_[p] && header_routing_) sc_trace(tf, t.mc_outputs, port + "mc_outputs", 32);
  }
  if (header_routing_) {
    const std::string hta = base + "hta.";
    sc_trace(tf, mc_trace_.headers, hta + "headers", 8);
    sc_trace(tf, mc_trace_.header_packet, hta + "header_packet", 32);
    sc_trace(tf, mc_trace_.header_dst, hta + "header_dst", 32);
    sc_trace(tf, mc_trace_.header_port, hta + "header_port", 8);
    sc_trace(tf, mc_trace_.header_action, hta + "header_action", 2);
    sc_trace(tf, mc_trace_.queue_flits, hta + "deadlock_queue_flits", 16);
    sc_trace(tf, mc_trace_.memory_messages, hta + "memory_messages", 16);
  }
}

}  // namespace collnoc
