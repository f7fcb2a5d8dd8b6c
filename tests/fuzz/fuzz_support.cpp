#include "tests/fuzz/fuzz_support.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace collnoc::fuzz {

void finding(const std::string& what) {
  std::fprintf(stderr, "collnoc fuzz: finding: %s\n", what.c_str());
  std::abort();
}

DiscardStdout::DiscardStdout() : saved_(std::cout.rdbuf(&sink_)) {}
DiscardStdout::~DiscardStdout() { std::cout.rdbuf(saved_); }

namespace {

class ScratchDir {
 public:
  ScratchDir() {
    char pattern[] = "/tmp/collnoc_fuzz_XXXXXX";
    if (!mkdtemp(pattern)) finding("cannot make a scratch directory in /tmp");
    path_ = pattern;
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

std::string scratch_file(const std::string& name, const std::uint8_t* data, std::size_t size) {
  static const ScratchDir dir;
  const std::string path = dir.path() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out.flush()) finding("cannot write " + path);
  return path;
}

}  // namespace collnoc::fuzz

// libsystemc.so holds a main() that calls sc_main, and needs the symbol to link. The executable's
// own main (libFuzzer's, or the corpus replay's) takes precedence, so reaching this is a build fault.
extern "C" int sc_main(int, char**) {
  collnoc::fuzz::finding("libsystemc's main ran instead of the fuzzer's");
}
