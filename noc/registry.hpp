// Strategies chosen by name (routing functions, allocators, traffic patterns, platforms, ...):
// each kind has one constant table of entries, filled in one place; adding a strategy is one
// class and one line in its table. Tables are function-local constants, not global state.
#pragma once
#include <string>
#include <vector>

#include "noc/types.hpp"

namespace collnoc {

template <typename Factory>
struct Registered {
  const char* name;
  const char* description;
  Factory make;
};

// The entry called `name`; otherwise ParamError(key, name, "<lead> a b c").
template <typename Entry>
const Entry& lookup(const std::vector<Entry>& table, const std::string& name,
                    const std::string& key, const std::string& lead = "one of:") {
  for (const Entry& e : table)
    if (name == e.name) return e;
  std::string allowed = lead;
  for (const Entry& e : table) allowed += std::string(" ") + e.name;
  throw ParamError(key, name, allowed);
}

}  // namespace collnoc
