#include "ni/traffic.hpp"

#include <algorithm>
#include <cmath>

#include "ni/payload.hpp"
#include "noc/topology/kary_ncube.hpp"

namespace collnoc {

namespace {

unsigned log2_exact(unsigned n) {
  unsigned b = 0;
  while ((1u << b) < n) ++b;
  return (1u << b) == n ? b : ~0u;
}

const KaryNCube& require_cube(const Topology& topo, const std::string& pattern) {
  const auto* cube = dynamic_cast<const KaryNCube*>(&topo);
  if (!cube || topo.endpoints_per_router() != 1)
    throw ParamError("traffic.pattern", pattern,
                     "needs a mesh or torus with one endpoint per router");
  return *cube;
}

unsigned require_power_of_two(const Topology& topo, const std::string& pattern) {
  const unsigned bits = log2_exact(topo.num_endpoints());
  if (bits == ~0u || bits == 0)
    throw ParamError("traffic.pattern", pattern,
                     "needs a power-of-two node count, have " + std::to_string(topo.num_endpoints()));
  return bits;
}

class Uniform : public TrafficPattern {
 public:
  // `include_self`: the source is a destination too (traffic.uniform_include_self).
  Uniform(unsigned n, bool include_self) : n_(n), include_self_(include_self) {}
  NodeId destination(NodeId src, Rng& rng) const override {
    if (include_self_) return static_cast<NodeId>(rng.below(n_));
    if (n_ < 2) return src;
    NodeId d = static_cast<NodeId>(rng.below(n_ - 1));  // every node but the source
    return d >= src ? d + 1 : d;
  }

 private:
  unsigned n_;
  bool include_self_;
};

// Permutations on coordinates of a k-ary n-cube.
class CoordinatePermutation : public TrafficPattern {
 public:
  using Map = std::function<void(const KaryNCube&, std::vector<unsigned>&)>;
  CoordinatePermutation(const KaryNCube& topo, Map map) : topo_(topo), map_(std::move(map)) {}
  NodeId destination(NodeId src, Rng&) const override {
    std::vector<unsigned> c(topo_.dimensions());
    for (unsigned d = 0; d < c.size(); ++d) c[d] = topo_.coord(src, d);
    map_(topo_, c);
    return topo_.router_at(c);
  }

 private:
  const KaryNCube& topo_;
  Map map_;
};

// Permutations on the bits of the node index.
class BitPermutation : public TrafficPattern {
 public:
  using Map = std::function<NodeId(NodeId, unsigned bits)>;
  BitPermutation(unsigned bits, Map map) : bits_(bits), map_(std::move(map)) {}
  NodeId destination(NodeId src, Rng&) const override { return map_(src, bits_); }

 private:
  unsigned bits_;
  Map map_;
};

class Hotspot : public TrafficPattern {
 public:
  Hotspot(unsigned n, bool include_self, double fraction, std::vector<NodeId> spots)
      : uniform_(n, include_self), fraction_(fraction), spots_(std::move(spots)) {}
  NodeId destination(NodeId src, Rng& rng) const override {
    if (rng.uniform() < fraction_) return spots_[rng.below(spots_.size())];
    return uniform_.destination(src, rng);
  }

