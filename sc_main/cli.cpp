#include "sc_main/cli.hpp"

#include <iomanip>
#include <iostream>

#include <CLI/CLI.hpp>
#include <yaml-cpp/yaml.h>

#include "collectives/collective.hpp"
#include "collectives/firmware.hpp"
#include "collectives/message_protocol.hpp"
#include "ni/codec.hpp"
#include "ni/compression.hpp"
#include "ni/payload.hpp"
#include "ni/traffic.hpp"
#include "noc/router/allocator.hpp"
#include "noc/routing/routing.hpp"
#include "platforms/platform.hpp"
#include "sc_main/config.hpp"
#include "sc_main/output_file.hpp"

namespace collnoc {

namespace cli {

namespace {

template <typename Table>
void list_table(std::ostream& os, const char* title, const Table& table) {
  os << title << "\n";
  std::size_t width = 0;
  for (const auto& e : table) width = std::max(width, std::string(e.name).size());
  for (const auto& e : table)
    os << "  " << std::left << std::setw(static_cast<int>(width + 2)) << e.name << e.description
       << "\n";
}

// The command a user mistyped or left out, named (CLI11 would only say that a subcommand is
// required): empty when the leading words name a command.
std::string command_problem(CLI::App& app, int argc, char** argv) {
  CLI::App* level = &app;
  std::string path = "collnoc";
  for (int i = 1;; ++i) {
    const std::vector<CLI::App*> subs = level->get_subcommands([](CLI::App*) { return true; });
    if (subs.empty()) return {};  // the command's own arguments from here on
    std::string names;
    for (CLI::App* s : subs) names += (names.empty() ? "" : ", ") + s->get_name();
    if (i == argc) return path + " needs a command: one of " + names;
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') return {};
    CLI::App* next = nullptr;
    for (CLI::App* s : subs)
      if (s->get_name() == word) next = s;
    if (!next) return "unknown command '" + word + "' after " + path + ": expected one of " + names;
    level = next;
    path += " " + word;
  }
}

}  // namespace

int list_command() {
  std::ostream& os = std::cout;
  list_table(os, "platforms (platform):", platforms());
  list_table(os, "\ntopologies (topology.kind):", topologies());
  list_table(os, "\nrouting functions (routing.algorithm):", routing_functions());
  list_table(os, "\nVC allocators (router.vc_allocator):", vc_allocators());
  list_table(os, "\nswitch allocators (router.switch_allocator):", switch_allocators());
  list_table(os, "\ntraffic patterns (traffic.pattern, with workload.kind = synthetic):",
             traffic_patterns());
  list_table(os, "\npayload generators (traffic.payload; or file:PATH:int32|double):",
             payload_generators());
  list_table(os, "\ncompression policies (ni.compression.policy):", compression_policies());
  list_table(os, "\ncodecs (by element type: fpc for int32, lsb_cut for doubles):", codecs());
  struct Workload {
    const char* name;
    const char* description;
  };
  std::vector<Workload> workloads{{"synthetic", "synthetic traffic at every NI (traffic.*)"},
                                  {"trace", "the messages of a trace file (trace.file)"}};
  for (const auto& e : firmware_programs()) workloads.push_back({e.name, e.description});
  list_table(os, "\nworkloads (workload.kind; firmware programs run on a core per NI):", workloads);
  list_table(os, "\nmessage protocols (msg.protocol, for firmware):", message_protocols());
  list_table(os, "\nsoftware models (core.software_model; also auto and none):",
             software_presets());
  std::vector<std::string> pairs;  // "collective algorithm", kept alive for the table below
  for (const CollectiveEntry& e : collective_algorithms())
    pairs.push_back(std::string(e.collective) + " " + e.algorithm);
  std::vector<Workload> collectives;
  for (std::size_t i = 0; i < pairs.size(); ++i)
    collectives.push_back({pairs[i].c_str(), collective_algorithms()[i].description});
  list_table(os,
             "\ncollectives (workload.kind = collective; workload.collective workload.algorithm, "
             "the first listed is the default):",
             collectives);
  return kExitOk;
}

}  // namespace cli

int cli_main(int argc, char** argv) {
  using namespace cli;
  CLI::App app{"collnoc: SystemC/TLM-2.0 network-on-chip simulator", "collnoc"};
  app.require_subcommand(1);
  app.footer("Exit status: 0 ok, 1 simulation fault, 2 bad input.");

  RunOptions run;
  CLI::App* run_cmd = app.add_subcommand("run", "simulate one configuration");
  run_cmd->add_option("config", run.config_path,
                      "YAML configuration (omitted or -: built-in defaults)");
  run_cmd->add_option("--set", run.overrides, "override one key: key=value (repeatable)")
      ->allow_extra_args(false);
  run_cmd->add_option("--out", run.out_path, "results JSON, written when the run ends ok")
      ->capture_default_str();
  CLI::Option* vcd = run_cmd->add_option("--vcd", run.vcd_path,
                                         "write waves of the traced routers to a VCD file "
                                         "(and a GTKWave save file FILE.gtkw)");
  run_cmd->add_option("--trace-nodes", run.trace_routers,
                      "routers to trace, e.g. 0,1,5 (default: all, at most the first 64)")
      ->delimiter(',')
      ->needs(vcd);
  run_cmd->add_flag("--dump-config", run.dump_config,
                    "print every key with its default, unit and meaning, and exit");
  run_cmd->add_flag("--check", run.check,
                    "validate the configuration and the output paths, print the estimated "
                    "memory, and exit without simulating");
  run_cmd->add_flag("--quiet,-q", run.quiet, "no progress and no summary");

  SweepOptions sweep;
  CLI::App* sweep_cmd =
      app.add_subcommand("sweep", "run one configuration over the values of one key, or a grid "
                                  "of several, a process per run, into a CSV");
  sweep_cmd->add_option("config", sweep.config_path, "YAML configuration (-: built-in defaults)")
      ->required();
  sweep_cmd->add_option("--set", sweep.overrides, "override one key: key=value (repeatable)")
      ->allow_extra_args(false);
  sweep_cmd->add_option("--param", sweep.params,
                        "a key to sweep (repeatable: several make the cross product)")
      ->allow_extra_args(false)
      ->required();
  sweep_cmd->add_option("--values", sweep.values,
                        "its values, comma-separated (e.g. 0.1,0.2); one --values per --param")
      ->allow_extra_args(false)
      ->required();
  sweep_cmd->add_option("--seeds", sweep.seeds,
                        "run every point with N seeds (seed, seed+1, ...): the CSV holds each "
                        "metric's mean and 95 % confidence interval (KEY.ci95)")
      ->type_name("N");
  sweep_cmd->add_option("--columns", sweep.columns,
                        "array values of the results as columns, e.g. links.utilization.max")
      ->type_name("KEY[,KEY]")
      ->delimiter(',')
      ->allow_extra_args(false);
  sweep_cmd->add_option("--jobs,-j", sweep.jobs, "runs simulated at once")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  sweep_cmd->add_option("--out", sweep.out_path, "CSV, one row per point")->capture_default_str();
  sweep_cmd->add_option("--raw", sweep.raw_path,
                        "with --seeds: a second CSV with every run, one row per point and seed");
  sweep_cmd->add_option("--emit", sweep.emit,
                        "jobs DIR: write the runs as command lines (DIR/jobs.txt, for GNU "
                        "parallel) and a SLURM array script (DIR/sweep.sbatch) instead of "
                        "running them; collnoc merge DIR gathers their results")
      ->expected(2)
      ->type_name("KIND DIR");
  sweep_cmd->add_flag("--resume", sweep.resume,
                      "keep the points already in the --out CSV (an interrupted sweep's), run "
                      "only the others");
  sweep_cmd->add_flag("--quiet,-q", sweep.quiet, "no progress lines");

  MergeOptions merge;
  CLI::App* merge_cmd = app.add_subcommand(
      "merge", "the CSV of a sweep written out with --emit jobs DIR, from the results of its "
               "runs (a local sweep's CSV)");
  merge_cmd->add_option("dir", merge.dir, "the directory of collnoc sweep --emit jobs DIR")
      ->required();
  merge_cmd->add_option("--out", merge.out_path, "CSV, one row per point")->capture_default_str();
  merge_cmd->add_option("--raw", merge.raw_path,
                        "with --seeds: a second CSV with every run, one row per point and seed");
  merge_cmd->add_flag("--quiet,-q", merge.quiet, "no summary line");

  CLI::App* trace_cmd = app.add_subcommand(
      "trace", "record a run's messages as a trace, or convert another simulator's traffic "
               "into one (replay: workload.kind=trace, docs/traffic.md)");
  TraceRecordOptions record;
  CLI::App* record_cmd = trace_cmd->add_subcommand(
      "record", "run a configuration and write every message its NIs inject as a trace");
  record_cmd->add_option("config", record.config_path, "YAML configuration (-: built-in defaults)")
      ->required();
  record_cmd->add_option("--set", record.overrides, "override one key: key=value (repeatable)")
      ->allow_extra_args(false);
  record_cmd->add_option("--out", record.out_path, "the trace, written when the run ends ok")
      ->capture_default_str();
  record_cmd->add_flag("--quiet,-q", record.quiet, "no progress and no summary");
  TraceConvertOptions convert;
  CLI::App* convert_cmd = trace_cmd->add_subcommand(
      "convert", "another simulator's traffic as a trace: Noxim's traffic table");
  convert_cmd->add_option("table", convert.table, "the traffic table")->required();
  convert_cmd->add_option("--from", convert.from, "its format: noxim")->required();
  convert_cmd->add_option("--cycles", convert.cycles, "cycles of traffic to generate")->required();
  convert_cmd->add_option("--seed", convert.seed, "seed of the injection draws")
      ->capture_default_str();
  convert_cmd->add_option("--bytes", convert.bytes, "bytes per message (Noxim's packet)")
      ->capture_default_str();
  convert_cmd->add_option("--out", convert.out_path, "the trace")->capture_default_str();
  convert_cmd->add_flag("--quiet,-q", convert.quiet, "no summary line");
  trace_cmd->require_subcommand(1);

  CLI::App* list_cmd = app.add_subcommand(
      "list", "name every platform, topology, routing function, allocator, traffic pattern "
              "and workload");

  AnalyzeOptions analyze;
  CLI::App* analyze_cmd = add_analyze_command(app, analyze);

  // Everything after `plot` goes to the plot script, which checks it (--help included).
  CLI::App* plot_cmd = app.add_subcommand(
      "plot", "draw a load curve from sweep CSVs or a heat map of a run's links (PNG or SVG; "
              "collnoc plot --help)");
  plot_cmd->prefix_command();
  plot_cmd->set_help_flag();

  if (const std::string problem = command_problem(app, argc, argv); !problem.empty()) {
    std::cerr << "collnoc: error: " << problem << " (see collnoc --help)\n";
    return kExitBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::cerr << "collnoc: error: " << e.what() << " (see collnoc --help)\n";
    return kExitBadInput;
  }

  try {
    // An empty path given on purpose is not "no configuration", nor "no waves".
    if ((run_cmd->parsed() && run_cmd->count("config") > 0 && run.config_path.empty()) ||
        (sweep_cmd->parsed() && sweep.config_path.empty()))
      throw InputError("config file: an empty path (- means the built-in defaults)");
    if (run_cmd->parsed() && vcd->count() > 0 && run.vcd_path.empty())
      throw InputError("--vcd '': an empty path (omit --vcd for no waves)");
    if (run_cmd->parsed()) return run_command(run);
    if (sweep_cmd->parsed()) return sweep_command(sweep);
    if (merge_cmd->parsed()) return merge_command(merge);
    if (list_cmd->parsed()) return list_command();
    if (record_cmd->parsed()) return trace_record_command(record);
    if (convert_cmd->parsed()) return trace_convert_command(convert);
    if (analyze_cmd->parsed()) return analyze_command(analyze);
    if (plot_cmd->parsed()) return plot_command(plot_cmd->remaining());
    return kExitBadInput;
  } catch (const ParamError& e) {
    std::cerr << "collnoc: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const InputError& e) {
    std::cerr << "collnoc: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const YAML::Exception& e) {
    std::cerr << "collnoc: error: malformed YAML: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const OutputError& e) {
    std::cerr << "collnoc: error: " << e.what() << "\n";
    return kExitFault;
  } catch (const std::bad_alloc&) {
    std::cerr << "collnoc: out of memory (collnoc run --check estimates what a configuration "
                 "needs; past saturation the source queues grow without bound)\n";
    return kExitFault;
  } catch (const std::exception& e) {
    std::cerr << "collnoc: internal error: " << e.what() << "\n";
    return kExitFault;
  }
}

}  // namespace collnoc
