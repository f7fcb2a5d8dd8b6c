// Routing functions checked without simulation: every route reaches its destination by a
// minimal path, and the channel dependency graph of dimension-order routing (escape channels for
// the adaptive one) is acyclic, hence deadlock-free.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "noc/router/router.hpp"
#include "noc/routing/adaptive.hpp"
#include "noc/routing/dimension_order.hpp"
#include "noc/routing/routing.hpp"
#include "noc/routing/table.hpp"
#include "noc/routing/turn_model.hpp"
#include "noc/routing/two_phase.hpp"
#include "noc/routing/updown.hpp"
#include "noc/types.hpp"
#include "noc/topology/hdn.hpp"
#include "noc/topology/kary_ncube.hpp"
#include "noc/topology/random_regular.hpp"

using namespace collnoc;

namespace {

struct Channel {  // an output VC of a router
  RouterId router;
  unsigned port, vc;
  bool operator<(const Channel& o) const {
    return std::tie(router, port, vc) < std::tie(o.router, o.port, o.vc);
  }
};

using Graph = std::map<Channel, std::set<Channel>>;

bool has_cycle(const Graph& g) {
  std::map<Channel, int> state;  // 0 new, 1 on stack, 2 done
  std::function<bool(const Channel&)> visit = [&](const Channel& c) {
    state[c] = 1;
    auto it = g.find(c);
    if (it != g.end())
      for (const Channel& n : it->second) {
        if (state[n] == 1) return true;
        if (state[n] == 0 && visit(n)) return true;
      }
    state[c] = 2;
    return false;
  };
  for (const auto& kv : g)
    if (state[kv.first] == 0 && visit(kv.first)) return true;
  return false;
}

// Packet ids whose routing.torus_ties = balanced choices cover both ways in each of the first
// three dimensions, every combination (a route may depend on the packet only there).
const std::vector<PacketId>& tie_ids() {
  static const std::vector<PacketId> ids = [] {
    std::vector<PacketId> out;
    std::set<unsigned> combos;
    for (PacketId id = 0; combos.size() < 8; ++id) {
      unsigned combo = 0;
      for (unsigned d = 0; d < 3; ++d) combo |= unsigned{balanced_tie_minus(id, d)} << d;
      if (combos.insert(combo).second) out.push_back(id);
    }
    return out;
  }();
  return ids;
}

// Follows every candidate whose index is selected by `use` from every router for every
// source/destination pair (and packet of tie_ids()); records channel dependencies and checks
// each path.
// `path_hops`, if given, is the length every path of a packet must have (a non-minimal
// function's); otherwise every hop must bring the packet one hop closer.
using PathHops = std::function<unsigned(const PacketHeader&)>;
Graph walk_all(const Topology& topo, const RoutingFunction& rf, unsigned vcs,
               bool escape_only_last, const std::vector<PacketId>& ids = tie_ids(),
               const PathHops& path_hops = nullptr) {
  Graph g;
  for (NodeId s = 0; s < topo.num_endpoints(); ++s)
    for (NodeId d = 0; d < topo.num_endpoints(); ++d)
    for (PacketId id : ids) {
      PacketHeader hdr;
      hdr.packet_id = id;
      hdr.src = s;
      hdr.dst = d;
      // Depth-first over all allowed choices (candidates x VCs), tracking the previous channel.
      struct State {
        RouterId router;
        unsigned in_port, in_vc, hops;
        Channel prev;
        bool has_prev;
      };
      std::vector<State> stack{{topo.router_of(s), topo.local_port_of(s), 0, 0, {}, false}};
      std::set<std::tuple<RouterId, unsigned, unsigned>> seen;
      while (!stack.empty()) {
        State st = stack.back();
        stack.pop_back();
        RouteResult res;
        rf.route(RouteRequest{st.router, st.in_port, st.in_vc, d, hdr}, res);
        REQUIRE(res.size() > 0);
        const unsigned first = escape_only_last ? res.size() - 1 : 0;
        for (unsigned c = first; c < res.size(); ++c) {
          const RouteCandidate& cand = res[c];
          REQUIRE(cand.vc_begin < cand.vc_end);
          REQUIRE(cand.vc_end <= vcs);
          for (unsigned vc = cand.vc_begin; vc < cand.vc_end; ++vc) {
            const Channel ch{st.router, cand.port, vc};
            if (st.has_prev) g[st.prev].insert(ch);
            else g[ch];
            if (topo.is_local_port(cand.port)) {
              REQUIRE(cand.port == topo.local_port_of(d));
              REQUIRE(st.router == topo.router_of(d));
              REQUIRE(st.hops == (path_hops ? path_hops(hdr)
                                             : topo.distance(topo.router_of(s), topo.router_of(d))));
              continue;
            }
            const PortPeer& q = topo.peer(st.router, cand.port);
            REQUIRE(q.connected());
            // Minimal: every hop brings the packet one hop closer.
            if (!path_hops)
              REQUIRE(topo.distance(q.router, topo.router_of(d)) + 1 ==
                      topo.distance(st.router, topo.router_of(d)));
            REQUIRE(st.hops < 4 * topo.num_routers());  // (a non-minimal path still ends)
            if (seen.insert({q.router, q.port, vc}).second)
              stack.push_back({q.router, q.port, vc, st.hops + 1, ch, true});
          }
        }
      }
    }
  return g;
}

}  // namespace

TEST_CASE("dimension-order routing on meshes: minimal and acyclic", "[routing]") {
  for (auto k : std::vector<std::vector<unsigned>>{{4, 4}, {5, 3}, {3, 3, 3}, {6}}) {
    KaryNCube topo(k, false);
    auto rf = make_routing("dor", topo, 2);
    CHECK_FALSE(has_cycle(walk_all(topo, *rf, 2, false)));
  }
}

TEST_CASE("dimension-order routing on tori: dateline VCs make it acyclic", "[routing]") {
  for (auto k : std::vector<std::vector<unsigned>>{{4, 4}, {5, 3}, {3, 3, 3}, {2, 4}, {8}}) {
    KaryNCube topo(k, true);
    auto rf = make_routing("dor", topo, 2);
    CHECK_FALSE(has_cycle(walk_all(topo, *rf, 2, false)));
  }
}

