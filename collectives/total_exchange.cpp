#include "collectives/total_exchange.hpp"

#include <algorithm>
#include <limits>
#include <sstream>

#include "noc/topology/hdn.hpp"
#include "noc/topology/kary_ncube.hpp"

namespace collnoc {

namespace {

// A product of rings over the routers of a network: per factor its size, every router's
// coordinate and its neighbours at coordinate +1 and -1 (for a ring of 2 or a K_2 factor both
// are the other router). On an HDN the rings are those of each router's own base copy.
struct RingProduct {
  std::vector<unsigned> sizes;                     // a_f
  std::vector<std::vector<unsigned>> coord;        // [f][router]
  std::vector<std::vector<RouterId>> plus, minus;  // [f][router]
};

template <typename Coords, typename At>
RingProduct make_rings(std::vector<unsigned> sizes, unsigned routers, Coords coords_of, At at) {
  RingProduct r;
  const std::size_t factors = sizes.size();
  r.coord.assign(factors, std::vector<unsigned>(routers));
  r.plus.assign(factors, std::vector<RouterId>(routers));
  r.minus.assign(factors, std::vector<RouterId>(routers));
  for (RouterId x = 0; x < routers; ++x) {
    auto c = coords_of(x);
    for (std::size_t f = 0; f < factors; ++f) {
      const auto v = c[f];
      const decltype(v) a = sizes[f];
      r.coord[f][x] = static_cast<unsigned>(v);
      c[f] = (v + 1) % a;
      r.plus[f][x] = at(c);
      c[f] = (v + a - 1) % a;
      r.minus[f][x] = at(c);
      c[f] = v;
    }
  }
  r.sizes = std::move(sizes);
  return r;
}

std::vector<unsigned> base_ring_sizes(const HdnTopology& t) {
  std::vector<unsigned> sizes;
  for (const HdnFactor& f : t.spec().base.factors) sizes.push_back(f.size);
  return sizes;
}

void require_one_core_per_router(const Topology& t, const char* algorithm) {
  if (t.endpoints_per_router() != 1)
    throw ParamError("workload.algorithm", algorithm,
                     "needs one core per router (topology.endpoints_per_router = 1)");
}

// What every packing algorithm shares: the records a core holds, steps of one send and one
// receive, and the final check that a core holds exactly its p messages.
class PackedExchange : public CollectiveFirmware {
 public:
  PackedExchange(const FirmwareParams& p, unsigned cores)
      : CollectiveFirmware(p, cores), header_words_(cores > 65536 ? 2 : 1) {}

 protected:
  unsigned record_words() const { return header_words_ + p_.message_words; }
  NodeId source_of(const Words& w, std::size_t at) const {
    return header_words_ == 1 ? w[at] >> 16 : w[at];
  }
  NodeId destination_of(const Words& w, std::size_t at) const {
    return header_words_ == 1 ? w[at] & 0xffffu : w[at + 1];
  }

  // One record per destination, this core's own included.
  Words initial_records(NodeId me) const {
    Words held;
    held.reserve(static_cast<std::size_t>(cores_) * record_words());
    for (NodeId d = 0; d < cores_; ++d) {
      if (header_words_ == 1) {
        held.push_back((me << 16) | d);
      } else {
        held.push_back(me);
        held.push_back(d);
      }
      const Words m = pattern_message(p_.seed, me, d, 0, p_.message_words);
      held.insert(held.end(), m.begin(), m.end());
    }
    return held;
  }

  // Moves the records whose destination `leaves` accepts from `held` into `out`.
  template <typename Leaves>
  void split(Words& held, Words& out, Leaves leaves) const {
    out.clear();
    const std::size_t stride = record_words();
    std::size_t kept = 0;
    for (std::size_t at = 0; at + stride <= held.size(); at += stride) {
      auto first = held.begin() + static_cast<std::ptrdiff_t>(at);
      if (leaves(destination_of(held, at))) {
        out.insert(out.end(), first, first + static_cast<std::ptrdiff_t>(stride));
      } else {
        if (kept != at) std::copy(first, first + static_cast<std::ptrdiff_t>(stride),
                                  held.begin() + static_cast<std::ptrdiff_t>(kept));
        kept += stride;
      }
    }
    held.resize(kept);
  }

  // One step of the one-port model: send `out` to `to`, then receive from `from` and unpack.
  void step(MessageLayer& ml, NodeId to, NodeId from, const Words& out, Words& held) {
    ml.send(to, out);
    const Words in = ml.recv(from);
    if (in.size() % record_words() != 0) {
      std::ostringstream os;
      os << "core " << ml.rank() << " got a packed message of " << in.size() << " words from "
         << from << ", not a whole number of " << record_words() << "-word records";
      fail(os.str());
      return;
    }
    held.insert(held.end(), in.begin(), in.end());
  }

