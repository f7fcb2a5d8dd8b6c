// `collnoc sweep`: one `collnoc run` process per point (SystemC elaborates one system per
// process), at most `jobs` at a time, gathered into one CSV row per point in the given order.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

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

struct Point {
  std::string value;
  bool done = false;   // finished (this sweep or an earlier one, --resume)
  std::string status;  // "ok" or why the point failed
  // CSV field per column (the scalar results, in the order of the results file)
  std::vector<std::pair<std::string, std::string>> fields;
};

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

// The sweep's CSV: `param`, sim.status, then every scalar any point reported. Rows are added
// as points finish, one append each, so an interrupted sweep keeps every finished point; a
// point that brings new columns rewrites the file (atomically) with the wider header. At the
// end the rows are put in the order of --values. A device or FIFO gets the CSV once, at the end.
class SweepCsv {
 public:
  SweepCsv(std::string path, std::string param)
      : path_(std::move(path)), param_(std::move(param)),
        incremental_(is_rewritable_file(path_)) {}

  void add(const Point& p) {
    bool wider = false;
    for (const auto& [column, field] : p.fields)
      if (std::find(columns_.begin(), columns_.end(), column) == columns_.end()) {
        columns_.push_back(column);
        wider = true;
      }
    finished_.push_back(&p);
    if (!incremental_) return;
    if (wider || finished_.size() == 1) rewrite(finished_);
    else append_output(path_, row(p), "sweep CSV");
  }
  // All points that finished, in the order given.
  void finish(const std::vector<Point>& points) {
    std::vector<const Point*> order;
    for (const Point& p : points)
      if (p.done) order.push_back(&p);
    rewrite(order);
  }

 private:
  std::string header() const {
    std::string h = csv_field(param_);
    for (const std::string& c : columns_) h += "," + csv_field(c);
    return h + "\n";
  }
  std::string row(const Point& p) const {
    std::string r = csv_field(p.value);
    for (const std::string& c : columns_) {
      r += ",";
      if (c == "sim.status") r += csv_field(p.status);
      else if (auto it = std::find_if(p.fields.begin(), p.fields.end(),
                                      [&](const auto& f) { return f.first == c; });
               it != p.fields.end())
        r += it->second;
    }
    return r + "\n";
  }
  void rewrite(const std::vector<const Point*>& rows) const {
    std::string text = header();
    for (const Point* p : rows) text += row(*p);
    write_output(path_, text, "sweep CSV");
  }

  std::string path_, param_;
  bool incremental_;
  std::vector<std::string> columns_{"sim.status"};
  std::vector<const Point*> finished_;
};

// --resume: the points an earlier run of the sweep finished, from its CSV (a row cut short by
// a crash is left out). Points of the CSV that this sweep does not list are kept, after its own.
void resume_from(const std::string& path, const std::string& param, std::vector<Point>& points) {
  std::ifstream in(path);
  if (!in) return;  // nothing yet: a fresh sweep
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::vector<std::string>> rows = parse_csv(text.str());
  if (rows.empty()) return;
  const std::vector<std::string> header = rows.front();
  if (header.size() < 2 || header[0] != param || header[1] != "sim.status")
    throw InputError("--resume: " + path + " is not a CSV of a sweep over " + param +
                     " (its header starts " + (header.empty() ? "empty" : header[0]) + ")");
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const std::vector<std::string>& fields = rows[r];
    if (fields.size() != header.size()) continue;
    auto it = std::find_if(points.begin(), points.end(),
                           [&](const Point& p) { return p.value == fields[0]; });
    if (it == points.end()) {
      points.push_back(Point{fields[0], false, "", {}});
      it = points.end() - 1;
    }
    it->done = true;
    it->status = fields[1];
    it->fields.clear();
    for (std::size_t c = 1; c < header.size(); ++c)
      if (!fields[c].empty()) it->fields.emplace_back(header[c], csv_field(fields[c]));
  }
}

}  // namespace

