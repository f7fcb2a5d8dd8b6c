// Pin-level header-routing unit of HTA hardware multicast (SPEC 5): one header flit a cycle in
// (the router, the header's destination, the outputs already allocated to its message, the
// outputs with a free multicast VC, tie-break bits), its decision out (forward, consume or
// blocked, and the port). Functional twin: collnoc::HeaderRouting::route
// (noc/routing/header_routing.hpp); tests/test_rtl_header_routing.cpp checks it bit- and
// cycle-exact against it. Clock, reset, handshake and timing: StreamBlock.
//
// The network is fixed at construction, with KaryNCube's arguments (mesh, torus or
// unidirectional torus; n = 1..8 dimensions, up to 2^24 routers, up to 64 ports). Two register
// stages, kPipelineDepth = 2:
//   compare  the destination's router and local port (constant dividers); per dimension the
//            router's and the destination's coordinates, their difference with the torus wrap:
//            the remaining distance and the direction
//   select   per productive dimension a key: class (2 allocated, 1 free, 0 neither) from the
//            port masks, distance, and its place among the dimensions of equal distance
//            rotated by random % (their number); a comparator tree takes the greatest key; a
//            header for this router's node is consumed at its local port instead
// A header accepted at rising edge t is in stage 1 after edge t and on out_action/out_port
// after edge t + 1: the earliest edge a consumer takes it is t + 2. One header per cycle.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include <systemc>

#include "rtl_models/stream_block.hpp"

namespace collnoc {

// The network the unit routes in and its two stages as combinational functions, without
// SystemC: checked before any SystemC object is built, and callable without a simulation.
class HeaderRoutingDatapath {
 public:
  static constexpr unsigned kMaxDimensions = 8;          // as topology.n allows
  static constexpr std::uint32_t kMaxRouters = 1u << 24;  // as KaryNCube allows: 24-bit ids
  static constexpr unsigned kMaxPorts = 64;              // the width of the mask pins
  // out_action: HeaderDecision::Action's values.
  static constexpr unsigned kForward = 0, kConsume = 1, kBlocked = 2;

  // What the unit takes (the input pins).
  struct Request {
    std::uint32_t router = 0, dst = 0;
    std::uint64_t allocated = 0, free = 0;
    std::uint32_t random = 0;
  };
  // The stage-1 registers.
  struct Compared {
    bool here = false;        // the destination is this router's node
    unsigned local_port = 0;  // the destination's local port (network ports + its index)
    std::array<std::uint32_t, kMaxDimensions> distance{};  // remaining hops; 0: not productive
    std::uint8_t minus = 0;  // bit d: dimension d goes the - way
    std::uint64_t allocated = 0, free = 0;
    std::uint32_t random = 0;
  };
  // What the unit gives (the output pins).
  struct Decision {
    unsigned action = kBlocked;
    unsigned port = 0;
    bool operator==(const Decision& o) const { return action == o.action && port == o.port; }
    bool operator!=(const Decision& o) const { return !(*this == o); }
  };

  // As KaryNCube(k, torus, endpoints_per_router, directions); a network the unit cannot route
  // in throws ParamError naming topology.n, topology.k, topology.directions or
  // topology.endpoints_per_router.
  HeaderRoutingDatapath(std::vector<unsigned> k, bool torus, unsigned endpoints_per_router,
                        unsigned directions);

  Compared compare(const Request& in) const;      // stage 1
  Decision select(const Compared& in) const;      // stage 2
  Decision route(const Request& in) const { return select(compare(in)); }

  unsigned dimensions() const { return static_cast<unsigned>(k_.size()); }
  unsigned network_ports() const { return directions_ * dimensions(); }

 private:
  unsigned port(unsigned dim, bool minus) const {
    return minus ? 2 * dim + 1 : directions_ == 2 ? 2 * dim : dim;
  }

  std::vector<unsigned> k_, stride_;
  bool torus_;
  unsigned endpoints_per_router_, directions_;
};

// Signal names: rtl_models/header_routing_rtl.gtkw (a 2-D network: s1_distance_0 and _1).
class HeaderRoutingRtl : public HeaderRoutingDatapath, public StreamBlock {
 public:
  static constexpr unsigned kPipelineDepth = 2;  // cycles, input to earliest output transfer

  sc_core::sc_in<sc_dt::sc_uint<24>> in_router{"in_router"};  // the router it routes at
  sc_core::sc_in<sc_dt::sc_uint<32>> in_dst{"in_dst"};        // the header's destination node
  sc_core::sc_in<sc_dt::sc_uint<64>> in_allocated{"in_allocated"};  // bit/port: the message's
  sc_core::sc_in<sc_dt::sc_uint<64>> in_free{"in_free"};  // bit/port: a free multicast VC there
  sc_core::sc_in<sc_dt::sc_uint<32>> in_random{"in_random"};  // tie-break bits
  sc_core::sc_out<sc_dt::sc_uint<2>> out_action{"out_action"};  // kForward, kConsume, kBlocked
  sc_core::sc_out<sc_dt::sc_uint<6>> out_port{"out_port"};

  HeaderRoutingRtl(sc_core::sc_module_name name, std::vector<unsigned> k, bool torus,
                   unsigned endpoints_per_router = 1, unsigned directions = 2);

 private:
  void load(unsigned stage) override;  // 1: compare, 2: select
  void clear() override;

  // Stage 1 (compare) registers; its valid bit is stage_valid(1).
  sc_core::sc_signal<bool> s1_here_{"s1_here"};
  sc_core::sc_signal<sc_dt::sc_uint<6>> s1_local_port_{"s1_local_port"};
  sc_core::sc_vector<sc_core::sc_signal<sc_dt::sc_uint<24>>> s1_distance_;  // one a dimension
  sc_core::sc_signal<sc_dt::sc_uint<kMaxDimensions>> s1_minus_{"s1_minus"};
  sc_core::sc_signal<sc_dt::sc_uint<64>> s1_allocated_{"s1_allocated"}, s1_free_{"s1_free"};
  sc_core::sc_signal<sc_dt::sc_uint<32>> s1_random_{"s1_random"};
};

}  // namespace collnoc
