// Input-queued virtual-channel router with credit flow control, as its pipeline:
//
//   receive   flits from the input links into the VC buffers; a head at the front of its VC is
//             routed (route computation: the routing function's candidates)
//   allocate  VC allocation for the heads whose pipeline delay is over, then switch allocation
//             among the packets that hold an output VC and have a credit for it
//   traverse  the winners cross the crossbar onto the output links; credits go back upstream
//
// A head flit that arrives in cycle a is ready for VC and switch allocation in cycle
// a + hop_latency_cycles - 1 and, if it wins both, is sent on the output link that cycle; with a
// 1-cycle link it is in the next router in cycle a + hop_latency_cycles. Body flits follow one
// per cycle. Wormhole, virtual cut-through and store-and-forward differ only in when a packet
// may advance (see Switching); contention is counted where a packet loses (count_contention):
// per packet, and between messages, where the winner is a packet of another message.
#pragma once
#include <cstdint>
#include <deque>
#include <iosfwd>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "noc/router/allocator.hpp"
#include "noc/sim/clocked_block.hpp"
#include "noc/link.hpp"
#include "noc/network_context.hpp"
#include "noc/random.hpp"
#include "noc/report.hpp"
#include "noc/routing/header_routing.hpp"
#include "noc/routing/routing.hpp"

namespace collnoc {

// When an output VC may be given to the next packet (VC allocation).
enum class VcRealloc : std::uint8_t {
  automatic,  // `tail`, except the VCs the routing function takes adaptively (wormhole): `empty`
  tail,       // once the previous packet's tail has left this router
  empty,      // once the downstream buffer is empty too (atomic reallocation)
};
const char* to_string(VcRealloc r);
const std::vector<VcRealloc>& vc_realloc_modes();

// When a multicast header flit may be routed at the next router (SPEC 5).
enum class HeaderTiming : std::uint8_t {
  delayed,    // once every header of its message has been routed here (the VC's control line)
  immediate,  // as soon as it is at the front of its VC
};
const char* to_string(HeaderTiming t);
const std::vector<HeaderTiming>& header_timings();

// Hardware tree-based multicast (HTA, SPEC 5): the router replicates the messages of its last
// VC class. Switched on by the system (traffic.multicast_scheme = hta), which also gives the
// routers their header routing (Router::enable_multicast).
struct HtaParams {
  bool enabled = false;
  HeaderTiming header_routing = HeaderTiming::delayed;  // hta.header_routing
  // Deadlock recovery: a header not routable for this long moves, with its message, into the
  // router's deadlock queue, which re-injects it this long after it is complete there.
  unsigned timeout_cycles = 16;             // hta.timeout_cycles
  unsigned reinjection_delay_cycles = 50;   // hta.reinjection_delay_cycles
  std::uint64_t seed = 1;  // the routers' tie-break generators (from sim.seed)

  static constexpr UintRange timeout_cycles_range{1, 1u << 30};
  static constexpr UintRange reinjection_delay_cycles_range{0, 1u << 30};
};

struct RouterParams {
  unsigned vcs = 4;                 // virtual channels per input port
  unsigned vc_classes = 1;          // virtual networks; each gets vcs / vc_classes VCs
  unsigned buffer_flits = 4;        // depth of each VC buffer
  unsigned hop_latency_cycles = 3;  // head flit: arrival to departure + 1 (pipeline depth)
  Switching switching = Switching::wormhole;
  VcRealloc vc_realloc = VcRealloc::automatic;
  std::string vc_allocator = "round_robin";
  std::string switch_allocator = "round_robin";
  unsigned islip_iterations = 1;    // iSLIP allocators: request-grant-accept rounds per cycle
  // Payload words a flit carries: what each buffer slot holds (1..kMaxFlitWords). Not a key
  // of its own: the system sets it from the NIs' flit width (ni.flit_width_bits / 32).
  unsigned flit_words = kMaxFlitWords;
  HtaParams hta;

  unsigned vcs_per_class() const { return vcs / vc_classes; }

