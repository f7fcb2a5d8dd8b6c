// Bad input, one table (tests/bad_input.table): each row runs collnoc, which must exit with the
// row's status and a message containing the row's text, and write nothing; a `run` row must be
// refused by `run --check` too, so before anything is built or simulated. Every configuration key
// has a row.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"

namespace {

namespace fs = std::filesystem;
using namespace collnoc::test;  // Child, Result, read_text, run_collnoc, temp_path
using Catch::Matchers::Contains;

struct Row {
  int line = 0;
  std::string part;
  int status = 0;
  std::string text;  // what the output must contain
  std::string arguments;
};

// Blanks separate arguments; '...' keeps blanks inside one, and '' is an empty one.
std::vector<std::string> split_arguments(const std::string& text) {
  std::vector<std::string> args;
  std::string current;
  bool started = false, quoted = false;
  for (char c : text) {
    if (c == '\'') {
      quoted = !quoted;
      started = true;
    } else if (c == ' ' && !quoted) {
      if (started) args.push_back(current);
      current.clear();
      started = false;
    } else {
      current += c;
      started = true;
    }
  }
  REQUIRE_FALSE(quoted);
  if (started) args.push_back(current);
  return args;
}

std::vector<Row> read_table() {
  std::ifstream in(std::string(COLLNOC_SOURCE_DIR) + "/tests/bad_input.table");
  REQUIRE(in.good());
  std::vector<Row> rows;
  std::string line, part;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.rfind("## ", 0) == 0) part = line.substr(3);
    if (line.empty() || line[0] == '#') continue;
    INFO("bad_input.table:" << number << ": " << line);
    const std::size_t tab = line.find('\t'), tab2 = line.find('\t', tab + 1);
    REQUIRE(tab2 != std::string::npos);  // status, text and arguments
    rows.push_back({number, part, std::stoi(line.substr(0, tab)), line.substr(tab + 1, tab2 - tab - 1),
                    line.substr(tab2 + 1)});
  }
  return rows;
}

// The files rows name as {name}, made once per test process, and a working folder for collnoc.
class Scratch {
 public:
  Scratch() : root_(temp_path("bad_input")) {
    const std::string f = root_ + "/fixtures/";
    fs::create_directories(f + "dir");
    fs::create_directories(f + "waves.vcd.gtkw");
    fs::create_directories(work());
    REQUIRE(::mkfifo((f + "pipe").c_str(), 0644) == 0);
    names_ = {{"dir", f + "dir"},
              {"fifo", f + "pipe"},
              {"missing", f + "missing"},
              {"gtkw_taken", f + "waves"}};
    const std::map<std::string, std::string> files{
        {"empty_file", ""},
        {"odd_bin", "twelve bytes"},
        {"ints_bin", std::string(64, '\0')},
        {"bad_yaml", "topology:\n  kind: [mesh\n"},
        {"list_yaml", "- topology.k: 4\n- router.vcs: 2\n"},
        {"scalar_yaml", "just words\n"},
        {"unknown_key_yaml", "topology:\n  kind: mesh\n  colour: blue\n"},
        {"twice_yaml", "router:\n  vcs: 2\nrouter.vcs: 4\n"},
        {"table_4x4", read_text(std::string(COLLNOC_SOURCE_DIR) +
                                "/configs/routing/mesh4x4_west_first.table")},
        {"escape_table_4x4", read_text(std::string(COLLNOC_SOURCE_DIR) +
                                       "/configs/routing/mesh4x4_adaptive_escape.table")},
        {"sweep_csv",
         "traffic.injection_rate,sim.status,sim.completed,latency_cycles.mean\n"
         "0.1,ok,true,20.5\n0.9,ok,false,512\n"},
        {"results_json",
         R"({"sim": {"topology": "2x1 mesh", "routers": 2}, "links": [)"
         R"({"router": 0, "port": "E", "to_router": 1, "flits": 5, "utilization": 0.5, "contention_events": 0},)"
         R"({"router": 1, "port": "W", "to_router": 0, "flits": 2, "utilization": 0.2, "contention_events": 1}]})"}};
    for (const auto& [name, text] : files) {
      names_[name] = f + name;
      std::ofstream(f + name, std::ios::binary) << text;
    }
  }

  std::string substitute(std::string text) const {
    for (const auto& [name, path] : names_)
      for (std::size_t at; (at = text.find("{" + name + "}")) != std::string::npos;)
        text.replace(at, name.size() + 2, path);
    return text;
  }
  std::string work() const { return root_ + "/work"; }  // collnoc's folder and TMPDIR
  std::string log() const { return root_ + ".log"; }
  // Everything under the scratch folder, to tell that a row wrote nothing.
  std::set<std::string> contents() const {
    std::set<std::string> paths;
    for (const auto& e : fs::recursive_directory_iterator(root_)) paths.insert(e.path().string());
    return paths;
  }