TEST_CASE("unidirectional tori: one channel per dimension, the + way round", "[routing]") {
  KaryNCube t({4, 3}, true, 1, 1);
  CHECK(t.network_ports() == 2);
  CHECK(t.describe() == "4x3 unidirectional torus");
  CHECK(t.port_name(0) == "E");
  CHECK(t.port_name(1) == "N");
  for (RouterId r = 0; r < t.num_routers(); ++r)
    for (unsigned d = 0; d < 2; ++d) {
      const PortPeer& q = t.peer(r, d);
      CHECK(q.port == d);  // arrives on the same dimension's input
      CHECK(t.coord(q.router, d) == (t.coord(r, d) + 1) % t.k(d));
      CHECK(t.coord(q.router, 1 - d) == t.coord(r, 1 - d));
    }
  // Distances go the + way only: 3 hops from x = 0 to x = 3, one back.
  CHECK(t.distance(t.router_at({0, 0}), t.router_at({3, 0})) == 3);
  CHECK(t.distance(t.router_at({3, 0}), t.router_at({0, 0})) == 1);
  CHECK(t.distance(t.router_at({1, 2}), t.router_at({0, 1})) == 3 + 2);
  CHECK_THROWS_WITH(KaryNCube({4, 4}, false, 1, 1), Catch::Contains("topology.directions"));
  CHECK_THROWS_WITH(KaryNCube({4, 4}, true, 1, 3), Catch::Contains("topology.directions"));
  CHECK_THROWS_WITH(make_routing("updown", t, 1), Catch::Contains("links both ways"));
}

TEST_CASE("the cycle check finds the deadlock of a torus without a dateline", "[routing]") {
  // Negative control: all VCs usable everywhere on a ring has a cyclic dependency.
  class NoDateline : public RoutingFunction {
   public:
    explicit NoDateline(const KaryNCube& t) : t_(t) {}
    void route(const RouteRequest& req, RouteResult& out) const override {
      const RouterId target = t_.router_of(req.dst);
      if (target == req.router) out.add(t_.local_port_of(req.dst), 0, 2);
      else out.add(t_.plus_port(0), 0, 2);
    }

   private:
    const KaryNCube& t_;
  };
  KaryNCube ring({6}, true);
  NoDateline rf(ring);
  Graph g;
  // Not minimal, so walk by hand: every source to the node three hops ahead.
  for (RouterId s = 0; s < 6; ++s) {
    Channel prev{};
    bool has_prev = false;
    RouterId r = s;
    for (int hop = 0; hop < 3; ++hop) {
      for (unsigned vc = 0; vc < 2; ++vc) {
        Channel ch{r, ring.plus_port(0), vc};
        if (has_prev) g[prev].insert(ch);
        else g[ch];
      }
      prev = Channel{r, ring.plus_port(0), 0};
      has_prev = true;
      r = ring.peer(r, ring.plus_port(0)).router;
    }
  }
  CHECK(has_cycle(g));
}

namespace {

// Duato's extended channel dependency graph of the escape subfunction of `rf` (the VCs outside
// rf.adaptive_vcs(), between routers): an escape channel c depends on an escape channel c' when a
// packet on c may next request c', either at the router c leads to (a direct dependency) or after
// any number of hops on adaptive channels (an indirect one). The escape channel a head may take
// depends only on its router, destination and (torus ties) the packet here, so every (router,
// destination, packet) is a state some packet is in (the one injected there).
Graph extended_escape_cdg(const Topology& topo, const RoutingFunction& rf, unsigned vcs) {
  const std::uint32_t adaptive = rf.adaptive_vcs();
  Graph g;
  const RouterId routers = topo.num_routers();
  for (NodeId d = 0; d < topo.num_endpoints(); ++d)
  for (PacketId id : tie_ids()) {
    const RouterId target = topo.router_of(d);
    PacketHeader hdr;
    hdr.packet_id = id;
    hdr.dst = d;
    // Per router: its escape channels and the routers its adaptive channels lead to.
    std::vector<std::vector<Channel>> escape(routers);
    std::vector<std::vector<RouterId>> adaptive_next(routers);
    for (RouterId r = 0; r < routers; ++r) {
      if (r == target) continue;
      RouteResult res;
      rf.route(RouteRequest{r, topo.local_port_of(static_cast<NodeId>(r)), 0, d, hdr}, res);
      for (unsigned c = 0; c < res.size(); ++c) {
        REQUIRE(!topo.is_local_port(res[c].port));
        for (unsigned vc = res[c].vc_begin; vc < res[c].vc_end; ++vc) {
          REQUIRE(vc < vcs);
          if ((adaptive >> vc) & 1u) adaptive_next[r].push_back(topo.peer(r, res[c].port).router);
          else escape[r].push_back(Channel{r, res[c].port, vc});
        }
      }
      REQUIRE_FALSE(escape[r].empty());  // a waiting head can always ask for an escape channel
    }
    for (RouterId r = 0; r < routers; ++r)
      for (const Channel& c : escape[r]) {
        g[c];
        // Every router reachable from c's far end over adaptive channels (itself included).
        std::vector<char> seen(routers, 0);
        std::vector<RouterId> todo{topo.peer(r, c.port).router};
        seen[todo[0]] = 1;
        while (!todo.empty()) {
          const RouterId x = todo.back();
          todo.pop_back();
          for (const Channel& next : escape[x]) g[c].insert(next);
          for (RouterId y : adaptive_next[x])
            if (!seen[y]) seen[y] = 1, todo.push_back(y);
        }
      }
  }
  return g;
}

}  // namespace

TEST_CASE("adaptive routing: minimal candidates, and an acyclic extended escape graph",
          "[routing]") {
  for (bool torus : {false, true})
    for (auto k : std::vector<std::vector<unsigned>>{{4, 4}, {5, 3}, {3, 3, 3}, {4, 2, 3}, {6}}) {
      INFO((torus ? "torus " : "mesh ") << k.size() << "-D, k0 = " << k[0]);
      KaryNCube topo(k, torus);
      for (unsigned vcs : {torus ? 3u : 2u, 4u}) {
        auto rf = make_routing("adaptive", topo, vcs);
        // Escape VCs: the first 1 (mesh) or 2 (torus); the rest are adaptive.
        CHECK(rf->adaptive_vcs() == (((1u << vcs) - 1) & ~((torus ? 3u : 1u))));
        walk_all(topo, *rf, vcs, false);  // every candidate is minimal and reaches the destination
        CHECK_FALSE(has_cycle(walk_all(topo, *rf, vcs, true)));  // direct dependencies
        CHECK_FALSE(has_cycle(extended_escape_cdg(topo, *rf, vcs)));
      }
    }
}