  static constexpr UintRange vcs_range{1, 32};
  static constexpr UintRange vc_classes_range{1, kU32Max};  // and dividing vcs
  static constexpr UintRange buffer_flits_range{1, 65535};
  static constexpr UintRange hop_latency_cycles_range{1, 1000};
  static constexpr UintRange islip_iterations_range{1, 64};  // (at most 64 ports: a full matching)
};

// Throws ParamError naming the offending router.* key.
void validate(const RouterParams& p);
// Throws ParamError when the routers' VC reallocation would let `routing` deadlock (router.vc_realloc
// = tail with a routing function that takes VCs adaptively under wormhole switching).
void check_vc_realloc(const RouterParams& p, const RoutingFunction& routing,
                      const std::string& routing_name);

// What deadlock recovery did with a multicast message at a router (Router::log_recovery).
struct RecoveryEvent {
  enum class What : std::uint8_t {
    blocked,       // its front header found no channel (the timeout starts)
    diverted,      // the timeout is over: it leaves for the deadlock queue
    absorbed,      // ... which was full: into the node's memory
    queued,        // whole in the deadlock queue (re-injection delay starts)
    reinjecting,   // its first flit leaves the deadlock queue
  };
  Cycle cycle;
  What what;
  PacketId packet;
};

// What a router did over the run, for energy estimates (platforms/energy_model.hpp): derived
// from counters it keeps anyway, or counted once per packet and hop, so that the per-flit path
// carries no counter of its own. Buffer writes and reads follow from the senders' counts
// (NocSystem::router_activity).
struct RouterEvents {
  std::uint64_t route_computations = 0;   // unicast heads routed, multicast headers routed
  std::uint64_t vc_allocations = 0;       // output VCs granted to a packet (or a message)
  std::uint64_t switch_allocations = 0;   // switch grants: one per flit and output
  std::uint64_t crossbar_traversals = 0;  // flits out of the crossbar (multicast copies each)
  std::uint64_t deadlock_queue_moves = 0; // flits into the deadlock queue or memory, and out
  std::uint64_t flits_held = 0;           // at the end: in the input buffers or arriving there
};

// Counters of one output port (and so of the link it drives).
struct OutputCounters {
  std::uint64_t flits = 0;              // flits sent
  std::uint64_t busy_cycles = 0;        // cycles at least one of its VCs was held by a packet
  // Packets that had a flit ready but lost this output to a packet of another message (each
  // packet its own message unless the network's observer says otherwise: Router::track_messages).
  std::uint64_t contention_events = 0;
  std::uint64_t contention_events_packets = 0;  // ... to any other packet, its message's too
};

class Router : public Clocked<Router> {
 public:
  Router(sc_core::sc_module_name name, Clock& clock, RouterId id, unsigned ports,
         const RouterParams& params, const RoutingFunction& routing, NetworkContext& net);
  // Makes the VCs of the last class replicating (params.hta.enabled): their messages' header
  // flits are routed by `headers`. Call after wiring.
  void enable_multicast(const HeaderRouting& headers);

  // Wiring. An input link brings flits into `port`; an output link takes them to a router
  // (`to_router`: counts a hop) or to an NI, whose buffers are `downstream_buffer_flits` per VC.
  void connect_input(unsigned port, Link& link);
  void connect_output(unsigned port, Link& link, unsigned downstream_buffer_flits, bool to_router);
  // Sink channels (ni.sink_channels): output `extra` is one more ejection channel to the NI of
  // local port `local`. A packet routed to `local` may take a VC of any of them, and a
  // multicast copy for that node one of any of them.
  void add_sink_channel(unsigned local, unsigned extra);

