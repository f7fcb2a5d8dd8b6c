#include "sc_main/power_table.hpp"

#include <cmath>
#include <set>

#include <yaml-cpp/yaml.h>

#include "noc/input_file.hpp"
#include "sc_main/config.hpp"

namespace collnoc::cli {

PowerTable load_power_table(const std::string& path) {
  const std::string where = "power.table = " + path;
  if (const auto problem = input_file_problem(path)) throw InputError(where + ": " + *problem);
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw InputError(where + ": malformed YAML: line " + std::to_string(e.mark.line + 1) + ": " +
                     e.msg);
  }
  if (!root.IsMap()) throw InputError(where + ": a map of coefficients is expected");
  std::string names;
  for (const PowerCoefficient& c : power_coefficients()) names += std::string(names.empty() ? "" : ", ") + c.name;
  PowerTable table;
  std::set<std::string> seen;
  for (const auto& kv : root) {
    const std::string name = kv.first.Scalar();
    const auto fail = [&](const std::string& why) { return InputError(where + ": entry " + name + ": " + why); };
    if (name == "technology") {
      if (!kv.second.IsScalar()) throw fail("a text is expected");
      continue;
    }
    const PowerCoefficient* c = nullptr;
    for (const PowerCoefficient& e : power_coefficients())
      if (name == e.name) c = &e;
    if (!c) throw fail("unknown entry (allowed: technology, " + names + ")");
    const YAML::Node& entry = kv.second;
    const std::string form = std::string("expected {value: X, unit: ") + c->unit + "}";
    if (!entry.IsMap() || entry.size() != 2 || !entry["value"] || !entry["unit"] ||
        !entry["value"].IsScalar() || !entry["unit"].IsScalar())
      throw fail(form);
    const std::string unit = entry["unit"].Scalar();
    if (unit != c->unit) throw fail("unit " + unit + ", expected " + c->unit);
    const std::string text = entry["value"].Scalar();
    double value = 0;
    if (!parse_real(text, value) || !std::isfinite(value) || value < 0)
      throw fail("value " + text + ": a finite number >= 0 is expected");
    table.*(c->field) = value;
    seen.insert(name);
  }
  for (const PowerCoefficient& c : power_coefficients())
    if (!seen.count(c.name))
      throw InputError(where + ": entry " + c.name + " is missing (every coefficient is required; "
                       "0 says an event costs nothing)");
  return table;
}

}  // namespace collnoc::cli