TEST_CASE("dimension-order and adaptive routing on unidirectional tori: minimal and acyclic",
          "[routing]") {
  for (auto k : std::vector<std::vector<unsigned>>{{4, 4}, {5, 3}, {3, 3, 3}, {2, 4}, {8}}) {
    INFO(k.size() << "-D, k0 = " << k[0]);
    KaryNCube topo(k, true, 1, 1);
    auto dor = make_routing("dor", topo, 2);
    CHECK_FALSE(has_cycle(walk_all(topo, *dor, 2, false)));
    auto adaptive = make_routing("adaptive", topo, 4);
    walk_all(topo, *adaptive, 4, false);  // every candidate minimal, the + way
    CHECK_FALSE(has_cycle(walk_all(topo, *adaptive, 4, true)));
    CHECK_FALSE(has_cycle(extended_escape_cdg(topo, *adaptive, 4)));
  }
}

namespace {

const RoutingParams kDecreasing{DimensionOrder::decreasing};

// Meshes, tori and unidirectional tori of 1 to 3 dimensions.
std::vector<std::unique_ptr<KaryNCube>> cubes_1_to_3_d() {
  std::vector<std::unique_ptr<KaryNCube>> cubes;
  for (auto k : std::vector<std::vector<unsigned>>{{4, 4}, {5, 3}, {3, 3, 3}, {2, 4}, {8}}) {
    cubes.push_back(std::make_unique<KaryNCube>(k, false));
    cubes.push_back(std::make_unique<KaryNCube>(k, true));
    cubes.push_back(std::make_unique<KaryNCube>(k, true, 1, 1));
  }
  return cubes;
}

unsigned dimension_of(const KaryNCube& t, unsigned port) {
  return t.directions() == 2 ? port / 2 : port;
}

}  // namespace

TEST_CASE("decreasing dimension order: dor takes the highest dimension first, minimal and acyclic",
          "[routing]") {
  for (const auto& cube : cubes_1_to_3_d()) {
    const KaryNCube& topo = *cube;
    INFO(topo.describe());
    auto rf = make_routing("dor", topo, 2, kDecreasing);
    CHECK_FALSE(has_cycle(walk_all(topo, *rf, 2, false)));
    // Every hop is along the highest dimension still to do.
    for (RouterId r = 0; r < topo.num_routers(); ++r)
      for (NodeId d = 0; d < topo.num_endpoints(); ++d) {
        const RouterId target = topo.router_of(d);
        if (target == r) continue;
        unsigned highest = 0;
        for (unsigned dim = 0; dim < topo.dimensions(); ++dim)
          if (topo.coord(r, dim) != topo.coord(target, dim)) highest = dim;
        PacketHeader hdr;
        RouteResult res;
        rf->route(RouteRequest{r, topo.local_port_of(static_cast<NodeId>(r)), 0, d, hdr}, res);
        REQUIRE(res.size() == 1);
        CHECK(dimension_of(topo, res[0].port) == highest);
      }
  }
}

TEST_CASE("decreasing dimension order: adaptive routing's extended escape graph is acyclic",
          "[routing]") {
  for (const auto& cube : cubes_1_to_3_d()) {
    const KaryNCube& topo = *cube;
    INFO(topo.describe());
    for (unsigned vcs : {topo.torus() ? 3u : 2u, 4u}) {
      auto rf = make_routing("adaptive", topo, vcs, kDecreasing);
      CHECK(rf->adaptive_vcs() == (((1u << vcs) - 1) & ~((topo.torus() ? 3u : 1u))));
      walk_all(topo, *rf, vcs, false);  // every candidate is minimal and reaches the destination
      CHECK_FALSE(has_cycle(walk_all(topo, *rf, vcs, true)));  // direct dependencies
      CHECK_FALSE(has_cycle(extended_escape_cdg(topo, *rf, vcs)));
    }
  }
}

TEST_CASE("decreasing dimension order: (0,0) to (2,3) on an 8x8 mesh goes along dimension 1 "
          "first", "[routing]") {
  KaryNCube mesh({8, 8}, false);
  const NodeId dst = mesh.router_at({2, 3});
  PacketHeader hdr;
  hdr.dst = dst;
  const RouteRequest at_origin{mesh.router_at({0, 0}), mesh.local_port_of(0), 0, dst, hdr};
  RouteResult res;
  make_routing("dor", mesh, 4, kDecreasing)->route(at_origin, res);
  REQUIRE(res.size() == 1);
  CHECK(res[0].port == mesh.plus_port(1));
  CHECK(res[0].vc_begin == 0);
  CHECK(res[0].vc_end == 4);
  res.clear();
  make_routing("dor", mesh, 4)->route(at_origin, res);  // the default: dimension 0 first
  REQUIRE(res.size() == 1);
  CHECK(res[0].port == mesh.plus_port(0));
  // Adaptive: +y (3 hops left) before +x (2), both on the adaptive VCs, then the escape channel
  // +y on VC 0.
  res.clear();
  make_routing("adaptive", mesh, 4, kDecreasing)->route(at_origin, res);
  REQUIRE(res.size() == 3);
  CHECK(res[0].port == mesh.plus_port(1));
  CHECK(res[0].vc_begin == 1);
  CHECK(res[0].vc_end == 4);
  CHECK(res[1].port == mesh.plus_port(0));
  CHECK(res[2].port == mesh.plus_port(1));
  CHECK(res[2].vc_begin == 0);
  CHECK(res[2].vc_end == 1);
  // Once y is done, x: from (0,3) the escape channel is +x.
  res.clear();
  make_routing("adaptive", mesh, 4, kDecreasing)
      ->route(RouteRequest{mesh.router_at({0, 3}), mesh.minus_port(1), 0, dst, hdr}, res);
  REQUIRE(res.size() == 2);
  CHECK(res[1].port == mesh.plus_port(0));
  CHECK(res[1].vc_end == 1);
  // Ties between adaptive directions go the escape order's way: (0,0) to (3,3), +y first.
  res.clear();
  make_routing("adaptive", mesh, 4, kDecreasing)
      ->route(RouteRequest{0, mesh.local_port_of(0), 0, mesh.router_at({3, 3}), hdr}, res);
  REQUIRE(res.size() == 3);
  CHECK(res[0].port == mesh.plus_port(1));
  CHECK(res[1].port == mesh.plus_port(0));
}