  RouterId id() const { return id_; }
  bool replicates() const { return header_routing_ != nullptr; }  // (enable_multicast)
  unsigned ports() const { return ports_; }
  const RouterParams& params() const { return params_; }
  // Multicast: flit copies the crossbar made beyond the one it received, and header flits
  // consumed here (their destination is this node) (flit conservation counts both).
  std::uint64_t flits_replicated() const { return mc_counters_.replicated; }
  std::uint64_t headers_consumed() const { return mc_counters_.consumed; }
  // Flits of messages in the deadlock queue and the node's memory (deadlock recovery).
  std::uint64_t held_flits() const;
  // Appends what deadlock recovery does here to `log` (tests, studies; null: nothing).
  void log_recovery(std::vector<RecoveryEvent>* log) { recovery_log_ = log; }
  OutputCounters output_counters(unsigned port) const {
    const OutputStats& st = stats_[port];
    return OutputCounters{out(port).flits, st.busy_cycles,
                          tracking() ? message_contention_[port] : st.contention_events,
                          st.contention_events};
  }
  bool output_connected(unsigned port) const { return out(port).link != nullptr; }
  bool input_connected(unsigned port) const { return in_links_[port] != nullptr; }
  unsigned buffered_flits() const { return buffered_; }
  unsigned max_buffered_flits() const { return max_buffered_; }
  // Sum over cycles of flits held in the input buffers (time-average = this / cycles).
  std::uint64_t occupancy_flit_cycles(Cycle now) const {
    return occupancy_flit_cycles_ + static_cast<std::uint64_t>(buffered_) * (now - occupancy_since_);
  }
  RouterEvents events() const;
  // Closes the busy-cycle intervals still open at the end of a run.
  void finish(Cycle now);
  // Per output VC, the cycles it was held by a packet (stats.per_vc): the links' rows get
  // vc_busy_cycles and vc_utilization.
  void record_vc_usage() {
    vc_busy_.assign(static_cast<std::size_t>(ports_) * vcs_, VcBusy{});
    vc_usage_ = true;
  }
  // Tells the network's contention observer of every unicast output allocation (per packet
  // and hop: stats.per_round_links); needs one.
  void report_allocations() {
    if (net_.packet_observer) grant_hooks_ |= kReportAllocations;
  }
  // Counts contention between messages as the network's observer groups packets into messages
  // (PacketObserver::message_of), not a packet losing to a packet of its own message; needs
  // one. Without it each packet is a message of its own (the two counts are equal).
  void track_messages();
  // Its counters into the results (up to the current cycle), and a row per output link.
  void report(Tally& t, const Topology& topo) const;
  // Appends one line per non-empty input VC: what its front flit waits for.
  void describe_blocked(std::ostream& os, const Topology& topo) const;
  // Visits every flit held in the input buffers (conservation check).

  // Registers per-port activity with a VCD file (call before simulation; forces per-cycle
  // evaluation of this router so that one-cycle pulses are drawn correctly).
  void trace(sc_core::sc_trace_file* tf, const Topology& topo);

 protected:
  Cycle next_work_cycle(Cycle now) const override;
  void prefetch() const override;

