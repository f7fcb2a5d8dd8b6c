#include <algorithm>
#include <limits>

#include "collectives/total_exchange.hpp"
#include "noc/topology/hdn.hpp"

namespace collnoc {

namespace {

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

}  // namespace

std::unique_ptr<Firmware> make_total_exchange_hdn(const FirmwareParams& p, const Topology& t) {
  const auto* hdn = dynamic_cast<const HdnTopology*>(&t);
  if (!hdn) throw ParamError("workload.algorithm", "hdn", "needs platform hdn (topology.kind = hdn)");
  require_one_core_per_router(t, "hdn");
  return std::make_unique<HdnTotalExchange>(p, *hdn);
}

}  // namespace collnoc
