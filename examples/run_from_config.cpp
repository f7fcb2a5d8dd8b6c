// A user's own sc_main that reads the same YAML files as `collnoc run` (the collnoc::config
// component), builds the platform the configuration names through the library's platform
// registry, and runs it:  run_from_config CONFIG.yaml [key=value ...]
#include <algorithm>
#include <iostream>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "platforms/run_config.hpp"
#include "sc_main/config.hpp"

using namespace collnoc;

template <typename T>
void print(const char* key, const T& value) {
  if constexpr (!std::is_class_v<T> || std::is_same_v<T, std::string>)
    std::cout << key << ": " << value << "\n";
}

int sc_main(int argc, char** argv) {
  try {
    const std::vector<std::string> overrides(argv + std::min(argc, 2), argv + argc);
    RunConfig rc = cli::load_config(argc > 1 ? argv[1] : "", overrides).to_run_config();
    check_buildable(rc);                  // bad parameters: a message naming the key
    const BuiltRun built = build_run(rc);  // make_platform(rc.platform), then the workload
    Simulation simulation(*built.system, rc.run, built.firmware.get());
    const RunOutcome outcome = simulation.run();
    std::cout << "status: " << to_string(outcome.status) << "\n";
    for (const char* key : {"sim.cycles", "latency_cycles.mean", "firmware.completion_cycles"})
      if (const Report::Value* v = outcome.report.find(key))
        std::visit([&](const auto& x) { print(key, x); }, *v);
    return outcome.status == RunStatus::ok ? 0 : 1;
  } catch (const std::exception& e) {  // cli::InputError, ParamError: bad input
    std::cerr << "run_from_config: " << e.what() << "\n";
    return 2;
  }
}
