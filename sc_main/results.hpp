// Results as JSON: dotted keys become nested objects ("latency_cycles.mean" ->
// {"latency_cycles": {"mean": ...}}), Report lists become arrays of objects. A results file is
// {"config": every key with its effective value, "seed": ..., then the report}.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "noc/report.hpp"
#include "sc_main/config.hpp"

namespace collnoc::cli {

using Json = nlohmann::ordered_json;

Json config_json(const Config& config);
Json report_json(const Report& report);
Json results_json(const Config& config, std::uint64_t seed, const Report& report);

// Deterministic text: 2-space indent, doubles in their shortest round-trip form.
std::string json_text(const Json& j);

// The scalar leaves of a results document as dotted keys, in document order; the "config"
// object and arrays (per-link tables, sample lists) are left out.
std::vector<std::pair<std::string, Json>> scalar_results(const Json& results);

// --columns of a sweep: array values of the results as CSV cells. A key names an array of numbers
// (collective.per_core_cycles) or a field of an array of objects (links.utilization), optionally
// followed by a reduction over its elements: .max, .min, .mean or .sum (links.utilization.max).
// check_column_key throws InputError naming a key that names none of them, and what is allowed.
void check_column_key(const std::string& key);
// The key's cell in `results`: the reduction, or the elements in array order joined by ';'
// (elements that lack the field are left out); null when the results have no such array.
Json column_value(const Json& results, const std::string& key);

// One CSV field (RFC 4180 quoting when needed); null -> empty.
std::string csv_field(const Json& value);
std::string csv_field(const std::string& text);
// The rows of a CSV text, fields unquoted; a last line without its newline (cut short) is left
// out. csv_field() of each field gives back the text.
std::vector<std::vector<std::string>> parse_csv(const std::string& text);

}  // namespace collnoc::cli
