#include "sc_main/results.hpp"

namespace collnoc::cli {

namespace {

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
