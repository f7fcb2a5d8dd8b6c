// `collnoc trace record` (a run's injected messages as a trace) and `collnoc trace convert`
// (Noxim's traffic table into a trace). The trace format: docs/traffic.md#traces.
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

#include <systemc>

#include "noc/input_file.hpp"
#include "noc/random.hpp"
#include "sc_main/cli.hpp"
#include "sc_main/config.hpp"
#include "sc_main/interrupt.hpp"
#include "sc_main/output_file.hpp"

namespace collnoc::cli {

int trace_record_command(const TraceRecordOptions& options) {
  const InterruptGuard interrupts;
  const Config config = load_config(options.config_path, options.overrides);
  RunConfig rc = config.to_run_config();
  if (options.quiet) rc.run.progress = false;
  rc.run.interrupt = &InterruptGuard::signal();
  check_buildable(rc);
  check_writable(options.out_path, "--out");

  const BuiltRun built = build_run(rc);
  TraceRecorder recorder;
  built.system->record_trace(recorder);
  Simulation simulation(*built.system, rc.run, built.firmware.get());
  const RunOutcome outcome = simulation.run();
  if (const TraceFeed* feed = built.system->trace_feed(); feed && feed->error())
    throw *feed->error();
  if (outcome.status != RunStatus::ok) {
    std::cerr << "collnoc: simulation fault: " << to_string(outcome.status) << ": "
              << outcome.diagnosis;
    if (outcome.diagnosis.empty() || outcome.diagnosis.back() != '\n') std::cerr << "\n";
    return kExitFault;
  }
  std::ostringstream text;
  recorder.write(text, "# collnoc trace record " +
                           (options.config_path.empty() ? std::string("-") : options.config_path) +
                           " (workload.kind = " + rc.workload_kind + ", " +
                           std::to_string(built.system->num_nis()) +
                           " nodes)\n# cycle src dst bytes type [depends_on gap]\n");
  write_output(options.out_path, text.str(), "trace");
  if (!options.quiet)
    std::cout << "trace: " << recorder.messages() << " messages in " << options.out_path << "\n";
  return kExitOk;
}

namespace {

// One row of a Noxim traffic table: `src dst [pir [por [t_on [t_off [t_period]]]]]`.
struct NoximFlow {
  NodeId src, dst;
  double pir, por;
  Cycle t_on, t_off, t_period;
};

std::vector<NoximFlow> read_noxim_table(const std::string& path, Cycle cycles) {
  if (auto problem = input_file_problem(path)) throw InputError("noxim table: " + *problem);
  std::ifstream in(path);
  std::vector<NoximFlow> flows;
  std::string line;
  static const char* const names[] = {"src", "dst", "pir", "por", "t_on", "t_off", "t_period"};
  for (std::uint64_t number = 1; std::getline(in, line); ++number) {
    auto fail = [&](const std::string& what) {
      throw InputError("noxim table " + path + ": line " + std::to_string(number) + ": " + what);
    };
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '%') continue;  // (Noxim's comment)
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    if (f.empty()) continue;
    if (f.size() < 2 || f.size() > 7)
      fail("has " + std::to_string(f.size()) +
           " fields; a row is `src dst [pir [por [t_on [t_off [t_period]]]]]`");
    double v[7] = {0, 0, 0, -1, 0, static_cast<double>(cycles), static_cast<double>(cycles)};
    for (std::size_t i = 0; i < f.size(); ++i) {
      std::size_t used = 0;
      try {
        v[i] = std::stod(f[i], &used);
      } catch (const std::exception&) {
        used = 0;
      }
      const bool integer = i != 2 && i != 3;
      if (used != f[i].size() || !std::isfinite(v[i]) || v[i] < 0 ||
          (integer && (v[i] != std::floor(v[i]) || v[i] > 4e9)))
        fail(std::string(names[i]) + " = '" + f[i] + "': must be a non-negative " +
             (integer ? "integer" : "number"));
    }
    if (f.size() < 3) fail("pir missing: the converter has no global injection rate to fall back on");
    for (int i : {2, 3})
      if (v[i] > 1) fail(std::string(names[i]) + " = " + f[i] + ": a probability, in [0, 1]");
    if (v[3] < 0) v[3] = v[2];  // Noxim: por defaults to pir
    if (v[5] <= v[4]) fail("t_off = " + f[5] + ": must be > t_on = " + f[4]);
    if (v[6] <= 0) fail("t_period = " + f[6] + ": must be > 0");
    flows.push_back(NoximFlow{static_cast<NodeId>(v[0]), static_cast<NodeId>(v[1]), v[2], v[3],
                              static_cast<Cycle>(v[4]), static_cast<Cycle>(v[5]),
                              static_cast<Cycle>(v[6])});
  }
  if (flows.empty()) throw InputError("noxim table " + path + ": holds no rows");
  return flows;
}

}  // namespace

// Noxim's table process, cycle by cycle: each source draws once a cycle against the summed
// rate of its flows active then (pir, or por in the cycle after it sent) and, if it sends,
// picks the flow whose share of that sum the same draw falls in.
int trace_convert_command(const TraceConvertOptions& options) {
  if (options.from != "noxim")
    throw InputError("--from " + options.from +
                     ": one of: noxim (BookSim2 has no trace format to convert: docs/traffic.md)");
  if (options.cycles == 0) throw InputError("--cycles 0: must be at least 1");
  if (options.bytes == 0 || options.bytes > TraceLimits::kMaxBytes)
    throw InputError("--bytes " + std::to_string(options.bytes) + ": must be in [1, " +
                     std::to_string(TraceLimits::kMaxBytes) + "]");
  const std::vector<NoximFlow> flows = read_noxim_table(options.table, options.cycles);
  check_writable(options.out_path, "--out");
  NodeId nodes = 0;
  for (const NoximFlow& f : flows) nodes = std::max({nodes, f.src + 1, f.dst + 1});
  std::vector<std::vector<const NoximFlow*>> by_source(nodes);
  for (const NoximFlow& f : flows) by_source[f.src].push_back(&f);
  std::vector<Rng> rng;
  for (NodeId s = 0; s < nodes; ++s) rng.emplace_back(hash64(options.seed, s));
  std::vector<bool> sent_before(nodes, false);
  std::ostringstream out;
  out << "# collnoc trace convert --from noxim " << options.table << " --cycles " << options.cycles
      << " --seed " << options.seed << " --bytes " << options.bytes
      << "\n# cycle src dst bytes\n";
  std::uint64_t messages = 0;
  for (Cycle c = 0; c < options.cycles; ++c)
    for (NodeId s = 0; s < nodes; ++s) {
      if (by_source[s].empty()) continue;
      const double draw = rng[s].uniform();
      double total = 0;
      const NoximFlow* chosen = nullptr;
      for (const NoximFlow* f : by_source[s]) {
        const Cycle r = c % f->t_period;
        if (r <= f->t_on || r >= f->t_off) continue;  // (Noxim: strictly inside)
        total += sent_before[s] ? f->por : f->pir;
        if (!chosen && draw < total) chosen = f;
      }
      sent_before[s] = chosen != nullptr;
      if (!chosen) continue;
      out << c << ' ' << s << ' ' << chosen->dst << ' ' << options.bytes << '\n';
      ++messages;
    }
  write_output(options.out_path, out.str(), "trace");
  if (!options.quiet)
    std::cout << "trace: " << messages << " messages from " << flows.size() << " flows in "
              << options.out_path << "\n";
  return kExitOk;
}

}  // namespace collnoc::cli