TEST_CASE("routing.dimension_order: refused by the routing functions that take no dimension "
          "order", "[routing]") {
  KaryNCube mesh({4, 4}, false);
  CHECK_THROWS_WITH(make_routing("updown", mesh, 1, kDecreasing),
                    Catch::StartsWith("routing.dimension_order = decreasing") &&
                        Catch::Contains("updown"));
  CHECK_NOTHROW(make_routing("updown", mesh, 1, RoutingParams{}));
  HdnTopology hdn(HdnSpec::parse("hypercube:2", 1, "1"));
  CHECK_THROWS_WITH(make_routing("hdn", hdn, 2, kDecreasing),
                    Catch::StartsWith("routing.dimension_order = decreasing") &&
                        Catch::Contains("hdn"));
  CHECK_NOTHROW(make_routing("hdn", hdn, 2, RoutingParams{}));
}

TEST_CASE("the extended escape graph finds a cycle through adaptive channels that the direct "
          "graph does not", "[routing]") {
  // Control: XY escape channels (VC 0) with adaptive channels (VC 1) that may also go back
  // west. The escape channels alone are acyclic; a packet on an eastward escape channel can
  // come back west adaptively and ask for the same channel again: an indirect cycle.
  class WestAlsoAdaptive : public RoutingFunction {
   public:
    explicit WestAlsoAdaptive(const KaryNCube& t) : t_(t), dor_(t, 1) {}
    void route(const RouteRequest& req, RouteResult& out) const override {
      const RouterId target = t_.router_of(req.dst);
      if (target == req.router) return out.add(t_.local_port_of(req.dst), 0, 2);
      if (t_.coord(req.router, 0) > 0) out.add(t_.minus_port(0), 1, 2);
      dor_.escape(req.router, req.dst, req.hdr.packet_id, 0, 1, out);
    }
    std::uint32_t adaptive_vcs() const override { return 0b10; }

   private:
    const KaryNCube& t_;
    DimensionOrderRouting dor_;
  };
  KaryNCube mesh({4, 4}, false);
  WestAlsoAdaptive rf(mesh);
  CHECK_FALSE(has_cycle(walk_all(mesh, rf, 2, true)));
  CHECK(has_cycle(extended_escape_cdg(mesh, rf, 2)));
}

TEST_CASE("routing functions refuse topologies and VC counts they cannot serve", "[routing]") {
  KaryNCube torus({4, 4}, true), mesh({4, 4}, false);
  CHECK_THROWS_AS(make_routing("dor", torus, 1), ParamError);
  CHECK_THROWS_AS(make_routing("adaptive", mesh, 1), ParamError);
  CHECK_THROWS_AS(make_routing("adaptive", torus, 2), ParamError);
  CHECK_THROWS_AS(make_routing("no_such_routing", mesh, 4), ParamError);
  CHECK_NOTHROW(make_routing("dor", mesh, 1));
  // Wormhole adaptive routing with every VC reallocated at the tail can deadlock: refused.
  RouterParams rp;
  rp.vc_realloc = VcRealloc::tail;
  CHECK_THROWS_WITH(check_vc_realloc(rp, *make_routing("adaptive", mesh, 4), "adaptive"),
                    Catch::Contains("router.vc_realloc") && Catch::Contains("Duato"));
  CHECK_NOTHROW(check_vc_realloc(rp, *make_routing("dor", mesh, 4), "dor"));
  rp.switching = Switching::virtual_cut_through;  // a head takes a VC only with room for all of it
  CHECK_NOTHROW(check_vc_realloc(rp, *make_routing("adaptive", mesh, 4), "adaptive"));
}

TEST_CASE("k-ary n-cube wiring: ports pair up, tori wrap, k = 2 tori have two links", "[routing]") {
  KaryNCube t({2, 3}, true);
  for (RouterId r = 0; r < t.num_routers(); ++r)
    for (unsigned p = 0; p < t.network_ports(); ++p) {
      const PortPeer& q = t.peer(r, p);
      REQUIRE(q.connected());
      // The link back arrives on the opposite port.
      CHECK(t.peer(q.router, q.port).router == r);
    }
  // k = 2: both x ports of router 0 lead to router 1.
  CHECK(t.peer(0, t.plus_port(0)).router == 1);
  CHECK(t.peer(0, t.minus_port(0)).router == 1);
  KaryNCube m({3, 3}, false);
  CHECK_FALSE(m.peer(0, m.minus_port(0)).connected());
  CHECK(m.distance(0, 8) == 4);
  CHECK(KaryNCube({8, 8}, true).distance(0, 63) == 2);
}

TEST_CASE("random regular graphs: exact degree, simple, connected, reproducible", "[routing]") {
  for (auto [n, d] : std::vector<std::pair<unsigned, unsigned>>{{16, 3}, {64, 4}, {30, 6}, {9, 2}}) {
    INFO(n << " nodes, degree " << d);
    RandomRegularGraph g(n, d, 7);
    REQUIRE(g.num_routers() == n);
    REQUIRE(g.network_ports() == d);
    for (RouterId r = 0; r < n; ++r) {
      std::set<RouterId> neighbours;
      for (unsigned p = 0; p < d; ++p) {
        const PortPeer& q = g.peer(r, p);
        REQUIRE(q.connected());
        CHECK(q.router != r);                  // no self-loops
        CHECK(g.peer(q.router, q.port).router == r);  // links pair up
        neighbours.insert(q.router);
      }
      CHECK(neighbours.size() == d);  // no parallel links
      CHECK(g.distance(0, r) != ~0u);  // connected
    }
    RandomRegularGraph again(n, d, 7), other(n, d, 8);
    bool same = true, differs = false;
    for (RouterId r = 0; r < n; ++r)
      for (unsigned p = 0; p < d; ++p) {
        same = same && again.peer(r, p).router == g.peer(r, p).router;
        differs = differs || other.peer(r, p).router != g.peer(r, p).router;
      }
    CHECK(same);
    if (n > 9) CHECK(differs);
  }
  CHECK_THROWS_AS(RandomRegularGraph(15, 3, 1), ParamError);  // odd number of link ends
  CHECK_THROWS_AS(RandomRegularGraph(8, 8, 1), ParamError);
  CHECK_THROWS_AS(RandomRegularGraph(8, 1, 1), ParamError);
}

