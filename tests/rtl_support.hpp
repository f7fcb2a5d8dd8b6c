// Shared by the pin-level testbenches: stream phases, and reading VCD and GTKWave save files.
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace collnoc::test {

inline std::string hex(std::uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

// A stretch of the stream, up to `end_word` words accepted: the chance of a gap in in_valid, of a
// stall on out_ready; with `reset_after`, the output is then held until the pipeline is full and
// reset is asserted for two cycles (the words inside are dropped).
struct Phase {
  std::size_t end_word;
  double gap_prob;
  double stall_prob;
  bool reset_after;
};

inline std::vector<Phase> stress_phases(std::size_t words) {
  return {{300, 0.0, 0.0, true},
          {words * 3 / 10, 0.3, 0.0, false},
          {words * 6 / 10, 0.2, 0.3, true},
          {words * 8 / 10, 0.0, 0.6, false},
          {words, 0.5, 0.5, false}};
}

inline std::string source_path(const std::string& relative) {
  return std::string(COLLNOC_SOURCE_DIR) + "/" + relative;
}

// Signal rows of a GTKWave save file: what is not a flag (@), comment (-), directive ([) or
// note (*), as waves/grab.tcl reads them.
inline std::vector<std::string> gtkw_signals(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::vector<std::string> names;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || std::string("@-[*#").find(line[0]) != std::string::npos) continue;
    names.push_back(line);
  }
  return names;
}

// The VCD's variables as GTKWave names them (scopes joined by dots, then the vector range), and
// how many distinct values each took.
inline std::map<std::string, std::size_t> vcd_signals(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::vector<std::string> scopes;
  std::map<std::string, std::string> name_of_id;
  std::string token;
  while (in >> token && token != "$enddefinitions") {
    if (token == "$scope") {
      std::string kind, name;
      in >> kind >> name;
      scopes.push_back(name);
    } else if (token == "$upscope") {
      scopes.pop_back();
    } else if (token == "$var") {
      std::string type, size, id, ref, next;
      in >> type >> size >> id >> ref >> next;
      std::string full;
      for (const auto& s : scopes) full += s + ".";
      full += ref;
      if (next != "$end") full += next;  // "[31:0]"
      name_of_id[id] = full;
    }
  }
  std::map<std::string, std::set<std::string>> values;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == '$') continue;
    std::string value, id;
    if (line[0] == 'b' || line[0] == 'r') {
      std::istringstream ls(line);
      ls >> value >> id;
    } else {
      value = line.substr(0, 1);
      id = line.substr(1);
    }
    if (name_of_id.count(id)) values[name_of_id[id]].insert(value);
  }
  std::map<std::string, std::size_t> out;
  for (const auto& [id, name] : name_of_id) out[name] = values[name].size();
  return out;
}

}  // namespace collnoc::test
