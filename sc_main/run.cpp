// `collnoc run`: build the platform, attach the workload, optionally trace, simulate, report.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <systemc>
#include <sysc/tracing/sc_tracing_ids.h>  // not included by <systemc>

#include "sc_main/cli.hpp"
#include "sc_main/config.hpp"
#include "sc_main/interrupt.hpp"
#include "sc_main/output_file.hpp"
#include "sc_main/results.hpp"

namespace collnoc::cli {

namespace fs = std::filesystem;

namespace {

// The VCD file SystemC writes for --vcd PATH: PATH, with .vcd appended when it lacks it.
std::string vcd_file_name(const std::string& path) {
  if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".vcd") == 0) return path;
  return path + ".vcd";
}

// The largest power of ten that divides the clock period, so every clock edge falls on a whole
// number of VCD time units.
double vcd_time_unit_ps(double clock_period_ns) {
  auto period_ps = static_cast<std::uint64_t>(std::llround(clock_period_ns * 1000.0));
  double unit_ps = 1;
  while (period_ps >= 10 && period_ps % 10 == 0) period_ps /= 10, unit_ps *= 10;
  return unit_ps;
}

// A VCD of the chosen routers (and their NIs) plus a GTKWave save file next to it. Closed on
// destruction, after the run.
class VcdTrace {
 public:
  VcdTrace(const NocSystem& system, const std::string& vcd_path, const std::vector<RouterId>& routers)
      : vcd_path_(vcd_file_name(vcd_path)) {
    const std::string base = vcd_path_.substr(0, vcd_path_.size() - 4);  // SystemC appends .vcd
    // SystemC reports the time unit it was given as an info message: noise on stdout.
    sc_core::sc_report_handler::set_actions(sc_core::SC_ID_TRACING_TIMESCALE_UNIT_,
                                            sc_core::SC_DO_NOTHING);
    file_ = sc_core::sc_create_vcd_trace_file(base.c_str());
    if (!file_) throw std::runtime_error("cannot create VCD file " + vcd_path_);
    file_->set_time_unit(vcd_time_unit_ps(system.params().clock_period_ns), sc_core::SC_PS);

    std::ostringstream gtkw;
    system.trace(file_, routers, gtkw);
    gtkw_path_ = vcd_path_ + ".gtkw";
    write_output(gtkw_path_, "[dumpfile] \"" + fs::absolute(vcd_path_).lexically_normal().string() +
                               "\"\n" + gtkw.str(),
                 "GTKWave save file");
  }
  ~VcdTrace() { sc_core::sc_close_vcd_trace_file(file_); }
  VcdTrace(const VcdTrace&) = delete;
  VcdTrace& operator=(const VcdTrace&) = delete;

  const std::string& vcd_path() const { return vcd_path_; }
  const std::string& gtkw_path() const { return gtkw_path_; }

 private:
  std::string vcd_path_, gtkw_path_;
  sc_core::sc_trace_file* file_ = nullptr;
};

// Routers to trace: the ones asked for (once each, in order) or all up to 64.
std::vector<RouterId> routers_to_trace(const std::vector<unsigned>& asked, unsigned routers) {
  std::vector<RouterId> chosen;
  if (asked.empty()) {
    for (RouterId r = 0; r < std::min(routers, 64u); ++r) chosen.push_back(r);
    return chosen;
  }
  for (unsigned r : asked) {
    if (r >= routers)
      throw InputError("--trace-nodes " + std::to_string(r) + ": the system has routers 0.." +
                       std::to_string(routers - 1));
    if (std::find(chosen.begin(), chosen.end(), r) == chosen.end()) chosen.push_back(r);
  }
  return chosen;
}

double number(const Report& r, const std::string& key) {
  const Report::Value* v = r.find(key);
  if (!v) return 0.0;
  return std::visit(
      [](const auto& x) -> double {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_arithmetic_v<T>) return static_cast<double>(x);
        else return 0.0;
      },
      *v);
}