TEST_CASE("Up*/Down* routing: legal shortest paths and an acyclic channel graph", "[routing]") {
  for (auto [n, d] : std::vector<std::pair<unsigned, unsigned>>{{16, 3}, {64, 4}, {30, 6}}) {
    INFO(n << " nodes, degree " << d);
    RandomRegularGraph g(n, d, 3);
    UpDownRouting rf(g, 1);
    Graph cdg;
    for (NodeId s = 0; s < n; ++s)
      for (NodeId t = 0; t < n; ++t) {
        PacketHeader hdr;
        // Follow every candidate: each path must be legal (no up after down), end at t, and
        // be as short as the shortest legal path.
        struct State {
          RouterId router;
          unsigned in_port, hops;
          bool went_down;
          Channel prev;
          bool has_prev;
        };
        std::vector<State> stack{{s, g.local_port_of(s), 0, false, {}, false}};
        while (!stack.empty()) {
          const State st = stack.back();
          stack.pop_back();
          RouteResult res;
          rf.route(RouteRequest{st.router, st.in_port, 0, t, hdr}, res);
          REQUIRE(res.size() > 0);
          for (unsigned c = 0; c < res.size(); ++c) {
            const Channel ch{st.router, res[c].port, 0};
            if (st.has_prev) cdg[st.prev].insert(ch);
            if (g.is_local_port(res[c].port)) {
              REQUIRE(st.router == t);
              CHECK(st.hops == rf.legal_distance(s, t));
              continue;
            }
            const bool up = rf.up(st.router, res[c].port);
            REQUIRE_FALSE((up && st.went_down));
            REQUIRE(st.hops < n);
            const PortPeer& q = g.peer(st.router, res[c].port);
            stack.push_back({q.router, q.port, st.hops + 1, st.went_down || !up, ch, true});
          }
        }
      }
    CHECK_FALSE(has_cycle(cdg));
  }
  // A mesh works too (any connected topology).
  KaryNCube mesh({4, 4}, false);
  CHECK_NOTHROW(make_routing("updown", mesh, 1));
}

TEST_CASE("turn models and odd-even: minimal, and an acyclic channel graph over every candidate",
          "[routing]") {
  for (const char* name : {"west_first", "north_last", "negative_first", "odd_even"})
    for (auto k : std::vector<std::vector<unsigned>>{{4, 4}, {5, 3}, {3, 6}, {6, 6}})
      for (unsigned vcs : {1u, 2u}) {
        INFO(name << " on a " << k[0] << "x" << k[1] << " mesh, " << vcs << " VCs");
        KaryNCube mesh(k, false);
        auto rf = make_routing(name, mesh, vcs);
        CHECK(rf->adaptive_vcs() == 0);  // no escape network: every channel obeys the turns
        CHECK_FALSE(has_cycle(walk_all(mesh, *rf, vcs, false)));
      }
  KaryNCube cube({3, 3, 3}, false);
  auto rf = make_routing("negative_first", cube, 1);
  CHECK_FALSE(has_cycle(walk_all(cube, *rf, 1, false)));
}

namespace {

// The output ports a head at `router` bound for `dst`, injected at `src`, may take.
std::vector<unsigned> ports(const RoutingFunction& rf, const KaryNCube& t, RouterId router,
                            NodeId src, NodeId dst) {
  PacketHeader hdr;
  hdr.src = src;
  hdr.dst = dst;
  RouteResult res;
  rf.route(RouteRequest{router, t.local_port_of(static_cast<NodeId>(router)), 0, dst, hdr}, res);
  std::vector<unsigned> out;
  for (unsigned i = 0; i < res.size(); ++i) out.push_back(res[i].port);
  return out;
}

}  // namespace

TEST_CASE("turn models: the turns each one allows, on an 8x8 mesh", "[routing]") {
  KaryNCube m({8, 8}, false);
  const unsigned east = m.plus_port(0), west = m.minus_port(0), north = m.plus_port(1),
                 south = m.minus_port(1);
  const auto at = [&](unsigned x, unsigned y) { return static_cast<RouterId>(y * 8 + x); };
  const auto wf = make_routing("west_first", m, 1), nl = make_routing("north_last", m, 1),
             nf = make_routing("negative_first", m, 1), oe = make_routing("odd_even", m, 1);
  // (2,2) to (5,6): east and north left. West-first and negative-first: both (more north hops
  // first); north-last: east only.
  CHECK(ports(*wf, m, at(2, 2), at(2, 2), at(5, 6)) == std::vector<unsigned>{north, east});
  CHECK(ports(*nf, m, at(2, 2), at(2, 2), at(5, 6)) == std::vector<unsigned>{north, east});
  CHECK(ports(*nl, m, at(2, 2), at(2, 2), at(5, 6)) == std::vector<unsigned>{east});
  // (5,2) to (2,6): west and north left. West-first: west only; north-last: west; negative-
  // first: west (a - hop) before north.
  CHECK(ports(*wf, m, at(5, 2), at(5, 2), at(2, 6)) == std::vector<unsigned>{west});
  CHECK(ports(*nl, m, at(5, 2), at(5, 2), at(2, 6)) == std::vector<unsigned>{west});
  CHECK(ports(*nf, m, at(5, 2), at(5, 2), at(2, 6)) == std::vector<unsigned>{west});
  // (5,6) to (2,2): west and south, both negative: all but west-first may choose.
  CHECK(ports(*wf, m, at(5, 6), at(5, 6), at(2, 2)) == std::vector<unsigned>{west});
  CHECK(ports(*nl, m, at(5, 6), at(5, 6), at(2, 2)) == std::vector<unsigned>{south, west});
  CHECK(ports(*nf, m, at(5, 6), at(5, 6), at(2, 2)) == std::vector<unsigned>{south, west});
  // Odd-even, eastbound from (2,2) to (6,5) having come from column 1: column 2 is even, so no
  // turn north here (east only); in odd column 3, north or east.
  CHECK(ports(*oe, m, at(2, 2), at(1, 2), at(6, 5)) == std::vector<unsigned>{east});
  CHECK(ports(*oe, m, at(3, 2), at(1, 2), at(6, 5)) == std::vector<unsigned>{east, north});
  // ... but at its source column a packet may turn at once (no east-to-north turn there).
  CHECK(ports(*oe, m, at(2, 2), at(2, 2), at(6, 5)) == std::vector<unsigned>{east, north});
  // One column short of an even destination column: north now (the last column may not turn).
  CHECK(ports(*oe, m, at(5, 2), at(1, 2), at(6, 5)) == std::vector<unsigned>{north});
  // Westbound: north/south only in even columns.
  CHECK(ports(*oe, m, at(5, 2), at(7, 2), at(1, 4)) == std::vector<unsigned>{west});
  CHECK(ports(*oe, m, at(4, 2), at(7, 2), at(1, 4)) == std::vector<unsigned>{west, north});
}

