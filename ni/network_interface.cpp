#include "ni/network_interface.hpp"

namespace collnoc {

using namespace sc_core;

void validate(const NetworkInterfaceParams& p) {
  using P = NetworkInterfaceParams;
  if (!P::flit_width_bits_range.contains(p.flit_width_bits) || p.flit_width_bits % 32)
    throw ParamError("ni.flit_width_bits", std::to_string(p.flit_width_bits),
                     "must be a multiple of 32 " + range_text(P::flit_width_bits_range));
  check_range("ni.max_packet_flits", p.max_packet_flits, P::max_packet_flits_range);
  check_range("ni.ejection_buffer_flits", p.ejection_buffer_flits, P::ejection_buffer_flits_range);
  check_range("ni.send_overhead_cycles", p.send_overhead_cycles, P::overhead_cycles_range);
  check_range("ni.recv_overhead_cycles", p.recv_overhead_cycles, P::overhead_cycles_range);
  check_range("ni.max_unicast_in_queue", p.max_unicast_in_queue, P::max_in_queue_range);
  check_range("ni.max_multicast_in_queue", p.max_multicast_in_queue, P::max_in_queue_range);
  check_range("ni.sink_channels", p.sink_channels, P::sink_channels_range);
  validate(p.compression);
  validate(p.xor_engine);
}

NetworkInterface::NetworkInterface(sc_module_name name, Clock& clock, NodeId id,
                                   const NetworkInterfaceParams& params,
                                   const RouterParams& router, NetworkContext& net,
                                   InterfaceContext& interfaces)
    : Clocked<NetworkInterface>(name, clock),
      packetizer_(id, params, router, net, interfaces),  // (validates the parameters first)
      reassembler_(id, params, router, net, interfaces, packetizer_.arrivals(), front_end_),
      front_end_(*this, id, params, packetizer_), id_(id), socket("socket") {
  if (net.packets.owner_bytes() < sizeof(MessageFields))  // (a wiring error of the system's)
    throw std::logic_error("NetworkInterface " + std::string(name) +
                           ": the network's packet records have no room for the NIs' message "
                           "fields: build the NetworkContext with sizeof(MessageFields)");
  socket.register_b_transport(&front_end_, &TlmFrontEnd::b_transport);
}

void NetworkInterface::connect(Link& injection, Link& ejection) {
  packetizer_.connect(this, injection);
  reassembler_.connect(this, ejection);
}

void NetworkInterface::set_traffic(const TrafficParams& params, const TrafficPattern& pattern,
                                   const PayloadGenerator& payload, unsigned nodes,
                                   std::uint64_t seed) {
  packetizer_.set_source(std::make_unique<SyntheticSource>(params, pattern, id_, nodes, seed),
                         payload);
  reassembler_.set_payload(payload);
  // A synthetic source touches only the NI, its links and its network's per-thread counts, so
  // it may be evaluated on any thread like a router (a core's NI has SystemC events; modelled
  // compressed sizes keep the words in one map).
  const NetworkInterfaceParams& p = packetizer_.params();
  const bool modelled = p.compression.policy != "never" &&
                        p.compression.size_mode == CompressedSize::fixed_ratio;
  Link* inj = packetizer_.injection_link();
  if (!modelled) set_parallel(inj ? inj->receiver_block() : block_index());  // with its router
  // The hot parts: the packetizer's, from the block's flags on, and the reassembler's.
  set_prefetch_end(packetizer_.hot_end());
  set_prefetch_region(reassembler_.hot_begin(), reassembler_.hot_end());
}

// The links' lines and the buffers' states (the slots wait for the notices: which VC a flit
// is on, the notice says).
void NetworkInterface::prefetch() const {
  if (!packetizer_.injection_link()) return;  // (not connected)
  reassembler_.prefetch();
  packetizer_.prefetch();
}

Cycle NetworkInterface::next_work_cycle(Cycle now) const {
  if (packetizer_.sending()) return now + 1;  // (the ejection link need not be read)
  return std::min(packetizer_.next_work_cycle(now), reassembler_.next_work_cycle());
}

void NetworkInterface::report(Tally& t) const {
  const Cycle now = clock().now();
  packetizer_.report(t, now);
  reassembler_.report(t);
  front_end_.report(t, socket.size() > 0);
}

void NetworkInterface::trace(sc_trace_file* tf) {
  set_always_on(true);
  const std::string base = std::string(name()) + ".";
  packetizer_.trace(tf, base);
  reassembler_.trace(tf, base);
}

}  // namespace collnoc
