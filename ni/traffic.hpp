// Synthetic traffic: destination patterns (chosen by name) and the Bernoulli packet source that
// an NI uses instead of a core.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "noc/random.hpp"
#include "noc/registry.hpp"
#include "noc/topology/topology.hpp"

namespace collnoc {

struct TrafficParams {
  std::string pattern = "uniform";
  double injection_rate = 0.1;      // flits / node / cycle offered (Bernoulli per cycle)
  unsigned packet_flits = 4;        // fixed packet length ...
  unsigned packet_flits_min = 0;    // ... or uniform in [min, max] when both are set
  unsigned packet_flits_max = 0;
  double hotspot_fraction = 0.2;    // hotspot: share of packets sent to a hotspot node
  std::vector<NodeId> hotspot_nodes{0};
  // uniform (and hotspot's uniform part) may pick the source itself, as some simulators'
  // uniform patterns do (for comparisons that must match them exactly).
  bool uniform_include_self = false;
  unsigned vc_class = 0;            // virtual network the synthetic packets use
  std::string payload = "random";   // payload generator (ni/payload.hpp) or file:PATH:TYPE
  // Multicast (SPEC 5): the share of messages that go to a set of destinations (0: unicast
  // only), drawn uniformly from [min, max] distinct nodes other than the source; how the
  // network carries them (hta: the routers replicate them; software: one unicast packet per
  // destination; column_path: a unicast path per column; see docs/hta.md).
  double multicast_fraction = 0.0;
  unsigned multicast_destinations_min = 8;
  unsigned multicast_destinations_max = 32;
  std::string multicast_scheme = "hta";
  // Offered load as a share of the network's capacity instead of injection_rate (0: not used):
  // the demand in unicast-equivalent flits (a multicast's data counts once per destination)
  // over the channel capacity of a mesh or torus under uniform traffic (docs/traffic.md).
  double normalized_load = 0.0;

  bool variable_length() const { return packet_flits_min > 0 && packet_flits_max > 0; }
  bool multicast() const { return multicast_fraction > 0.0; }
  double mean_packet_flits() const {
    return variable_length() ? 0.5 * (packet_flits_min + packet_flits_max) : packet_flits;
  }

  static constexpr RealRange injection_rate_range{0.0, 1.0};
  static constexpr UintRange packet_flits_range{1, 65535};
  static constexpr UintRange packet_flits_bound_range{0, 65535};  // min and max; 0 = fixed
  static constexpr RealRange hotspot_fraction_range{0.0, 1.0};
  static constexpr RealRange multicast_fraction_range{0.0, 1.0};
  static constexpr RealRange normalized_load_range{0.0, 100.0};
  static constexpr UintRange multicast_destinations_range{1, kU32Max};  // below the node count
  static constexpr UintRange hotspot_node_range{0, kU32Max};  // each; below the node count
};

// Throws ParamError naming the traffic.* key at fault: a value out of its range (checked
// whatever the workload: firmware reads traffic.packet_flits too).
void validate(const TrafficParams& p);
// The same, and how they fit together and the topology (the pattern, the hotspot nodes, the
// packet length range): what synthetic traffic needs.
void validate(const TrafficParams& p, const Topology& topo);

// Maps a source endpoint to a destination endpoint. Permutations ignore the generator.
class TrafficPattern {
 public:
  virtual ~TrafficPattern() = default;
  virtual NodeId destination(NodeId src, Rng& rng) const = 0;
};

using TrafficPatternEntry = Registered<
    std::function<std::unique_ptr<TrafficPattern>(const Topology&, const TrafficParams&)>>;
const std::vector<TrafficPatternEntry>& traffic_patterns();
// traffic.multicast_scheme's values.
const std::vector<std::string>& multicast_schemes();
std::unique_ptr<TrafficPattern> make_traffic_pattern(const Topology& topo, const TrafficParams& p);

// Per-NI Bernoulli source. The gap to the next packet is drawn geometrically, so an NI knows when
// its next packet is due and can sleep until then; the packet stream is the one a per-cycle coin
// flip with probability rate / mean length would give.
class SyntheticSource {
 public:
  SyntheticSource(const TrafficParams& params, const TrafficPattern& pattern, NodeId node,
                  unsigned nodes, std::uint64_t seed);
  Cycle next_cycle() const { return next_; }
  bool multicast() const { return params_.multicast(); }
  // Multicast messages go as unicast packets (traffic.multicast_scheme software: one per
  // destination; column_path: along paths, each destination forwarding to the next).
  bool unicast_multicast() const {
    return params_.multicast() && params_.multicast_scheme != "hta";
  }
  // Draws the packet due at next_cycle() and schedules the one after it.
  struct Packet {
    NodeId dst;
    unsigned flits;  // (a multicast message's data flits)
    std::vector<NodeId> multicast_dsts;  // empty: a unicast packet to dst
  };
  Packet take();

 private:
  const TrafficParams& params_;
  const TrafficPattern& pattern_;
  NodeId node_;
  Rng rng_;
  double p_packet_;
  Cycle next_ = kNever;
  unsigned nodes_;
  std::vector<NodeId> candidates_;  // (multicast destination draws)
};

}  // namespace collnoc