int sweep_command(const SweepOptions& options) {
  const InterruptGuard interrupts;
  // Everything the points could trip over is checked here, in-process, before spawning.
  const Config base = load_config(options.config_path, options.overrides);
  check_buildable(base.to_run_config());
  std::vector<Point> points;
  for (const std::string& value : split_values(options.values)) {
    try {
      Config c = base;
      c.set_text(options.param, value);
      check_buildable(c.to_run_config());
    } catch (const std::exception& e) {
      throw InputError("sweep point " + options.param + "=" + value + ": " + e.what());
    }
    points.push_back(Point{value, false, "", {}});
  }
  check_writable(options.out_path, "--out");
  if (options.resume) resume_from(options.out_path, options.param, points);
  const std::size_t to_run = static_cast<std::size_t>(
      std::count_if(points.begin(), points.end(), [](const Point& p) { return !p.done; }));
  if (options.resume && !options.quiet)
    std::cout << "resuming: " << points.size() - to_run << " point(s) already in "
              << options.out_path << ", " << to_run << " to run\n";

  SweepCsv csv(options.out_path, options.param);
  for (const Point& p : points)
    if (p.done) csv.add(p);
  const ScratchDir scratch;
  const std::string exe = self_executable();
  using Clock = std::chrono::steady_clock;
  std::map<pid_t, std::pair<std::size_t, Clock::time_point>> running;  // pid -> point, start
  // However the sweep ends (an interrupt, an exception), wait for the children still running so
  // that none outlives the scratch directory it writes into.
  struct Reaper {
    std::map<pid_t, std::pair<std::size_t, Clock::time_point>>& running;
    ~Reaper() {
      for (const auto& child : running) ::waitpid(child.first, nullptr, 0);
    }
  } reaper{running};
  const auto file_of = [&](std::size_t i, const char* ext) {
    return scratch.file("point_" + std::to_string(i) + ext);
  };
  std::size_t next = 0, done = 0;
  bool any_failed = false, forwarded = false;
  while (done < to_run) {
    const int signal = InterruptGuard::signal().load();
    if (signal != 0 && !forwarded) {  // pass it on, then wait for the points that are running
      for (const auto& child : running) ::kill(child.first, signal);
      forwarded = true;
    }
    if (forwarded && running.empty()) break;
    while (!forwarded && next < points.size() && running.size() < options.jobs) {
      if (points[next].done) {
        ++next;
        continue;
      }
      std::vector<std::string> args{"collnoc", "run"};
      if (options.config_path != "-") args.push_back(options.config_path);
      for (const std::string& o : options.overrides) args.insert(args.end(), {"--set", o});
      args.insert(args.end(), {"--set", options.param + "=" + points[next].value, "--out",
                               file_of(next, ".json"), "--quiet"});
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
    Point& point = points[i];
    ++done;
    if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == kExitOk && !json_text.empty()) {
      try {
        for (auto& [key, value] : scalar_results(Json::parse(json_text)))
          point.fields.emplace_back(key, csv_field(value));
        point.status = "ok";
      } catch (const std::exception&) {
        point.status = "error (unreadable results)";
      }
    } else {
      point.status = failure_status(wait_status, log);
    }
    point.done = true;
    csv.add(point);
    if (point.status != "ok") {
      any_failed = true;
      std::cerr << "collnoc: sweep point " << options.param << "=" << point.value << " failed ("
                << point.status << "):\n" << log;
    }
    if (!options.quiet)
      std::cout << "[" << done << "/" << to_run << "] " << options.param << "=" << point.value
                << ": " << point.status << " (" << std::fixed << std::setprecision(1) << seconds
                << " s)\n" << std::defaultfloat << std::flush;
  }

  csv.finish(points);
  if (forwarded) {
    std::cerr << "collnoc: sweep interrupted: " << done << " of " << to_run
              << " point(s) finished and are in " << options.out_path
              << " (run the sweep again with --resume for the rest)\n";
    return InterruptGuard::exit_status();
  }
  if (!options.quiet) std::cout << "results: " << options.out_path << "\n";
  return any_failed ? kExitFault : kExitOk;
}

}  // namespace collnoc::cli
