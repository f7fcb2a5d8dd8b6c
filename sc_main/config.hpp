// The `collnoc` configuration: one schema table of every key, a Config holding a value per key
// (defaults, then a YAML file, then `--set key=value` overrides), and the conversion into the
// plain parameter structs the library takes. Nothing here builds a model.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "collectives/firmware.hpp"
#include "ni/traffic.hpp"
#include "platforms/memory_estimate.hpp"
#include "platforms/platform.hpp"
#include "platforms/simulation.hpp"

namespace collnoc::cli {

// Bad input found by the program itself (unknown key, wrong type, unreadable file): exit status 2.
// The library's ParamError is bad input too.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class ValueType {
  int_,         // signed integer
  uint,         // unsigned integer
  double_,      // real number
  bool_,        // true / false
  string,       // text (an enumeration when the key lists allowed values)
  uint_or_list, // one unsigned integer, or a list of them
  uint_list,    // a list of unsigned integers
};
const char* to_string(ValueType t);

using ConfigValue = std::variant<std::int64_t, std::uint64_t, double, bool, std::string,
                                 std::vector<std::uint64_t>>;

// Everything the program needs to run: the library's parameter structs plus the workload choice.
struct RunConfig {
  PlatformParams platform;
  RunParams run;
  std::string workload_kind;  // "synthetic" or a firmware program name
  TrafficParams traffic;
  FirmwareParams firmware;
  std::uint64_t max_memory_mb = 0;  // sim.max_memory_mb; 0: automatic_memory_limit_mb()

  bool synthetic() const { return workload_kind == "synthetic"; }
};

// One configuration key. Integer bounds apply to each element of a list; real bounds are
// [real_min, real_max], with the lower end open when real_min_open.
struct KeySpec {
  std::string key;
  ValueType type;
  ConfigValue default_value;
  std::string unit;     // empty when the value has none
  std::string meaning;  // one line
  std::uint64_t uint_min = 0;
  std::uint64_t uint_max = UINT32_MAX;
  double real_min = 0, real_max = 0;
  bool real_min_open = false;
  bool real_bounded = false;
  std::function<std::vector<std::string>()> allowed;  // enumeration values; empty: any
  std::function<void(RunConfig&, const ConfigValue&)> apply;
};

// The authoritative table, in the order keys are documented and written to results.
const std::vector<KeySpec>& config_schema();
const KeySpec* find_key(const std::string& key);

// Reads a whole number written in decimal (an optional sign, then digits) that fits 64 bits.
bool parse_int(const std::string& s, std::int64_t& out);

// Renders a value as YAML text ("8", "0.1", "[4, 8]", "true").
std::string format_value(const ConfigValue& v);

// A value for every key of the schema. Every setter validates the value it stores (type, range,
// enumeration) and throws InputError naming the key, the value and what is allowed.
class Config {
 public:
  Config();  // the defaults

  // Reads a YAML file of nested maps (or dotted keys at any level).
  void load_file(const std::string& path);
  // The same from the file's text; `source` names it in messages.
  void load_yaml(const std::string& text, const std::string& source);
  // `key=value`, the value read as a YAML scalar or flow sequence/map.
  void apply_override(const std::string& assignment);
  // Sets one key (or, for a group prefix, a flow map) from YAML text.
  void set_text(const std::string& key, const std::string& yaml_text);

  const ConfigValue& get(const std::string& key) const;
  const std::vector<ConfigValue>& values() const { return values_; }  // in schema order

  // Cross-key checks that need no model; then the library structs.
  RunConfig to_run_config() const;

 private:
  std::vector<ConfigValue> values_;
};

// Defaults, then `path` (empty or "-": none), then each `key=value` of `overrides` in order.
Config load_config(const std::string& path, const std::vector<std::string>& overrides);

// Checks that the library would accept the configuration, without elaborating SystemC: builds
// the topology and the routing function, checks router, NI, traffic, firmware and run
// parameters. Throws the library's ParamError (or InputError).
void check_buildable(const RunConfig& rc);

// The memory the configured run is expected to take (platforms/memory_estimate.hpp), and the
// limit it is held to (sim.max_memory_mb, or the automatic one), in MB.
MemoryEstimate estimate_run_memory(const RunConfig& rc);
std::uint64_t memory_limit_mb(const RunConfig& rc);

// `collnoc run --dump-config`: every key with its type, default, unit, meaning and allowed values;
// `effective` (may be null) adds the value a configuration gives it.
void print_schema(std::ostream& os, const Config* effective);

}  // namespace collnoc::cli
