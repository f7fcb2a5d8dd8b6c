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
  std::string status;  // "ok" or why the point failed
  Json results;        // the point's results file, when ok
  std::string log;     // the child's stdout and stderr
  double wall_seconds = 0;
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

void write_csv(const std::string& path, const std::string& param,
               const std::vector<Point>& points) {
  // The same columns for every row: sim.status first, then every scalar any point reported.
  std::vector<std::string> columns{"sim.status"};
  std::vector<std::map<std::string, Json>> rows(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (points[i].status != "ok") continue;
    for (auto& [key, value] : scalar_results(points[i].results)) {
      if (std::find(columns.begin(), columns.end(), key) == columns.end()) columns.push_back(key);
      rows[i][key] = value;
    }
  }
  std::ostringstream csv;
  csv << csv_field(param);
  for (const std::string& c : columns) csv << "," << csv_field(c);
  csv << "\n";
  for (std::size_t i = 0; i < points.size(); ++i) {
    csv << csv_field(points[i].value);
    for (const std::string& c : columns) {
      csv << ",";
      if (c == "sim.status") csv << csv_field(points[i].status);
      else if (auto it = rows[i].find(c); it != rows[i].end()) csv << csv_field(it->second);
    }
    csv << "\n";
  }
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << csv.str();
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + tmp);
  }
  fs::rename(tmp, path);
}

}  // namespace

int sweep_command(const SweepOptions& options) {
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
    points.push_back(Point{value, "", Json(), "", 0});
  }
  check_writable(options.out_path, "--out");

  const ScratchDir scratch;
  const std::string exe = self_executable();
  using Clock = std::chrono::steady_clock;
  std::map<pid_t, std::pair<std::size_t, Clock::time_point>> running;  // pid -> point, start
  // If the sweep stops early (an exception), wait for the children still running so that none
  // outlives the scratch directory it writes into.
  struct Reaper {
    std::map<pid_t, std::pair<std::size_t, Clock::time_point>>& running;
    ~Reaper() {
      for (const auto& child : running) ::waitpid(child.first, nullptr, 0);
    }
  } reaper{running};
  std::size_t next = 0, done = 0;
  bool any_failed = false;
  while (done < points.size()) {
    while (next < points.size() && running.size() < options.jobs) {
      std::vector<std::string> args{"collnoc", "run"};
      if (options.config_path != "-") args.push_back(options.config_path);
      for (const std::string& o : options.overrides) args.insert(args.end(), {"--set", o});
      args.insert(args.end(),
                  {"--set", options.param + "=" + points[next].value, "--out",
                   scratch.file("point_" + std::to_string(next) + ".json"), "--quiet"});
      const pid_t pid =
          spawn(exe, args, scratch.file("point_" + std::to_string(next) + ".log"));
      running[pid] = {next, Clock::now()};
      ++next;
    }
    int wait_status = 0;
    const pid_t pid = ::waitpid(-1, &wait_status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const std::size_t i = it->second.first;
    Point& point = points[i];
    point.wall_seconds = std::chrono::duration<double>(Clock::now() - it->second.second).count();
    running.erase(it);
    ++done;

    point.log = read_text(scratch.file("point_" + std::to_string(i) + ".log"));
    const std::string json_path = scratch.file("point_" + std::to_string(i) + ".json");
    if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == kExitOk && fs::exists(json_path)) {
      try {
        point.results = Json::parse(read_text(json_path));
        point.status = "ok";
      } catch (const std::exception&) {
        point.status = "error (unreadable results)";
      }
    } else {
      point.status = failure_status(wait_status, point.log);
    }
    if (point.status != "ok") {
      any_failed = true;
      std::cerr << "collnoc: sweep point " << options.param << "=" << point.value << " failed ("
                << point.status << "):\n" << point.log;
    }
    if (!options.quiet)
      std::cout << "[" << done << "/" << points.size() << "] " << options.param << "="
                << point.value << ": " << point.status << " (" << std::fixed
                << std::setprecision(1) << point.wall_seconds << " s)\n"
                << std::defaultfloat << std::flush;
  }

  write_csv(options.out_path, options.param, points);
  if (!options.quiet) std::cout << "results: " << options.out_path << "\n";
  return any_failed ? kExitFault : kExitOk;
}

}  // namespace collnoc::cli
