// `collnoc sweep` and `collnoc merge`: one `collnoc run` process per run (SystemC elaborates one
// system per process), at most `jobs` at a time, gathered into one CSV row per grid point in the
// given order. With --seeds every point runs once per seed and its row holds each metric's mean
// and 95 % confidence interval; --emit jobs writes the runs out as command lines for GNU parallel
// or a SLURM array instead, and `collnoc merge` gathers their results into the same CSV.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include <boost/math/distributions/students_t.hpp>

#include "sc_main/cli.hpp"
#include "sc_main/config.hpp"
#include "sc_main/interrupt.hpp"
#include "sc_main/output_file.hpp"
#include "sc_main/results.hpp"

extern char** environ;

namespace collnoc::cli {

namespace fs = std::filesystem;

namespace {

std::string trim(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// "0.1,0.2" -> {"0.1", "0.2"}; "[4,4],[8,8]" -> {"[4,4]", "[8,8]"}.
std::vector<std::string> split_values(const std::string& values) {
  std::vector<std::string> out;
  std::string current;
  int depth = 0;
  for (char c : values) {
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  out.push_back(trim(current));
  for (const std::string& v : out)
    if (v.empty()) throw InputError("--values " + values + ": an empty value");
  return out;
}

// Removes the sweep's scratch directory however the sweep ends.
class ScratchDir {
 public:
  ScratchDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/collnoc-sweep-XXXXXX";
    if (!::mkdtemp(pattern.data()))
      throw std::runtime_error("cannot create a scratch directory " + pattern + ": " +
                               std::strerror(errno));
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string self_executable() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("/proc/self/exe") : p.string();
}

// Starts `argv` with stdout and stderr going to `log_path`.
pid_t spawn(const std::string& exe, const std::vector<std::string>& args,
            const std::string& log_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);

  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // The SystemC banner would only clutter the point logs.
  std::string quiet_banner = "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1";
  std::vector<char*> envp;
  for (char** e = environ; *e; ++e) envp.push_back(*e);
  envp.push_back(quiet_banner.data());
  envp.push_back(nullptr);

  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + exe + ": " + std::strerror(rc));
  return pid;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Status of a point whose process did not end with a results file.
std::string failure_status(int wait_status, const std::string& log) {
  if (WIFSIGNALED(wait_status))
    return "crashed (signal " + std::to_string(WTERMSIG(wait_status)) + ")";
  const int code = WEXITSTATUS(wait_status);
  if (code == kExitBadInput) return "bad_input";
  const std::string marker = "collnoc: simulation fault: ";
  const std::size_t at = log.find(marker);
  if (code == kExitFault && at != std::string::npos) {
    const std::size_t begin = at + marker.size();
    return log.substr(begin, log.find_first_of(":\n", begin) - begin);
  }
  return "error (exit " + std::to_string(code) + ")";
}

// The runs of a sweep: the grid's points (the cross product of the swept values, the first
// --param varying slowest), each once per seed with --seeds. A local sweep, its emitted jobs and
// `collnoc merge` share it: an emitted sweep's manifest.json is this plan.
struct Plan {
  std::vector<std::string> params;
  std::vector<std::vector<std::string>> points;  // a value per param
  std::vector<std::uint64_t> seeds;              // empty: the configured seed only
  std::vector<std::string> columns;              // --columns

  bool seeded() const { return !seeds.empty(); }
  std::size_t runs() const { return points.size() * std::max<std::size_t>(seeds.size(), 1); }
  std::size_t point_of(std::size_t run) const { return seeded() ? run / seeds.size() : run; }
  // The columns that name a run, and their values: the params, then `seed` with --seeds.
  std::vector<std::string> run_params() const {
    std::vector<std::string> p = params;
    if (seeded()) p.push_back("seed");
    return p;
  }
  std::vector<std::string> run_values(std::size_t run) const {
    std::vector<std::string> v = points[point_of(run)];
    if (seeded()) v.push_back(std::to_string(seeds[run % seeds.size()]));
    return v;
  }

  Json manifest() const {
    return Json{{"collnoc_sweep", 1}, {"params", params}, {"points", points},
                {"seeds", seeds},     {"columns", columns}};
  }
  static Plan from_manifest(const Json& j) {
    Plan p;
    j.at("params").get_to(p.params);
    j.at("points").get_to(p.points);
    j.at("seeds").get_to(p.seeds);
    j.at("columns").get_to(p.columns);
    for (const auto& values : p.points)
      if (values.size() != p.params.size()) throw std::runtime_error("a point without all params");
    return p;
  }
};

// "key=value" for each pair, joined by ", ".
std::string point_name(const std::vector<std::string>& params,
                       const std::vector<std::string>& values) {
  std::string name;
  for (std::size_t i = 0; i < params.size(); ++i)
    name += (i ? ", " : "") + params[i] + "=" + values[i];
  return name;
}

// The plan of the command line, checked: one --values per --param, --seeds in range, known
// --columns. Seeds are the configured `seed` and the ones after it (modulo 2^64).
Plan make_plan(const SweepOptions& o, const Config& base) {
  if (o.params.size() != o.values.size())
    throw InputError("--param/--values: " + std::to_string(o.params.size()) + " --param but " +
                     std::to_string(o.values.size()) +
                     " --values; give one --values list after each --param");
  Plan plan;
  plan.params = o.params;
  plan.points = {{}};
  for (std::size_t i = 0; i < o.params.size(); ++i) {
    if (std::count(o.params.begin(), o.params.end(), o.params[i]) > 1)
      throw InputError("--param " + o.params[i] + ": given twice; sweep each key once");
    const std::vector<std::string> values = split_values(o.values[i]);
    std::vector<std::vector<std::string>> grid;
    for (const std::vector<std::string>& point : plan.points)
      for (const std::string& value : values) {
        grid.push_back(point);
        grid.back().push_back(value);
      }
    plan.points = std::move(grid);
  }
  if (!o.seeds.empty()) {
    std::int64_t n = 0;
    if (!parse_int(o.seeds, n) || n < 1 || n > 10000)
      throw InputError("--seeds " + o.seeds +
                       ": must be a whole number in 1..10000 (runs per point, each with its "
                       "own seed)");
    if (std::find(o.params.begin(), o.params.end(), "seed") != o.params.end())
      throw InputError("--seeds " + o.seeds +
                       " with --param seed: --seeds sets the seed of every run; give one or "
                       "the other");
    const std::uint64_t first = std::get<std::uint64_t>(base.get("seed"));
    for (std::int64_t s = 0; s < n; ++s)
      plan.seeds.push_back(first + static_cast<std::uint64_t>(s));
  }
  for (const std::string& c : o.columns) check_column_key(c);
  plan.columns = o.columns;
  return plan;
}

struct Point {
  std::vector<std::string> values;  // per column of the CSV's params
  bool done = false;   // finished (this sweep or an earlier one, --resume)
  std::string status;  // "ok" or why the point failed
  // the results' scalars (in the order of the results file), then the --columns
  std::vector<std::pair<std::string, Json>> fields;
};

// A run's fields from its results file (the same for a local sweep and merge).
std::vector<std::pair<std::string, Json>> run_fields(const Json& results,
                                                     const std::vector<std::string>& columns) {
  std::vector<std::pair<std::string, Json>> fields = scalar_results(results);
  for (const std::string& c : columns) fields.emplace_back(c, column_value(results, c));
  return fields;
}

// Half-width of the 95 % confidence interval of a mean over n samples: Student's t quantile
// 0.975 with n - 1 degrees of freedom.
double t_975(std::size_t n) {
  return boost::math::quantile(
      boost::math::students_t_distribution<double>(static_cast<double>(n - 1)), 0.975);
}

// A grid point's row from its runs, in seed order (so that a local sweep and merge sum in the same
// order): sim.status `ok` when every run ended ok, else the first failure's; `seeds`, the runs
// that ended ok, over which the rest is taken: a number's mean (its value when the runs agree)
// and, as KEY.ci95, the half-width of its 95 % confidence interval (empty for one run);
// true/false: true when every run gave true; text: the runs' text if they agree, else their
// texts joined by " | ". The seed is left out.
Point aggregate(const Plan& plan, const std::vector<Point>& runs, std::size_t point) {
  Point row{plan.points[point], true, "ok", {}};
  std::vector<const Point*> ok;
  for (std::size_t s = 0; s < plan.seeds.size(); ++s) {
    const Point& run = runs[point * plan.seeds.size() + s];
    if (run.status == "ok") ok.push_back(&run);
    else if (row.status == "ok") row.status = run.status;
  }
  row.fields.emplace_back("seeds", ok.size());
  std::vector<std::string> keys;  // in the order they first appear
  for (const Point* run : ok)
    for (const auto& field : run->fields)
      if (field.first != "seed" && std::find(keys.begin(), keys.end(), field.first) == keys.end())
        keys.push_back(field.first);
  for (const std::string& key : keys) {
    std::vector<Json> values;
    for (const Point* run : ok)
      for (const auto& [k, v] : run->fields)
        if (k == key && !v.is_null()) values.push_back(v);
    const auto all = [&](auto is) { return std::all_of(values.begin(), values.end(), is); };
    if (!values.empty() && all([](const Json& v) { return v.is_number(); })) {
      const double n = static_cast<double>(values.size());
      double sum = 0;
      for (const Json& v : values) sum += v.get<double>();
      const double mean = sum / n;
      double squares = 0;
      for (const Json& v : values) squares += (v.get<double>() - mean) * (v.get<double>() - mean);
      // Runs that agree (sim.routers) keep their value as it is: 16, not 16.0.
      const bool same = all([&](const Json& v) { return v == values.front(); });
      row.fields.emplace_back(key, same ? values.front() : Json(mean));
      row.fields.emplace_back(key + ".ci95", values.size() < 2 ? Json()
                                                 : Json(t_975(values.size()) *
                                                        std::sqrt(squares / (n - 1) / n)));
    } else if (!values.empty() && all([](const Json& v) { return v.is_boolean(); })) {
      row.fields.emplace_back(key, all([](const Json& v) { return v.get<bool>(); }));
    } else if (!values.empty() && all([&](const Json& v) { return v == values.front(); })) {
      row.fields.emplace_back(key, values.front());
    } else {
      std::string joined;
      for (const Json& v : values)
        joined += (joined.empty() ? "" : " | ") + (v.is_string() ? v.get<std::string>() : v.dump());
      row.fields.emplace_back(key, joined);
    }
  }
  return row;
}

// A sweep's CSV: the params, sim.status, then every field any point reported. Rows are added
// as points finish, one append each, so an interrupted sweep keeps every finished point; a
// point that brings new columns rewrites the file (atomically) with the wider header. At the
// end the rows are put in the order of the grid, the columns in the order the points give them.
// A device or FIFO gets the CSV once, at the end.
class SweepCsv {
 public:
  SweepCsv(std::string path, std::vector<std::string> params)
      : path_(std::move(path)), params_(std::move(params)),
        incremental_(is_rewritable_file(path_)) {}

  void add(const Point& p) {
    const bool wider = add_columns(p);
    finished_.push_back(&p);
    if (!incremental_) return;
    if (wider || finished_.size() == 1) rewrite(finished_);
    else append_output(path_, row(p), "sweep CSV");
  }
  // All points that finished, in the order given.
  void finish(const std::vector<Point>& points) {
    std::vector<const Point*> order;
    columns_ = {"sim.status"};
    for (const Point& p : points)
      if (p.done) order.push_back(&p), add_columns(p);
    rewrite(order);
  }

 private:
  // A param's value is its column: a field of the same name (the results' `seed`) is left out.
  bool add_columns(const Point& p) {
    bool wider = false;
    for (const auto& field : p.fields)
      if (std::find(columns_.begin(), columns_.end(), field.first) == columns_.end() &&
          std::find(params_.begin(), params_.end(), field.first) == params_.end()) {
        columns_.push_back(field.first);
        wider = true;
      }
    return wider;
  }
  std::string header() const {
    std::string h;
    for (const std::string& p : params_) h += csv_field(p) + ",";
    for (const std::string& c : columns_) h += csv_field(c) + ",";
    h.back() = '\n';
    return h;
  }
  std::string row(const Point& p) const {
    std::string r;
    for (const std::string& v : p.values) r += csv_field(v) + ",";
    for (const std::string& c : columns_) {
      if (c == "sim.status") r += csv_field(p.status);
      else if (auto it = std::find_if(p.fields.begin(), p.fields.end(),
                                      [&](const auto& f) { return f.first == c; });
               it != p.fields.end())
        r += csv_field(it->second);
      r += ",";
    }
    r.back() = '\n';
    return r;
  }
  void rewrite(const std::vector<const Point*>& rows) const {
    std::string text = header();
    for (const Point* p : rows) text += row(*p);
    write_output(path_, text, "sweep CSV");
  }

  std::string path_;
  std::vector<std::string> params_;
  bool incremental_;
  std::vector<std::string> columns_{"sim.status"};
  std::vector<const Point*> finished_;
};

// A CSV cell read back as the value that wrote it: a number or true/false, else text.
Json cell_value(const std::string& text) {
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded() || j.is_structured() || j.is_string()) return Json(text);
  return j;
}

// --resume: the points an earlier run of the sweep finished, from its CSV (a row cut short by
// a crash is left out). Points of the CSV that this sweep does not list are kept, after its own.
// `seeded`: the CSV is one of means over seeds (its column after sim.status is `seeds`).
void resume_from(const std::string& path, const std::vector<std::string>& params, bool seeded,
                 std::vector<Point>& points) {
  std::ifstream in(path);
  if (!in) return;  // nothing yet: a fresh sweep
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::vector<std::string>> rows = parse_csv(text.str());
  if (rows.empty()) return;
  const std::vector<std::string> header = rows.front();
  const std::size_t k = params.size();
  const bool matches = header.size() > k &&
                       std::equal(params.begin(), params.end(), header.begin()) &&
                       header[k] == "sim.status" &&
                       seeded == (header.size() > k + 1 && header[k + 1] == "seeds");
  if (!matches) {
    std::string over;
    for (const std::string& p : params) over += (over.empty() ? "" : ", ") + p;
    throw InputError("--resume: " + path + " is not a CSV of a sweep over " + over +
                     (seeded ? " with --seeds" : "") + " (its header starts " +
                     (header.empty() ? "empty" : header[0]) + ")");
  }
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const std::vector<std::string>& fields = rows[r];
    if (fields.size() != header.size()) continue;
    const std::vector<std::string> values(fields.begin(), fields.begin() + k);
    auto it = std::find_if(points.begin(), points.end(),
                           [&](const Point& p) { return p.values == values; });
    if (it == points.end()) {
      points.push_back(Point{values, false, "", {}});
      it = points.end() - 1;
    }
    it->done = true;
    it->status = fields[k];
    it->fields.clear();
    for (std::size_t c = k + 1; c < header.size(); ++c)
      if (!fields[c].empty()) it->fields.emplace_back(header[c], cell_value(fields[c]));
  }
}

// The configuration every emitted run starts from, complete (every key), as YAML (JSON is YAML):
// files it names are made absolute, so that the runs do not depend on the current directory.
std::string materialised_config(Config c) {
  const std::string table = std::get<std::string>(c.get("routing.table"));
  if (!table.empty()) c.set_text("routing.table", Json(fs::absolute(table).string()).dump());
  const std::string power = std::get<std::string>(c.get("power.table"));
  if (!power.empty()) c.set_text("power.table", Json(fs::absolute(power).string()).dump());
  const std::string payload = std::get<std::string>(c.get("traffic.payload"));
  const std::size_t type = payload.rfind(':');
  if (payload.rfind("file:", 0) == 0 && type > 5)
    c.set_text("traffic.payload",
               Json("file:" + fs::absolute(payload.substr(5, type - 5)).string() +
                    payload.substr(type)).dump());
  return "# collnoc sweep --emit jobs: the configuration of every run (--set options applied)\n" +
         json_text(config_json(c));
}

std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// --emit jobs DIR: DIR/config.yaml, DIR/manifest.json (the plan, for merge), DIR/jobs.txt (a
// shell command per run: GNU parallel reads it as it is) and DIR/sweep.sbatch (a SLURM array, a
// task per run). Run i writes DIR/run_i.json. DIR must be new or empty: results of another sweep
// would be merged.
int emit_jobs(const SweepOptions& o, const Plan& plan, const Config& base) {
  if (o.emit[0] != "jobs")
    throw InputError("--emit " + o.emit[0] + ": unknown kind; allowed: jobs (--emit jobs DIR)");
  if (o.resume) throw InputError("--emit with --resume: an emitted sweep is resumed by running "
                                 "the jobs whose results are missing (collnoc merge lists them)");
  if (!o.raw_path.empty())
    throw InputError("--emit with --raw " + o.raw_path + ": give --raw to collnoc merge");
  const std::string& given = o.emit[1];
  if (given.empty()) throw InputError("--emit jobs '': an empty path");
  const fs::path dir = fs::absolute(given).lexically_normal();
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) throw InputError("--emit jobs " + given + ": not a directory");
    if (!fs::is_empty(dir, ec))
      throw InputError("--emit jobs " + given +
                       ": the directory is not empty; give a new or empty one (merge would mix "
                       "in the results of another sweep)");
  }
  fs::path existing = dir;
  while (!fs::exists(existing, ec)) existing = existing.parent_path();
  if (::access(existing.c_str(), W_OK) != 0)
    throw InputError("--emit jobs " + given + ": directory " + existing.string() +
                     " is not writable");
  fs::create_directories(dir);

  const std::string exe = self_executable();
  const fs::path config = dir / "config.yaml", jobs = dir / "jobs.txt";
  write_output(config.string(), materialised_config(base), "configuration");
  write_output((dir / "manifest.json").string(), json_text(plan.manifest()), "manifest");
  std::string lines;
  const std::vector<std::string> names = plan.run_params();
  for (std::size_t r = 0; r < plan.runs(); ++r) {
    lines += "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 " + shell_quoted(exe) + " run " +
             shell_quoted(config.string());
    const std::vector<std::string> values = plan.run_values(r);
    for (std::size_t i = 0; i < names.size(); ++i)
      lines += " --set " + shell_quoted(names[i] + "=" + values[i]);
    lines += " --out " + shell_quoted((dir / ("run_" + std::to_string(r) + ".json")).string()) +
             " --quiet\n";
  }
  write_output(jobs.string(), lines, "jobs");
  const std::string sbatch = (dir / "sweep.sbatch").string();
  write_output(sbatch,
               "#!/bin/bash\n"
               "# collnoc sweep: a SLURM array task per run, each the line SLURM_ARRAY_TASK_ID + 1 "
               "of jobs.txt.\n"
               "# When all are done: collnoc merge " + dir.string() + " --out sweep.csv\n"
               "#SBATCH --job-name=collnoc-sweep\n"
               "#SBATCH --array=0-" + std::to_string(plan.runs() - 1) + "\n"
               "#SBATCH --ntasks=1\n"
               "#SBATCH --cpus-per-task=1\n"
               "#SBATCH --output=" + dir.string() + "/slurm-%A_%a.log\n"
               "set -eu\n"
               "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " + shell_quoted(jobs.string()) +
               ")\n"
               "exec bash -c \"$line\"\n",
               "SLURM script");
  ::chmod(sbatch.c_str(), 0755);
  if (!o.quiet)
    std::cout << plan.runs() << " run(s) of " << plan.points.size() << " point(s) in "
              << dir.string() << ":\n  parallel < " << jobs.string() << "\n  or: sbatch " << sbatch
              << "\nthen: collnoc merge " << dir.string() << " --out sweep.csv\n";
  return kExitOk;
}

}  // namespace

