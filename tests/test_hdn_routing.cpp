// Routing on hierarchical dual-nets (SPEC 4.2, noc/routing/hdn.hpp): every route of every pair
// on small HDNs is a valid path to its destination within the bound R_k; the channel dependency
// graph is acyclic; a network under heavy uniform load does not deadlock.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdio>
#include <deque>
#include <sstream>

#include "noc/routing/hdn.hpp"
#include "platforms/noc_system.hpp"
#include "platforms/simulation.hpp"
#include "support.hpp"
#include "noc/topology/kary_ncube.hpp"

using namespace collnoc;

namespace {

struct Config {
  const char* base;
  int levels;
  const char* supernodes;
  unsigned vcs;  // per class
};

struct Outcome {
  std::uint64_t pairs = 0, bound = 0;
  unsigned max_len = 0, max_vc = 0, routers = 0;
  double stretch_sum = 0, stretch_max = 0;
  bool acyclic = false;
  double mean_stretch() const { return pairs ? stretch_sum / static_cast<double>(pairs) : 0; }
};

// Acyclic iff a topological order (Kahn) takes every vertex.
bool acyclic(const std::vector<std::vector<std::uint32_t>>& succ) {
  std::vector<std::uint32_t> indeg(succ.size(), 0);
  for (const auto& s : succ)
    for (std::uint32_t v : s) ++indeg[v];
  std::vector<std::uint32_t> ready;
  for (std::uint32_t v = 0; v < succ.size(); ++v)
    if (indeg[v] == 0) ready.push_back(v);
  std::size_t taken = 0;
  while (!ready.empty()) {
    const std::uint32_t v = ready.back();
    ready.pop_back();
    ++taken;
    for (std::uint32_t w : succ[v])
      if (--indeg[w] == 0) ready.push_back(w);
  }
  return taken == succ.size();
}

// Walks the route of every source/destination pair through RoutingFunction::route (memoised per
// destination: the routing is deterministic, so a path that reaches a router already walked
// toward the same destination continues as that one did), checks every hop, and builds the
// channel dependency graph over (router, output port, VC).
// Negative control: the same routes with every hop allowed on every VC (no VCs per segment).
class AllVcs : public RoutingFunction {
 public:
  AllVcs(std::unique_ptr<RoutingFunction> inner, unsigned vcs) : inner_(std::move(inner)), vcs_(vcs) {}
  void route(const RouteRequest& req, RouteResult& out) const override {
    RouteResult r;
    inner_->route(req, r);
    for (unsigned i = 0; i < r.size(); ++i) out.add(r[i].port, 0, vcs_);
  }

