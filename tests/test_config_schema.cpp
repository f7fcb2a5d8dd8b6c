// The configuration keys against the library: every key's default is what the library's
// parameter structs hold, and every range or enumeration the CLI's schema (sc_main/config.cpp)
// enforces is the one the library itself enforces (validate(), check_buildable()). No SystemC
// elaboration: check_buildable builds no module.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "sc_main/config.hpp"

namespace {

using namespace collnoc;
using namespace collnoc::cli;

// Sets `key` through the schema, as the program does.
void set(RunConfig& rc, const std::string& key, const ConfigValue& v) {
  const KeySpec* k = find_key(key);
  REQUIRE(k != nullptr);
  k->apply(rc, v);
}

// Keys checked together with another: the value of `key` under test is accepted only with it.
void set_companions(RunConfig& rc, const std::string& key, const ConfigValue& v) {
  // The check_buildable memory estimate is not what these tests are about (a run with the
  // longest link or packet would need more memory than the test machine has).
  if (key != "sim.max_memory_mb") rc.max_memory_mb = kU64Max;
  const auto* u = std::get_if<std::uint64_t>(&v);
  const auto* s = std::get_if<std::string>(&v);
  // 8 dimensions of the default k = 8 are 16M routers: the largest n is checked with k = 2.
  if (key == "topology.n") set(rc, "topology.k", std::vector<std::uint64_t>{2});
  // One-way links are a torus's (a mesh is refused with them).
  if (key == "topology.directions") set(rc, "topology.kind", std::string("torus"));
  // Variable packet lengths come as a pair (both 0, or min <= max, both set).
  if (key == "traffic.packet_flits_min" && u) set(rc, "traffic.packet_flits_max", *u);
  if (key == "traffic.packet_flits_max" && u)
    set(rc, "traffic.packet_flits_min", std::uint64_t{*u ? 1u : 0u});
  // Platforms and topology kinds that go together, with a routing function for them.
  if (s && ((key == "platform" && *s == "irregular") || (key == "topology.kind" && *s == "random"))) {
    set(rc, "platform", std::string("irregular"));
    set(rc, "topology.kind", std::string("random"));
    set(rc, "routing.algorithm", std::string("updown"));
  }
  if (s && ((key == "platform" || key == "topology.kind" || key == "routing.algorithm") &&
            *s == "hdn")) {
    set(rc, "platform", std::string("hdn"));
    set(rc, "topology.kind", std::string("hdn"));
    set(rc, "routing.algorithm", std::string("hdn"));
  }
  // A selection strategy needs a routing function with alternatives; table routing a table.
  if (key == "routing.selection") set(rc, "routing.algorithm", std::string("adaptive"));
  if (key == "routing.algorithm" && s && *s == "table") {
    set(rc, "topology.k", std::vector<std::uint64_t>{4});
    set(rc, "routing.table",
        std::string(COLLNOC_SOURCE_DIR) + "/configs/routing/mesh4x4_west_first.table");
  }
  // Multicast traffic needs routers that replicate: a class of VCs for it, VCs for a message.
  if (key == "traffic.multicast_fraction") {
    set(rc, "router.vcs", std::uint64_t{6});
    set(rc, "router.vc_classes", std::uint64_t{2});
    set(rc, "router.buffer_flits", std::uint64_t{64});
  }
  // A normalized load up to its maximum is at most 1 flit/node/cycle with enough demand per
  // flit: software multicast to every other node of a 16x16 mesh (100 x 0.25 / 255 < 1).
  if (key == "traffic.normalized_load") {
    set(rc, "topology.k", std::vector<std::uint64_t>{16});
    set(rc, "traffic.multicast_fraction", 1.0);
    set(rc, "traffic.multicast_scheme", std::string("software"));
    set(rc, "traffic.multicast_destinations_min", std::uint64_t{255});
    set(rc, "traffic.multicast_destinations_max", std::uint64_t{255});
  }
  // A collective workload names its collective.
  if (key == "workload.kind" && s && *s == "collective")
    set(rc, "workload.collective", std::string("barrier"));
  // A trace workload names its trace (a 4x4 mesh's).
  if ((key == "workload.kind" && s && *s == "trace") || key == "trace.file") {
    set(rc, "workload.kind", std::string("trace"));
    set(rc, "topology.k", std::vector<std::uint64_t>{4});
    set(rc, "trace.file",
        std::string(COLLNOC_SOURCE_DIR) + "/configs/traffic/request_reply.trace");
  }
}

// Bounds that depend on another key, so that no value of this one alone reaches them. Only the
// maximum of each is exempt; its minimum and everything outside the range are still checked.
struct Exemption {
  const char* key;
  const char* why;
};
const Exemption kMaxExempt[] = {
    {"router.vc_classes", "must divide router.vcs (at most 32)"},
    {"topology.k", "the network has at most 16M routers (and the memory for them)"},
    {"traffic.hotspot_nodes", "each must be below the node count"},
    {"sim.warmup_cycles", "warm-up + window + drain must be a cycle number below 2^64 - 1"},
    {"sim.measure_cycles", "warm-up + window + drain must be a cycle number below 2^64 - 1"},
    {"sim.max_drain_cycles", "warm-up + window + drain must be a cycle number below 2^64 - 1"},
};

bool max_exempt(const std::string& key) {
  for (const Exemption& e : kMaxExempt)
    if (key == e.key) return true;
  return false;
}

ConfigValue uint_value(const KeySpec& k, std::uint64_t v) {
  if (k.type == ValueType::uint) return v;
  return std::vector<std::uint64_t>{v};
}

// What the library says of `key` = `v` on a default configuration: "" if it accepts it, the
// key a ParamError names otherwise, or "(not representable)" when the library's field cannot
// hold the value at all (its type bounds it, as unsigned holds no 2^32).
std::string library_verdict(const KeySpec& k, const ConfigValue& v) {
  RunConfig rc;
  set_companions(rc, k.key, v);
  try {
    k.apply(rc, v);
  } catch (const InputError&) {
    return "(not representable)";
  }
  if (!(k.read(rc) == v)) return "(not representable)";
  try {
    derive_params(rc);
    check_buildable(rc);
  } catch (const ParamError& e) {
    return e.key() + " (" + e.what() + ")";
  }
  return "";
}

bool refused_naming(const std::string& verdict, const std::string& key) {
  return verdict == "(not representable)" || verdict.compare(0, key.size() + 2, key + " (") == 0;
}

}  // namespace

