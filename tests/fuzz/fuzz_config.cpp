// libFuzzer target: the configuration, as `collnoc run` reads it. The input is taken twice: as a
// YAML configuration file (Config::load_yaml, which load_file calls), and as `--set key=value`
// lines (one per line, empty lines skipped, applied in order as the command line does). Each
// configuration that loads goes through to_run_config and check_buildable, as before a run, and
// --dump-config's table. Bad input must be refused as the program documents it, with InputError
// or the library's ParamError (exit status 2); anything else that escapes is a finding.
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <string>

#include "sc_main/config.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using namespace collnoc;
using namespace collnoc::cli;

// The runs a configuration may describe are held to 1 GB (sim.max_memory_mb, what the program
// does with the machine's memory), under the fuzzer's -rss_limit_mb of 2 GB: larger networks
// are refused before they are built, as a run on a 1 GB machine would refuse them.
constexpr std::uint64_t kFuzzMemoryMb = 1024;

void check_loaded(const Config& config) {
  RunConfig rc = config.to_run_config();
  if (rc.max_memory_mb == 0 || rc.max_memory_mb > kFuzzMemoryMb) rc.max_memory_mb = kFuzzMemoryMb;
  check_buildable(rc);
  fuzz::DiscardStdout quiet;
  print_schema(std::cout, &config);
}

void as_yaml(const std::string& text) {
  try {
    Config config;
    config.load_yaml(text, "fuzz.yaml");
    check_loaded(config);
  } catch (const InputError&) {
  } catch (const ParamError&) {
  }
}

void as_set_lines(const std::string& text) {
  try {
    Config config;
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      if (end > start) config.apply_override(text.substr(start, end - start));
      start = end + 1;
    }
    check_loaded(config);
  } catch (const InputError&) {
  } catch (const ParamError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  as_yaml(text);
  as_set_lines(text);
  return 0;
}
