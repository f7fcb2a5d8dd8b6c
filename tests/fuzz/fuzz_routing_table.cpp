// libFuzzer target: routing tables (routing.algorithm = table, TableRouting). The input's first
// line names the network, `mesh`, `torus`, `mesh3d` or `ring`, and the VCs per class (1..4), e.g.
// `mesh 2`; the rest is the table. Bad tables must be a ParamError; a table that loads must keep
// the promises its check makes:
//   - every router has candidates for every destination, on connected ports and VCs of the
//     class (with an escape sub-network: adaptive ports on VCs 1.., the escape port last on VC 0);
//   - every route is loop-free: whatever a packet chooses, it reaches its destination's router
//     within as many hops as there are routers;
//   - the channels a packet may wait for form an acyclic dependency graph (without escape: all of
//     them; with escape: the escape channels alone).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "noc/routing/table.hpp"
#include "noc/topology/kary_ncube.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using namespace collnoc;
using fuzz::expect;

// The ports a packet for `d` may take at `r` (coming from its local port: the table ignores
// where it came from); only the escape port if `escape_only`.
std::vector<unsigned> ports(const RoutingFunction& rf, const Topology& t, RouterId r, NodeId d,
                            bool escape_only) {
  PacketHeader h;
  h.dst = d;
  RouteResult out;
  rf.route(RouteRequest{r, t.network_ports(), 0, d, h}, out);
  std::vector<unsigned> list;
  for (unsigned i = escape_only ? out.size() - 1 : 0; i < out.size(); ++i) list.push_back(out[i].port);
  return list;
}

bool acyclic(const std::vector<std::set<std::uint32_t>>& next) {
  std::vector<char> state(next.size(), 0);
  // Recursion is fine: at most a few hundred channels here.
  std::function<bool(std::uint32_t)> visit = [&](std::uint32_t c) {
    state[c] = 1;
    for (std::uint32_t n : next[c])
      if (state[n] == 1 || (state[n] == 0 && !visit(n))) return false;
    state[c] = 2;
    return true;
  };
  for (std::uint32_t c = 0; c < next.size(); ++c)
    if (state[c] == 0 && !visit(c)) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::string kind;
  unsigned vcs = 0;
  if (!(in >> kind >> vcs) || vcs < 1 || vcs > 4) return 0;
  std::string rest;
  std::getline(in, rest);  // (the first line's end)
  std::vector<unsigned> k;
  bool torus = false;
  if (kind == "mesh") k = {3, 3};
  else if (kind == "torus") k = {3, 3}, torus = true;
  else if (kind == "mesh3d") k = {2, 2, 2};
  else if (kind == "ring") k = {5}, torus = true;
  else return 0;
  const KaryNCube t(k, torus);
  std::unique_ptr<TableRouting> rf;
  try {
    rf = std::make_unique<TableRouting>(t, vcs, in, "fuzz.table");
  } catch (const ParamError&) {
    return 0;
  }
  const bool escape = rf->has_escape();
  expect(!escape || vcs >= 2, "an escape sub-network with 1 VC loaded");
  const unsigned net = t.network_ports();
  const auto channel = [&](RouterId r, unsigned p) { return static_cast<std::uint32_t>(r * net + p); };
  std::vector<std::set<std::uint32_t>> next(t.num_routers() * net);
  for (NodeId d = 0; d < t.num_endpoints(); ++d) {
    const RouterId target = t.router_of(d);
    for (RouterId r = 0; r < t.num_routers(); ++r) {
      if (r == target) continue;
      PacketHeader h;
      h.dst = d;
      RouteResult out;
      rf->route(RouteRequest{r, t.network_ports(), 0, d, h}, out);
      expect(out.size() > 0, "no candidate at router " + std::to_string(r));
      for (unsigned i = 0; i < out.size(); ++i) {
        const RouteCandidate& c = out[i];
        expect(c.port < net && t.peer(r, c.port).connected(), "an unconnected port");
        const bool is_escape = escape && i + 1 == out.size();
        expect(escape ? (is_escape ? c.vc_begin == 0 && c.vc_end == 1
                                   : c.vc_begin == 1 && c.vc_end == vcs)
                      : c.vc_begin == 0 && c.vc_end == vcs,
               "candidate VCs outside the promise");
      }
      // Loop-free: depth-first over every choice, bounded by the router count.
      std::vector<std::pair<RouterId, unsigned>> stack{{r, 0}};
      while (!stack.empty()) {
        const auto [at, hops] = stack.back();
        stack.pop_back();
        if (at == target) continue;
        expect(hops < t.num_routers(), "a route for destination " + std::to_string(d) +
                                           " from router " + std::to_string(r) + " loops");
        for (unsigned p : ports(*rf, t, at, d, false)) stack.push_back({t.peer(at, p).router, hops + 1});
      }
      for (unsigned p : ports(*rf, t, r, d, escape)) {
        const RouterId q = t.peer(r, p).router;
        if (q == target) continue;
        for (unsigned p2 : ports(*rf, t, q, d, escape)) next[channel(r, p)].insert(channel(q, p2));
      }
    }
  }
  expect(acyclic(next), escape ? "the escape channels' dependency graph has a cycle"
                               : "the channel dependency graph has a cycle");
  return 0;
}