TEST_CASE("valiant and romm: through the intermediate, acyclic, ROMM minimal", "[routing]") {
  for (bool torus : {false, true})
    for (auto k : std::vector<std::vector<unsigned>>{{4, 4}, {3, 5}, {2, 3, 3}}) {
      INFO((torus ? "torus " : "mesh ") << k.size() << "-D, k0 = " << k[0]);
      KaryNCube topo(k, torus);
      const unsigned vcs = torus ? 4 : 2;
      // Packet ids whose intermediates cover every router.
      auto valiant = make_routing("valiant", topo, vcs);
      const auto& v = dynamic_cast<const TwoPhaseRouting&>(*valiant);
      std::vector<PacketId> ids;
      std::set<RouterId> covered;
      for (PacketId id = 0; covered.size() < topo.num_routers(); ++id) {
        PacketHeader h;
        h.packet_id = id;
        if (covered.insert(v.intermediate(h)).second) ids.push_back(id);
      }
      const auto valiant_hops = [&](const PacketHeader& h) {
        const RouterId via = v.intermediate(h);
        return topo.distance(topo.router_of(h.src), via) + topo.distance(via, topo.router_of(h.dst));
      };
      CHECK_FALSE(has_cycle(walk_all(topo, *valiant, vcs, false, ids, valiant_hops)));
      // ROMM: minimal (the default check), and its intermediate inside the minimal box.
      auto romm = make_routing("romm", topo, vcs);
      std::vector<PacketId> romm_ids(24);
      std::iota(romm_ids.begin(), romm_ids.end(), PacketId{0});
      CHECK_FALSE(has_cycle(walk_all(topo, *romm, vcs, false, romm_ids)));
      const auto& r = dynamic_cast<const TwoPhaseRouting&>(*romm);
      for (NodeId s = 0; s < topo.num_endpoints(); ++s)
        for (NodeId d = 0; d < topo.num_endpoints(); ++d)
          for (PacketId id : romm_ids) {
            PacketHeader h;
            h.packet_id = id, h.src = s, h.dst = d;
            const RouterId via = r.intermediate(h);
            CHECK(topo.distance(topo.router_of(s), via) + topo.distance(via, topo.router_of(d)) ==
                  topo.distance(topo.router_of(s), topo.router_of(d)));
          }
    }
}

TEST_CASE("valiant's intermediates are uniform over the routers", "[routing]") {
  KaryNCube mesh({8, 8}, false);
  auto rf = make_routing("valiant", mesh, 2);
  const auto& v = dynamic_cast<const TwoPhaseRouting&>(*rf);
  std::vector<unsigned> hits(64, 0);
  for (PacketId id = 0; id < 64000; ++id) {
    PacketHeader h;
    h.packet_id = (PacketId{3} << 40) | id;
    ++hits[v.intermediate(h)];
  }
  for (unsigned n : hits) CHECK(n == Approx(1000).margin(150));  // about 5 sigma
}

TEST_CASE("turn models and two-phase routing refuse what they cannot serve", "[routing]") {
  KaryNCube torus({4, 4}, true), mesh3({3, 3, 3}, false), mesh({4, 4}, false);
  for (const char* name : {"west_first", "north_last", "negative_first", "odd_even"})
    CHECK_THROWS_WITH(make_routing(name, torus, 4), Catch::Contains("turn model for meshes"));
  for (const char* name : {"west_first", "north_last", "odd_even"})
    CHECK_THROWS_WITH(make_routing(name, mesh3, 4), Catch::Contains("needs a 2-D mesh"));
  CHECK_NOTHROW(make_routing("negative_first", mesh3, 1));
  CHECK_THROWS_WITH(make_routing("valiant", mesh, 1), Catch::Contains(">= 2 VCs per class"));
  CHECK_THROWS_WITH(make_routing("romm", torus, 3), Catch::Contains(">= 4 VCs per class"));
  KaryNCube ring({5}, true, 1, 1);  // unidirectional
  CHECK_THROWS_WITH(make_routing("valiant", ring, 4), Catch::Contains("links both ways"));
}

TEST_CASE("selection strategies: by free credits (stable), random permutations, first_free is "
          "the routing function's order", "[routing]") {
  CHECK(make_selection("first_free") == nullptr);
  CHECK_THROWS_WITH(make_selection("best"), Catch::Contains("routing.selection"));
  const auto credits = make_selection("least_credits_used");
  REQUIRE(credits->needs_credits());
  SelectionChoice c[4] = {{0, 3}, {1, 8}, {2, 3}, {3, 12}};
  credits->order(c, 4, 7, 100);
  CHECK(std::vector<unsigned>{c[0].candidate, c[1].candidate, c[2].candidate, c[3].candidate} ==
        std::vector<unsigned>{3, 1, 0, 2});
  // Random: a permutation, the same for the same packet and cycle, each candidate first about
  // as often as the others.
  const auto random = make_selection("random");
  std::vector<unsigned> first(3, 0);
  for (Cycle now = 0; now < 3000; ++now) {
    SelectionChoice r[3] = {{0, 0}, {1, 0}, {2, 0}}, again[3] = {{0, 0}, {1, 0}, {2, 0}};
    random->order(r, 3, 42, now);
    random->order(again, 3, 42, now);
    std::set<unsigned> seen{r[0].candidate, r[1].candidate, r[2].candidate};
    CHECK(seen.size() == 3);
    CHECK(r[0].candidate == again[0].candidate);
    ++first[r[0].candidate];
  }
  for (unsigned n : first) CHECK(n == Approx(1000).margin(130));  // about 5 sigma
}

