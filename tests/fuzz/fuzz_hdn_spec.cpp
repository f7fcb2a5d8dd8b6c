// libFuzzer target: the HDN(B, k, S) description (HdnSpec::parse), as `analyze hdn` and the
// configuration (hdn.base, hdn.levels, hdn.supernodes) give it. The input is three lines: the
// base, k (a whole number, as --levels takes it; anything else is left to the option parser) and
// the super-node sets. Bad input must be a ParamError; a spec that parses must keep its promises:
//   - each part's description parses back to the same factors;
//   - HdnTopology refuses exactly the graphs above its build limit, with a ParamError;
//   - a built graph (up to 2^12 routers here, to keep each input quick) has the routers and ports
//     the formulas give, every port joined both ways to its peer;
//   - up to 2^8 routers, breadth-first search from every router and from one per symmetry orbit
//     both find a connected graph of the formula's diameter.
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>

#include "noc/topology/hdn.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using namespace collnoc;
using fuzz::expect;

constexpr std::uint64_t kBuildNodes = std::uint64_t{1} << 12;
constexpr std::uint64_t kSearchNodes = std::uint64_t{1} << 8;

std::string next_line(const std::string& text, std::size_t& at) {
  if (at >= text.size()) return "";
  const std::size_t end = std::min(text.find('\n', at), text.size());
  std::string line = text.substr(at, end - at);
  at = end + 1;
  return line;
}

void check_descriptions(const HdnSpec& spec) {
  expect(HdnBase::parse(spec.base.text).factors.size() == spec.base.size(),
         "the base's text does not parse back: " + spec.base.text);
  for (const HdnSuperNode& sn : spec.supernodes)
    expect(parse_hdn_supernode(spec.base, sn.describe(spec.base)).factors == sn.factors,
           "super-node " + sn.describe(spec.base) + " does not parse back");
}

void check_graph(const HdnSpec& spec, const HdnProperties& p) {
  const bool buildable = p.nodes && *p.nodes <= HdnTopology::kMaxBuildNodes;
  if (!buildable) {
    try {
      HdnTopology refused(spec);
    } catch (const ParamError&) {
      return;
    }
    fuzz::finding(spec.describe() + ": built above the limit of 2^21 routers");
  }
  if (*p.nodes > kBuildNodes) return;
  const HdnTopology t(spec);
  expect(t.num_routers() == *p.nodes && t.network_ports() == p.degree,
         spec.describe() + ": the graph has other router or port counts than the formulas");
  for (RouterId r = 0; r < t.num_routers(); ++r)
    for (unsigned port = 0; port < t.network_ports(); ++port) {
      const PortPeer& q = t.peer(r, port);
      expect(q.connected() && q.router < t.num_routers() && q.port < t.network_ports() &&
                 t.peer(q.router, q.port).router == r && t.peer(q.router, q.port).port == port,
             spec.describe() + ": router " + std::to_string(r) + " port " +
                 std::to_string(port) + " is not joined both ways");
    }
  if (*p.nodes > kSearchNodes) return;
  const HdnBfsResult orbits = hdn_bfs_diameter(t, true), every = hdn_bfs_diameter(t, false);
  expect(orbits.connected && every.connected, spec.describe() + ": not connected");
  expect(orbits.diameter == p.diameter && every.diameter == p.diameter,
         spec.describe() + ": diameter by search " + std::to_string(every.diameter) + " (" +
             std::to_string(orbits.diameter) + " over orbits), formula " +
             std::to_string(p.diameter));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::size_t at = 0;
  const std::string base = next_line(text, at), levels_text = next_line(text, at);
  const std::string supernodes = next_line(text, at);
  long long levels = 0;
  const char* end = levels_text.data() + levels_text.size();
  if (levels_text.empty() || std::from_chars(levels_text.data(), end, levels).ptr != end) return 0;

  HdnSpec spec;
  try {
    spec = HdnSpec::parse(base, levels, supernodes);
  } catch (const ParamError&) {
    return 0;
  }
  expect(spec.supernodes.size() == spec.levels, spec.describe() + ": not one set per level");
  check_descriptions(spec);
  const HdnProperties p = hdn_properties(spec);
  expect(p.degree == spec.base.degree() + spec.levels, spec.describe() + ": degree");
  similar_hypercube(p.log2_nodes);
  similar_torus3d(p.log2_nodes);
  check_graph(spec, p);
  return 0;
}