 private:
  // multicast: a message of the multicast class (its headers routed one by one, its data
  // replicated onto every output allocated to it: move_multicast). waiting: a ready head that
  // found every output VC it may take held (or short of credits) after allocation; it asks
  // again once a VC of that port may have come free (changed_ports_), not every cycle.
  enum class VcState : std::uint8_t { idle, routing, active, multicast, waiting };
  // An input VC: the state of the packet at its front and a ring over its share of the
  // router's slots (slots_[index * buffer_flits ...]; the upstream sender writes them, see
  // Link). 16 bytes, four to a cache line: an evaluation reads every VC holding flits, and a
  // large network's routers do not stay in cache between cycles. Its routing candidates sit
  // apart (routes_): only a waiting head needs them.
  struct InputVc {
    Cycle ready_cycle = 0;  // head may take part in allocation from this cycle on
    std::uint16_t head = 0, count = 0;
    VcState state = VcState::idle;
    std::uint8_t out_port = 0, out_vc = 0;  // the output VC it holds (state active); waiting:
                                            // the port it waits on
    std::uint8_t contended = 0;  // this packet's contention here already counted: kContended*
  };
  static_assert(sizeof(InputVc) == 16, "InputVc: four to a cache line");
  // What allocation reads of a waiting head: its routing candidates, its class and length.
  struct alignas(32) HeadRoute {
    RouteResult route;
    std::uint16_t length = 1;
    std::uint8_t vc_class = 0;
  };
  static_assert(sizeof(HeadRoute) == 32, "HeadRoute: two to a cache line");
  struct OutputVc {
    std::int16_t owner = -1;  // input VC index holding it, -1 if free
    std::uint16_t credits = 0;
    std::uint16_t next_slot = 0;  // where its next flit lands in the downstream VC's buffer
    // Credits it must have before a new packet may take it: the downstream depth for VCs
    // reallocated only when empty (RouterParams::vc_realloc), else 0.
    std::uint16_t realloc_credits = 0;
  };
  // An output port, followed in out_ by its VCs: a port's block (32 + 8 x vcs bytes) is one
  // cache line with 4 VCs, so that sending a flit, and collecting a port's credits, touch one
  // line. Its other counters, touched once per packet, are in stats_.
  struct OutputPort {
    Link* link = nullptr;
    std::uint64_t flits = 0;  // sent
    Cycle busy_since = 0;
    std::uint32_t held_vcs = 0;
    bool to_router = false;
  };
  static_assert(sizeof(OutputPort) == 32 && sizeof(OutputVc) == 8, "an output port's block");
  struct OutputStats {
    std::uint64_t busy_cycles = 0, contention_events = 0;  // (contention: per packet)
  };
  // What the VC allocation loop calls out of line for each grant (grant_hooks_).
  static constexpr std::uint8_t kReportAllocations = 1, kTrackMessages = 2;
  // InputVc::contended: what has been counted of its packet's contention at this router.
  static constexpr std::uint8_t kContendedPacket = 1, kContendedMessage = 2,
                                kContendedBoth = kContendedPacket | kContendedMessage;
  // Whom a packet lost its output to (count_contention): the packet before it on its output VC,
  // whose flits fill the downstream buffer; the packets holding, or granted this cycle, the VCs
  // it asked for; the winner of the switch for that output; a multicast message.
  enum class Rival : std::uint8_t { downstream, vc_holders, switch_winner, multicast };
  // A multicast message at the front of an input VC: the outputs allocated to it here (and
  // their VCs, in mc_out_vc_), and what delayed header routing and deadlock detection need.
  // A message, or the part of one, that deadlock recovery took out of the network: the
  // headers that could not be routed, then the data (payload flit_words_ words a flit).
  struct HeldMessage {
    std::vector<FlitHeader> flits;
    std::vector<std::uint32_t> payload;
    bool complete = false;  // its tail is in
  };
  struct MulticastVc {
    std::uint64_t outputs = 0;
    Cycle blocked_since = kNever;  // its front header could not be routed since
    bool signalled = false;        // control lines raised downstream: all headers routed here
    HeldMessage* divert = nullptr;  // deadlock recovery took its message: where it goes
  };
  struct MulticastCounters {
    std::uint64_t replicated = 0, consumed = 0, headers_routed = 0, blocked_header_cycles = 0;
    std::uint64_t potentially_deadlocked = 0, diversions = 0, absorbed = 0, reinjected = 0;
    std::uint64_t queue_busy_cycles = 0, max_memory_messages = 0;
    std::uint64_t vc_allocations = 0, queue_moves = 0;  // (RouterEvents)
  };
  struct PortTrace {  // what a VCD shows per port
    bool out_valid = false;
    unsigned out_packet = 0;
    unsigned out_vc = 0;
    unsigned out_credits = 0;
    unsigned in_occupancy = 0;
    unsigned mc_outputs = 0;  // multicast: output ports the messages of this input hold
  };
  // What a VCD shows of a multicast router: the headers it routed this cycle (the last one's
  // message, destination, output and what became of it: 0 forwarded, 1 consumed, 2 taken by
  // deadlock recovery), its deadlock queue and the node's memory.
  struct MulticastTrace {
    unsigned headers = 0, header_packet = 0, header_dst = 0, header_port = 0, header_action = 0;
    unsigned queue_flits = 0, memory_messages = 0;
  };
  void trace_header(PacketHandle packet, NodeId dst, unsigned port, unsigned action) {
    ++mc_trace_.headers;
    mc_trace_.header_packet = packet_tag(net_.packets[packet].packet_id);
    mc_trace_.header_dst = dst;
    mc_trace_.header_port = port;
    mc_trace_.header_action = action;
  }