  // The end state: exactly one record from every core, addressed to `me`, bit-exact.
  void check_delivery(NodeId me, const Words& held) {
    std::vector<bool> seen(cores_, false);
    const std::size_t stride = record_words();
    for (std::size_t at = 0; at + stride <= held.size(); at += stride) {
      const NodeId src = source_of(held, at), dst = destination_of(held, at);
      std::ostringstream what;
      what << "core " << me << ", message from " << src << " to " << dst;
      if (dst != me || src >= cores_ || seen[src]) {
        fail(what.str() + (dst != me ? ": delivered to the wrong core" : ": unexpected or repeated"));
        continue;
      }
      seen[src] = true;
      const auto data = held.begin() + static_cast<std::ptrdiff_t>(at + header_words_);
      check(Words(data, data + p_.message_words),
            pattern_message(p_.seed, src, me, 0, p_.message_words), what.str());
    }
    for (NodeId s = 0; s < cores_; ++s)
      if (!seen[s]) {
        fail("core " + std::to_string(me) + " is missing the message from core " +
             std::to_string(s));
        break;
      }
  }

  // Along each ring in turn, a-1 steps: send everything not for my coordinate to the +1
  // neighbour, receive from the -1 neighbour. `target` maps a record's destination to the
  // router of this network it must reach; rings marked `settled` are skipped (every record
  // already has the right coordinate there).
  template <typename Target>
  void ring_exchange(MessageLayer& ml, const RingProduct& rings, Words& held, Target target,
                     const std::vector<bool>& settled = {}) {
    const RouterId me = ml.rank();
    Words out;
    for (std::size_t f = 0; f < rings.sizes.size(); ++f) {
      if (f < settled.size() && settled[f]) continue;
      const unsigned mine = rings.coord[f][me];
      for (unsigned j = 1; j < rings.sizes[f]; ++j) {
        split(held, out, [&](NodeId dst) { return rings.coord[f][target(dst)] != mine; });
        step(ml, rings.plus[f][me], rings.minus[f][me], out, held);
      }
    }
  }

  void report_more(Report& out) const override {
    out.set("collective.record_words", static_cast<std::uint64_t>(record_words()));
    out.set("collective.ts_cycles", p_.neighbour_cost.startup_cycles);
    out.set("collective.tw_cycles", p_.neighbour_cost.word_cycles);
    out.set("collective.formula_cycles", formula_cycles_);
  }

  unsigned header_words_;
  double formula_cycles_ = 0;
};

// Total exchange dimension by dimension on a torus (a hypercube when every k is 2).
class DimensionExchange : public PackedExchange {
 public:
  DimensionExchange(const FirmwareParams& p, const KaryNCube& t)
      : PackedExchange(p, t.num_endpoints()),
        rings_(make_rings(t.ks(), t.num_routers(),
                          [&](RouterId r) {
                            std::vector<unsigned> c(t.dimensions());
                            for (unsigned d = 0; d < t.dimensions(); ++d) c[d] = t.coord(r, d);
                            return c;
                          },
                          [&](const std::vector<unsigned>& c) { return t.router_at(c); })) {
    formula_cycles_ = ring_exchange_cycles(rings_.sizes, {},
                                           static_cast<double>(record_words()) * cores_,
                                           p.neighbour_cost);
  }

 protected:
  void body(MessageLayer& ml) override {
    Words held = initial_records(ml.rank());
    ring_exchange(ml, rings_, held, [](NodeId dst) { return dst; });
    check_delivery(ml.rank(), held);
  }

