// Running the collnoc program from a test: its exit status and output, and a scratch folder.
#pragma once
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/wait.h>

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

inline Result run_collnoc(const std::string& args, bool with_stderr = true) {
  const std::string cmd =
      std::string(COLLNOC_BINARY) + " " + args + (with_stderr ? " 2>&1" : " 2>/dev/null");
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  const int raw = pclose(pipe);
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, out};
}

}  // namespace collnoc::test
