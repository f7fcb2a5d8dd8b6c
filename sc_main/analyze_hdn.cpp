// `collnoc analyze hdn`: the SPEC 4.1 properties of a hierarchical dual-net HDN(B, k, S) (nodes,
// degree, diameter, cost ratio) beside a hypercube and a 3D torus of similar size; the graph is
// built whenever it fits (noc/topology/hdn.hpp) and, with --bfs, its diameter measured.
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "noc/topology/hdn.hpp"
#include "sc_main/cli.hpp"
#include "sc_main/config.hpp"

namespace collnoc::cli {

namespace {

// The library names its keys (hdn.supernodes); the user typed an option: say both.
[[noreturn]] void rethrow_as_option(const ParamError& e, const AnalyzeOptions& o) {
  std::string option = "--base", typed = o.hdn_base;
  if (e.key() == "hdn.levels") option = "--levels", typed = std::to_string(o.hdn_levels);
  if (e.key() == "hdn.supernodes") option = "--supernodes", typed = e.value();
  const std::string what = e.what();
  const std::string head = e.key() + " = " + e.value() + ": ";
  const std::string why = what.rfind(head, 0) == 0 ? what.substr(head.size()) : what;
  throw InputError(option + " = " + (typed.empty() ? "(empty)" : typed) + ": " + why + " (" +
                   e.key() + ")");
}

std::pair<double, double> parse_weights(const std::string& text) {
  const auto fail = [&] {
    return InputError("--weights = " + text +
                      ": give two numbers w1,w2 >= 0, not both 0 (cost ratio "
                      "(w1*degree + w2*diameter) / log2(nodes))");
  };
  const std::size_t comma = text.find(',');
  if (comma == std::string::npos) throw fail();
  double w[2];
  const std::string parts[2] = {text.substr(0, comma), text.substr(comma + 1)};
  for (int i = 0; i < 2; ++i) {
    std::size_t used = 0;
    try {
      w[i] = std::stod(parts[i], &used);
    } catch (const std::exception&) {
      throw fail();
    }
    if (used != parts[i].size() || !std::isfinite(w[i]) || w[i] < 0) throw fail();
  }
  if (w[0] == 0 && w[1] == 0) throw fail();
  return {w[0], w[1]};
}

// A node count: exact below 2^63, else a double while one holds it, else null (the log2 is
// reported beside it).
nlohmann::json nodes_json(long double nodes) {
  if (nodes < 9.2e18L) return static_cast<std::uint64_t>(std::llround(nodes));
  if (nodes < static_cast<long double>(std::numeric_limits<double>::max()))
    return static_cast<double>(nodes);
  return nullptr;
}

std::string nodes_text(std::optional<std::uint64_t> exact, long double log2n) {
  if (exact) return std::to_string(*exact);
  std::ostringstream os;
  os << "2^" << std::fixed << std::setprecision(2) << static_cast<double>(log2n);
  return os.str();
}

std::string ratio_text(double v) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(3) << v;
  return os.str();
}

}  // namespace

void add_analyze_hdn_command(CLI::App& analyze, AnalyzeOptions& o) {
  CLI::App* hdn = analyze.add_subcommand(
      "hdn", "hierarchical dual-net HDN(B, k, S): nodes, degree, diameter and cost ratio "
             "(SPEC 4.1) beside a hypercube and a 3D torus of similar size");
  hdn->add_option("--base", o.hdn_base, "base network: torus:AxBx... or hypercube:N")
      ->capture_default_str();
  add_integer_option(*hdn, "--levels", o.hdn_levels, "k, the number of levels (0..16)");
  hdn->add_option("--supernodes", o.hdn_supernodes,
                  "super-node set per level, level 1 first, comma-separated: 1, a size, or "
                  "factors like C2xC3 (default: 1 at every level)");
  hdn->add_option("--weights", o.hdn_weights, "w1,w2 of the cost ratio")->capture_default_str();
  hdn->add_flag("--bfs", o.hdn_bfs,
                "measure the diameter by breadth-first search on the built graph (at most 2^17 "
                "nodes)");
  hdn->add_flag("--json", o.json, "print one JSON object");
  hdn->callback([&o] { o.command = AnalyzeOptions::Command::hdn; });
}