  // The head at the front of input VC `ivc_index` (what its notice says, or its slot) arrived
  // in cycle `arrived`; it may take part in allocation from `earliest` on.
  void start_head(unsigned ivc_index, const Arrival& head, Cycle arrived, Cycle earliest);
  bool head_ready(unsigned i, Cycle now) const;
  // The pipeline of one cycle (At: SerialCycle or ParallelCycle). Its stages are inlined into
  // it, and what they call (flatten): called from several places, the compiler would stop
  // inlining them and the allocators into them, and the serial cycle would lose about 6 %.
  friend class Clocked<Router>;
  template <class At>
  void cycle(At at);
  // Stage 1: the flits that have arrived into their VCs (heads routed: start_head), the
  // credits that have come back into their output VCs.
  template <class At>
  __attribute__((always_inline)) inline void receive(At at);
  // Stages 2 and 3 of a router with multicast work (out of line: the unicast cycle does not
  // carry it): move_multicast first, then the unicast stages without the ports it took.
  template <class At>
  [[gnu::noinline]] void multicast_cycle(At at);
  // Stage 2 for the multicast VCs, before the others (a copy needs all its outputs in one
  // cycle: with equal priority a busy output would hold it back for ever): each routes its
  // front header (HeaderRouting) or, all headers routed, copies its front data flit onto every
  // output allocated to it. Ports it uses are in s.multicast_inputs/outputs.
  template <class At>
  void move_multicast(At at, RouterScratch& s);
  template <class At>
  bool route_header(At at, unsigned i, RouterScratch& s);
  template <class At>
  bool copy_data(At at, unsigned i, RouterScratch& s);
  // The switch requests whose input or output port a multicast message took this cycle are
  // withdrawn (contention, for an output).
  void withdraw_requests(unsigned thread, RouterScratch& s);
  // Delayed header routing: every header of VC i's message is routed here; tell downstream.
  template <class At>
  void signal_headers_routed(At at, unsigned i);
  // Pops VC i's front flit and returns its credit upstream.
  template <class At>
  void take_front(At at, unsigned i);
  void start_multicast(unsigned i);
  // Sink channels: `ports` (a bit each) with each local port's bit set when one of its other
  // channels' is; and the channel of local port `local` a consumed header takes, the first
  // with a free VC in `free` (a message has one header per node: nothing is allocated there).
  std::uint64_t fold_sinks(std::uint64_t ports) const;
  unsigned sink_for(unsigned local, std::uint64_t free) const;
  // The sink channel a unicast head for local port `local` asks for this cycle: one with the
  // fewest VCs held, the first of them from a rotating start (heads of one cycle spread out).
  unsigned pick_sink(unsigned local);
  void update_multicast_work() { multicast_work_ = multicast_vcs_ > 0 || !held_.empty(); }
  // Multicast sources: the input VCs, and the deadlock queue (index dq_index_, re-injecting
  // its message once complete and the delay is over).
  const FlitHeader& mc_front(unsigned i) const {
    return i == dq_index_ ? held_.front().flits[dq_next_] : front(i).flit;
  }
  const std::uint32_t* mc_front_payload(unsigned i) const {
    return i == dq_index_ ? &held_.front().payload[dq_next_ * flit_words_] : payload_of(front(i));
  }
  // Whether source i has a header at its front.
  bool mc_front_is_header(unsigned i) const;
  template <class At>
  void mc_pop(At at, unsigned i);
  // Deadlock recovery: header or data flit `f` goes into message `m` held here.
  void hold_flit(HeldMessage& m, const FlitHeader& f, const std::uint32_t* payload);
  // A diversion starts: a new held message, in the deadlock queue if it is free, else in
  // the node's memory (absorbed).
  HeldMessage* start_diversion(Cycle now, PacketHandle packet);
  // The deadlock queue's message is re-injected; the next one is fetched from memory.
  void finish_reinjection(Cycle now);
  // Stage 2a, one pass over the VCs holding flits: a packet that holds an output VC asks for
  // the switch (request_switch), a head ready for allocation for an output VC (request_vc).
  template <class At>
  __attribute__((always_inline)) inline void collect_requests(At at, RouterScratch& s);
  // A ready head's requests for the output VCs its route allows (free ones; with whole-packet
  // switching, those with room for the packet).
  __attribute__((always_inline)) inline void request_vc(unsigned i, Cycle now, RouterScratch& s);
  void select_candidates(unsigned i, Cycle now, std::uint8_t* order) const;
  // Its request for the free VCs of output `port` within [vc_begin, vc_end) of its class.
  __attribute__((always_inline)) inline void request_port(unsigned i, unsigned port,
                                                          unsigned vc_begin, unsigned vc_end,
                                                          RouterScratch& s);
  // The VCs of output `port` within [vc_begin, vc_end) of its class that the head of input VC
  // i may take now (free, and with the credits reallocation and switching ask for).
  __attribute__((always_inline)) inline std::uint32_t free_vcs(unsigned i, unsigned port,
                                                               unsigned vc_begin,
                                                               unsigned vc_end) const;
  // After allocation: a ready head left without a VC waits for its port to change (state
  // waiting) if it has one candidate and none of that port's VCs is free for it.
  void wait_if_blocked(unsigned i);
  // A packet holding an output VC asks for the switch if that VC has a credit.
  template <class At>
  __attribute__((always_inline)) inline void request_switch(At at, unsigned i, RouterScratch& s);
  // Stage 2b, VC allocation among the requests: the winners hold their output VCs and ask for
  // the switch in the same cycle.
  template <class At>
  __attribute__((always_inline)) inline void allocate_vcs(At at, RouterScratch& s);
  // Stage 2c, switch allocation: at most one flit per input port and per output port.
  template <class At>
  __attribute__((always_inline)) inline void allocate_switch(At at, RouterScratch& s);
  // Stage 3: the winners' flits cross to their output links, their credits go upstream.
  template <class At>
  __attribute__((always_inline)) inline void traverse(At at, RouterScratch& s);
  void check_port(unsigned port) const {  // (wiring)
    if (port >= ports_) throw std::out_of_range("router port " + std::to_string(port));
  }
  void hold(unsigned port, unsigned vc, Cycle now);
  void release(unsigned port, unsigned vc, Cycle now);
  // A packet that lost its output to `rival` (`thread`: the evaluating one's, for the
  // observer; `s`: this cycle's grants, for a switch winner).
  void count_contention(unsigned i, unsigned port, unsigned thread, Rival rival,
                        const RouterScratch& s) {
    InputVc& ivc = in_vcs_[i];
    if (ivc.contended == kContendedBoth) return;
    if (net_.packet_observer) return count_observed_contention(i, port, thread, rival, s);
    ivc.contended = kContendedBoth;  // (each packet its own message)
    ++stats_[port].contention_events;
  }
  // With an observer (out of line: the allocation stages stay lean): counts the packet's loss
  // and, tracking messages, the message's if `rival` is a packet of another message; tells
  // the observer.
  [[gnu::noinline]] void count_observed_contention(unsigned i, unsigned port, unsigned thread,
                                                   Rival rival, const RouterScratch& s);
  // Output VC `g` went to a packet: what grant_hooks_ asks for.
  [[gnu::noinline]] void granted(const VcGrant& g, unsigned thread);
  bool tracking() const { return !vc_messages_.empty(); }  // track_messages()
  // The key of the message of the packet at the front of input VC i (tracking()).
  MessageKey message_at(unsigned i) const {
    return net_.packet_observer->message_of(front(i).flit.packet);
  }
  // Whether `rival` includes a packet of a message other than `mine`.
  bool other_message(unsigned i, unsigned port, Rival rival, const RouterScratch& s,
                     const MessageKey& mine) const;
  // Tells the network's contention observer (out of line: the allocation stages stay lean).
  [[gnu::noinline]] void report_contention(unsigned i, unsigned port, unsigned thread,
                                           bool per_packet, bool per_message);
  // Calls f(input VC index) for every input VC holding flits, in index order.
  template <typename F>
  void for_each_nonempty(F&& f) const {
    for (std::size_t w = 0; w < nonempty_words_; ++w)
      for (std::uint64_t bits = nonempty_[w]; bits; bits &= bits - 1)
        f(static_cast<unsigned>(w * 64 + __builtin_ctzll(bits)));
  }

