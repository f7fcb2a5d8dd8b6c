// The `collnoc` configuration: one schema table of every key, a Config holding a value per key
// (defaults, then a YAML file, then `--set key=value` overrides), and the conversion into the
// library's RunConfig (platforms/run_config.hpp). Nothing here builds a model or holds a
// default or a range of its own: each key reads them from the parameter struct it sets.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "platforms/run_config.hpp"

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

// One configuration key: how it is written, and where in a RunConfig it goes (`apply`) and
// comes from (`read`). Its default is read(RunConfig{}); its range is the one its parameter
// struct declares (a `static constexpr` beside the field), for a list each element's.
struct KeySpec {
  std::string key;
  ValueType type;
  ConfigValue default_value;  // read(RunConfig{})
  std::string unit;     // empty when the value has none
  std::string meaning;  // one line
  UintRange uint_range{0, kU32Max};
  RealRange real_range{0, 0};
  bool real_bounded = false;
  // A number or switch that may also be left empty ("": unset, the value comes from elsewhere,
  // e.g. core.software.<cost> from the model's preset); its default then reads "".
  bool empty_allowed = false;
  std::function<std::vector<std::string>()> allowed;  // enumeration values; empty: any
  // Throws InputError for a name the library's field cannot hold (an enumeration of its own).
  std::function<void(RunConfig&, const ConfigValue&)> apply;
  std::function<ConfigValue(const RunConfig&)> read;
};

// The authoritative table, in the order keys are documented and written to results.
const std::vector<KeySpec>& config_schema();
const KeySpec* find_key(const std::string& key);

// Reads a whole number written in decimal (an optional sign, then digits) that fits 64 bits.
bool parse_int(const std::string& s, std::int64_t& out);
// Reads a finite number in the C locale's notation (strtod), the whole text.
bool parse_real(const std::string& s, double& out);

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

  // The library structs: every key applied, then derive_params().
  RunConfig to_run_config() const;

 private:
  std::vector<ConfigValue> values_;
};

// Defaults, then `path` (empty or "-": none), then each `key=value` of `overrides` in order.
Config load_config(const std::string& path, const std::vector<std::string>& overrides);

// `collnoc run --dump-config`: every key with its type, default, unit, meaning and allowed values;
// `effective` (may be null) adds the value a configuration gives it.
void print_schema(std::ostream& os, const Config* effective);

}  // namespace collnoc::cli