int sweep_command(const SweepOptions& options) {
  const InterruptGuard interrupts;
  // Everything the points could trip over is checked here, in-process, before spawning.
  const Config base = load_config(options.config_path, options.overrides);
  check_buildable(base.to_run_config());
  const Plan plan = make_plan(options, base);
  for (const std::vector<std::string>& values : plan.points) {
    try {
      Config c = base;
      for (std::size_t i = 0; i < values.size(); ++i) c.set_text(plan.params[i], values[i]);
      check_buildable(c.to_run_config());
    } catch (const std::exception& e) {
      throw InputError("sweep point " + point_name(plan.params, values) + ": " + e.what());
    }
  }
  if (!options.emit.empty()) return emit_jobs(options, plan, base);
  const bool seeded = plan.seeded(), raw = !options.raw_path.empty();
  if (raw && !seeded)
    throw InputError("--raw " + options.raw_path +
                     ": only with --seeds (without them every row of --out is a run)");
  check_writable(options.out_path, "--out");
  if (raw) check_writable(options.raw_path, "--raw");

  std::vector<Point> runs, rows;  // rows: with --seeds, a point's aggregate
  for (std::size_t r = 0; r < plan.runs(); ++r)
    runs.push_back(Point{plan.run_values(r), false, "", {}});
  if (seeded)
    for (const auto& values : plan.points) rows.push_back(Point{values, false, "", {}});
  std::vector<Point>& points = seeded ? rows : runs;  // the rows of --out
  if (options.resume) {
    resume_from(options.out_path, plan.params, seeded, points);
    if (raw) resume_from(options.raw_path, plan.run_params(), false, runs);
  }
  // With --seeds a run is needed while its point has no row; a point whose runs all finished
  // (in the --raw CSV) gets its row now.
  const auto point_runs_done = [&](std::size_t p) {
    for (std::size_t s = 0; s < plan.seeds.size(); ++s)
      if (!runs[p * plan.seeds.size() + s].done) return false;
    return true;
  };
  if (seeded)
    for (std::size_t p = 0; p < plan.points.size(); ++p)
      if (!rows[p].done && point_runs_done(p)) rows[p] = aggregate(plan, runs, p);
  const auto needed = [&](std::size_t r) {
    return !runs[r].done && !(seeded && rows[plan.point_of(r)].done);
  };
  std::size_t to_run = 0;
  for (std::size_t r = 0; r < plan.runs(); ++r) to_run += needed(r);
  const char* unit = seeded ? "run(s)" : "point(s)";
  if (options.resume && !options.quiet)
    std::cout << "resuming: "
              << std::count_if(points.begin(), points.end(), [](const Point& p) { return p.done; })
              << " point(s) already in " << options.out_path << ", " << to_run
              << (seeded ? " run(s)" : "") << " to run\n";

  SweepCsv csv(options.out_path, plan.params);
  std::optional<SweepCsv> raw_csv;
  if (raw) raw_csv.emplace(options.raw_path, plan.run_params());
  for (const Point& p : points)
    if (p.done) csv.add(p);
  if (raw_csv)
    for (const Point& r : runs)
      if (r.done) raw_csv->add(r);
  const ScratchDir scratch;
  const std::string exe = self_executable();
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  std::map<pid_t, std::pair<std::size_t, Clock::time_point>> running;  // pid -> run, start
  // However the sweep ends (an interrupt, an exception), wait for the children still running so
  // that none outlives the scratch directory it writes into.
  struct Reaper {
    std::map<pid_t, std::pair<std::size_t, Clock::time_point>>& running;
    ~Reaper() {
      for (const auto& child : running) ::waitpid(child.first, nullptr, 0);
    }
  } reaper{running};
  const auto file_of = [&](std::size_t i, const char* ext) {
    return scratch.file("run_" + std::to_string(i) + ext);
  };
  const std::vector<std::string> names = plan.run_params();
  std::size_t next = 0, done = 0;
  bool any_failed = false, forwarded = false;
  while (done < to_run) {
    const int signal = InterruptGuard::signal().load();
    if (signal != 0 && !forwarded) {  // pass it on, then wait for the points that are running
      for (const auto& child : running) ::kill(child.first, signal);
      forwarded = true;
    }
    if (forwarded && running.empty()) break;
    while (!forwarded && next < plan.runs() && running.size() < options.jobs) {
      if (!needed(next)) {
        ++next;
        continue;
      }
      std::vector<std::string> args{"collnoc", "run"};
      if (options.config_path != "-") args.push_back(options.config_path);
      for (const std::string& o : options.overrides) args.insert(args.end(), {"--set", o});
      for (std::size_t i = 0; i < names.size(); ++i)
        args.insert(args.end(), {"--set", names[i] + "=" + runs[next].values[i]});
      args.insert(args.end(), {"--out", file_of(next, ".json"), "--quiet"});
      running[spawn(exe, args, file_of(next, ".log"))] = {next, Clock::now()};
      ++next;
    }
    int wait_status = 0;
    const pid_t pid = ::waitpid(-1, &wait_status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;  // a signal: forwarded at the top of the loop
      throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const std::size_t i = it->second.first;
    const double seconds = std::chrono::duration<double>(Clock::now() - it->second.second).count();
    running.erase(it);
    const std::string log = read_text(file_of(i, ".log"));
    const std::string json_path = file_of(i, ".json");
    std::string json_text;
    if (fs::exists(json_path)) json_text = read_text(json_path);
    std::error_code ec;
    fs::remove(json_path, ec);
    fs::remove(file_of(i, ".log"), ec);
    if (forwarded) continue;  // stopped by the interrupt: not a result
    Point& run = runs[i];
    ++done;
    if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == kExitOk && !json_text.empty()) {
      try {
        run.fields = run_fields(Json::parse(json_text), plan.columns);
        run.status = "ok";
      } catch (const std::exception&) {
        run.status = "error (unreadable results)";
      }
    } else {
      run.status = failure_status(wait_status, log);
    }
    run.done = true;
    if (raw_csv) raw_csv->add(run);
    const std::size_t p = plan.point_of(i);
    if (!seeded) csv.add(run);
    else if (point_runs_done(p)) csv.add(rows[p] = aggregate(plan, runs, p));
    const std::string name = point_name(names, run.values);
    if (run.status != "ok") {
      any_failed = true;
      std::cerr << "collnoc: sweep point " << name << " failed (" << run.status << "):\n" << log;
    }
    if (!options.quiet) {
      // Progress: runs done of those to run, and the time left at the rate so far.
      const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      const double left = elapsed / static_cast<double>(done) * static_cast<double>(to_run - done);
      std::cerr << "[" << done << "/" << to_run << "] " << name << ": " << run.status << " ("
                << std::fixed << std::setprecision(1) << seconds << " s), elapsed "
                << std::setprecision(0) << elapsed << " s, ETA " << left << " s\n"
                << std::defaultfloat << std::flush;
    }
  }

  csv.finish(points);
  if (raw_csv) raw_csv->finish(runs);
  if (forwarded) {
    // Without --raw, the runs of a point whose seeds did not all finish are not kept.
    std::cerr << "collnoc: sweep interrupted: " << done << " of " << to_run << " " << unit
              << " finished and are in "
              << (raw      ? options.raw_path
                  : seeded ? options.out_path + " (the points whose every seed finished)"
                           : options.out_path)
              << " (run the sweep again with --resume for the rest)\n";
    return InterruptGuard::exit_status();
  }
  if (!options.quiet) std::cout << "results: " << options.out_path << "\n";
  return any_failed ? kExitFault : kExitOk;
}

