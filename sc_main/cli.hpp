// The `collnoc` command line: run, sweep, merge, list, analyze and plot. Every command returns
// its exit status up to sc_main; nothing below calls exit().
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
}

namespace collnoc {

// Parses the command line, runs the chosen command, and maps errors to exit statuses.
int cli_main(int argc, char** argv);

namespace cli {

enum ExitStatus : int {
  kExitOk = 0,
  kExitFault = 1,     // the simulation ran but ended in a fault (deadlock, lost flit, bad data)
  kExitBadInput = 2,  // refused before simulating: command line, configuration, files
};

struct RunOptions {
  std::string config_path;                // empty or "-": built-in defaults
  std::vector<std::string> overrides;     // key=value, applied in order
  std::string out_path = "results.json";  // written only when the run ends ok
  std::string vcd_path;                   // empty: no tracing
  std::vector<unsigned> trace_routers;    // empty: the default selection
  bool dump_config = false;
  bool check = false;  // validate and estimate memory, do not simulate
  bool quiet = false;
};

struct SweepOptions {
  std::string config_path;  // "-": built-in defaults
  std::vector<std::string> overrides;
  // The swept keys and, for each, its values, comma-separated (commas inside [...] or {...} do
  // not split); several pairs make the cross product.
  std::vector<std::string> params;
  std::vector<std::string> values;
  std::string seeds;                 // --seeds N as given; empty: the configured seed only
  std::vector<std::string> columns;  // --columns: array values of the results as columns
  unsigned jobs = 2;
  std::string out_path = "sweep.csv";
  std::string raw_path;              // --raw: the runs of every seed, one row each
  std::vector<std::string> emit;     // --emit jobs DIR: write the runs out instead of running
  bool resume = false;  // keep the points already in out_path, run the rest
  bool quiet = false;
};

// `collnoc trace record CONFIG`: the messages a run's NIs inject, as a trace (sc_main/trace_cmd.cpp).
struct TraceRecordOptions {
  std::string config_path;
  std::vector<std::string> overrides;
  std::string out_path = "trace.txt";
  bool quiet = false;
};

// `collnoc trace convert --from noxim TABLE`: another simulator's traffic as a trace.
struct TraceConvertOptions {
  std::string from;
  std::string table;
  std::uint64_t cycles = 0;
  std::uint64_t seed = 1;
  std::uint64_t bytes = 64;
  std::string out_path = "trace.txt";
  bool quiet = false;
};

// `collnoc merge DIR`: the CSV of a sweep written out with --emit jobs DIR, from its results.
struct MergeOptions {
  std::string dir;
  std::string out_path = "sweep.csv";
  std::string raw_path;
  bool quiet = false;
};

// `collnoc analyze codec` and `collnoc analyze zero-load` (sc_main/analyze.cpp): offline studies
// of the NI's compression, no simulation; `collnoc analyze hdn` (sc_main/analyze_hdn.cpp).
struct AnalyzeOptions {
  enum class Command { none, codec, zero_load, hdn, nc } command = Command::none;
  bool json = false;
  // analyze codec: run a binary dump through a codec
  std::string codec;  // fpc | lsb_cut
  long long lsb_cut_bits = 28;
  std::string element_type;  // int32 | double | complex
  std::string file;
  // analyze zero-load: the SPEC 2.4 model (signed, so that a negative value is refused by name)
  long long hops = 6;
  long long switch_cycles = 4;
  long long link_cycles = 1;
  long long codec_latency_cycles = 100;
  double ratio = 2.0;
  // analyze hdn: HDN(B, k, S) properties (sc_main/analyze_hdn.cpp)
  std::string hdn_base = "torus:2x3x5";
  long long hdn_levels = 1;
  std::string hdn_supernodes;  // empty: s_i = 1 at every level
  std::string hdn_weights = "0.5,0.5";
  bool hdn_bfs = false;
  // analyze nc: unicasts and hops of all-to-all broadcast (sc_main/analyze_nc.cpp)
  std::string nc_topology = "mesh";
  long long nc_k = 16;
  long long nc_n = 2;
  std::string nc_group = "auto";  // GxH, auto or best
  std::string nc_base = "tree";
  std::string nc_variant = "intermediate";
  std::string nc_subgroup = "auto";
  std::string nc_intermediate = "center";
  long long nc_sources = 0;
};

// An integer option of `analyze` (with its default shown): decimal digits that fit 64 bits, or
// exit 2 naming it. CLI11 alone would read 99999999999999999999 as 2^63 - 1 and 010 as eight.
CLI::Option* add_integer_option(CLI::App& app, const std::string& name, long long& value,
                                const std::string& description);

// Declares `analyze` and its commands on `app`, filling `options`; returns the `analyze` app.
CLI::App* add_analyze_command(CLI::App& app, AnalyzeOptions& options);
int analyze_command(const AnalyzeOptions& options);
void add_analyze_hdn_command(CLI::App& analyze, AnalyzeOptions& options);
int analyze_hdn(const AnalyzeOptions& options);
void add_analyze_nc_command(CLI::App& analyze, AnalyzeOptions& options);
int analyze_nc(const AnalyzeOptions& options);

int run_command(const RunOptions& options);
int sweep_command(const SweepOptions& options);
int merge_command(const MergeOptions& options);
int trace_record_command(const TraceRecordOptions& options);
int trace_convert_command(const TraceConvertOptions& options);
int list_command();
// `collnoc plot ARGS` (sc_main/plot.cpp): runs sc_main/collnoc_plot.py with ARGS, its status.
int plot_command(const std::vector<std::string>& args);

}  // namespace cli
}  // namespace collnoc