 private:
  std::unique_ptr<RoutingFunction> inner_;
  unsigned vcs_;
};

Outcome check(const Config& cfg, bool all_vcs = false) {
  HdnTopology topo(HdnSpec::parse(cfg.base, cfg.levels, cfg.supernodes));
  std::unique_ptr<RoutingFunction> rf = make_routing("hdn", topo, cfg.vcs);
  if (all_vcs) rf = std::make_unique<AllVcs>(std::move(rf), cfg.vcs);
  Outcome o;
  o.bound = HdnRouting::path_bound(topo.spec());
  const unsigned n = topo.num_routers(), radix = topo.radix();
  o.routers = n;
  const auto channel = [&](RouterId r, unsigned port, unsigned vc) {
    return static_cast<std::uint32_t>((static_cast<std::uint64_t>(r) * radix + port) * cfg.vcs + vc);
  };
  std::vector<std::vector<std::uint32_t>> succ(static_cast<std::size_t>(n) * radix * cfg.vcs);
  const auto depend = [&](std::uint32_t a, std::uint32_t b) {
    auto& s = succ[a];
    if (std::find(s.begin(), s.end(), b) == s.end()) s.push_back(b);
  };
  struct HopRec {
    unsigned port = 0, lo = 0, hi = 0;
  };
  std::vector<int> len(n), dist(n);
  std::vector<HopRec> hop(n);
  std::vector<RouterId> path;
  for (RouterId d = 0; d < n; ++d) {
    // Breadth-first distances to d (links are symmetric).
    std::fill(dist.begin(), dist.end(), -1);
    std::deque<RouterId> q{d};
    dist[d] = 0;
    while (!q.empty()) {
      const RouterId r = q.front();
      q.pop_front();
      for (unsigned p = 0; p < topo.network_ports(); ++p) {
        const PortPeer& pp = topo.peer(r, p);
        if (pp.connected() && dist[pp.router] < 0) {
          dist[pp.router] = dist[r] + 1;
          q.push_back(pp.router);
        }
      }
    }
    std::fill(len.begin(), len.end(), -1);
    const NodeId dst = topo.endpoint_at(d, 0);
    PacketHeader hdr;
    hdr.dst = dst;
    for (RouterId s = 0; s < n; ++s) {
      hdr.src = topo.endpoint_at(s, 0);
      path.clear();
      RouterId r = s;
      unsigned in_port = topo.local_port_of(hdr.src), in_vc = 0;
      bool has_prev = false;
      HopRec prev;
      RouterId prev_router = 0;
      int tail = 0;
      for (;;) {
        if (len[r] < 0) {
          RouteResult res;
          rf->route(RouteRequest{r, in_port, in_vc, dst, hdr}, res);
          if (res.size() != 1) FAIL("router " << r << " to " << d << ": " << res.size() << " candidates");
          const RouteCandidate& c = res[0];
          if (!(c.vc_begin < c.vc_end && c.vc_end <= cfg.vcs))
            FAIL("VCs [" << int(c.vc_begin) << ", " << int(c.vc_end) << ") out of range");
          hop[r] = HopRec{c.port, c.vc_begin, c.vc_end};
          o.max_vc = std::max<unsigned>(o.max_vc, c.vc_end - 1u);
        }
        if (has_prev)
          for (unsigned a = prev.lo; a < prev.hi; ++a)
            for (unsigned b = hop[r].lo; b < hop[r].hi; ++b)
              depend(channel(prev_router, prev.port, a), channel(r, hop[r].port, b));
        if (len[r] >= 0) {
          tail = len[r];
          break;
        }
        if (topo.is_local_port(hop[r].port)) {
          if (r != d || hop[r].port != topo.local_port_of(dst))
            FAIL("ejected at router " << r << " port " << hop[r].port << ", destination " << d);
          len[r] = 0;
          break;
        }
        const PortPeer& pp = topo.peer(r, hop[r].port);
        if (!pp.connected()) FAIL("router " << r << " port " << hop[r].port << " is unconnected");
        path.push_back(r);
        if (path.size() > o.bound)
          FAIL("route " << s << " -> " << d << " longer than R_k = " << o.bound);
        has_prev = true;
        prev = hop[r];
        prev_router = r;
        in_port = pp.port;
        in_vc = prev.lo;
        r = pp.router;
      }
      for (std::size_t i = 0; i < path.size(); ++i)
        len[path[i]] = tail + static_cast<int>(path.size() - i);
    }
    for (RouterId s = 0; s < n; ++s) {
      if (s == d) continue;
      if (len[s] < dist[s]) FAIL("route shorter than the distance?");
      o.max_len = std::max<unsigned>(o.max_len, static_cast<unsigned>(len[s]));
      const double st = static_cast<double>(len[s]) / dist[s];
      o.stretch_sum += st;
      o.stretch_max = std::max(o.stretch_max, st);
      ++o.pairs;
    }
  }
  o.acyclic = acyclic(succ);
  return o;
}

std::string describe(const Config& c) {
  std::ostringstream os;
  os << "HDN(" << c.base << ", " << c.levels << ", {" << c.supernodes << "}) with " << c.vcs
     << " VCs";
  return os.str();
}

void run_configs(const std::vector<Config>& configs) {
  for (const Config& c : configs) {
    const Outcome o = check(c);
    const HdnSpec spec = HdnSpec::parse(c.base, c.levels, c.supernodes);
    char line[256];
    std::snprintf(line, sizeof line,
                  "%s: %u routers, needs %u VCs, longest route %u (R_k %llu, diameter %llu), "
                  "mean stretch %.4f, max %.2f",
                  describe(c).c_str(), o.routers, HdnRouting::vcs_needed(spec), o.max_len,
                  static_cast<unsigned long long>(o.bound),
                  static_cast<unsigned long long>(hdn_properties(spec).diameter),
                  o.mean_stretch(), o.stretch_max);
    WARN(line);
    CHECK(o.max_len <= o.bound);
    CHECK(o.mean_stretch() < 1.1);  // docs/routing.md records the values
    CHECK(o.acyclic);
    CHECK(o.max_vc < c.vcs);
    CHECK(o.pairs == std::uint64_t{o.routers} * (o.routers - 1));
  }
}

}  // namespace

