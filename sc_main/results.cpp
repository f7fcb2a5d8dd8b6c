#include "sc_main/results.hpp"

#include <algorithm>
#include <iterator>

namespace collnoc::cli {

namespace {

// The arrays of a results document (docs/results.md) that --columns can select: for an array of
// objects its elements' fields, for an array of numbers none. tests/test_sweeps.cpp checks the
// links' fields against a run's.
struct ResultArray {
  const char* key;
  std::vector<const char*> fields;
};
const std::vector<ResultArray>& result_arrays() {
  static const std::vector<ResultArray> arrays{
      {"links",
       {"router", "port", "to_router", "to_node", "flits", "utilization", "busy_cycles",
        "contention_events", "contention_events_packets", "vc_busy_cycles", "vc_utilization"}},
      {"router_buffers", {"router", "buffer_occupancy_mean_flits", "buffer_occupancy_max_flits"}},
      {"flows",
       {"src", "dst", "packets", "flits", "latency_cycles_mean", "latency_cycles_max",
        "throughput_flits_per_cycle"}},
      {"contention_by_round",
       {"round", "packets", "contention_events_links", "contention_events_ejection",
        "contention_events_links_packets", "contention_events_ejection_packets"}},
      {"links_by_round",
       {"round", "router", "port", "to_router", "flits", "contention_events",
        "contention_events_packets"}},
      {"latency_cycles.histogram_edges", {}},
      {"latency_cycles.histogram_counts", {}},
      {"network_latency_cycles.histogram_edges", {}},
      {"network_latency_cycles.histogram_counts", {}},
      {"throughput.series_flits_per_node_cycle", {}},
      {"collective.steps",
       {"level", "step", "name", "round", "unicasts", "packets", "xor_operations",
        "max_latency_cycles", "mean_latency_cycles", "start_cycle", "end_cycle"}},
      {"collective.per_core_cycles", {}},
      {"collective.repetition_cycles", {}},
      {"collective.stage_cycles", {}},
  };
  return arrays;
}

const char* const kReductions[] = {"max", "min", "mean", "sum"};

// A --columns key taken apart: the array, the field of its elements (empty for numbers) and the
// reduction (empty: every element).
struct ColumnKey {
  const ResultArray* array = nullptr;
  std::string field, reduction;
};

ColumnKey parse_column_key(const std::string& key) {
  for (const ResultArray& a : result_arrays()) {
    const std::string prefix = a.key;
    if (key != prefix && key.rfind(prefix + ".", 0) != 0) continue;
    std::vector<std::string> rest;
    for (std::size_t at = prefix.size(); at < key.size();) {
      const std::size_t next = std::min(key.find('.', at + 1), key.size());
      rest.push_back(key.substr(at + 1, next - at - 1));
      at = next;
    }
    ColumnKey c{&a, "", ""};
    std::size_t i = 0;
    if (!a.fields.empty()) {
      if (rest.empty()) return {};
      if (std::find_if(a.fields.begin(), a.fields.end(),
                       [&](const char* f) { return rest[0] == f; }) == a.fields.end())
        return {};
      c.field = rest[i++];
    }
    if (i < rest.size()) {
      if (std::find_if(std::begin(kReductions), std::end(kReductions),
                       [&](const char* r) { return rest[i] == r; }) == std::end(kReductions))
        return {};
      c.reduction = rest[i++];
    }
    return i == rest.size() ? c : ColumnKey{};
  }
  return {};
}

// Places `value` at the dotted path `key` under `root`. A path that runs into a scalar (a key
// that is both a value and a group) keeps its full dotted name instead of nesting.
void put(Json& root, const std::string& key, Json value) {
  Json* node = &root;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = key.find('.', start);
    if (dot == std::string::npos) {
      (*node)[key.substr(start)] = std::move(value);
      return;
    }
    const std::string part = key.substr(start, dot - start);
    if (node->contains(part) && !(*node)[part].is_object()) {
      (*node)[key.substr(start)] = std::move(value);
      return;
    }
    Json& child = (*node)[part];
    if (child.is_null()) child = Json::object();
    node = &child;
    start = dot + 1;
  }
}

Json config_value_json(const KeySpec& spec, const ConfigValue& v) {
  if (const auto* list = std::get_if<std::vector<std::uint64_t>>(&v)) {
    if (spec.type == ValueType::uint_or_list && list->size() == 1) return list->front();
    return *list;
  }
  return std::visit([](const auto& x) { return Json(x); }, v);
}

void add_scalars(const Json& object, const std::string& prefix,
                 std::vector<std::pair<std::string, Json>>& out) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    const std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it->is_object()) add_scalars(*it, key, out);
    else if (!it->is_array()) out.emplace_back(key, *it);
  }
}

}  // namespace