 private:
  RingProduct rings_;
};

// SPEC 4.3's four stages at every level, recursively. A record's target at a level is the
// router it must reach inside the current sub-network: its destination at level k; in stage 2
// of level j, the router of my cluster whose (SN, N) is the target's (U, N), the one whose
// level-j cross edge leads into the target's cluster.
class HdnTotalExchange : public PackedExchange {
 public:
  HdnTotalExchange(const FirmwareParams& p, const HdnTopology& t)
      : PackedExchange(p, t.num_endpoints()), levels_(t.levels()),
        rings_(make_rings(
            base_ring_sizes(t), t.num_routers(), [&](RouterId r) { return t.coords(r); },
            [&](const std::vector<std::uint64_t>& c) { return t.router_at(c); })),
        level_(levels_ + 1), stage_cycles_(4, std::vector<Cycle>(cores_, 0)) {
    const unsigned routers = t.num_routers(), factors = t.spec().base.size();
    if (levels_ > 0) {
      sn1_.assign(factors, false);
      for (unsigned f : t.spec().supernodes[0].factors) sn1_[f] = true;
    }
    for (unsigned j = 1; j <= levels_; ++j) {
      Level& L = level_[j];
      L.cluster_nodes = t.N(j - 1);
      L.cls.resize(routers);
      L.cross.resize(routers);
      L.entry.resize(routers);
      L.cluster.resize(routers);
      L.member.resize(routers);
      std::vector<std::uint32_t> index_of_rep(routers, std::numeric_limits<std::uint32_t>::max());
      std::uint32_t clusters = 0;
      for (RouterId r = 0; r < routers; ++r) {
        const HdnTopology::LevelId id = t.level_id(r, j);
        L.cls[r] = static_cast<std::uint8_t>(id.c);
        L.cross[r] = t.cross_partner(r, j);
        L.entry[r] = static_cast<std::uint32_t>(id.u * t.s(j) + id.n);
        // The cluster's first router (base and lower-level coordinates zero) names it.
        std::vector<std::uint64_t> c = t.coords(r);
        std::fill(c.begin(), c.begin() + factors, 0);
        for (unsigned i = 1; i < j; ++i) c[factors + i - 1] = c[factors + levels_ + i - 1] = 0;
        std::uint32_t& index = index_of_rep[t.router_at(c)];
        if (index == std::numeric_limits<std::uint32_t>::max()) index = clusters++;
        L.cluster[r] = index;
        L.member[static_cast<std::size_t>(index) * L.cluster_nodes + id.sn * t.s(j) + id.n] = r;
      }
    }
    formula_cycles_ = hdn_exchange_cycles(t, record_words(), p.neighbour_cost);
    spec_formula_cycles_ = hdn_spec_formula_cycles(t, record_words(), p.neighbour_cost);
  }

 protected:
  void body(MessageLayer& ml) override {
    const NodeId me = ml.rank();
    Words held = initial_records(me);
    std::vector<bool> via(levels_ + 1, false);  // stage 2 of level j is under way
    exchange(ml, levels_, held, via);
    check_delivery(me, held);
  }

  void report_more(Report& out) const override {
    PackedExchange::report_more(out);
    out.set("collective.spec_formula_cycles", spec_formula_cycles_);
    std::vector<std::uint64_t> stages;
    for (const auto& s : stage_cycles_) stages.push_back(*std::max_element(s.begin(), s.end()));
    if (levels_ > 0) out.set("collective.stage_cycles", stages);
  }

 private:
  struct Level {
    std::uint64_t cluster_nodes = 0;   // N_{j-1}
    std::vector<std::uint8_t> cls;     // C_j per router
    std::vector<RouterId> cross;       // level-j cross-edge partner
    std::vector<std::uint32_t> entry;  // U * s_j + N: (SN, N) of the router leading to it
    std::vector<std::uint32_t> cluster;  // which level-j cluster a router is in
    std::vector<RouterId> member;        // [cluster * N_{j-1} + SN * s_j + N]
  };

  RouterId target(NodeId dst, unsigned level, const std::vector<bool>& via, RouterId me) const {
    RouterId t = dst;
    for (unsigned j = levels_; j > level; --j)
      if (via[j]) {
        const Level& L = level_[j];
        t = L.member[static_cast<std::size_t>(L.cluster[me]) * L.cluster_nodes + L.entry[t]];
      }
    return t;
  }

  // `settled`: base rings every record already has right (see stage 4).
  void exchange(MessageLayer& ml, unsigned level, Words& held, std::vector<bool>& via,
                const std::vector<bool>& settled = {}) {
    const RouterId me = ml.rank();
    if (level == 0) {
      ring_exchange(ml, rings_, held, [&](NodeId dst) { return target(dst, 0, via, me); },
                    settled);
      return;
    }
    const Level& L = level_[level];
    const bool top = level == levels_;
    Cycle t0 = ml.now();
    auto stage_done = [&](unsigned s) {
      if (!top) return;
      stage_cycles_[s][me] = ml.now() - t0;
      t0 = ml.now();
    };
    Words out;
    // 1: swap the records for my own class with the cross-edge partner (of the other class).
    split(held, out, [&](NodeId dst) { return L.cls[target(dst, level, via, me)] == L.cls[me]; });
    step(ml, L.cross[me], L.cross[me], out, held);
    stage_done(0);
    // 2: total exchange in my cluster, each record to the router whose cross edge leads on.
    via[level] = true;
    exchange(ml, level - 1, held, via);
    via[level] = false;
    stage_done(1);
    // 3: everything across the cross edge.
    out.swap(held);
    held.clear();
    step(ml, L.cross[me], L.cross[me], out, held);
    stage_done(2);
    // 4: total exchange in the target cluster. The records sit at the target's N, so at
    // level 1 the rings of SN_1 need no steps.
    exchange(ml, level - 1, held, via, level == 1 ? sn1_ : std::vector<bool>{});
    stage_done(3);
  }

