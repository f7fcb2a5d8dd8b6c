// What the blocks of one network share. One per network, so that two networks can live in one
// process.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "noc/allocator.hpp"
#include "noc/clock.hpp"
#include "noc/flit.hpp"
#include "noc/huge_pages.hpp"

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
};

// What happened in one round of the firmware (MessageLayer::mark_round; each packet carries its
// sender's round): packets created, and contention events their flits met, on router-to-router
// links and at ejection ports. A round is the sender's: rounds of different cores may overlap.
struct RoundTally {
  std::uint64_t packets = 0;
  std::uint64_t contention_links = 0;
  std::uint64_t contention_ejection = 0;
};

// Adds `r`'s tally to `rounds`, growing it as needed.
inline RoundTally& tally_of(std::vector<RoundTally>& rounds, std::uint32_t r) {
  if (r >= rounds.size()) rounds.resize(r + std::size_t{1});
  return rounds[r];
}

// What the blocks evaluated by one thread of a parallel cycle share (Clock::set_threads); on
// a cache line of its own, so that the threads do not contend for it. Lane 0 is what the
// blocks evaluated off parallel cycles use. The network's counts are the sums over its lanes
// (the same whatever thread evaluated which block).
struct alignas(64) NetworkLane {
  RouterScratch scratch;
  std::uint64_t flit_moves = 0;
  std::vector<RoundTally> rounds;  // packets created and contention met, by round
  RoundTally& round(std::uint32_t r) { return tally_of(rounds, r); }
  std::int64_t measured_outstanding = 0;  // measured packets created minus delivered
  bool measured_delivered_late = false;   // one was delivered after the measurement window
};

struct NetworkContext {
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
  std::array<NetworkLane, kMaxThreads> lanes;  // index = the evaluating thread's
  // The per-thread state of a block evaluating cycle `at` (a SerialCycle or ParallelCycle).
  template <class At>
  NetworkLane& lane(At at) { return lanes[at.thread()]; }
  bool tally_rounds = false;  // firmware runs: count per round (synthetic: all round 0)
  // Each round's packets and contention, over the lanes.
  std::vector<RoundTally> round_totals() const {
    std::vector<RoundTally> total;
    for (const NetworkLane& l : lanes)
      for (std::uint32_t r = 0; r < l.rounds.size(); ++r) {
        RoundTally& t = tally_of(total, r);
        t.packets += l.rounds[r].packets;
        t.contention_links += l.rounds[r].contention_links;
        t.contention_ejection += l.rounds[r].contention_ejection;
      }
    return total;
  }
  // Payloads of packets whose size is modelled (ni.compression.size_mode = fixed_ratio): the
  // flits are counted, the words travel here, from the source NI to the destination NI.
  std::unordered_map<PacketHandle, std::vector<std::uint32_t>> modelled_payloads;
};

}  // namespace collnoc
