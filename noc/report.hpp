// Results as an ordered list of dotted keys ("latency_cycles.mean") and values. Models fill it;
// the program turns it into JSON. Keeps the models free of any file format.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <type_traits>
#include <variant>
#include <vector>

namespace collnoc {

class Report {
 public:
  using Value = std::variant<bool, std::int64_t, std::uint64_t, double, std::string,
                             std::vector<std::uint64_t>, std::vector<double>>;

  template <typename T>
  void set(const std::string& key, T value) {
    Value v = normalise(std::move(value));
    for (auto& kv : entries_)
      if (kv.first == key) {
        kv.second = std::move(v);
        return;
      }
    entries_.emplace_back(key, std::move(v));
  }
  // Appends an element to a list of reports under `key` (per-link tables and the like).
  void append(const std::string& key, Report row) { lists_[index_of(key)].second.push_back(std::move(row)); }

  const std::vector<std::pair<std::string, Value>>& entries() const { return entries_; }
  const std::vector<std::pair<std::string, std::vector<Report>>>& lists() const { return lists_; }
  const Value* find(const std::string& key) const {
    for (const auto& kv : entries_)
      if (kv.first == key) return &kv.second;
    return nullptr;
  }

 private:
  template <typename T>
  static Value normalise(T v) {
    if constexpr (std::is_same_v<T, bool>) return Value(v);
    else if constexpr (std::is_floating_point_v<T>) return Value(static_cast<double>(v));
    else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) return Value(static_cast<std::int64_t>(v));
    else if constexpr (std::is_integral_v<T>) return Value(static_cast<std::uint64_t>(v));
    else if constexpr (std::is_same_v<T, const char*>) return Value(std::string(v));
    else return Value(std::move(v));
  }
  std::size_t index_of(const std::string& key) {
    for (std::size_t i = 0; i < lists_.size(); ++i)
      if (lists_[i].first == key) return i;
    lists_.emplace_back(key, std::vector<Report>{});
    return lists_.size() - 1;
  }
  std::vector<std::pair<std::string, Value>> entries_;
  std::vector<std::pair<std::string, std::vector<Report>>> lists_;
};

}  // namespace collnoc
