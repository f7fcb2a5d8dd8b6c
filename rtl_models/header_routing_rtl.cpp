#include "rtl_models/header_routing_rtl.hpp"

#include <string>
#include <utility>

#include "noc/types.hpp"  // ParamError (header only: rtl_models links SystemC alone)

namespace collnoc {

using sc_dt::sc_uint;

HeaderRoutingDatapath::HeaderRoutingDatapath(std::vector<unsigned> k, bool torus,
                                             unsigned endpoints_per_router, unsigned directions)
    : k_(std::move(k)), torus_(torus), endpoints_per_router_(endpoints_per_router),
      directions_(directions) {
  if (k_.empty() || k_.size() > kMaxDimensions)
    throw ParamError("topology.n", std::to_string(k_.size()),
                     "the header-routing unit has comparators for 1..8 dimensions");
  if (directions != 1 && directions != 2)
    throw ParamError("topology.directions", std::to_string(directions), "must be 1 or 2");
  if (directions == 1 && !torus)
    throw ParamError("topology.directions", "1",
                     "a mesh needs links both ways (unidirectional: topology.kind = torus)");
  std::uint64_t routers = 1;
  std::string shape;
  for (unsigned kd : k_) shape += (shape.empty() ? "" : "x") + std::to_string(kd);
  for (unsigned kd : k_) {
    if (kd < 2) throw ParamError("topology.k", std::to_string(kd), "every dimension needs k >= 2");
    stride_.push_back(static_cast<unsigned>(routers));
    routers *= kd;
    if (routers > kMaxRouters)
      throw ParamError("topology.k", shape, "more than 2^24 routers (the router pins are 24 bits)");
  }
  if (endpoints_per_router < 1 || network_ports() + endpoints_per_router > kMaxPorts)
    throw ParamError("topology.endpoints_per_router", std::to_string(endpoints_per_router),
                     "must be >= 1, and with the " + std::to_string(network_ports()) +
                         " network ports at most 64 ports (the mask pins)");
}

HeaderRoutingDatapath::Compared HeaderRoutingDatapath::compare(const Request& in) const {
  Compared c;
  // The destination's router and local port: a divider by a constant (a bit field when the
  // concentration is a power of two).
  const std::uint32_t target = in.dst / endpoints_per_router_;
  c.here = target == in.router;
  c.local_port = network_ports() + in.dst % endpoints_per_router_;
  // Per dimension: both coordinates (constant dividers), their difference, the torus wrap.
  for (unsigned d = 0; d < dimensions(); ++d) {
    const unsigned k = k_[d];
    const unsigned from = in.router / stride_[d] % k, to = target / stride_[d] % k;
    bool minus = false;
    std::uint32_t distance = 0;
    if (!torus_) {
      minus = to < from;
      distance = minus ? from - to : to - from;
    } else {
      const unsigned ahead = to >= from ? to - from : to + k - from;  // the + way, 0..k-1
      minus = directions_ == 2 && 2 * ahead > k;  // the - way is shorter (+ on a tie)
      distance = minus ? k - ahead : ahead;
    }
    c.distance[d] = distance;
    c.minus |= static_cast<std::uint8_t>(unsigned{minus} << d);
  }
  c.allocated = in.allocated;
  c.free = in.free;
  c.random = in.random;
  return c;
}

HeaderRoutingDatapath::Decision HeaderRoutingDatapath::select(const Compared& in) const {
  if (in.here) {  // local consumption: the local port's channel, allocated or free
    const bool takes = ((in.allocated | in.free) >> in.local_port) & 1u;
    return Decision{takes ? kConsume : kBlocked, in.local_port};
  }
  // Key of a productive dimension, greatest first: class (2 allocated, 1 free, 0 neither),
  // distance, then 7 - its place after the rotation among the dimensions of equal distance.
  constexpr unsigned kPlaceBits = 3, kDistanceBits = 24;
  struct Candidate {
    bool valid = false;
    std::uint32_t key = 0;
    unsigned port = 0;
  };
  std::array<Candidate, kMaxDimensions> level{};
  for (unsigned d = 0; d < dimensions(); ++d) {
    if (in.distance[d] == 0) continue;
    // Equality comparators against the other dimensions: how many share this distance (m),
    // how many of them come before this one (j); the rotation starts the run at random % m.
    unsigned m = 0, j = 0;
    for (unsigned e = 0; e < dimensions(); ++e)
      if (in.distance[e] == in.distance[d]) {
        ++m;
        j += e < d ? 1u : 0u;
      }
    const unsigned place = (j + m - in.random % m) % m;
    const unsigned p = port(d, (in.minus >> d) & 1u);
    const unsigned cls = ((in.allocated >> p) & 1u) ? 2u : ((in.free >> p) & 1u) ? 1u : 0u;
    level[d] = Candidate{
        true, (cls << (kDistanceBits + kPlaceBits)) | (in.distance[d] << kPlaceBits) | (7u - place),
        p};
  }
  // The comparator tree: kMaxDimensions leaves, three levels of pairwise maxima.
  for (unsigned width = kMaxDimensions; width > 1; width /= 2)
    for (unsigned i = 0; i < width / 2; ++i) {
      const Candidate& a = level[2 * i];
      const Candidate& b = level[2 * i + 1];
      level[i] = b.valid && (!a.valid || b.key > a.key) ? b : a;
    }
  const Candidate& best = level[0];
  if (!best.valid) return Decision{kBlocked, 0};  // (no productive dimension: cannot happen)
  const bool forward = (best.key >> (kDistanceBits + kPlaceBits)) != 0;
  return Decision{forward ? kForward : kBlocked, best.port};
}

HeaderRoutingRtl::HeaderRoutingRtl(sc_core::sc_module_name name, std::vector<unsigned> k,
                                   bool torus, unsigned endpoints_per_router, unsigned directions)
    : HeaderRoutingDatapath(std::move(k), torus, endpoints_per_router, directions),
      StreamBlock(name, kPipelineDepth), s1_distance_("s1_distance", dimensions()) {
  trace_also(in_router, in_dst, in_allocated, in_free, in_random);
  trace_also(stage_valid(1), "s1_valid");
  trace_also(s1_here_, s1_local_port_);
  for (const auto& distance : s1_distance_) trace_also(distance);
  trace_also(s1_minus_, s1_allocated_, s1_free_, s1_random_, out_action, out_port);
}

void HeaderRoutingRtl::load(unsigned stage) {
  if (stage == 1) {  // compare
    const Compared c = compare(Request{in_router.read().to_uint(), in_dst.read().to_uint(),
                                       in_allocated.read().to_uint64(),
                                       in_free.read().to_uint64(), in_random.read().to_uint()});
    s1_here_.write(c.here);
    s1_local_port_.write(c.local_port);
    for (unsigned d = 0; d < dimensions(); ++d) s1_distance_[d].write(c.distance[d]);
    s1_minus_.write(c.minus);
    s1_allocated_.write(c.allocated);
    s1_free_.write(c.free);
    s1_random_.write(c.random);
    return;
  }
  // select
  Compared c;
  c.here = s1_here_.read();
  c.local_port = s1_local_port_.read().to_uint();
  for (unsigned d = 0; d < dimensions(); ++d) c.distance[d] = s1_distance_[d].read().to_uint();
  c.minus = static_cast<std::uint8_t>(s1_minus_.read().to_uint());
  c.allocated = s1_allocated_.read().to_uint64();
  c.free = s1_free_.read().to_uint64();
  c.random = s1_random_.read().to_uint();
  const Decision decision = select(c);
  out_action.write(decision.action);
  out_port.write(decision.port);
}

void HeaderRoutingRtl::clear() {
  s1_here_.write(false);
  s1_local_port_.write(0);
  for (auto& distance : s1_distance_) distance.write(0);
  s1_minus_.write(0);
  s1_allocated_.write(0);
  s1_free_.write(0);
  s1_random_.write(0);
  out_action.write(0);
  out_port.write(0);
}

}  // namespace collnoc