 private:
  std::string root_;
  std::map<std::string, std::string> names_;
};

// collnoc run in the work folder: exit status and output. A row that hangs (a FIFO read) is
// killed and fails instead of stalling the suite.
Result run_in(const Scratch& scratch, const std::vector<std::string>& args) {
  Child child(args, scratch.log(), scratch.work(), scratch.work());
  const int status = child.wait(60);
  return {status, read_text(scratch.log())};
}

void check_row(const Scratch& scratch, const Row& row) {
  std::vector<std::string> args = split_arguments(scratch.substitute(row.arguments));
  const bool run = !args.empty() && args[0] == "run";
  if (run && std::find(args.begin(), args.end(), "--out") == args.end())
    args.insert(args.end(), {"--out", scratch.work() + "/row" + std::to_string(row.line) + ".json"});
  const std::string text = scratch.substitute(row.text);
  const std::set<std::string> before = scratch.contents();
  const Result r = run_in(scratch, args);
  std::string shown;
  for (const std::string& a : args) shown += " " + (a.empty() ? "''" : a);
  INFO("bad_input.table:" << row.line << ": collnoc" << shown << "\n" << r.output);
  CHECK(r.status == row.status);
  CHECK_THAT(r.output, Contains(text));
  CHECK_THAT(r.output, !Contains("internal error"));
  if (row.status == 2) CHECK_THAT(r.output, Contains("collnoc: error: "));
  // What the row wrote (or removed): nothing, not even a temporary file.
  std::vector<std::string> written;
  const std::set<std::string> after = scratch.contents();
  std::set_symmetric_difference(before.begin(), before.end(), after.begin(), after.end(),
                                std::back_inserter(written));
  CHECK(written == std::vector<std::string>{});
  if (run && row.status == 2 && std::find(args.begin(), args.end(), "--check") == args.end()) {
    // Refused by the check too: so before the run builds or simulates anything.
    args.push_back("--check");
    const Result check = run_in(scratch, args);
    INFO("with --check:\n" << check.output);
    CHECK(check.status == 2);
    CHECK_THAT(check.output, Contains(text));
  }
}

// The rows of one part of the table ("## PART"), checked by the test case "bad input: PART": one
// each, so that ctest runs them in parallel.
void check_part(const std::string& part) {
  static const Scratch scratch;
  std::size_t rows = 0;
  for (const Row& row : read_table())
    if (row.part == part) check_row(scratch, row), ++rows;
  CHECK(rows > 0);
}

}  // namespace

TEST_CASE("bad input: values of the network", "[bad_input]") {
  check_part("values of the network");
}

TEST_CASE("bad input: values of the workload and the run", "[bad_input]") {
  check_part("values of the workload and the run");
}

TEST_CASE("bad input: combinations the models cannot build", "[bad_input]") {
  check_part("combinations the models cannot build");
}

TEST_CASE("bad input: files and keys", "[bad_input]") {
  check_part("files and keys");
}

TEST_CASE("bad input: commands and options", "[bad_input]") {
  check_part("commands and options");
}

TEST_CASE("bad input: plots", "[bad_input]") {
  check_part("plots");
}

TEST_CASE("bad input: every key has a row, every part of the table a test case", "[bad_input]") {
  const std::vector<Row> rows = read_table();
  CHECK(rows.size() >= 150);
  std::set<std::string> tests, parts;
  for (const Catch::TestCase& t : Catch::getRegistryHub().getTestCaseRegistry().getAllTests())
    tests.insert(t.name);
  for (const Row& row : rows) parts.insert(row.part);
  for (const std::string& part : parts) {
    INFO("part '" << part << "' of bad_input.table");
    CHECK(tests.count("bad input: " + part) == 1);
  }

  // A key is covered by a row that sets it (--set KEY=...) and whose text is its message.
  const Result dump = run_collnoc("run --dump-config");
  REQUIRE(dump.status == 0);
  std::istringstream lines(dump.output);
  std::string line;
  std::getline(lines, line);  // header
  std::size_t keys = 0;
  while (std::getline(lines, line)) {
    const std::string key = line.substr(0, line.find(' '));
    if (key.empty()) continue;
    ++keys;
    const bool covered = std::any_of(rows.begin(), rows.end(), [&](const Row& row) {
      const std::vector<std::string> args = split_arguments(row.arguments);
      return row.text.rfind(key + " = ", 0) == 0 &&
             std::any_of(args.begin(), args.end(),
                         [&](const std::string& a) { return a.rfind(key + "=", 0) == 0; });
    });
    INFO(key);
    CHECK(covered);
  }
  CHECK(keys > 50);
}