int analyze_hdn(const AnalyzeOptions& o) {
  const auto [w1, w2] = parse_weights(o.hdn_weights);
  HdnSpec spec;
  try {
    spec = HdnSpec::parse(o.hdn_base, o.hdn_levels, o.hdn_supernodes);
  } catch (const ParamError& e) {
    rethrow_as_option(e, o);
  }
  const HdnProperties p = hdn_properties(spec, w1, w2);
  const bool buildable = p.nodes && *p.nodes <= HdnTopology::kMaxBuildNodes;
  if (o.hdn_bfs && !(p.nodes && *p.nodes <= kHdnMaxBfsNodes))
    throw InputError("--bfs: " + spec.describe() + " has " + nodes_text(p.nodes, p.log2_nodes) +
                     " nodes; breadth-first search is limited to 2^17 = " +
                     std::to_string(kHdnMaxBfsNodes) +
                     " nodes (drop --bfs for the formulas alone)");

  nlohmann::json j;
  j["hdn"] = spec.describe();
  j["base"] = spec.base.text;
  j["levels"] = spec.levels;
  j["base_nodes"] = spec.base.nodes();
  j["base_degree"] = spec.base.degree();
  j["base_diameter"] = spec.base.diameter();
  j["per_level"] = nlohmann::json::array();
  {
    // Exact while N_i fits in 63 bits, then as a floating-point number.
    std::uint64_t N = spec.base.nodes();
    bool exact = true;
    long double log2N = std::log2(static_cast<long double>(N));
    for (unsigned i = 1; i <= spec.levels; ++i) {
      const HdnSuperNode& sn = spec.supernodes[i - 1];
      const std::uint64_t s = sn.size(spec.base);
      const long double log2s = std::log2(static_cast<long double>(s));
      const long double log2n = log2N - log2s;
      const nlohmann::json n = exact ? nlohmann::json(N / s) : nodes_json(std::exp2(log2n));
      exact = exact && N / s <= (std::uint64_t{1} << 62) / N;
      if (exact) N = 2 * (N / s) * N;
      log2N = 1 + 2 * log2N - log2s;
      j["per_level"].push_back({{"level", i},
                                {"supernode", sn.describe(spec.base)},
                                {"s", s},
                                {"supernode_diameter", sn.diameter(spec.base)},
                                {"n", n},
                                {"N", exact ? nlohmann::json(N) : nodes_json(std::exp2(log2N))},
                                {"log2_n", static_cast<double>(log2n)},
                                {"log2_N", static_cast<double>(log2N)}});
    }
  }
  j["nodes"] = p.nodes ? nlohmann::json(*p.nodes) : nodes_json(std::exp2(p.log2_nodes));
  j["log2_nodes"] = static_cast<double>(p.log2_nodes);
  j["degree"] = p.degree;
  j["diameter_formula"] = p.diameter;
  if (p.level1_whole_base) j["diameter_spec_formula"] = p.diameter_spec;
  j["weights"] = {w1, w2};
  j["cost_ratio"] = p.cost_ratio;

  std::optional<HdnBfsResult> bfs;
  if (buildable) {
    const HdnTopology topo(spec);
    const unsigned ports = topo.network_ports();
    for (RouterId r = 0; r < topo.num_routers(); ++r)
      for (unsigned port = 0; port < ports; ++port)
        if (!topo.peer(r, port).connected()) {
          std::cerr << "collnoc: fault: router " << r << " port " << port << " is unconnected\n";
          return kExitFault;
        }
    if (topo.num_routers() != *p.nodes || ports != p.degree) {
      std::cerr << "collnoc: fault: built " << topo.num_routers() << " routers of " << ports
                << " ports, the formulas say " << *p.nodes << " of " << p.degree << "\n";
      return kExitFault;
    }
    j["nodes_built"] = topo.num_routers();
    if (o.hdn_bfs) {
      bfs = hdn_bfs_diameter(topo);
      j["diameter_bfs"] = bfs->diameter;
      j["bfs_sources"] = bfs->sources;
      j["connected"] = bfs->connected;
    }
  }

  const NetworkFigures cube = similar_hypercube(p.log2_nodes, w1, w2);
  const std::optional<NetworkFigures> torus = similar_torus3d(p.log2_nodes, w1, w2);
  j["hypercube"] = {{"dimension", cube.size},
                    {"nodes", nodes_json(cube.nodes)},
                    {"degree", cube.degree},
                    {"diameter", cube.diameter},
                    {"cost_ratio", cube.cost_ratio}};
  if (torus) {
    j["torus3d"] = {{"k", torus->size},
                    {"nodes", nodes_json(torus->nodes)},
                    {"degree", torus->degree},
                    {"diameter", torus->diameter},
                    {"cost_ratio", torus->cost_ratio}};
  } else {
    j["torus3d"] = nullptr;
  }

  if (o.json) {
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }
  std::ostream& os = std::cout;
  os << spec.describe() << "\n"
     << "  base " << spec.base.text << ": n_0 = " << spec.base.nodes()
     << ", degree d_0 = " << spec.base.degree() << " ports, diameter D(B) = "
     << spec.base.diameter() << "\n";
  if (spec.levels) {
    os << "  level  super-node            s_i  D(SN_i)  n_i = N_(i-1)/s_i  N_i\n";
    for (const auto& l : j["per_level"]) {
      const auto num = [](const nlohmann::json& v, const nlohmann::json& log2v) {
        return v.is_number_unsigned() ? std::to_string(v.get<std::uint64_t>())
                                      : nodes_text(std::nullopt, log2v.get<double>());
      };
      os << "  " << std::left << std::setw(5) << l["level"].get<unsigned>() << "  "
         << std::setw(20) << l["supernode"].get<std::string>() << std::right << std::setw(5)
         << l["s"].get<std::uint64_t>() << "  " << std::setw(7)
         << l["supernode_diameter"].get<unsigned>() << "  " << std::setw(17) << num(l["n"], l["log2_n"])
         << "  " << num(l["N"], l["log2_N"]) << "\n";
    }
  }
  os << "\n  " << std::left << std::setw(18) << "network" << std::right << std::setw(18) << "nodes"
     << "  degree  diameter  cost_ratio\n";
  const auto row = [&os](const std::string& name, const std::string& nodes, unsigned degree,
                         std::uint64_t diameter, double cr) {
    os << "  " << std::left << std::setw(18) << name << std::right << std::setw(18) << nodes
       << std::setw(8) << degree << std::setw(10) << diameter << std::setw(12) << ratio_text(cr)
       << "\n";
  };
  row("HDN", nodes_text(p.nodes, p.log2_nodes), p.degree, p.diameter, p.cost_ratio);
  const auto fig_nodes = [](long double n) {
    return n < 9.2e18L ? std::to_string(static_cast<std::uint64_t>(std::llround(n)))
                       : nodes_text(std::nullopt, std::log2(n));
  };
  row(cube.name, fig_nodes(cube.nodes), cube.degree, cube.diameter, cube.cost_ratio);
  if (torus) row(torus->name, fig_nodes(torus->nodes), torus->degree, torus->diameter,
                 torus->cost_ratio);
  os << "\n  cost ratio = (" << w1 << " * degree + " << w2 << " * diameter) / log2(nodes)\n"
     << "  degree counts ports: a ring of 2 gives two, a K_2 factor one\n";
  if (p.level1_whole_base)
    os << "  SN_1 is the whole base (n_1 = 1): SPEC 4.1's closed form gives " << p.diameter_spec
       << ",\n  the exact diameter is " << p.diameter << " (docs/hdn.md)\n";
  if (buildable)
    os << "  nodes_built   " << j["nodes_built"].get<std::uint64_t>() << " (every router has "
       << p.degree << " connected network ports)\n";
  else
    os << "  nodes_built   - (not built: more than 2^21 routers)\n";
  if (bfs)
    os << "  diameter_bfs  " << bfs->diameter << (bfs->diameter == p.diameter ? " = " : " != ")
       << "formula (" << bfs->sources
       << " breadth-first searches, one per orbit of the graph's symmetries"
       << (bfs->connected ? "" : "; NOT CONNECTED") << ")\n";
  return kExitOk;
}

}  // namespace collnoc::cli
