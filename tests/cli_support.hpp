// Running the collnoc program from a test: its exit status and output, and a scratch folder.
#pragma once
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

extern char** environ;

namespace collnoc::test {

struct Result {
  int status;
  std::string output;  // stdout, and stderr unless left out
};

// A scratch folder for this test process, removed when it ends.
class ScratchDir {
 public:
  ScratchDir() {
    char tmpl[] = "/tmp/collnoc_test_XXXXXX";
    const char* d = mkdtemp(tmpl);
    path_ = d ? d : "/tmp";
  }
  ~ScratchDir() {
    if (path_ != "/tmp") std::filesystem::remove_all(path_);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline std::string temp_path(const std::string& name) {
  static const ScratchDir dir;
  return dir.path() + "/" + name;
}

// A shell command's exit status and its stdout.
inline Result run_shell(const std::string& cmd) {
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  const int raw = pclose(pipe);
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, out};
}

// `env`: VAR=VALUE or -u VAR words for env(1), to run collnoc in another environment.
inline Result run_collnoc(const std::string& args, bool with_stderr = true,
                          const std::string& env = "") {
  return run_shell((env.empty() ? "" : "env " + env + " ") + COLLNOC_BINARY + " " + args +
                   (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  return nlohmann::json::parse(in);
}

// `collnoc run --quiet ARGS`, which must succeed; its results (written to scratch file NAME.json).
inline nlohmann::json run_json(const std::string& args, const std::string& name) {
  const std::string out = temp_path(name + ".json");
  const Result r = run_collnoc("run --quiet " + args + " --out " + out);
  INFO(args << "\n" << r.output);
  REQUIRE(r.status == 0);
  return read_json(out);
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A CSV text with the fields of its wall-clock columns (their names say "second": sim.wall_seconds,
// the speeds per second, their .ci95) replaced by "-": what two sweeps of the same runs share.
inline std::string without_wall_clock(const std::string& csv) {
  std::istringstream lines(csv);
  std::string line, out;
  std::vector<bool> wall;
  for (bool header = true; std::getline(lines, line); header = false) {
    std::istringstream fields(line);
    std::size_t i = 0;
    for (std::string field; std::getline(fields, field, ','); ++i) {
      if (header) wall.push_back(field.find("second") != std::string::npos);
      out += (i < wall.size() && wall[i] ? std::string("-") : field) + ",";
    }
    out += "\n";
  }
  return out;
}

// A collnoc process started in the background with `args` as they are (no shell), its output in
// a file; `tmpdir` as its TMPDIR, and `cwd` (unless empty) as its working directory.
struct Child {
  pid_t pid = -1;
  std::string log;

  Child(const std::vector<std::string>& args, const std::string& log_path, const std::string& tmpdir,
        const std::string& cwd = "")
      : log(log_path) {
    std::vector<std::string> all{COLLNOC_BINARY};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_text{"SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1", "TMPDIR=" + tmpdir};
    std::vector<char*> envp;
    for (char** e = environ; *e; ++e)
      if (std::string(*e).rfind("TMPDIR=", 0) != 0) envp.push_back(*e);
    for (std::string& e : env_text) envp.push_back(e.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
    REQUIRE(posix_spawn(&pid, COLLNOC_BINARY, &actions, nullptr, argv.data(), envp.data()) == 0);
    posix_spawn_file_actions_destroy(&actions);
  }
  // Its exit status (128 + signal if a signal ended it). With `seconds` > 0 it is killed when it
  // runs longer, so that a test reports a process that hangs instead of hanging itself.
  int wait(double seconds = 0) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    int status = 0;
    pid_t done = 0;
    while ((done = ::waitpid(pid, &status, seconds > 0 ? WNOHANG : 0)) == 0) {
      if (std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        continue;
      }
      ::kill(pid, SIGKILL);
      seconds = 0;  // and wait for it to go
    }
    REQUIRE(done == pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  // Waits until its log contains `text` (at most `seconds`).
  bool wait_for_output(const std::string& text, double seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
      if (read_text(log).find(text) != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }
};

// The rows of a CSV file as header -> field maps (fields may be double-quoted, "" inside).
inline std::vector<std::map<std::string, std::string>> read_csv(const std::string& path) {
  const auto split = [](const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') fields.back() += line[++i];
      else if (c == '"') quoted = !quoted;
      else if (c == ',' && !quoted) fields.emplace_back();
      else fields.back() += c;
    }
    return fields;
  };
  std::ifstream in(path);
  std::string line;
  REQUIRE(std::getline(in, line));
  const std::vector<std::string> header = split(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const std::vector<std::string> fields = split(line);
    REQUIRE(fields.size() == header.size());
    auto& row = rows.emplace_back();
    for (std::size_t i = 0; i < header.size(); ++i) row[header[i]] = fields[i];
  }
  return rows;
}

}  // namespace collnoc::test
