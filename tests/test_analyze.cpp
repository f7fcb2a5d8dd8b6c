// `collnoc analyze codec` and `collnoc analyze zero-load` as a user runs them: real dumps through
// the codecs and the zero-load break-even (bad input: bad_input.table).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <sys/wait.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace {

using collnoc::test::Result;
using collnoc::test::temp_path;
using collnoc::test::run_collnoc;

// Runs a command that must succeed and print one JSON object on stdout.
nlohmann::json collnoc_json(const std::string& args) {
  const Result r = run_collnoc(args + " --json", false);
  INFO(args << "\n" << r.output);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.output);
}

// Little-endian 32-bit words, as a user's int32 dump (or a double dump, low word first) holds.
std::string write_words(const std::string& name, const std::vector<std::uint32_t>& words) {
  const std::string path = temp_path(name);
  std::ofstream out(path, std::ios::binary);
  for (std::uint32_t w : words)
    for (int b = 0; b < 4; ++b) out.put(static_cast<char>((w >> (8 * b)) & 0xFF));
  return path;
}

std::string write_doubles(const std::string& name, const std::vector<double>& values) {
  std::vector<std::uint32_t> words;
  for (double v : values) {
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    words.push_back(static_cast<std::uint32_t>(b));
    words.push_back(static_cast<std::uint32_t>(b >> 32));
  }
  return write_words(name, words);
}

// FPC's size of a word, counted the slow way from the SPEC 2.1 table.
unsigned fpc_bits_reference(std::uint32_t w) {
  unsigned zeros = 0;
  while (zeros < 32 && !(w & (0x80000000u >> zeros))) ++zeros;
  if (zeros >= 18) return 17;
  if (zeros >= 13) return 3 + (32 - zeros);
  return 35;
}

}  // namespace

TEST_CASE("analyze codec: small ints compress with fpc", "[analyze]") {
  std::mt19937 rng(1);
  std::vector<std::uint32_t> words(4096);
  for (auto& w : words) w = rng() % 1000;
  const nlohmann::json j = collnoc_json("analyze codec --codec fpc --type int32 " +
                                        write_words("small.bin", words));
  REQUIRE(j["codec"] == "fpc");
  REQUIRE(j["elements"] == 4096);
  REQUIRE(j["original_bits"] == 4096 * 32);
  REQUIRE(j["compressed_bits"] == 4096 * 17);
  REQUIRE(j["ratio"].get<double>() == Approx(32.0 / 17.0));
  REQUIRE(j["ratio"].get<double>() > 1.0);
  REQUIRE(j["max_relative_error"] == 0.0);
  REQUIRE(j["restored_exactly"] == true);
  REQUIRE(j["fpc_patterns"]["101"] == 4096);
  REQUIRE(j["fpc_patterns"]["111"] == 0);
  REQUIRE(j["fpc_patterns"].size() == 7);  // 110 is unused
}

TEST_CASE("analyze codec: random ints expand under fpc and restore exactly", "[analyze]") {
  std::mt19937 rng(2);
  std::vector<std::uint32_t> words(20000);
  for (std::size_t i = 0; i < words.size(); ++i)  // mostly random, a few of every zero run
    words[i] = i % 10 == 0 ? static_cast<std::uint32_t>(rng()) >> (i / 10 % 32)
                           : static_cast<std::uint32_t>(rng());
  std::uint64_t expected_bits = 0;
  std::uint64_t whole = 0;
  for (std::uint32_t w : words) {
    expected_bits += fpc_bits_reference(w);
    whole += fpc_bits_reference(w) == 35;
  }
  const nlohmann::json j = collnoc_json("analyze codec --codec fpc --type int32 " +
                                        write_words("random.bin", words));
  REQUIRE(j["compressed_bits"] == expected_bits);
  REQUIRE(j["ratio"].get<double>() < 1.0);
  REQUIRE(j["restored_exactly"] == true);
  REQUIRE(j["fpc_patterns"]["111"] == whole);
  std::uint64_t histogram_words = 0;
  for (const auto& [prefix, count] : j["fpc_patterns"].items())
    histogram_words += count.get<std::uint64_t>();
  REQUIRE(histogram_words == words.size());
}