  // Input VC `i`'s ring of slots.
  BufferSlot& front(unsigned i) { return slots_[i * buffer_flits_ + in_vcs_[i].head]; }
  const BufferSlot& front(unsigned i) const { return slots_[i * buffer_flits_ + in_vcs_[i].head]; }
  // A slot's payload words (in their own array, beside the slots).
  const std::uint32_t* payload_of(const BufferSlot& s) const {
    return &payload_[static_cast<std::size_t>(&s - slots_) * flit_words_];
  }
  // The k-th flit behind the front (k < buffer_flits: no division).
  const BufferSlot& slot_at(unsigned i, unsigned k) const {
    unsigned at = in_vcs_[i].head + k;
    if (at >= buffer_flits_) at -= buffer_flits_;
    return slots_[i * buffer_flits_ + at];
  }
  void pop(InputVc& ivc) {
    ivc.head = static_cast<std::uint16_t>(ring_next(ivc.head, buffer_flits_));
    --ivc.count;
  }
  std::size_t port_block_bytes() const { return sizeof(OutputPort) + sizeof(OutputVc) * vcs_; }
  OutputPort& out(unsigned port) {
    return *reinterpret_cast<OutputPort*>(out_ + port * port_block_bytes());
  }
  const OutputPort& out(unsigned port) const {
    return *reinterpret_cast<const OutputPort*>(out_ + port * port_block_bytes());
  }
  OutputVc& out_vc(unsigned port, unsigned vc) {
    return reinterpret_cast<OutputVc*>(&out(port) + 1)[vc];
  }
  const OutputVc& out_vc(unsigned port, unsigned vc) const {
    return reinterpret_cast<const OutputVc*>(&out(port) + 1)[vc];
  }

