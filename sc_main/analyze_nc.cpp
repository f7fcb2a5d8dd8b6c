// `collnoc analyze nc`: unicasts and aggregate hop count of all-to-all broadcast on a k-ary
// n-cube, plain against hierarchical network-coded (and message combining), with the same plan
// and minimal DOR paths as the simulator (collectives/all_to_all_hops.hpp); no simulation.
// `--group best` tries every group shape that tiles the network.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "collectives/all_to_all_hops.hpp"
#include "sc_main/cli.hpp"
#include "sc_main/config.hpp"
#include "noc/topology/kary_ncube.hpp"

namespace collnoc::cli {

namespace {

// The library names workload.* keys; the user typed options: name the option.
[[noreturn]] void rethrow_as_option(const ParamError& e) {
  static const std::pair<const char*, const char*> options[] = {
      {"workload.group", "--group"},     {"workload.base", "--base"},
      {"workload.variant", "--variant"}, {"workload.subgroup", "--subgroup"},
      {"workload.sources", "--sources"}, {"workload.intermediate", "--intermediate"},
      {"topology.k", "--k"},             {"topology.n", "--n"}};
  std::string option = e.key();
  for (const auto& [key, opt] : options)
    if (e.key() == key) option = opt;
  const std::string what = e.what();
  const std::string head = e.key() + " = " + e.value() + ": ";
  throw InputError(option + " = " + e.value() + ": " +
                   (what.rfind(head, 0) == 0 ? what.substr(head.size()) : what));
}

struct Figures {
  std::string shape;
  unsigned size = 0;
  A2aCount coded, combining;
};

Figures figures(const KaryNCube& topo, AllToAllParams p, const std::string& group) {
  p.group = group;
  p.scheme = "hierarchical_nc";
  Figures f;
  const AllToAllPlan coded(topo, p);
  f.shape = shape_text(coded.group_shape());
  f.size = coded.group_size();
  f.coded = count_unicasts(coded);
  p.scheme = "combining";
  p.variant = "intermediate";
  f.combining = count_unicasts(AllToAllPlan(topo, p));
  return f;
}

nlohmann::json count_json(const A2aCount& c) {
  return {{"unicasts", c.unicasts}, {"aggregate_hops", c.hops}};
}

double reduction(const A2aCount& coded, const A2aCount& plain) {
  return plain.hops ? 1.0 - static_cast<double>(coded.hops) / static_cast<double>(plain.hops) : 0.0;
}

}  // namespace

void add_analyze_nc_command(CLI::App& analyze, AnalyzeOptions& o) {
  CLI::App* nc = analyze.add_subcommand(
      "nc", "all-to-all broadcast: unicasts and aggregate hops of the plain and the "
            "network-coded scheme (SPEC 3.2), analytically, with the simulator's plan");
  nc->add_option("--topology", o.nc_topology, "mesh or torus")->capture_default_str();
  add_integer_option(*nc, "--k", o.nc_k, "nodes per dimension (2..256)");
  add_integer_option(*nc, "--n", o.nc_n, "dimensions (1..4)");
  nc->add_option("--group", o.nc_group,
                 "group shape GxH (tiles the network), auto, or best (try every shape)")
      ->capture_default_str();
  nc->add_option("--base", o.nc_base, "base multicast: tree or all_at_once")->capture_default_str();
  nc->add_option("--variant", o.nc_variant, "intermediate, every_node or recursive")
      ->capture_default_str();
  nc->add_option("--subgroup", o.nc_subgroup, "recursive: subgroup shape, or auto")
      ->capture_default_str();
  nc->add_option("--intermediate", o.nc_intermediate, "center or corner")->capture_default_str();
  add_integer_option(*nc, "--sources", o.nc_sources, "many-to-all: sources, 0 = every node");
  nc->add_flag("--json", o.json, "print one JSON object");
  nc->callback([&o] { o.command = AnalyzeOptions::Command::nc; });
}

int analyze_nc(const AnalyzeOptions& o) {
  if (o.nc_topology != "mesh" && o.nc_topology != "torus")
    throw InputError("--topology = " + o.nc_topology + ": one of: mesh, torus");
  if (o.nc_k < 2 || o.nc_k > 256)
    throw InputError("--k = " + std::to_string(o.nc_k) + ": must be 2..256");
  if (o.nc_n < 1 || o.nc_n > 4) throw InputError("--n = " + std::to_string(o.nc_n) + ": must be 1..4");
  if (o.nc_sources < 0)
    throw InputError("--sources = " + std::to_string(o.nc_sources) + ": must be >= 0");
  std::vector<unsigned> k(static_cast<std::size_t>(o.nc_n), static_cast<unsigned>(o.nc_k));
  std::uint64_t nodes = 1;
  for (unsigned e : k) nodes *= e;
  if (nodes > (1u << 16))
    throw InputError("--k, --n: " + std::to_string(nodes) + " nodes; at most 65536");
  const KaryNCube topo(k, o.nc_topology == "torus");

  AllToAllParams p;
  p.base = o.nc_base;
  p.variant = o.nc_variant;
  p.subgroup = o.nc_subgroup;
  p.intermediate = o.nc_intermediate;
  p.sources = static_cast<unsigned>(o.nc_sources);
  A2aCount plain;
  Figures best;
  nlohmann::json candidates = nlohmann::json::array();
  try {
    p.scheme = "plain";
    plain = count_unicasts(AllToAllPlan(topo, p));
    if (o.nc_group == "best") {
      for (const std::vector<unsigned>& tiling : tiling_shapes(k)) {
        const std::string shape = shape_text(tiling);
        Figures f;
        try {
          f = figures(topo, p, shape);
        } catch (const ParamError& e) {  // recursive: no subgroup shape fits this group
          if (e.key() == "workload.subgroup") continue;
          throw;
        }
        candidates.push_back({{"group_shape", f.shape},
                              {"group_size", f.size},
                              {"coded_aggregate_hops", f.coded.hops},
                              {"reduction", reduction(f.coded, plain)}});
        if (best.shape.empty() || f.coded.hops < best.coded.hops) best = f;
      }
      if (best.shape.empty())
        throw InputError("--group = best: no group shape tiles " + topo.describe() +
                         (p.variant == "recursive" ? " with room for subgroups" : ""));
    } else {
      best = figures(topo, p, o.nc_group);
    }
  } catch (const ParamError& e) {
    rethrow_as_option(e);
  }

  const unsigned sources = p.sources ? p.sources : static_cast<unsigned>(nodes);
  if (o.json) {
    nlohmann::json j;
    j["topology"] = topo.describe();
    j["nodes"] = nodes;
    j["sources"] = sources;
    j["base"] = p.base;
    j["variant"] = p.variant;
    j["group_shape"] = best.shape;
    j["group_size"] = best.size;
    j["plain"] = count_json(plain);
    j["coded"] = count_json(best.coded);
    j["combining"] = count_json(best.combining);
    j["reduction"] = reduction(best.coded, plain);
    if (o.nc_group == "best") j["candidates"] = candidates;
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }
  std::cout << "all-to-all broadcast on " << topo.describe() << ", " << sources << " of " << nodes
            << " nodes as sources, " << p.base << " base\n"
            << "  group " << best.shape << " (" << best.size << " nodes"
            << (o.nc_group == "best" ? ", the best of " + std::to_string(candidates.size()) + " shapes" : "")
            << "), variant " << p.variant << "\n"
            << "  plain:           " << plain.unicasts << " unicasts, " << plain.hops << " hops\n"
            << "  network-coded:   " << best.coded.unicasts << " unicasts, " << best.coded.hops
            << " hops (reduction " << reduction(best.coded, plain) * 100 << " %)\n"
            << "  combining:       " << best.combining.unicasts << " unicasts, "
            << best.combining.hops << " hops\n";
  return kExitOk;
}

}  // namespace collnoc::cli
