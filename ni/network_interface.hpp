// Network interface: between a core (TLM-2.0 target socket) and its router's local port. It is
// three blocks, each in its own file:
//   TlmFrontEnd (ni/tlm_front_end.hpp): the core's commands, the delivery queue, the XOR engine
//     and the message-passing buffer;
//   Packetizer (ni/packetizer.hpp): source queue, packets and flits, compression, injection
//     with credits;
//   Reassembler (ni/reassembler.hpp): ejection, decompression, reassembly, in-order delivery
//     to the front end.
// The NI is the SystemC module users instantiate and bind, and the block the clock evaluates:
// its cycle runs the packetizer's and reassembler's steps in a fixed order.
#pragma once
#include <memory>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

#include "ni/interface_context.hpp"
#include "ni/ni_params.hpp"
#include "ni/packetizer.hpp"
#include "ni/reassembler.hpp"
#include "ni/tlm_front_end.hpp"
#include "ni/traffic.hpp"
#include "noc/link.hpp"
#include "noc/report.hpp"
#include "noc/sim/clocked_block.hpp"

namespace collnoc {

class NetworkInterface : public Clocked<NetworkInterface> {
 public:
  NetworkInterface(sc_core::sc_module_name name, Clock& clock, NodeId id,
                   const NetworkInterfaceParams& params, const RouterParams& router,
                   NetworkContext& net, InterfaceContext& interfaces);

  // injection: NI -> router local input (router buffers per VC); ejection: router -> NI.
  void connect(Link& injection, Link& ejection);
  // A further ejection channel from the router (ni.sink_channels).
  void connect_sink_channel(Link& channel) { reassembler_.connect_sink_channel(this, channel); }

  // Synthetic traffic instead of a core.
  // (`nodes`: the network's endpoints, which multicast destinations are drawn from.)
  void set_traffic(const TrafficParams& params, const TrafficPattern& pattern,
                   const PayloadGenerator& payload, unsigned nodes, std::uint64_t seed);
  // Trace-driven traffic instead of a core: the feed's messages from this NI (ni/trace.hpp).
  // The NI stays on the clock's thread (the feed is shared).
  void set_trace(TraceFeed& feed, const PayloadGenerator& payload) {
    packetizer_.set_trace(feed, payload);
    reassembler_.set_payload(payload);
    reassembler_.set_trace(feed);
  }
  // A synthetic packet or multicast message placed by hand (Packetizer::queue_synthetic),
  // before the simulation starts or between runs of it.
  void queue_synthetic(SyntheticSource::Packet p, Cycle created) {
    packetizer_.queue_synthetic(std::move(p), created);
    wake_at(std::max(created, clock().now()));
  }
  // Reports multicast results: hardware multicast copies (the routers replicate:
  // RouterParams::hta) or the unicasts of software and column-path multicast.
  void enable_multicast() { reassembler_.enable_multicast(packetizer_); }
  // Column-path multicast (traffic.multicast_scheme = column_path): the paths' planner.
  void set_column_paths(const ColumnPaths& paths) { packetizer_.set_column_paths(paths); }
  void set_measurement_window(Cycle begin, Cycle end) {
    packetizer_.set_measurement_window(begin, end);
    reassembler_.set_measurement_window(begin, end);
  }

  NodeId id() const { return id_; }
  const Packetizer& packetizer() const { return packetizer_; }
  void count_tile_injections(TileInjections* tile, unsigned core) {
    packetizer_.count_tile_injections(tile, core);
  }
  const Reassembler& reassembler() const { return reassembler_; }
  void record_flows(NodeId nodes) { reassembler_.record_flows(nodes); }
  const TlmFrontEnd& front_end() const { return front_end_; }
  bool idle() const { return packetizer_.idle(); }
  void finish(Cycle now) { packetizer_.finish(now); }
  // Each block's counters into the results.
  void report(Tally& t) const;

  void trace(sc_core::sc_trace_file* tf);

 protected:
  friend class Clocked<NetworkInterface>;
  template <class At>
  void cycle(At at);
  Cycle next_work_cycle(Cycle now) const override;
  void prefetch() const override;

 private:
  // The blocks' hot parts come first, from the line of the block's flags (ClockedBlock) on: a
  // large network's NIs do not stay in cache between cycles (the clock prefetches them:
  // set_traffic), and a small one's outgrow the L1 cache.
  Packetizer packetizer_;
  Reassembler reassembler_;
  TlmFrontEnd front_end_;
  NodeId id_;

 public:
  // Optional: an NI fed by a synthetic source has no core bound to it. (Declared last: its
  // kilobyte would otherwise sit between the blocks' fields.)
  tlm_utils::simple_target_socket_optional<TlmFrontEnd> socket;
};

template <class At>
void NetworkInterface::cycle(At at) {
  packetizer_.start_cycle(at);  // credits back from the router
  reassembler_.eject(at);
  packetizer_.generate(at);
  packetizer_.inject(at);
  packetizer_.end_cycle();
}

}  // namespace collnoc