int merge_command(const MergeOptions& options) {
  const fs::path dir = options.dir;
  const fs::path manifest_path = dir / "manifest.json";
  if (!fs::is_regular_file(manifest_path))
    throw InputError("merge " + options.dir +
                     ": no manifest.json there (not a directory of collnoc sweep --emit jobs)");
  Plan plan;
  try {
    plan = Plan::from_manifest(Json::parse(read_text(manifest_path.string())));
  } catch (const std::exception& e) {
    throw InputError("merge " + options.dir + ": manifest.json is not a sweep's manifest (" +
                     e.what() + ")");
  }
  if (!options.raw_path.empty() && !plan.seeded())
    throw InputError("--raw " + options.raw_path +
                     ": only for a sweep with --seeds (without them every row of --out is a run)");
  check_writable(options.out_path, "--out");
  if (!options.raw_path.empty()) check_writable(options.raw_path, "--raw");

  const std::vector<std::string> names = plan.run_params();
  std::vector<Point> runs;
  std::string missing;
  std::size_t missing_count = 0;
  for (std::size_t r = 0; r < plan.runs(); ++r) {
    const std::string file = "run_" + std::to_string(r) + ".json";
    Point& run = runs.emplace_back(Point{plan.run_values(r), true, "ok", {}});
    if (!fs::exists(dir / file)) {
      missing += "  " + file + " (line " + std::to_string(r + 1) + " of jobs.txt): " +
                 point_name(names, run.values) + "\n";
      ++missing_count;
      continue;
    }
    try {
      run.fields = run_fields(Json::parse(read_text((dir / file).string())), plan.columns);
    } catch (const std::exception& e) {
      throw std::runtime_error((dir / file).string() + " is not a results file: " + e.what());
    }
  }
  if (missing_count > 0) {
    std::cerr << "collnoc: merge: " << missing_count << " of " << plan.runs()
              << " run(s) have no results in " << options.dir
              << " (not run yet, still running, or failed: their logs say why); nothing "
                 "written:\n" << missing;
    return kExitFault;
  }
  std::vector<Point> rows;
  if (plan.seeded())
    for (std::size_t p = 0; p < plan.points.size(); ++p) rows.push_back(aggregate(plan, runs, p));
  SweepCsv(options.out_path, plan.params).finish(plan.seeded() ? rows : runs);
  if (!options.raw_path.empty()) SweepCsv(options.raw_path, names).finish(runs);
  if (!options.quiet) std::cout << "results: " << options.out_path << "\n";
  return kExitOk;
}

}  // namespace collnoc::cli