std::uint64_t count(const Report& r, const std::string& key) {
  return static_cast<std::uint64_t>(std::llround(number(r, key)));
}

bool flag(const Report& r, const std::string& key) {
  const Report::Value* v = r.find(key);
  const auto* b = v ? std::get_if<bool>(v) : nullptr;
  return b && *b;
}

std::string text(const Report& r, const std::string& key) {
  const Report::Value* v = r.find(key);
  const auto* s = v ? std::get_if<std::string>(v) : nullptr;
  return s ? *s : std::string();
}

// Four significant digits, but no exponent for large values (latencies, rates per second).
std::string num(double x) {
  std::ostringstream os;
  if (std::fabs(x) >= 1000) os << std::fixed << std::setprecision(0) << x;
  else os << std::setprecision(4) << x;
  return os.str();
}

void print_summary(std::ostream& os, const RunConfig& rc, const RunOutcome& outcome) {
  const Report& r = outcome.report;
  const RouterParams& router = rc.platform.system.router;
  auto line = [&os](const char* label) -> std::ostream& {
    return os << std::left << std::setw(12) << label;
  };
  line("topology:") << text(r, "sim.topology") << " (" << count(r, "sim.routers")
                    << " routers, " << count(r, "sim.nodes") << " nodes), "
                    << rc.platform.system.routing << " routing"
                    << (rc.platform.system.routing_params.dimension_order ==
                                DimensionOrder::decreasing
                            ? " (highest dimension first), "
                            : ", ")
                    << to_string(router.switching)
                    << ", " << router.vcs << " VCs x " << router.buffer_flits << " flits\n";
  if (rc.synthetic()) {
    line("workload:") << "synthetic " << rc.traffic.pattern << " at "
                      << num(rc.traffic.injection_rate)
                      << " flits/node/cycle, "
                      << (rc.traffic.variable_length()
                              ? std::to_string(rc.traffic.packet_flits_min) + ".." +
                                    std::to_string(rc.traffic.packet_flits_max)
                              : std::to_string(rc.traffic.packet_flits))
                      << "-flit packets, seed " << rc.run.seed << "\n";
  } else if (rc.trace_driven()) {
    line("workload:") << "trace " << rc.trace.file << ": " << count(r, "trace.messages")
                      << " messages, " << count(r, "trace.bytes") << " bytes, last injected at cycle "
                      << count(r, "trace.last_injection_cycle") << "\n";
  } else {
    line("workload:") << "firmware " << rc.workload_kind << ", " << rc.firmware.message_words
                      << "-word messages, " << rc.firmware.iterations << " iteration(s), seed "
                      << rc.run.seed << "\n";
  }
  line("status:") << to_string(outcome.status) << " after " << count(r, "sim.cycles")
                  << " cycles";
  if (flag(r, "sim.interrupted"))
    os << " (interrupted: the results so far)";
  else if (outcome.status == RunStatus::ok && rc.synthetic() && !flag(r, "sim.completed"))
    os << " (not every measured packet arrived: the load is past saturation)";
  else if (outcome.status == RunStatus::ok && rc.trace_driven() && !flag(r, "sim.completed"))
    os << " (sim.max_cycles reached before the trace's last message was delivered)";
  os << "\n";
  line("packets:") << count(r, "packets.delivered") << " delivered";
  if (rc.synthetic()) os << " (" << count(r, "packets.measured_delivered") << " measured)";
  os << "\n";
  line("latency:") << "mean " << num(number(r, "latency_cycles.mean")) << ", p99 "
                   << num(number(r, "latency_cycles.p99")) << " cycles (network: mean "
                   << num(number(r, "network_latency_cycles.mean")) << ", p99 "
                   << num(number(r, "network_latency_cycles.p99")) << ")\n";
  line("throughput:") << "accepted " << num(number(r, "throughput.accepted_flits_per_node_cycle"))
                      << " of offered "
                      << num(number(r, "throughput.offered_flits_per_node_cycle"))
                      << " flits/node/cycle\n";
  line("wall time:") << num(number(r, "sim.wall_seconds")) << " s ("
                     << num(number(r, "sim.router_cycles_per_second")) << " router-cycles/s)\n";
  if (r.find("collective.name")) {
    line("collective:") << text(r, "collective.name") << " (" << text(r, "collective.algorithm")
                        << ") in " << count(r, "collective.execution_cycles") << " cycles";
    if (r.find("collective.formula_cycles"))
      os << ", formula " << num(number(r, "collective.formula_cycles"));
    os << ", data verified: " << (flag(r, "collective.data_verified") ? "yes" : "no") << "\n";
  } else if (rc.firmware_workload())
    line("firmware:") << "completed in " << count(r, "firmware.completion_cycles")
                      << " cycles, data verified: "
                      << (flag(r, "firmware.data_verified") ? "yes" : "no") << "\n";
}

}  // namespace

