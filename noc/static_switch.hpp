// Static network switch (TilePro SN-like): no routing decision per packet. The switch holds one
// configured route, from one input port to a set of output ports (several: it replicates the
// stream). A word-flit on the route's input leaves on every output of the route in the cycle it
// is there, if every one of them has a credit, so with 1-cycle links a hop costs 1 cycle. Flits
// on other inputs wait in their buffers until a route selects them (the network blocks; it never
// drops). A new route, written by the tile's core, takes effect config_cycles later.
#pragma once
#include <vector>

#include "noc/sim/clocked_block.hpp"
#include "noc/link.hpp"
#include "noc/network_context.hpp"
#include "noc/report.hpp"
#include "noc/topology/topology.hpp"

namespace collnoc {

struct StaticSwitchParams {
  unsigned buffer_flits = 4;    // input buffer per port
  unsigned config_cycles = 10;  // a route written in cycle t is in force from t + config_cycles

  static constexpr UintRange buffer_flits_range{1, 65535};
  static constexpr UintRange config_cycles_range{0, 1000000};
};

// Throws ParamError naming sn.buffer_flits or sn.config_cycles.
void validate(const StaticSwitchParams& p);

class StaticSwitch : public Clocked<StaticSwitch> {
 public:
  StaticSwitch(sc_core::sc_module_name name, Clock& clock, unsigned ports,
               const StaticSwitchParams& params, NetworkContext& net);

  void connect_input(unsigned port, Link& link);
  void connect_output(unsigned port, Link& link, unsigned downstream_buffer_flits);

  // The route `input` -> `outputs` (bit per port), in force from cycle `effective`.
  void configure(unsigned input, std::uint64_t outputs, Cycle effective);

  unsigned ports() const { return ports_; }
  bool output_connected(unsigned port) const { return out_[port].link != nullptr; }
  std::uint64_t output_flits(unsigned port) const { return out_[port].flits; }
  std::uint64_t configurations() const { return configurations_; }
  // Its counters into the results: flits its outputs sent (replicas counted), routes written.
  void report(Tally& t) const;
  unsigned config_cycles() const { return params_.config_cycles; }
  unsigned buffered_flits() const { return buffered_; }
  // Records, per output, whether a flit left this cycle (`<name>.out_valid_<port>`), and the
  // route's input port (`<name>.route_input`, the port count when none); evaluates every cycle.
  void trace(sc_core::sc_trace_file* tf, const Topology& topo);

 protected:
  friend class Clocked<StaticSwitch>;
  template <class At>
  void cycle(At at);
  Cycle next_work_cycle(Cycle now) const override;

 private:
  struct Route {
    unsigned input = 0;
    std::uint64_t outputs = 0;  // empty: no route
    Cycle effective = 0;
  };
  struct Output {
    Link* link = nullptr;
    unsigned credits = 0;
    std::uint16_t next_slot = 0;  // Link::send
    std::uint64_t flits = 0;
  };
  unsigned ports_;
  StaticSwitchParams params_;
  NetworkContext& net_;
  std::vector<Link*> in_links_;
  std::vector<InputBuffer> in_buf_;  // per input port, one VC
  std::vector<Output> out_;
  Route route_, pending_;
  bool has_pending_ = false;
  unsigned buffered_ = 0;
  std::vector<std::uint8_t> trace_valid_;  // per output; empty unless traced
  unsigned trace_route_input_ = 0;
  std::uint64_t configurations_ = 0;
};

}  // namespace collnoc
