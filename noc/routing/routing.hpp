// Routing functions: strategies chosen by name. A routing function maps a head flit at a router
// to an ordered list of candidate output ports, each with the VCs (relative to the packet's VC
// class) it may take there. The router's VC allocator takes the first candidate it can.
#pragma once
#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "noc/flit.hpp"
#include "noc/registry.hpp"
#include "noc/routing/selection.hpp"
#include "noc/topology/kary_ncube.hpp"
#include "noc/topology/topology.hpp"

namespace collnoc {

struct RouteCandidate {
  std::uint8_t port = 0;
  std::uint8_t vc_begin = 0;  // [vc_begin, vc_end) within the packet's VC class
  std::uint8_t vc_end = 0;
};

class RouteResult {
 public:
  static constexpr unsigned kMax = 8;
  void clear() { size_ = alternatives_ = 0; }
  // The first n candidates are adaptive alternatives the routing function's selection strategy
  // reorders in the router (the rest, e.g. an escape channel, stay last). Set only when the
  // function has a strategy: 0 keeps the list's order at no cost.
  void set_alternatives(unsigned n) { alternatives_ = static_cast<std::uint8_t>(n < size_ ? n : size_); }
  unsigned alternatives() const { return alternatives_; }
  void add(unsigned port, unsigned vc_begin, unsigned vc_end) {
    if (size_ < kMax)
      c_[size_++] = RouteCandidate{static_cast<std::uint8_t>(port),
                                   static_cast<std::uint8_t>(vc_begin),
                                   static_cast<std::uint8_t>(vc_end)};
  }
  unsigned size() const { return size_; }
  const RouteCandidate& operator[](unsigned i) const { return c_[i]; }

 private:
  std::array<RouteCandidate, kMax> c_{};
  std::uint8_t size_ = 0;  // (narrow: a router's HeadRoute, this and more, fits 32 bytes)
  std::uint8_t alternatives_ = 0;
};

struct RouteRequest {
  RouterId router;
  unsigned in_port;
  unsigned in_vc;  // relative to the packet's class
  NodeId dst;
  const PacketHeader& hdr;  // the whole header, for routing functions that need more than dst
};

class RoutingFunction {
 public:
  virtual ~RoutingFunction() = default;
  virtual void route(const RouteRequest& req, RouteResult& out) const = 0;
  // The VCs of a class (a bit each) that packets may take adaptively between routers. Duato's
  // theory for wormhole needs such a VC empty before it is given to another packet (atomic
  // reallocation): a head given a VC that still holds another packet's tail is committed to it
  // and can no longer turn to the escape channel, and such heads can wait on each other in a
  // cycle of adaptive VCs (see docs/routing.md). Routers apply it (RouterParams::vc_realloc).
  virtual std::uint32_t adaptive_vcs() const { return 0; }
  // Whether route() ever offers alternatives (RouteResult::set_alternatives).
  virtual bool offers_alternatives() const { return false; }
  // The selection strategy among the alternatives (routing.selection), or nullptr: the
  // function's own order.
  const SelectionStrategy* selection() const { return selection_.get(); }
  void set_selection(std::unique_ptr<SelectionStrategy> s) { selection_ = std::move(s); }

 private:
  std::unique_ptr<SelectionStrategy> selection_;
};

// The order in which dimension-order routing (`dor`, and the escape channels of `adaptive`)
// takes the dimensions: dimension 0 first (e-cube, XY), or the highest first (SPEC 5's unicast
// escape network: a dimension only when all higher ones are done).
enum class DimensionOrder : std::uint8_t { increasing, decreasing };
const char* to_string(DimensionOrder o);
const std::vector<DimensionOrder>& dimension_orders();

// Which way dor and adaptive go on a torus when a destination is exactly k/2 away in a
// dimension (both ways are minimal): balanced, by a bit of a hash of the packet's id per
// dimension (half the packets each way, the same way at every router); positive, always +.
enum class TorusTies : std::uint8_t { balanced, positive };
const char* to_string(TorusTies t);
const std::vector<TorusTies>& torus_ties_values();

// Options of the routing functions beside their name (routing.*).
struct RoutingParams {
  // dor, adaptive (its escape channels), valiant and romm (each phase); others refuse it
  DimensionOrder dimension_order = DimensionOrder::increasing;
  TorusTies torus_ties = TorusTies::balanced;  // the same functions, on tori (others: no ties)
  std::string selection = "first_free";  // among adaptive alternatives (selection.hpp)
  std::string table;                      // routing.algorithm = table: the file (table.hpp)
};

// Registry entry: a factory that checks the routing function fits the topology, the VCs per
// class and the options, throwing ParamError("routing.algorithm" or the option's key, ...) when
// it does not.
using RoutingEntry = Registered<std::function<std::unique_ptr<RoutingFunction>(
    const Topology&, unsigned vcs_per_class, const RoutingParams&)>>;

const std::vector<RoutingEntry>& routing_functions();
std::unique_ptr<RoutingFunction> make_routing(const std::string& name, const Topology& topo,
                                              unsigned vcs_per_class,
                                              const RoutingParams& params = {});
// The topology as a mesh or torus, or ParamError naming routing.algorithm = `name`.
const KaryNCube& require_kary_ncube(const Topology& topo, const char* name);

}  // namespace collnoc