TEST_CASE("routing.selection is refused by routing functions without alternatives", "[routing]") {
  KaryNCube mesh({4, 4}, false);
  RoutingParams p;
  p.selection = "random";
  CHECK_THROWS_WITH(make_routing("dor", mesh, 2, p),
                    Catch::Contains("routing.selection") && Catch::Contains("dor"));
  CHECK_THROWS_WITH(make_routing("romm", mesh, 2, p), Catch::Contains("routing.selection"));
  for (const char* name : {"adaptive", "west_first", "north_last", "negative_first", "odd_even"}) {
    auto rf = make_routing(name, mesh, 2, p);
    CHECK(rf->selection() != nullptr);
    // With a strategy the alternatives are marked for the router (the escape channel stays last).
    PacketHeader hdr;
    hdr.dst = 15;
    RouteResult res;
    rf->route(RouteRequest{0, mesh.local_port_of(0), 0, 15, hdr}, res);
    const std::string n = name;
    const unsigned choices = n == "north_last" ? 1 : 2;  // (north-last: east first, north last)
    CHECK(res.alternatives() == choices);
    CHECK(res.size() == choices + (n == "adaptive"));
  }
  CHECK(make_routing("adaptive", mesh, 2)->selection() == nullptr);
}

namespace {

std::string table_file(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("collnoc_table_" + std::to_string(::getpid()) + "_" + name)).string();
  std::ofstream(path) << text;
  return path;
}

// Every (router, destination) line of a 4x4 mesh: minimal fully adaptive (every productive
// port), or, with `xy`, dimension order.
std::string mesh4x4_table(bool xy) {
  std::string text = "# 4x4 mesh\n";
  for (unsigned r = 0; r < 16; ++r)
    for (unsigned d = 0; d < 16; ++d) {
      if (r == d) continue;
      const int dx = int(d % 4) - int(r % 4), dy = int(d / 4) - int(r / 4);
      std::string ports;
      if (dx) ports += dx > 0 ? " E" : " W";
      if (dy && (!xy || !dx)) ports += dy > 0 ? " 2" : " 3";  // (by number: N is 2, S is 3)
      text += std::to_string(r) + " " + std::to_string(d) + ports + "  # comment\n";
    }
  return text;
}

}  // namespace

// A 3x3 mesh table (ids x + 3 y) whose escape sub-network is acyclic on its own but whose
// detours close a cycle through it (Duato's indirect dependencies): escape routes follow the
// ring of outer routers without its links 3 -> 0 and 1 -> 0 (clockwise 0 1 2 5 8 7 6 3, or back),
// the centre leaves west. For destination 3, router 1 may detour north (escape 0E -> centre ->
// escape 4W); for destination 1, router 3 may detour south (escape 4W -> 0 -> escape 0E).
std::string mesh3x3_indirect_cycle_table() {
  const std::vector<RouterId> ring = {0, 1, 2, 5, 8, 7, 6, 3};
  const auto pos = [&](RouterId r) { return std::find(ring.begin(), ring.end(), r) - ring.begin(); };
  const auto toward = [](RouterId from, RouterId to) {  // the port to a neighbour
    const int dx = int(to % 3) - int(from % 3), dy = int(to / 3) - int(from / 3);
    return dx > 0 ? "E" : dx < 0 ? "W" : dy > 0 ? "N" : "S";
  };
  std::string text;
  for (RouterId r = 0; r < 9; ++r)
    for (RouterId d = 0; d < 9; ++d) {
      if (r == d) continue;
      RouterId next;
      if (r == 4) next = 3;
      else if (d == 4) next = r % 2 ? 4 : ring[pos(r) + 1];  // (corners: on to an edge router)
      else next = ring[pos(d) > pos(r) ? pos(r) + 1 : pos(r) - 1];
      std::string adaptive;
      if (r == 1 && d == 3) adaptive = "N ";
      if (r == 3 && d == 1) adaptive = "S ";
      text += std::to_string(r) + " " + std::to_string(d) + " " + adaptive + "escape " +
              toward(r, next) + "\n";
    }
  return text;
}

TEST_CASE("table routing: the shipped west-first table routes as west_first does", "[routing]") {
  KaryNCube mesh({4, 4}, false);
  RoutingParams p;
  p.table = std::string(COLLNOC_SOURCE_DIR) + "/configs/routing/mesh4x4_west_first.table";
  auto table = make_routing("table", mesh, 2, p);
  auto wf = make_routing("west_first", mesh, 2);
  CHECK_FALSE(has_cycle(walk_all(mesh, *table, 2, false)));
  for (NodeId s = 0; s < 16; ++s)
    for (RouterId r = 0; r < 16; ++r)
      for (NodeId d = 0; d < 16; ++d) CHECK(ports(*table, mesh, r, s, d) == ports(*wf, mesh, r, s, d));
  p.table = table_file("xy", mesh4x4_table(true));
  CHECK_FALSE(has_cycle(walk_all(mesh, *make_routing("table", mesh, 1, p), 1, false)));
}