 private:
  Uniform uniform_;
  double fraction_;
  std::vector<NodeId> spots_;
};

}  // namespace

const std::vector<TrafficPatternEntry>& traffic_patterns() {
  static const std::vector<TrafficPatternEntry> table = {
      {"uniform", "uniform random over all other nodes (traffic.uniform_include_self: all nodes)",
       [](const Topology& t, const TrafficParams& p) {
         return std::make_unique<Uniform>(t.num_endpoints(), p.uniform_include_self);
       }},
      {"transpose", "coordinate d -> coordinate n-1-d ((x,y) -> (y,x)); needs k_d = k_(n-1-d)",
       [](const Topology& t, const TrafficParams&) {
         const KaryNCube& c = require_cube(t, "transpose");
         for (unsigned d = 0; d < c.dimensions(); ++d)
           if (c.k(d) != c.k(c.dimensions() - 1 - d))
             throw ParamError("traffic.pattern", "transpose",
                              "needs a square network (k equal in mirrored dimensions)");
         return std::make_unique<CoordinatePermutation>(
             c, [](const KaryNCube&, std::vector<unsigned>& x) { std::reverse(x.begin(), x.end()); });
       }},
      {"bit_reversal", "node index bits reversed; needs a power-of-two node count",
       [](const Topology& t, const TrafficParams&) {
         return std::make_unique<BitPermutation>(
             require_power_of_two(t, "bit_reversal"), [](NodeId s, unsigned bits) {
               NodeId d = 0;
               for (unsigned b = 0; b < bits; ++b) d |= ((s >> b) & 1u) << (bits - 1 - b);
               return d;
             });
       }},
      {"bit_complement", "coordinate x -> k-1-x in every dimension (bit complement for k = 2^m)",
       [](const Topology& t, const TrafficParams&) {
         return std::make_unique<CoordinatePermutation>(
             require_cube(t, "bit_complement"), [](const KaryNCube& c, std::vector<unsigned>& x) {
               for (unsigned d = 0; d < x.size(); ++d) x[d] = c.k(d) - 1 - x[d];
             });
       }},
      {"shuffle", "node index rotated left by one bit; needs a power-of-two node count",
       [](const Topology& t, const TrafficParams&) {
         return std::make_unique<BitPermutation>(
             require_power_of_two(t, "shuffle"), [](NodeId s, unsigned bits) {
               return ((s << 1) | (s >> (bits - 1))) & ((1u << bits) - 1);
             });
       }},
      {"tornado", "coordinate x -> x + ceil(k/2) - 1 (mod k) in every dimension",
       [](const Topology& t, const TrafficParams&) {
         return std::make_unique<CoordinatePermutation>(
             require_cube(t, "tornado"), [](const KaryNCube& c, std::vector<unsigned>& x) {
               for (unsigned d = 0; d < x.size(); ++d) x[d] = (x[d] + (c.k(d) + 1) / 2 - 1) % c.k(d);
             });
       }},
      {"neighbour", "coordinate x -> x + 1 (mod k) in every dimension",
       [](const Topology& t, const TrafficParams&) {
         return std::make_unique<CoordinatePermutation>(
             require_cube(t, "neighbour"), [](const KaryNCube& c, std::vector<unsigned>& x) {
               for (unsigned d = 0; d < x.size(); ++d) x[d] = (x[d] + 1) % c.k(d);
             });
       }},
      {"hotspot", "traffic.hotspot_fraction of packets to traffic.hotspot_nodes, the rest uniform",
       [](const Topology& t, const TrafficParams& p) {
         return std::make_unique<Hotspot>(t.num_endpoints(), p.uniform_include_self,
                                          p.hotspot_fraction, p.hotspot_nodes);
       }},
  };
  return table;
}

std::unique_ptr<TrafficPattern> make_traffic_pattern(const Topology& topo, const TrafficParams& p) {
  return lookup(traffic_patterns(), p.pattern, "traffic.pattern").make(topo, p);
}

void validate(const TrafficParams& p) {
  using P = TrafficParams;
  if (!P::injection_rate_range.contains(p.injection_rate))
    throw ParamError("traffic.injection_rate", plain_number(p.injection_rate),
                     "must be " + range_text(P::injection_rate_range) + " flits/node/cycle");
  check_range("traffic.packet_flits", p.packet_flits, P::packet_flits_range);
  check_range("traffic.packet_flits_min", p.packet_flits_min, P::packet_flits_bound_range);
  check_range("traffic.packet_flits_max", p.packet_flits_max, P::packet_flits_bound_range);
  check_range("traffic.hotspot_fraction", p.hotspot_fraction, P::hotspot_fraction_range);
  check_range("traffic.multicast_fraction", p.multicast_fraction, P::multicast_fraction_range);
  check_range("traffic.normalized_load", p.normalized_load, P::normalized_load_range);
  check_range("traffic.multicast_destinations_min", p.multicast_destinations_min,
              P::multicast_destinations_range);
  check_range("traffic.multicast_destinations_max", p.multicast_destinations_max,
              P::multicast_destinations_range);
  const auto& schemes = multicast_schemes();
  if (std::find(schemes.begin(), schemes.end(), p.multicast_scheme) == schemes.end()) {
    std::string allowed = "one of:";
    for (const std::string& s : schemes) allowed += " " + s;
    throw ParamError("traffic.multicast_scheme", p.multicast_scheme, allowed);
  }
}

const std::vector<std::string>& multicast_schemes() {
  static const std::vector<std::string> schemes{"hta", "software", "column_path"};
  return schemes;
}

void validate(const TrafficParams& p, const Topology& topo) {
  validate(p);
  if ((p.packet_flits_min > 0) != (p.packet_flits_max > 0) ||
      p.packet_flits_min > p.packet_flits_max)
    throw ParamError("traffic.packet_flits_min", std::to_string(p.packet_flits_min),
                     "set both traffic.packet_flits_min and traffic.packet_flits_max, min <= max");
  if (p.hotspot_nodes.empty())
    throw ParamError("traffic.hotspot_nodes", "[]", "needs at least one node");
  for (NodeId n : p.hotspot_nodes)
    if (n >= topo.num_endpoints())
      throw ParamError("traffic.hotspot_nodes", std::to_string(n),
                       "must be < " + std::to_string(topo.num_endpoints()) + " (node count)");
  if (p.multicast() && p.multicast_destinations_min > p.multicast_destinations_max)
    throw ParamError("traffic.multicast_destinations_min",
                     std::to_string(p.multicast_destinations_min),
                     "must be <= traffic.multicast_destinations_max = " +
                         std::to_string(p.multicast_destinations_max));
  if (p.multicast() && p.multicast_destinations_max >= topo.num_endpoints())
    throw ParamError("traffic.multicast_destinations_max",
                     std::to_string(p.multicast_destinations_max),
                     "must be < " + std::to_string(topo.num_endpoints()) +
                         " (node count: destinations are distinct and not the source)");
  if (p.multicast() && p.multicast_scheme == "column_path" &&
      !dynamic_cast<const KaryNCube*>(&topo))
    throw ParamError("traffic.multicast_scheme", p.multicast_scheme,
                     "needs a mesh or torus (its columns are coordinates), not a " + topo.kind() +
                         "; software works on any topology");
  make_traffic_pattern(topo, p);  // the pattern must fit the topology
  make_payload_generator(p.payload);  // a known generator, or a readable file
}

SyntheticSource::SyntheticSource(const TrafficParams& params, const TrafficPattern& pattern,
                                 NodeId node, unsigned nodes, std::uint64_t seed)
    : params_(params), pattern_(pattern), node_(node), rng_(hash64(seed, node)),
      p_packet_(std::min(1.0, params.injection_rate / params.mean_packet_flits())), nodes_(nodes) {
  next_ = p_packet_ > 0.0 ? rng_.geometric(p_packet_) : kNever;
}

SyntheticSource::Packet SyntheticSource::take() {
  Packet p{};
  // (No draw for unicast-only traffic: its streams stay those of a build without multicast.)
  if (params_.multicast() && rng_.uniform() < params_.multicast_fraction) {
    const unsigned lo = params_.multicast_destinations_min, hi = params_.multicast_destinations_max;
    const unsigned n = lo + static_cast<unsigned>(rng_.below(hi - lo + 1));
    // n distinct nodes other than the source: the first n of a partial shuffle.
    candidates_.clear();
    for (NodeId d = 0; d < nodes_; ++d)
      if (d != node_) candidates_.push_back(d);
    for (unsigned i = 0; i < n; ++i)
      std::swap(candidates_[i], candidates_[i + rng_.below(candidates_.size() - i)]);
    p.multicast_dsts.assign(candidates_.begin(), candidates_.begin() + n);
    p.dst = p.multicast_dsts[0];
  } else {
    p.dst = pattern_.destination(node_, rng_);
  }
  p.flits = params_.variable_length()
                ? params_.packet_flits_min +
                      static_cast<unsigned>(rng_.below(params_.packet_flits_max - params_.packet_flits_min + 1))
                : params_.packet_flits;
  next_ += 1 + rng_.geometric(p_packet_);
  return p;
}

}  // namespace collnoc
