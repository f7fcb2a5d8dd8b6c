// `collnoc plot`: figures drawn by sc_main/collnoc_plot.py (Python 3 and matplotlib), which
// checks its arguments itself; this side finds the script and an interpreter and passes the
// arguments and the exit status through. docs/plots.md.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "sc_main/cli.hpp"

extern char** environ;

namespace collnoc::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kScriptName = "collnoc_plot.py";

// Installed: DATADIR/collnoc, found from the program's folder (../share/collnoc by default); in
// a build tree: the source tree the program was built from.
std::string plot_script() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path() / COLLNOC_PLOT_DIR_FROM_BIN / kScriptName;
    if (fs::is_regular_file(installed, ec)) return installed.lexically_normal().string();
  }
  const fs::path source = fs::path(COLLNOC_SOURCE_PLOT_DIR) / kScriptName;
  if (fs::is_regular_file(source, ec)) return source.string();
  return {};
}

// COLLNOC_PYTHON if set; else Debian's /usr/bin/python3 (where python3-matplotlib installs,
// whatever python3 comes first on PATH); else python3 on PATH.
std::string python() {
  if (const char* p = std::getenv("COLLNOC_PYTHON"); p && *p) return p;
  if (::access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
  return "python3";
}

}  // namespace

int plot_command(const std::vector<std::string>& args) {
  const std::string script = plot_script();
  if (script.empty()) {
    std::cerr << "collnoc: error: plot: " << kScriptName << " is neither in "
              << COLLNOC_PLOT_DIR_FROM_BIN << " beside the program nor in " << COLLNOC_SOURCE_PLOT_DIR
              << " (install collnoc with cmake --install)\n";
    return kExitBadInput;
  }
  const std::string interpreter = python();
  std::vector<std::string> all{interpreter, script};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (const int rc = ::posix_spawnp(&pid, interpreter.c_str(), nullptr, nullptr, argv.data(), environ);
      rc != 0) {
    std::cerr << "collnoc: error: plot: cannot start " << interpreter << ": " << std::strerror(rc)
              << " (plots need Python 3 and matplotlib: Debian packages python3, "
                 "python3-matplotlib; or set COLLNOC_PYTHON)\n";
    return kExitBadInput;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return kExitFault;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace collnoc::cli
