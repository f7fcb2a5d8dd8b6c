// Header-flit routing of HTA hardware multicast (SPEC 5): where one header flit of a multicast
// message goes at a router, given what the router knows in that cycle. A pure function: the
// router (noc/router/) calls it, and the pin-level header-routing unit
// (rtl_models/header_routing_rtl.*) is checked against it.
#pragma once
#include <cstdint>

#include "noc/topology/kary_ncube.hpp"
#include "noc/types.hpp"

namespace collnoc {

// What a router's header-routing unit sees of one header in one cycle.
struct HeaderRoutingInput {
  RouterId router = 0;
  NodeId dst = 0;                 // the header's destination
  std::uint64_t allocated = 0;    // output ports already allocated to the message here (bit/port)
  std::uint64_t free = 0;         // output ports with a free multicast VC that can take it
  std::uint32_t random = 0;       // tie-break bits (the router's seeded generator)
};

struct HeaderDecision {
  enum class Action : std::uint8_t {
    forward,  // onto `port` (allocated already, or a free VC there)
    consume,  // destination is this router's node: the data is copied to local port `port`
    blocked,  // no productive channel can take it this cycle
  };
  Action action = Action::blocked;
  unsigned port = 0;
};

// SPEC 5's rules, in this order:
//  - a header for this router's node is consumed at its local port (allocated or free);
//  - productive dimensions are ordered by remaining distance, greatest first; equal distances
//    in an order the random bits choose (a rotation among the tied dimensions);
//  - a channel already allocated to the message here takes the header if it brings it closer
//    (the first such dimension in that order);
//  - else the first dimension in that order with a free VC;
//  - else the header blocks (and, at the front of its VC, every header behind it).
class HeaderRouting {
 public:
  explicit HeaderRouting(const KaryNCube& topo) : topo_(topo) {}
  HeaderDecision route(const HeaderRoutingInput& in) const;

 private:
  const KaryNCube& topo_;
};

}  // namespace collnoc
