// What the blocks of one network share. One per network, so that two networks can live in one
// process.
#pragma once
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "noc/allocator.hpp"
#include "noc/flit.hpp"

namespace collnoc {

// Per-cycle working storage of the routers' allocators. Routers evaluate one after another, so
// they can share it, and shared it stays in cache.
struct RouterScratch {
  std::vector<VcRequest> vc_requests;
  std::vector<VcGrant> vc_grants;
  std::vector<SwitchRequest> sw_requests;
  std::vector<unsigned> sw_winners;
  std::vector<unsigned> routing_vcs;      // input VCs waiting for an output VC
  std::vector<std::uint8_t> won;          // per switch request: granted this cycle
  std::vector<std::uint8_t> port_granted; // per output port: granted this cycle
};

// What happened in one round of the firmware (MessageLayer::mark_round; each packet carries its
// sender's round): packets created, and contention events their flits met, on router-to-router
// links and at ejection ports. A round is the sender's: rounds of different cores may overlap.
struct RoundTally {
  std::uint64_t packets = 0;
  std::uint64_t contention_links = 0;
  std::uint64_t contention_ejection = 0;
};

struct NetworkContext {
  PacketPool packets;                      // headers of the packets in flight
  std::uint64_t flit_moves = 0;            // every flit movement, for the progress watchdog
  std::uint64_t measured_outstanding = 0;  // measured packets created and not yet delivered
  // Called when the workload has reached its end (every core finished, or every measured
  // packet delivered after the measurement window); run control uses it to stop on the cycle.
  std::function<void()> on_workload_done;
  RouterScratch scratch;
  bool tally_rounds = false;       // firmware runs: count per round (synthetic: all round 0)
  std::vector<RoundTally> rounds;  // indexed by round
  RoundTally& round(std::uint32_t r) {
    if (r >= rounds.size()) rounds.resize(r + std::size_t{1});
    return rounds[r];
  }
  // Payloads of packets whose size is modelled (ni.compression.size_mode = fixed_ratio): the
  // flits are counted, the words travel here, from the source NI to the destination NI.
  std::unordered_map<PacketHandle, std::vector<std::uint32_t>> modelled_payloads;
};

}  // namespace collnoc