  unsigned levels_;
  RingProduct rings_;
  std::vector<Level> level_;  // [1..k]
  std::vector<bool> sn1_;     // per base factor: in SN_1
  std::vector<std::vector<Cycle>> stage_cycles_;  // [stage][core]
  double spec_formula_cycles_ = 0;
};

// The baseline: p - 1 steps of direct messages, step i to rank + i and from rank - i.
class PairwiseExchange : public CollectiveFirmware {
 public:
  using CollectiveFirmware::CollectiveFirmware;

 protected:
  void body(MessageLayer& ml) override {
    const NodeId me = ml.rank();
    const unsigned p = ml.size();
    for (unsigned i = 1; i < p; ++i) {
      const NodeId to = (me + i) % p, from = (me + p - i) % p;
      ml.send(to, pattern_message(p_.seed, me, to, 0, p_.message_words));
      check(ml.recv(from), pattern_message(p_.seed, from, me, 0, p_.message_words),
            "core " + std::to_string(me) + ", message from " + std::to_string(from));
    }
  }
};

}  // namespace

std::unique_ptr<Firmware> make_hdn_total_exchange(const FirmwareParams& p, const Topology& t) {
  const auto* hdn = dynamic_cast<const HdnTopology*>(&t);
  if (!hdn) throw ParamError("workload.algorithm", "hdn", "needs platform hdn (topology.kind = hdn)");
  require_one_core_per_router(t, "hdn");
  return std::make_unique<HdnTotalExchange>(p, *hdn);
}

std::unique_ptr<Firmware> make_dimension_exchange(const FirmwareParams& p, const Topology& t) {
  const auto* cube = dynamic_cast<const KaryNCube*>(&t);
  if (!cube || !cube->torus())
    throw ParamError("workload.algorithm", "dimension_exchange",
                     "needs a torus (platform kary_ncube, topology.kind = torus; k = 2 is a "
                     "hypercube)");
  require_one_core_per_router(t, "dimension_exchange");
  return std::make_unique<DimensionExchange>(p, *cube);
}

std::unique_ptr<Firmware> make_pairwise_exchange(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<PairwiseExchange>(p, t.num_endpoints());
}

double ring_exchange_cycles(const std::vector<unsigned>& ring_sizes,
                            const std::vector<bool>& settled, double held_words,
                            const MessageCost& c) {
  // Step j of a ring of a sends (a - j)/a of what a node holds: (a - 1) V / 2 words in all.
  double cycles = 0;
  for (std::size_t f = 0; f < ring_sizes.size(); ++f)
    if (f >= settled.size() || !settled[f])
      cycles += (ring_sizes[f] - 1) * message_cycles(c, held_words / 2);
  return cycles;
}

namespace {

double hdn_level_cycles(const HdnTopology& t, unsigned level, double held_words,
                        const std::vector<bool>& settled, const MessageCost& c) {
  if (level == 0) return ring_exchange_cycles(base_ring_sizes(t), settled, held_words, c);
  std::vector<bool> sn1;
  if (level == 1) {
    sn1.assign(t.spec().base.size(), false);
    for (unsigned f : t.spec().supernodes[0].factors) sn1[f] = true;
  }
  // A node holds the same volume V throughout: swap V/2, exchange, send V, exchange.
  return message_cycles(c, held_words / 2) + message_cycles(c, held_words) +
         hdn_level_cycles(t, level - 1, held_words, {}, c) +
         hdn_level_cycles(t, level - 1, held_words, sn1, c);
}

}  // namespace

double hdn_exchange_cycles(const HdnTopology& t, double record_words, const MessageCost& c) {
  return hdn_level_cycles(t, t.levels(), record_words * static_cast<double>(t.N(t.levels())), {},
                          c);
}

double hdn_spec_formula_cycles(const HdnTopology& t, double record_words, const MessageCost& c) {
  const double k2 = static_cast<double>(std::uint64_t{1} << t.levels());
  const double half = record_words * static_cast<double>(t.N(t.levels())) / 2;
  // T_0(m') with m' words per destination: a node holds m' n_0.
  return (2 * k2 - 2) * message_cycles(c, half) +
         k2 * ring_exchange_cycles(base_ring_sizes(t), {},
                                   half * static_cast<double>(t.N(0)), c);
}

}  // namespace collnoc