TEST_CASE("hdn routing on torus bases, k = 1: valid, within R_k, acyclic", "[hdn][routing]") {
  run_configs({{"torus:4", 1, "1", 4},
               {"torus:5", 1, "1", 4},
               {"torus:2x3", 1, "1", 2},
               {"torus:2x3", 1, "C2", 2},
               {"torus:2x3", 1, "C3", 2},
               {"torus:2x3", 1, "C2xC3", 2},
               {"torus:4x2", 1, "C2", 4},
               {"torus:4x4", 1, "C4", 4},
               {"torus:4", 1, "1", 8}});  // wider segments: 4 VCs each
}

TEST_CASE("hdn routing on hypercube bases, k = 1: valid, within R_k, acyclic", "[hdn][routing]") {
  run_configs({{"hypercube:3", 1, "1", 2},
               {"hypercube:3", 1, "K2", 2},
               {"hypercube:3", 1, "K2xK2", 2},
               {"hypercube:2", 1, "1", 3}});
}

TEST_CASE("hdn routing with k = 2 and 3: valid, within R_k, acyclic", "[hdn][routing]") {
  run_configs({{"hypercube:1", 2, "1,1", 4},
               {"hypercube:2", 2, "1,K2", 4},
               {"hypercube:2", 2, "K2,1", 4},
               {"torus:3", 2, "1,1", 4},
               {"torus:4", 2, "1,C4", 8},
               {"torus:4", 2, "C4,1", 8},
               {"torus:2x2", 2, "C2,1", 4},
               {"torus:4", 2, "1,1", 8},
               {"torus:2", 3, "C2,C2,1", 8},
               {"hypercube:1", 3, "K2,K2,K2", 8}});
}

TEST_CASE("hdn routing: the cycle check finds the deadlock of the same routes without VCs per "
          "segment", "[hdn][routing]") {
  for (const Config& c : {Config{"hypercube:2", 1, "1", 2}, Config{"torus:4", 1, "1", 4},
                          Config{"hypercube:1", 2, "1,1", 4}}) {
    INFO(describe(c));
    CHECK(check(c).acyclic);
    CHECK_FALSE(check(c, true).acyclic);
  }
}

TEST_CASE("hdn routing is refused without enough VCs or on another topology", "[hdn][routing]") {
  HdnTopology torus_hdn(HdnSpec::parse("torus:4", 2, "1,C4"));
  CHECK(HdnRouting::vcs_needed(torus_hdn.spec()) == 8);
  try {
    make_routing("hdn", torus_hdn, 7);
    FAIL("accepted 7 VCs");
  } catch (const ParamError& e) {
    CHECK(std::string(e.what()).find("routing.algorithm") != std::string::npos);
    CHECK(std::string(e.what()).find(">= 8") != std::string::npos);
  }
  HdnTopology cube_hdn(HdnSpec::parse("hypercube:2", 1, "1"));
  CHECK(HdnRouting::vcs_needed(cube_hdn.spec()) == 2);
  CHECK_THROWS_AS(make_routing("hdn", cube_hdn, 1), ParamError);
  CHECK_NOTHROW(make_routing("hdn", cube_hdn, 2));
  KaryNCube torus({4, 4}, true);
  CHECK_THROWS_AS(make_routing("hdn", torus, 8), ParamError);
}

namespace {

void simulate(const char* name, const Config& c, unsigned buffer_flits) {
  SystemParams sp;
  sp.routing = "hdn";
  sp.router.vcs = c.vcs;
  sp.router.buffer_flits = buffer_flits;
  NocSystem sys(name, std::make_unique<HdnTopology>(HdnSpec::parse(c.base, c.levels, c.supernodes)),
                sp);
  TrafficParams tp;
  tp.pattern = "uniform";
  tp.injection_rate = 0.9;  // far beyond saturation
  tp.packet_flits = 6;
  RunOutcome out = test::run_traffic(sys, tp, 500, 4000, 6000, /*watchdog_cycles=*/1000);
  INFO(describe(c));
  test::require_conserved(out);
  CHECK(test::get<std::uint64_t>(out.report, "flits.delivered") > 1000);
}

}  // namespace

TEST_CASE("hdn routing runs uniform traffic at saturation without deadlock: HDN(torus:4, 1, {1})",
          "[hdn][network]") {
  simulate("hdn_torus", {"torus:4", 1, "1", 4}, 2);
}

TEST_CASE("hdn routing runs uniform traffic at saturation without deadlock: HDN(K2, 2, {1, 1})",
          "[hdn][network]") {
  simulate("hdn_cube", {"hypercube:1", 2, "1,1", 4}, 2);
}

TEST_CASE("hdn routing runs uniform traffic at saturation without deadlock: HDN(C4, 2, {C4, 1})",
          "[hdn][network]") {
  simulate("hdn_torus2", {"torus:4", 2, "C4,1", 8}, 2);
}