TEST_CASE("every uint key's range is the library's", "[config]") {
  for (const KeySpec& k : config_schema()) {
    if (k.type != ValueType::uint && k.type != ValueType::uint_or_list &&
        k.type != ValueType::uint_list)
      continue;
    const UintRange r = k.uint_range;
    INFO(k.key << " " << range_text(r));
    CHECK(library_verdict(k, uint_value(k, r.min)) == "");
    if (!max_exempt(k.key)) CHECK(library_verdict(k, uint_value(k, r.max)) == "");
    if (r.min > 0) CHECK(refused_naming(library_verdict(k, uint_value(k, r.min - 1)), k.key));
    if (r.max < kU64Max) CHECK(refused_naming(library_verdict(k, uint_value(k, r.max + 1)), k.key));
  }
}

TEST_CASE("every real key's range is the library's", "[config]") {
  constexpr double inf = std::numeric_limits<double>::infinity();
  for (const KeySpec& k : config_schema()) {
    if (k.type != ValueType::double_) continue;
    REQUIRE(k.real_bounded);
    const RealRange r = k.real_range;
    INFO(k.key << " " << range_text(r));
    const double below = r.min_open ? r.min : std::nextafter(r.min, -inf);
    const double lowest = r.min_open ? std::nextafter(r.min, inf) : r.min;
    CHECK(library_verdict(k, lowest) == "");
    CHECK(library_verdict(k, r.max) == "");
    CHECK(refused_naming(library_verdict(k, below), k.key));
    CHECK(refused_naming(library_verdict(k, std::nextafter(r.max, inf)), k.key));
  }
}

TEST_CASE("every enumeration key's values are the library's", "[config]") {
  for (const KeySpec& k : config_schema()) {
    if (!k.allowed) continue;
    for (const std::string& name : k.allowed()) {
      INFO(k.key << " = " << name);
      CHECK(library_verdict(k, name) == "");
    }
    INFO(k.key << " = no_such_value");
    CHECK(refused_naming(library_verdict(k, std::string("no_such_value")), k.key));
  }
}

TEST_CASE("every key's default is the library's default", "[config]") {
  const RunConfig library;  // the parameter structs' own defaults
  RunConfig from_cli = Config().to_run_config();
  for (const KeySpec& k : config_schema()) {
    INFO(k.key << ": schema " << format_value(k.default_value) << ", library "
                << format_value(k.read(library)));
    CHECK(k.default_value == k.read(library));
    // The defaults the program applies leave the library's values (a literal default in the
    // schema that differs from the struct's would show here).
    CHECK(k.read(from_cli) == k.read(library));
  }
}

TEST_CASE("each key's apply and read address one field of its own", "[config]") {
  const auto& schema = config_schema();
  for (const KeySpec& k : schema) {
    // A value other than the default, of the key's type.
    ConfigValue other;
    if (k.empty_allowed)  // (default: empty)
      other = k.type == ValueType::bool_ ? ConfigValue(true) : ConfigValue(k.real_range.max);
    else if (const auto* u = std::get_if<std::uint64_t>(&k.default_value))
      other = *u == k.uint_range.min ? k.uint_range.min + 1 : k.uint_range.min;
    else if (const auto* l = std::get_if<std::vector<std::uint64_t>>(&k.default_value))
      other = std::vector<std::uint64_t>{l->front() + 1, l->front() + 2};
    else if (const auto* d = std::get_if<double>(&k.default_value))
      other = *d == k.real_range.max ? *d / 2 : k.real_range.max;
    else if (const auto* b = std::get_if<bool>(&k.default_value))
      other = !*b;
    else if (k.allowed && k.allowed().size() > 1)
      other = k.allowed()[std::get<std::string>(k.default_value) == k.allowed()[0] ? 1 : 0];
    else
      other = std::get<std::string>(k.default_value) + "x";
    INFO(k.key << " = " << format_value(other));
    RunConfig rc;
    k.apply(rc, other);
    CHECK(k.read(rc) == other);
    for (const KeySpec& j : schema)
      if (&j != &k) CHECK((j.key + " " + format_value(j.read(rc))) ==
                          (j.key + " " + format_value(j.default_value)));
  }
}