int run_command(const RunOptions& options) {
  const InterruptGuard interrupts;
  const Config config = load_config(options.config_path, options.overrides);
  if (options.dump_config) {
    const bool configured = !options.overrides.empty() ||
                            (!options.config_path.empty() && options.config_path != "-");
    print_schema(std::cout, configured ? &config : nullptr);
    return kExitOk;
  }
  RunConfig rc = config.to_run_config();
  if (options.quiet) rc.run.progress = false;
  rc.run.interrupt = &InterruptGuard::signal();
  check_buildable(rc);
  check_writable(options.out_path, "--out");
  std::vector<RouterId> traced;
  if (!options.vcd_path.empty()) {
    check_writable(vcd_file_name(options.vcd_path), "--vcd");
    check_writable(vcd_file_name(options.vcd_path) + ".gtkw", "--vcd (its GTKWave save file)");
    traced = routers_to_trace(options.trace_routers,
                              make_topology(platform_topology(rc.platform))->num_routers());
  }
  if (options.check) {
    std::cout << "configuration ok; estimated memory " << estimate_run_memory(rc).describe()
              << " (limit " << memory_limit_mb(rc) << " MB, sim.max_memory_mb)\n";
    return kExitOk;
  }

  const BuiltRun built = build_run(rc);
  NocSystem* const system = built.system.get();
  std::unique_ptr<VcdTrace> trace;
  std::string waves;
  if (!options.vcd_path.empty()) {
    trace = std::make_unique<VcdTrace>(*system, options.vcd_path, traced);
    waves = trace->vcd_path() + " (view: " + trace->gtkw_path() + ")";
  }

  Simulation simulation(*system, rc.run, built.firmware.get());
  const RunOutcome outcome = simulation.run();
  trace.reset();  // flush and close the VCD before anything can fail below
  // A trace line that went bad during the run (the file changed after it was checked): bad
  // input, no results.
  if (const TraceFeed* feed = system->trace_feed(); feed && feed->error()) throw *feed->error();

  if (!options.quiet) {
    print_summary(std::cout, rc, outcome);
    if (!waves.empty()) std::cout << "waves: " << waves << "\n";
  }
  if (outcome.status != RunStatus::ok) {
    std::cout.flush();
    std::cerr << "collnoc: simulation fault: " << to_string(outcome.status) << ": "
              << outcome.diagnosis;
    if (outcome.diagnosis.empty() || outcome.diagnosis.back() != '\n') std::cerr << "\n";
    return kExitFault;
  }
  write_output(options.out_path, json_text(results_json(config, rc.run.seed, outcome.report)),
               "results");
  const bool interrupted = flag(outcome.report, "sim.interrupted");
  if (!options.quiet)
    std::cout << (interrupted ? "results so far (interrupted): " : "results: ") << options.out_path
              << "\n";
  if (interrupted) {
    std::cerr << "collnoc: interrupted at cycle " << count(outcome.report, "sim.cycles")
              << "; the results so far are in " << options.out_path << " (sim.interrupted = true)\n";
    return InterruptGuard::exit_status();
  }
  return kExitOk;
}

}  // namespace collnoc::cli
