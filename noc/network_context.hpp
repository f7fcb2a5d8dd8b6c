// What the blocks of one network share. One per network, so that two networks can live in one
// process.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <unordered_set>
#include <utility>
#include <vector>

#include "noc/router/allocator.hpp"
#include "noc/sim/clocked_block.hpp"
#include "noc/flit.hpp"
#include "noc/sim/state_memory.hpp"

namespace collnoc {

// Per-cycle working storage of the routers' allocators. The routers a thread evaluates use it
// one after another, so they can share it, and shared it stays in cache.
struct RouterScratch {
  std::vector<VcRequest> vc_requests;
  std::vector<VcGrant> vc_grants;
  SwitchRequests sw_requests;
  unsigned switch_requests = 0;           // input VCs in sw_requests
  SwitchGrants sw_grants;
  std::vector<unsigned> routing_vcs;      // input VCs waiting for an output VC
  std::uint64_t multicast_inputs = 0;     // ports a multicast message used this cycle
  std::uint64_t multicast_outputs = 0;

  void reserve(std::size_t room) {
    vc_requests.reserve(room);
    vc_grants.reserve(room);
    routing_vcs.reserve(room);
  }
};

// Which message a packet is part of (PacketObserver::message_of): the same for every packet of
// one message, different for packets of different messages. Without an observer each packet
// is a message of its own.
struct MessageKey {
  std::uint64_t source = 0;  // who sent it, and to whom
  std::uint64_t number = 0;  // which of their messages
  bool operator==(const MessageKey& o) const { return source == o.source && number == o.number; }
  bool operator!=(const MessageKey& o) const { return !(*this == o); }
};

// Who wants to know what happened to a packet at a router: each contention event (Router counts
// them per output port) and, when asked, each output allocation. The network's owner charges
// them to what the packet belongs to (the message layer: the sender's round) and says which
// message a packet is part of, so that a packet losing its output to a packet of its own
// message is not counted as contention between messages. Called on the evaluating thread
// (`thread`: a ParallelCycle's, or 0).
class PacketObserver {
 public:
  // `packet` lost output `port` of `router`: counted for it per packet (`per_packet`: its first
  // loss there) and, when the winner was a packet of another message, per message
  // (`per_message`: its first such loss there).
  virtual void contended(PacketHandle packet, RouterId router, unsigned port, bool on_link,
                         bool per_packet, bool per_message, unsigned thread) = 0;
  virtual MessageKey message_of(PacketHandle packet) const = 0;
  // A unicast packet of `flits` flits was given output `port` of `router` (once per packet and
  // hop; only from routers asked to, Router::report_allocations).
  virtual void allocated(PacketHandle packet, RouterId router, unsigned port, unsigned flits,
                         unsigned thread) = 0;

 protected:
  ~PacketObserver() = default;
};

// What the blocks evaluated by one thread of a parallel cycle share (Clock::set_threads); on
// a cache line of its own, so that the threads do not contend for it. Lane 0 is what the
// blocks evaluated off parallel cycles use. The network's counts are the sums over its lanes
// (the same whatever thread evaluated which block).
struct alignas(64) NetworkLane {
  unsigned index = 0;  // the thread's
  RouterScratch scratch;
  std::uint64_t flit_moves = 0;
  std::int64_t measured_outstanding = 0;  // measured packets created minus delivered
  bool measured_delivered_late = false;   // one was delivered after the measurement window
};

struct NetworkContext {
  // `packet_owner_bytes`: what the network's owner keeps beside each packet header (PacketPool).
  explicit NetworkContext(std::size_t packet_owner_bytes = 0) : packets(packet_owner_bytes) {
    for (unsigned i = 0; i < lanes.size(); ++i) lanes[i].index = i;
  }
  // The blocks' hot state (routers' buffers and VC state, links), on large pages; freed with
  // the network, so declared before its blocks.
  StateMemory state;
  PacketPool packets;                      // headers of the packets in flight
  // Every flit movement, for the progress watchdog.
  std::uint64_t total_flit_moves() const {
    std::uint64_t n = 0;
    for (const NetworkLane& l : lanes) n += l.flit_moves;
    return n;
  }
  // Measured packets created and not yet delivered.
  std::int64_t measured_outstanding() const {
    std::int64_t n = 0;
    for (const NetworkLane& l : lanes) n += l.measured_outstanding;
    return n;
  }
  // Called when the workload has reached its end (every core finished, or every measured
  // packet delivered after the measurement window); run control uses it to stop on the cycle.
  std::function<void()> on_workload_done;
  // A measured packet was delivered at cycle `at` after the measurement window: the last one
  // ends the workload (looked at once the parallel part is over, when on another thread).
  template <class At>
  void measured_delivered_late(At at) {
    if constexpr (At::kParallel) lane(at).measured_delivered_late = true;
    else if (measured_outstanding() == 0 && on_workload_done) on_workload_done();
  }
  // Between the cycles' parallel parts (Clock::set_after_parallel): hands free packet records
  // to the lanes that ran out, and ends the workload if a delivery on another thread has
  // completed it.
  void after_parallel() {
    packets.rebalance();
    bool late = false;
    for (NetworkLane& l : lanes) late |= std::exchange(l.measured_delivered_late, false);
    if (late && measured_outstanding() == 0 && on_workload_done) on_workload_done();
  }
  // What blocks report in a cycle `at` (a SerialCycle or ParallelCycle), each into the lane of
  // the thread evaluating it, so that blocks never name a lane.
  template <class At>
  void count_flit_move(At at) { ++lane(at).flit_moves; }
  template <class At>
  void measured_created(At at, std::int64_t packets = 1) {
    lane(at).measured_outstanding += packets;
  }
  template <class At>
  void measured_delivered(At at) { --lane(at).measured_outstanding; }
  // Measured packets of a message a core handed over outside the clock's evaluation.
  void measured_created_outside_cycle(std::int64_t packets) {
    lanes[0].measured_outstanding += packets;
  }
  // A router's allocation scratch for this cycle (one per thread, shared by its routers).
  template <class At>
  RouterScratch& router_scratch(At at) { return lane(at).scratch; }
  // A packet record for a new packet, and its release at the destination.
  template <class At>
  PacketHandle allocate_packet(At at) { return packets.allocate(at.thread()); }
  template <class At>
  void release_packet(At at, PacketHandle h) { packets.release(h, at.thread()); }
  // Room in every thread's router scratch for `room` requests (the largest router's, at wiring).
  void reserve_router_scratch(std::size_t room) {
    for (NetworkLane& l : lanes) l.scratch.reserve(room);
  }
  PacketObserver* packet_observer = nullptr;  // none: contention is only counted
  // A unicast message has been cut into several packets (set by the NIs, outside parallel
  // cycles). Until then every packet is a message of its own, and routers tracking messages
  // need not look up whose message a packet is (Router::track_messages).
  bool multi_packet_messages = false;
  // Hardware multicast (evaluated on one thread): messages deadlock recovery diverted at least
  // once, until their last copy is delivered (hta.potentially_deadlocked counts each once).
  std::unordered_set<PacketHandle> diverted_multicasts;

 private:
  template <class At>
  NetworkLane& lane(At at) { return lanes[at.thread()]; }
  std::array<NetworkLane, kMaxThreads> lanes;  // index = the evaluating thread's
};

}  // namespace collnoc