Json config_json(const Config& config) {
  Json j = Json::object();
  const auto& schema = config_schema();
  for (std::size_t i = 0; i < schema.size(); ++i)
    put(j, schema[i].key, config_value_json(schema[i], config.values()[i]));
  return j;
}

Json report_json(const Report& report) {
  Json j = Json::object();
  for (const auto& [key, value] : report.entries())
    put(j, key, std::visit([](const auto& x) { return Json(x); }, value));
  for (const auto& [key, rows] : report.lists()) {
    Json array = Json::array();
    for (const Report& row : rows) array.push_back(report_json(row));
    put(j, key, std::move(array));
  }
  return j;
}

Json results_json(const Config& config, std::uint64_t seed, const Report& report) {
  Json j = Json::object();
  j["config"] = config_json(config);
  j["seed"] = seed;
  Json body = report_json(report);
  for (auto& [key, value] : body.items()) j[key] = std::move(value);
  return j;
}

std::string json_text(const Json& j) { return j.dump(2) + "\n"; }

std::vector<std::pair<std::string, Json>> scalar_results(const Json& results) {
  std::vector<std::pair<std::string, Json>> out;
  for (auto it = results.begin(); it != results.end(); ++it) {
    if (it.key() == "config") continue;
    if (it->is_object()) add_scalars(*it, it.key(), out);
    else if (!it->is_array()) out.emplace_back(it.key(), *it);
  }
  return out;
}

void check_column_key(const std::string& key) {
  if (parse_column_key(key).array) return;
  std::string allowed;
  for (const ResultArray& a : result_arrays()) {
    allowed += std::string(allowed.empty() ? "" : ", ") + a.key;
    if (a.fields.empty()) continue;
    allowed += ".FIELD (";
    for (std::size_t i = 0; i < a.fields.size(); ++i)
      allowed += (i ? " " : "") + std::string(a.fields[i]);
    allowed += ")";
  }
  throw InputError("--columns " + key + ": not an array of the results; allowed: " + allowed +
                   ", each optionally followed by .max, .min, .mean or .sum (scalar results "
                   "are columns already)");
}

Json column_value(const Json& results, const std::string& key) {
  const ColumnKey c = parse_column_key(key);
  if (!c.array) return Json();
  const Json* node = &results;
  for (std::size_t at = 0; node && at != std::string::npos;) {
    const std::string path = c.array->key;
    const std::size_t dot = path.find('.', at);
    const std::string part = path.substr(at, dot == std::string::npos ? dot : dot - at);
    node = node->is_object() && node->contains(part) ? &(*node)[part] : nullptr;
    at = dot == std::string::npos ? dot : dot + 1;
  }
  if (!node || !node->is_array()) return Json();
  std::vector<Json> elements;
  for (const Json& e : *node) {
    if (c.field.empty()) elements.push_back(e);
    else if (e.is_object() && e.contains(c.field)) elements.push_back(e[c.field]);
  }
  if (c.reduction.empty()) {
    std::string cell;
    for (std::size_t i = 0; i < elements.size(); ++i)
      cell += (i ? ";" : "") +
              (elements[i].is_string() ? elements[i].get<std::string>() : elements[i].dump());
    return cell;
  }
  // A reduction is over the numbers among the elements, and in lists among them (a link's
  // vc_utilization: over every VC of every link).
  std::vector<Json> numbers;
  for (const Json& e : elements)
    if (e.is_number()) numbers.push_back(e);
    else if (e.is_array())
      std::copy_if(e.begin(), e.end(), std::back_inserter(numbers),
                   [](const Json& x) { return x.is_number(); });
  if (numbers.empty()) return Json();
  const auto less = [](const Json& a, const Json& b) { return a.get<double>() < b.get<double>(); };
  if (c.reduction == "max") return *std::max_element(numbers.begin(), numbers.end(), less);
  if (c.reduction == "min") return *std::min_element(numbers.begin(), numbers.end(), less);
  const bool whole = std::all_of(numbers.begin(), numbers.end(),
                                 [](const Json& e) { return e.is_number_unsigned(); });
  if (c.reduction == "sum" && whole) {
    std::uint64_t sum = 0;
    for (const Json& e : numbers) sum += e.get<std::uint64_t>();
    return sum;
  }
  double sum = 0;
  for (const Json& e : numbers) sum += e.get<double>();
  return c.reduction == "sum" ? sum : sum / static_cast<double>(numbers.size());
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c != '"') field += c;
      else if (i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      row.push_back(std::move(field));
      field.clear();
      rows.push_back(std::move(row));
      row.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  return rows;  // (a row without its newline is dropped)
}

std::string csv_field(const Json& value) {
  if (value.is_null()) return "";
  if (value.is_string()) return csv_field(value.get<std::string>());
  return csv_field(value.dump());
}

}  // namespace collnoc::cli