  // The router's allocators and arrays come one after the other from the network's state memory
  // (StateMemory::array, in the order of the constructor), the small ones first: an evaluation
  // touches a few neighbouring lines of them rather than a line in each of separate
  // allocations (a large network's routers do not stay in cache between cycles).
  // What an evaluation reads comes first, together: on the line of the block's port masks
  // (ClockedBlock) and the next two, the second of them the arrays' addresses (a large network's
  // routers do not stay in cache between cycles, and a small one's outgrow the L1 cache).
  unsigned buffered_ = 0;
  std::uint64_t held_ports_ = 0;  // output ports with a VC held by a packet (they send next)
  // Output ports where a VC was released or credits came back since the waiting heads last
  // looked: only those can free a VC for a head in state waiting. Credits count only on the ports
  // whose VCs need some to be taken (credit_frees_: reallocation when empty, or whole-packet
  // switching); on the others a busy port's credits, back every cycle, free nothing.
  std::uint64_t changed_ports_ = 0;
  std::uint64_t credit_frees_ = 0;
  Cycle occupancy_since_ = 0;
  std::uint64_t occupancy_flit_cycles_ = 0;
  NetworkContext& net_;
  StateMemory::Owned<VcAllocator> vc_alloc_;  // in net_.state, first
  StateMemory::Owned<SwitchAllocator> sw_alloc_;
  unsigned routing_count_ = 0;  // input VCs waiting for an output VC
  unsigned max_buffered_ = 0;
  // The parameters a cycle reads, narrow (validate bounds them).
  std::uint16_t buffer_flits_, hop_latency_cycles_;
  std::uint8_t vcs_, vcs_per_class_, flit_words_;
  Switching switching_;
  bool traced_ = false;
  bool multicast_work_ = false;  // a multicast VC or held message (update_multicast_work)
  bool sinks_ = false;           // a local port has more than one sink channel (sink_next_)
  bool ages_ = false;            // an allocator is oldest-first: keep created_ (start_head)
  bool vc_usage_ = false;        // record_vc_usage(): hold and release time each VC
  // Heads may wait in state waiting: asking again on a cycle nothing changed would change
  // nothing (not with sink channels, whose choice rotates each request, nor with a VC
  // allocator that moves on every call: VcAllocator::moves_without_grants).
  bool heads_wait_ = true;
  std::uint8_t grant_hooks_ = 0;  // kReportAllocations | kTrackMessages: on a line the cycle reads
  std::uint8_t multicast_class_ = 0xff;  // the class multicast messages use; none = 0xff
  Link** in_links_;
  std::uint64_t* nonempty_;  // bit per input VC with flits buffered
  std::uint8_t* port_of_;    // per input VC: its port (saves a division)
  OutputStats* stats_;       // per output port (beside the lines every evaluation reads:
                             // contention is counted often in a busy network)
  unsigned char* out_;       // per port: OutputPort, then its OutputVcs (see out())
  InputVc* in_vcs_;          // index = port * vcs + vc
  HeadRoute* routes_;        // per input VC: its head's routing candidates
  BufferSlot* slots_;        // every input VC's buffer slots
  std::uint32_t* payload_;   // and their payload words, flit_words_ per slot
  // The rest: read when a head arrives, or not in a cycle at all.
  std::uint8_t nonempty_words_;
  const RoutingFunction& routing_;
  RouterId id_;
  unsigned ports_;
  RouterParams params_;
  // Oldest-first allocators: per input VC, the cycle its front packet was created (ages_).
  std::vector<Cycle> created_;
  // Output VCs reallocated only when empty (bits over all VCs), on ports to routers and to NIs.
  std::uint32_t empty_realloc_to_router_ = 0, empty_realloc_to_ni_ = 0;
  std::vector<PortTrace> trace_;  // empty unless traced
  // Sink channels: per output port, the group of ejection channels it belongs to (kNoPort: none);
  // per group, its ports (the local port first); the channel the next choice starts from.
  std::vector<std::uint8_t> sink_group_of_;
  std::vector<std::vector<std::uint8_t>> sink_groups_;
  unsigned sink_rr_ = 0;
  static constexpr std::uint8_t kNoPort = 0xff;
  // Multicast (enable_multicast).
  unsigned multicast_vcs_ = 0;  // input VCs in state multicast
  unsigned multicast_rr_ = 0;   // which of them goes first this cycle (round-robin)
  const HeaderRouting* header_routing_ = nullptr;
  std::vector<MulticastVc> mc_;            // per input VC
  std::vector<std::uint8_t> mc_out_vc_;    // per input VC and output port: the VC allocated
  std::vector<std::uint16_t> out_depth_;   // per output port: the downstream VC depth
  std::vector<unsigned> mc_order_;         // (scratch of move_multicast)
  Rng tie_rng_;
  MulticastCounters mc_counters_;
  // Deadlock recovery: held_.front() is the deadlock queue's message, the rest are absorbed
  // into the node's memory, in order (a deque: a diverting VC keeps a pointer to its own).
  std::deque<HeldMessage> held_;
  unsigned dq_index_ = ~0u;   // the deadlock queue as a multicast source (ports * vcs)
  std::size_t dq_next_ = 0;   // its next flit to re-inject
  Cycle dq_ready_ = kNever;   // it may re-inject from this cycle
  Cycle dq_busy_since_ = 0;
  std::vector<RecoveryEvent>* recovery_log_ = nullptr;
  MulticastTrace mc_trace_;
  struct VcBusy {
    Cycle since = 0;
    std::uint64_t cycles = 0;
  };
  std::vector<VcBusy> vc_busy_;  // per output port and VC, with vc_usage_
  // track_messages(): per output port and VC, the message of the packet that holds or last
  // held it, then that of the packet before (2 x (port * vcs + vc), + 1); per output port,
  // its contention events between messages.
  std::vector<MessageKey> vc_messages_;
  std::vector<std::uint64_t> message_contention_;
  void note(Cycle now, RecoveryEvent::What what, PacketHandle packet) {
    if (recovery_log_) recovery_log_->push_back({now, what, net_.packets[packet].packet_id});
  }
};

}  // namespace collnoc
