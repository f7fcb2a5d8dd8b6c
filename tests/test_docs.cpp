// The numbers the documentation states are the numbers the program gives. A page marks a claim
// with an HTML comment (invisible when rendered) naming the command that measures it and what it
// must give (the format: docs/architecture.md#checked-claims):
//
//   <!-- check: run configs/core/mesh_uniform.yaml --set traffic.injection_rate=0.4
//   latency_cycles.mean = 516
//   sim.completed = true
//   sim.cycles = 5700 +- 2%
//   -->
//
// and `<!-- check: output -->` just before a ```sh block of one collnoc command says that the
// next block is its output (every line but `...` printed, in that order); before a plain block
// it says that the block is `$ collnoc ARGS` followed by its output.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_support.hpp"

using namespace collnoc::test;
namespace fs = std::filesystem;

namespace {

struct Claim {
  std::string page;
  int line = 0;
  std::string command;                  // collnoc's arguments, as on the page
  std::vector<std::string> assertions;  // `KEY = VALUE [+- TOL[%]]`, `output contains TEXT`,
                                        // `file NAME bytes = ...`
  std::vector<std::string> output;      // the output form: the lines shown
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  const auto e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The claims of one page.
std::vector<Claim> claims_of(const std::string& page) {
  std::ifstream in(std::string(COLLNOC_SOURCE_DIR) + "/" + page);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::vector<Claim> claims;
  bool fenced = false;  // inside a code block: an example of the format, not a claim
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string l = trim(lines[i]);
    if (l.rfind("```", 0) == 0) fenced = !fenced;
    if (fenced || l.rfind("<!-- check:", 0) != 0) continue;
    Claim c{page, static_cast<int>(i + 1), trim(l.substr(11)), {}, {}};
    if (c.command == "output -->") {
      // Either a ```sh block with the command and then a block with its output, or one block
      // whose first line is `$ collnoc ARGS` and the rest its output.
      std::size_t j = i + 1;
      REQUIRE(j < lines.size());
      const bool sh = trim(lines[j]) == "```sh";
      REQUIRE((sh || trim(lines[j]) == "```"));
      c.command.clear();
      for (++j; sh && j < lines.size() && trim(lines[j]) != "```"; ++j) {
        std::string part = trim(lines[j]);
        if (!part.empty() && part.back() == '\\') part.pop_back();
        c.command += part + " ";
      }
      if (sh) j += 2;  // past the closing fence and the output's opening one
      else c.command = trim(lines[j++]).substr(2);  // "$ collnoc ..."
      INFO(page << ":" << c.line);
      const std::string program = sh ? "build/collnoc " : "collnoc ";
      REQUIRE(c.command.rfind(program, 0) == 0);
      c.command = trim(c.command.substr(program.size()));
      for (; j < lines.size() && trim(lines[j]) != "```"; ++j)
        if (trim(lines[j]) != "...") c.output.push_back(lines[j]);
      claims.push_back(c);
      continue;
    }
    for (++i; i < lines.size() && trim(lines[i]) != "-->"; ++i)
      if (!trim(lines[i]).empty()) c.assertions.push_back(trim(lines[i]));
    claims.push_back(c);
  }
  return claims;
}

// The value at a dotted path ("sim.cycles", "links.3.utilization"), or null.
const nlohmann::json* at(const nlohmann::json& j, const std::string& path) {
  const nlohmann::json* node = &j;
  std::istringstream parts(path);
  for (std::string p; std::getline(parts, p, '.');) {
    if (node->is_object() && node->contains(p)) node = &(*node)[p];
    else if (node->is_array() && !p.empty() && p.find_first_not_of("0123456789") == std::string::npos &&
             std::stoul(p) < node->size())
      node = &(*node)[std::stoul(p)];
    else return nullptr;
  }
  return node;
}

// `actual` against the value as the page writes it: with `+- TOL` (or `+- TOL%`) within that,
// else equal once rounded to the decimals written ("42" for 42.3, "0.387" for 0.38712).
bool matches(double actual, const std::string& written) {
  static const std::regex form(R"(^(-?[0-9.]+)(?:\s*\+-\s*([0-9.]+)(%?))?$)");
  std::smatch m;
  if (!std::regex_match(written, m, form)) return false;
  const double expected = std::stod(m[1]);
  if (m[2].matched) {
    const double tol = std::stod(m[2]) * (m[3].length() ? std::abs(expected) / 100 : 1);
    return std::abs(actual - expected) <= tol;
  }
  const std::string digits = m[1];
  const auto dot = digits.find('.');
  const double scale = std::pow(10.0, dot == std::string::npos ? 0 : digits.size() - dot - 1);
  return std::round(actual * scale) == std::round(expected * scale);
}

void check(const Claim& c, const std::string& dir) {
  INFO(c.page << ":" << c.line << ": collnoc " << c.command);
  std::string args = c.command;
  const bool run = args.rfind("run", 0) == 0;
  std::string json_path;
  if (run && args.find("--out ") == std::string::npos && c.output.empty()) {
    json_path = dir + "/claim.json";
    args += " --quiet --out " + json_path;
  } else if (run) {
    const auto at_out = args.find("--out ") + 6;
    json_path = dir + "/" + args.substr(at_out, args.find(' ', at_out) - at_out);
  }
  if (!json_path.empty()) fs::remove(json_path);  // (a file an earlier claim wrote)
  const Result r = run_shell("cd " + dir + " && " + COLLNOC_BINARY + " " + args + " 2>/dev/null");
  INFO(r.output);
  REQUIRE(r.status == 0);

  if (!c.output.empty()) {  // the lines shown, in order, among the lines printed
    std::istringstream printed(r.output);
    std::string line;
    for (const std::string& shown : c.output) {
      bool found = false;
      while (!found && std::getline(printed, line)) found = line == shown;
      INFO("shown: " << shown);
      CHECK(found);
    }
    return;
  }
  nlohmann::json results;
  if (!json_path.empty()) results = read_json(json_path);
  else if (args.find("--json") != std::string::npos) results = nlohmann::json::parse(r.output);
  for (const std::string& a : c.assertions) {
    INFO("claim: " << a);
    if (a.rfind("output contains ", 0) == 0) {
      CHECK(r.output.find(a.substr(16)) != std::string::npos);
      continue;
    }
    const auto eq = a.find(" = ");
    REQUIRE(eq != std::string::npos);
    const std::string key = a.substr(0, eq), written = a.substr(eq + 3);
    static const std::regex file_size(R"(^file (\S+) bytes$)");
    std::smatch m;
    if (std::regex_match(key, m, file_size)) {
      const std::string file = dir + "/" + m[1].str();
      REQUIRE(fs::exists(file));
      CHECK(matches(static_cast<double>(fs::file_size(file)), written));
      continue;
    }
    const nlohmann::json* v = at(results, key);
    REQUIRE(v != nullptr);
    INFO("actual: " << v->dump());
    if (v->is_boolean()) CHECK(v->dump() == written);
    else if (v->is_string()) CHECK(v->get<std::string>() == written);
    else CHECK((v->is_number() && matches(v->get<double>(), written)));
  }
}

}  // namespace

TEST_CASE("docs: every number a page marks as checked is what the program gives", "[docs]") {
  std::vector<std::string> pages{"README.md", "waves/README.md"};
  for (const auto& e : fs::directory_iterator(std::string(COLLNOC_SOURCE_DIR) + "/docs"))
    if (e.path().extension() == ".md") pages.push_back("docs/" + e.path().filename().string());
  const std::string dir = temp_path("docs");
  fs::create_directories(dir);
  fs::create_directory_symlink(std::string(COLLNOC_SOURCE_DIR) + "/configs", dir + "/configs");
  std::size_t claims = 0;
  for (const std::string& page : pages)
    for (const Claim& c : claims_of(page)) {
      check(c, dir);
      ++claims;
    }
  CHECK(claims >= 10);  // the format is found: the pages do mark claims
}