TEST_CASE("table routing with an escape sub-network: adaptive VCs over an acyclic escape",
          "[routing]") {
  KaryNCube mesh({4, 4}, false);
  RoutingParams p;
  p.table = std::string(COLLNOC_SOURCE_DIR) + "/configs/routing/mesh4x4_adaptive_escape.table";
  auto rf = make_routing("table", mesh, 3, p);
  const auto& table = dynamic_cast<const TableRouting&>(*rf);
  CHECK(table.has_escape());
  CHECK(table.adaptive_vcs() == 0b110u);
  // Minimal everywhere; the adaptive turns close cycles, the escape channels alone do not.
  CHECK(has_cycle(walk_all(mesh, *rf, 3, false)));
  CHECK_FALSE(has_cycle(walk_all(mesh, *rf, 3, true)));
  // Router 0 to node 15: east and north on VCs 1..2, then the XY escape east on VC 0.
  PacketHeader hdr;
  hdr.dst = 15;
  RouteResult res;
  rf->route(RouteRequest{0, mesh.local_port_of(0), 0, 15, hdr}, res);
  REQUIRE(res.size() == 3);
  const unsigned east = mesh.port_toward(0, 1), north = mesh.port_toward(1, 1);
  CHECK((res[0].port == east && res[0].vc_begin == 1 && res[0].vc_end == 3));
  CHECK((res[1].port == north && res[1].vc_begin == 1 && res[1].vc_end == 3));
  CHECK((res[2].port == east && res[2].vc_begin == 0 && res[2].vc_end == 1));
  // It is `adaptive` written out: the same candidates, ports and VCs, everywhere.
  const auto adaptive = make_routing("adaptive", mesh, 3);
  const auto candidates = [&](const RoutingFunction& f, RouterId r, NodeId d) {
    PacketHeader h;
    h.dst = d;
    RouteResult out;
    f.route(RouteRequest{r, mesh.local_port_of(r), 0, d, h}, out);
    std::vector<std::tuple<unsigned, unsigned, unsigned>> list;
    for (unsigned i = 0; i < out.size(); ++i) list.emplace_back(out[i].port, out[i].vc_begin, out[i].vc_end);
    return list;
  };
  for (RouterId r = 0; r < 16; ++r)
    for (NodeId d = 0; d < 16; ++d) CHECK(candidates(*rf, r, d) == candidates(*adaptive, r, d));
  // The XY table has no escape: every VC, nothing adaptive.
  p.table = table_file("xy", mesh4x4_table(true));
  CHECK(make_routing("table", mesh, 3, p)->adaptive_vcs() == 0);
}

TEST_CASE("table routing with an escape sub-network: Duato's condition is checked",
          "[routing]") {
  KaryNCube mesh({4, 4}, false), mesh3({3, 3}, false);
  RoutingParams p;
  const auto refused = [&](const Topology& topo, const std::string& text, const std::string& why,
                           unsigned vcs = 2) {
    p.table = table_file("bad_escape", text);
    INFO(text.substr(0, 200));
    CHECK_THROWS_WITH(make_routing("table", topo, vcs, p),
                      Catch::Contains("routing.table") && Catch::Contains(why));
  };
  std::ifstream shipped(std::string(COLLNOC_SOURCE_DIR) +
                        "/configs/routing/mesh4x4_adaptive_escape.table");
  const std::string escape((std::istreambuf_iterator<char>(shipped)), {});
  REQUIRE(escape.find("0 5 E N escape E\n") != std::string::npos);
  const auto with_line = [&](const std::string& line) {
    std::string t = escape;
    return t.replace(t.find("0 5 E N escape E\n"), 17, line + "\n");
  };
  refused(mesh, escape, "needs >= 2 VCs per class (VC 0 escape, the others adaptive); have 1", 1);
  refused(mesh, with_line("0 5 E N"), "names an escape port and line");
  refused(mesh, with_line("0 5 E N escape"), "escape PORT: the port is missing");
  refused(mesh, with_line("0 5 E N escape E N"), "escape PORT ends the line ('N' follows)");
  // Escape west from router 1 to node 5 while router 0 sends it back east: a loop.
  std::string loop = escape;
  loop.replace(loop.find("1 5 N escape N\n"), 15, "1 5 escape W\n");
  loop.replace(loop.find("0 5 E N escape E\n"), 17, "0 5 escape E\n");
  refused(mesh, loop, "packets for destination 5 can go round in a loop: router 0 -> 1 -> 0");
  // YX escape for destinations in odd columns, XY for the others: the turns close a cycle.
  std::string mixed;
  for (unsigned r = 0; r < 16; ++r)
    for (unsigned d = 0; d < 16; ++d) {
      if (r == d) continue;
      const int dx = int(d % 4) - int(r % 4), dy = int(d / 4) - int(r / 4);
      const bool y_first = d % 2 == 1 && dy != 0;
      const char* port = (dx && !y_first) ? (dx > 0 ? "E" : "W") : (dy > 0 ? "N" : "S");
      mixed += std::to_string(r) + " " + std::to_string(d) + " escape " + port + "\n";
    }
  refused(mesh, mixed, "escape sub-network's channel dependency graph has a cycle, so it can deadlock");
  // Acyclic escape, loop-free routes, but the detours close a cycle of indirect dependencies.
  const std::string indirect = mesh3x3_indirect_cycle_table();
  refused(mesh3, indirect, "extended channel dependency graph (Duato");
  std::string no_detours = indirect;
  no_detours.replace(no_detours.find("1 3 N escape"), 12, "1 3 escape");
  p.table = table_file("no_detours", no_detours);
  CHECK_NOTHROW(make_routing("table", mesh3, 2, p));
}

TEST_CASE("table routing: bad tables are refused naming routing.table and the line",
          "[routing]") {
  KaryNCube mesh({4, 4}, false);
  RoutingParams p;
  const auto refused = [&](const std::string& text, const std::string& why) {
    p.table = table_file("bad", text);
    INFO(text.substr(0, 200));
    CHECK_THROWS_WITH(make_routing("table", mesh, 2, p),
                      Catch::Contains("routing.table") && Catch::Contains(why));
  };
  const std::string xy = mesh4x4_table(true);
  // Every productive port everywhere: the turns close cycles.
  refused(mesh4x4_table(false), "channel dependency graph has a cycle, so it can deadlock: router");
  refused(xy.substr(0, xy.rfind("15 14")), "no line for router 15, destination 14");
  refused(xy + "0 5 E\n", "a second line for router 0, destination 5");
  refused(xy + "16 5 E\n", "router 16 is not in 0..15");
  refused(xy + "0 16 E\n", "destination 16 is not in 0..15");
  refused("3 3 W\n" + xy, "line 1: node 3 is attached to router 3");
  refused("0 1 up\n" + xy, "line 1: no network port 'up'");
  refused("0 1 W\n" + xy, "port W of router 0 is not connected");
  refused("0 1\n" + xy, "line 1: no port given");
  refused("zero 1 E\n", "ROUTER and DESTINATION are numbers");
  p.table = "/no/such/file";
  CHECK_THROWS_WITH(make_routing("table", mesh, 2, p), Catch::Contains("no such file"));
  p.table = "";
  CHECK_THROWS_WITH(make_routing("table", mesh, 2, p), Catch::Contains("needs routing.table"));
  p.table = table_file("xy", xy);
  CHECK_THROWS_WITH(make_routing("dor", mesh, 2, p),
                    Catch::Contains("routing.table") && Catch::Contains("table only"));
}