TEST_CASE("analyze codec: lsb_cut error stays within its bound", "[analyze]") {
  std::vector<double> values;
  for (int i = 0; i < 5000; ++i) values.push_back(200.0 + 100.0 * std::sin(0.001 * i));
  const std::string path = write_doubles("smooth.bin", values);
  for (unsigned b : {1u, 28u, 52u}) {
    INFO("b = " << b);
    const nlohmann::json j = collnoc_json("analyze codec --codec lsb_cut --lsb-bits " +
                                          std::to_string(b) + " --type double " + path);
    const double bound = std::ldexp(1.0, static_cast<int>(b) - 53);
    REQUIRE(j["lsb_cut_bits"] == b);
    REQUIRE(j["compressed_bits"] == values.size() * (64 - b));
    REQUIRE(j["original_bits"] == values.size() * 64);
    REQUIRE(j["ratio"].get<double>() == Approx(64.0 / (64 - b)));
    REQUIRE(j["max_relative_error"].get<double>() <= bound);
    REQUIRE(j["max_relative_error"].get<double>() > bound / 4);
    REQUIRE(j["relative_error_bound_normal"].get<double>() == bound);
    REQUIRE_FALSE(j.contains("fpc_patterns"));
  }
  // The default cut is 28 bits; a complex dump is coded as its doubles.
  const nlohmann::json c = collnoc_json("analyze codec --codec lsb_cut --type complex " + path);
  REQUIRE(c["lsb_cut_bits"] == 28);
  REQUIRE(c["elements"] == values.size() / 2);
  REQUIRE(c["compressed_bits"] == values.size() * 36);
}

TEST_CASE("analyze codec: the human report names the figures", "[analyze]") {
  const std::string few = write_words("few.bin", {1, 2, 3, 1u << 20});
  const Result r = run_collnoc("analyze codec --codec fpc --type int32 " + few);
  INFO(r.output);
  REQUIRE(r.status == 0);
  for (const char* key : {"original_bits       128", "compressed_bits     86", "ratio",
                          "max_relative_error", "fpc_patterns", "restored_exactly    yes"})
    REQUIRE(r.output.find(key) != std::string::npos);
}

TEST_CASE("analyze zero-load: the break-even for D 100 and C 2 is 201 flits", "[analyze]") {
  const nlohmann::json j = collnoc_json("analyze zero-load");
  REQUIRE(j["hops"] == 6);
  REQUIRE(j["t_switch"] == 4);
  REQUIRE(j["t_link"] == 1);
  REQUIRE(j["codec_latency"] == 100);
  REQUIRE(j["ratio"] == 2.0);
  REQUIRE(j["break_even_flits"] == 201);  // L - L/2 > 100  <=>  L > 200
  bool saw_200 = false, saw_201 = false;
  for (const auto& row : j["table"]) {
    const double l = row["packet_flits"].get<double>();
    const double network = 1.0 * (6 + 1) + 4.0 * 6;
    REQUIRE(row["uncompressed_cycles"].get<double>() == network + l);
    REQUIRE(row["compressed_cycles"].get<double>() == network + l / 2 + 100);
    REQUIRE(row["compression_pays"] == (l >= 201));
    saw_200 |= l == 200;
    saw_201 |= l == 201;
  }
  REQUIRE(saw_200);
  REQUIRE(saw_201);
  REQUIRE(collnoc_json("analyze zero-load --ratio 3")["break_even_flits"] == 151);
  REQUIRE(collnoc_json("analyze zero-load --codec-latency 0")["break_even_flits"] == 1);
  REQUIRE(collnoc_json("analyze zero-load --codec-latency 10 --ratio 1.5")["break_even_flits"] ==
          31);  // L/3 > 10
  const Result human = run_collnoc("analyze zero-load");
  REQUIRE(human.status == 0);
  REQUIRE(human.output.find("break_even_flits = 201") != std::string::npos);
}
