// All-to-all broadcast (SPEC 3.2) and the NI's XOR path: the analytic unicast and hop counts
// equal those the simulator measures, for every scheme, on 4x4, 8x8 and 16x16 meshes; every node
// ends with every datum bit-exact; a coded packet costs exactly the XOR latency more than a plain
// one (plans that cannot run: bad_input.table).
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "collectives/all_to_all_hops.hpp"
#include "support.hpp"
#include "noc/topology/kary_ncube.hpp"

using namespace collnoc;
using test::run_collnoc;
using test::temp_path;

namespace {

AllToAllParams params(const std::string& scheme, const std::string& base, const std::string& group,
                      const std::string& variant = "intermediate", unsigned sources = 0) {
  AllToAllParams p;
  p.scheme = scheme;
  p.base = base;
  p.group = group;
  p.variant = variant;
  p.sources = sources;
  return p;
}

struct Case {
  std::string scheme, base, group, variant = "intermediate";
  unsigned sources = 0;
  std::string subgroup = "auto";
  std::string more = "";  // further --set options
};

// Simulates `c` on a k x k mesh with the study's defaults and compares with the calculator.
void simulate_and_compare(unsigned k, const Case& c, const std::string& topology = "mesh") {
  const std::string out = temp_path("a2a.json");
  std::remove(out.c_str());
  const std::string args =
      "run -q " + std::string(COLLNOC_SOURCE_DIR) + "/configs/network_coding/mesh8x8.yaml" +
      " --set topology.kind=" + topology + " --set topology.k=" + std::to_string(k) +
      " --set workload.scheme=" + c.scheme + " --set workload.base=" + c.base +
      " --set workload.group=" + c.group + " --set workload.variant=" + c.variant +
      " --set workload.subgroup=" + c.subgroup + " --set workload.sources=" +
      std::to_string(c.sources) + (topology == "torus" ? " --set router.vcs=8" : "") + " " +
      c.more + " --out " + out;
  INFO(args);
  const test::Result r = run_collnoc(args);
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::ifstream in(out);
  const nlohmann::json j = nlohmann::json::parse(in);
  const nlohmann::json& col = j["collective"];
  CHECK(col["data_verified"] == true);
  CHECK(col["messages_checked"] == k * k * (c.sources ? c.sources : k * k));

  AllToAllParams p = params(c.scheme, c.base, c.group, c.variant, c.sources);
  p.subgroup = c.subgroup;
  const KaryNCube topo({k, k}, topology == "torus");
  const A2aCount analytic = count_unicasts(AllToAllPlan(topo, p));
  CHECK(col["unicasts"] == analytic.unicasts);
  CHECK(col["aggregate_hops"] == analytic.hops);
  // The firmware's count of XOR operations is the engines' own.
  CHECK(col["xor_operations"] == j["nc"]["xor_operations"]);
  if (c.scheme == "hierarchical_nc") CHECK(col["xor_operations"].get<std::uint64_t>() > 0);
  else CHECK(col["xor_operations"] == 0);
  if (c.variant == "recursive") CHECK(col["subgroup_shape"] == c.subgroup);
  else CHECK_FALSE(col.contains("subgroup_shape"));
  // The steps add up: their unicasts are the collective's, the decodes the XOR operations that
  // are not coding; each step runs between its first hand-over and its last arrival.
  std::uint64_t unicasts = 0, decodes = 0;
  for (const nlohmann::json& s : col["steps"]) {
    INFO(s.dump());
    const auto start = s["start_cycle"].get<std::uint64_t>();
    const auto end = s["end_cycle"].get<std::uint64_t>();
    CHECK(start <= end);
    CHECK(s["max_latency_cycles"].get<std::uint64_t>() <= end - start);
    CHECK(end <= col["completion_cycles"].get<double>());
    unicasts += s["unicasts"].get<std::uint64_t>();
    if (s["step"] == 7) {
      CHECK(s["unicasts"] == 0);
      decodes += s["xor_operations"].get<std::uint64_t>();
      continue;
    }
    // A combined message travels as its packets (mesh8x8.yaml: 4-flit packets, 1-flit data).
    const bool combined = c.scheme == "combining" && (s["step"] == 4 || s["step"] == 5);
    const std::uint64_t pieces = combined ? (col["group_size"].get<std::uint64_t>() + 3) / 4 : 1;
    CHECK(s["packets"] == s["unicasts"].get<std::uint64_t>() * pieces);
  }
  CHECK(unicasts == col["unicasts"]);
  CHECK(decodes + col["xor_coding_operations"].get<std::uint64_t>() == col["xor_operations"]);
}

}  // namespace

TEST_CASE("all-to-all closed forms equal a walk over every unicast of the plan", "[a2a]") {
  for (const bool torus : {false, true})
    for (const std::vector<unsigned>& k : {std::vector<unsigned>{4, 4}, {8, 8}, {8, 4}, {6, 6}}) {
      const KaryNCube topo(k, torus);
      for (const char* base : {"tree", "all_at_once"})
        for (const char* group : {"2x2", "auto", "4x2", "2x1"}) {
          const std::string g = group;  // skip the shapes that do not tile this network
          if (g != "auto" && (k[0] % (g[0] - '0') || k[1] % (g[2] - '0'))) continue;
          for (const char* scheme : {"plain", "hierarchical_nc", "combining"}) {
            INFO(topo.describe() << " " << base << " " << group << " " << scheme);
            const AllToAllPlan plan(topo, params(scheme, base, group));
            CHECK(count_unicasts(plan) == count_unicasts_by_walking(plan));
          }
          for (const char* variant : {"every_node", "recursive"}) {
            AllToAllParams p = params("hierarchical_nc", base, group, variant);
            p.intermediate = "corner";
            if (std::string(variant) == "recursive") {
              if (std::string(group) == "2x1") continue;  // no subgroup fits 2 nodes
            }
            INFO(topo.describe() << " " << base << " " << group << " " << variant);
            const AllToAllPlan plan(topo, p);
            CHECK(count_unicasts(plan) == count_unicasts_by_walking(plan));
          }
        }
    }
}

TEST_CASE("all-to-all plan counts match the textbook figures", "[a2a]") {
  // Plain all-at-once on a k x k mesh: N(N-1) unicasts, and the pair distances sum to
  // 2 k^2 * (k^3 - k) / 3 (each dimension: k^2 pairs of rows times sum |i - j|).
  const unsigned k = 8, n = k * k;
  const KaryNCube mesh({k, k}, false);
  const A2aCount plain = count_unicasts(AllToAllPlan(mesh, params("plain", "all_at_once", "auto")));
  CHECK(plain.unicasts == n * (n - 1));
  CHECK(plain.hops == 2ull * k * k * (k * k * k - k) / 3);
  // The coded scheme sends as many unicasts as the plain one (SPEC 3.2), over fewer hops.
  const A2aCount coded =
      count_unicasts(AllToAllPlan(mesh, params("hierarchical_nc", "all_at_once", "4x2")));
  CHECK(coded.unicasts == plain.unicasts);
  CHECK(coded.hops < plain.hops);
  // Binomial tree: a datum still reaches N-1 nodes, by N-1 unicasts.
  CHECK(count_unicasts(AllToAllPlan(mesh, params("plain", "tree", "auto"))).unicasts == n * (n - 1));
}

TEST_CASE("all-to-all plan refuses groups that do not tile and bad sizes by name", "[a2a]") {
  const KaryNCube mesh({8, 8}, false);
  const auto refused = [&](const AllToAllParams& p, const std::string& key) {
    try {
      AllToAllPlan plan(mesh, p);
    } catch (const ParamError& e) {
      CHECK(e.key() == key);
      return;
    }
    FAIL("accepted " << p.group << " " << p.scheme << " " << p.base << " " << p.variant);
  };
  refused(params("hierarchical_nc", "tree", "3x2"), "workload.group");
  refused(params("hierarchical_nc", "tree", "1x1"), "workload.group");
  refused(params("hierarchical_nc", "tree", "8x8"), "workload.group");
  refused(params("hierarchical_nc", "tree", "4x2x2"), "workload.group");
  refused(params("hierarchical_nc", "tree", "4xq"), "workload.group");
  refused(params("hierarchical_nc", "ring", "4x2"), "workload.base");
  refused(params("hierarchical_nc", "tree", "4x2", "sideways"), "workload.variant");
  refused(params("combining", "tree", "4x2", "recursive"), "workload.variant");
  refused(params("hierarchical_nc", "tree", "4x2", "intermediate", 65), "workload.sources");
  refused(params("hierarchical_nc", "tree", "4x2", "intermediate", 1), "workload.sources");
  refused(params("broadcast_storm", "tree", "4x2"), "workload.scheme");
  AllToAllParams p = params("hierarchical_nc", "tree", "2x1", "recursive");
  refused(p, "workload.subgroup");  // a 2-node group has no subgroup of 2..1 nodes
}

TEST_CASE("all-to-all on a 4x4 mesh: simulated hops equal the calculator for every scheme", "[a2a]") {
  simulate_and_compare(4, {"plain", "tree", "2x2"});
  simulate_and_compare(4, {"hierarchical_nc", "tree", "2x2"});
  simulate_and_compare(4, {"hierarchical_nc", "all_at_once", "4x1", "every_node"});
  simulate_and_compare(4, {"combining", "all_at_once", "2x2"});
  simulate_and_compare(4, {"hierarchical_nc", "tree", "2x2", "intermediate", 5});  // many-to-all
}

TEST_CASE("all-to-all on an 8x8 mesh: simulated hops equal the calculator for every scheme", "[a2a]") {
  simulate_and_compare(8, {"plain", "all_at_once", "4x2"});
  simulate_and_compare(8, {"hierarchical_nc", "tree", "4x2"});
  simulate_and_compare(8, {"hierarchical_nc", "tree", "4x2", "every_node"});
  simulate_and_compare(8, {"hierarchical_nc", "tree", "4x4", "recursive", 0, "2x2"});
  simulate_and_compare(8, {"combining", "tree", "4x2"});
  simulate_and_compare(8, {"hierarchical_nc", "all_at_once", "2x4", "intermediate", 12});
}

// Tree decoding and an unpipelined engine change when data are decoded, not what is sent:
// the same unicasts and hops, every datum bit-exact.
TEST_CASE("all-to-all on an 8x8 mesh: tree decoding and an unpipelined XOR engine", "[a2a]") {
  simulate_and_compare(8, {"hierarchical_nc", "tree", "4x2", "intermediate", 0, "auto",
                           "--set workload.decoding=tree --set nc.xor_latency_cycles=9"});
  simulate_and_compare(8, {"hierarchical_nc", "tree", "4x4", "recursive", 0, "2x2",
                           "--set workload.decoding=tree"});
  simulate_and_compare(8, {"hierarchical_nc", "tree", "8x2", "intermediate", 0, "auto",
                           "--set nc.xor_pipelined=false --set nc.xor_latency_cycles=5"});
  simulate_and_compare(8, {"hierarchical_nc", "tree", "4x2", "intermediate", 21, "auto",
                           "--set workload.decoding=tree --set nc.xor_pipelined=false"});
}

TEST_CASE("all-to-all on a 16x16 mesh: simulated hops equal the calculator for every scheme", "[a2a]") {
  simulate_and_compare(16, {"plain", "tree", "4x4"});
  simulate_and_compare(16, {"hierarchical_nc", "all_at_once", "4x4"});
  simulate_and_compare(16, {"combining", "tree", "8x4"});
}

TEST_CASE("all-to-all on an 8x8 torus: dateline VCs per step and many-to-all", "[a2a]") {
  simulate_and_compare(8, {"hierarchical_nc", "tree", "4x4", "intermediate", 7}, "torus");
  simulate_and_compare(8, {"plain", "all_at_once", "4x4"}, "torus");
}

// Core 0 sends a plain and then a coded packet to core 15 (6 hops); core 15 decodes, once, then
// three pairs handed over back to back.
namespace {

constexpr unsigned kProbeLatency = 7;
class XorProbe : public Firmware {
 public:
  void run(MessageLayer& ml) override {
    const Words a{1, 2, 3, 4}, b{0xf0f0f0f0u, 0, 0xffffffffu, 5};
    if (ml.rank() == 0) {
      SendOptions opt;
      opt.kind = 4;
      opt.tag = 77;
      ml.send(15, a, opt);
      ml.compute(200);  // the plain one is long delivered
      ml.send_coded({15}, a, b, opt);
    } else if (ml.rank() == 15) {
      const Message plain = ml.recv_any();
      plain_cycles = plain.arrival_cycle - plain.sent_cycle;
      const Message coded = ml.recv_any();
      SendOptions opt;
      opt.tag = 77;
      coded_cycles = coded.arrival_cycle - coded.sent_cycle;
      hops = coded.hops;
      tag = coded.tag;
      const Cycle before = ml.now();  // decoding comes back as a message from myself
      ml.xor_words(coded.words, b, opt);
      const Message d = ml.recv_any();
      decoded = d.words;
      decode_cycles = ml.now() - before;
      ok_batch = d.src == 15 && d.tag == 77;
      const Cycle batch_start = ml.now();  // three pairs handed over on consecutive cycles
      ml.xor_words(coded.words, b, opt);
      ml.xor_words(coded.words, a, opt);
      ml.xor_words(a, a, opt);
      ok_batch = ok_batch && ml.recv_any().words == a && ml.recv_any().words == b &&
                 ml.recv_any().words == Words(4, 0);
      batch_cycles = ml.now() - batch_start;
      ok = ok_batch && plain.words == a &&
           coded.words == Words{1 ^ 0xf0f0f0f0u, 2, 3 ^ 0xffffffffu, 4 ^ 5};
    }
  }
  void report(Report&) const override {}
  bool data_verified() const override { return ok && decoded == Words{1, 2, 3, 4}; }
  Cycle plain_cycles = 0, coded_cycles = 0, decode_cycles = 0, batch_cycles = 0;
  bool ok_batch = false;
  unsigned hops = 0;
  std::uint32_t tag = 0;
  bool ok = false;
  Words decoded;
};

void run_probe(XorProbe& fw, bool pipelined) {
  SystemParams sp;
  sp.ni.xor_engine.xor_latency_cycles = kProbeLatency;
  sp.ni.xor_engine.xor_pipelined = pipelined;
  auto sys = test::build("mesh", {4, 4}, sp);
  const RunOutcome out = test::run_firmware(*sys, fw, 2000);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(fw.data_verified());
  CHECK(fw.coded_cycles == fw.plain_cycles + kProbeLatency);
  CHECK(fw.plain_cycles == 1 + 22 + 1);  // send overhead + zero-load over 6 hops + register
  CHECK(fw.hops == 6);
  CHECK(fw.tag == 77);
  CHECK(fw.decode_cycles == 1 + kProbeLatency + 1 + 1);  // hand over, engine, register, take
  CHECK(test::get<std::uint64_t>(out.report, "nc.xor_operations") == 5);
}

}  // namespace

// The coded packet is ready exactly L cycles after the plain one would be; decoding costs the
// core send overhead + L + receive overhead; pipelined pairs follow one cycle apart.
TEST_CASE("a coded packet arrives the XOR latency later and decodes bit-exact", "[a2a]") {
  XorProbe fw;
  run_probe(fw, true);
  CHECK(fw.batch_cycles == 3 + kProbeLatency + 1 + 1);  // the last pair goes in 2 cycles later
}

// nc.xor_pipelined = false: the NI's engine takes the next pair only L cycles after the last,
// so three pairs handed over back to back finish 3 L after the first went in.
TEST_CASE("an unpipelined XOR engine at the NI spaces decodes L cycles apart", "[a2a]") {
  XorProbe fw;
  run_probe(fw, false);
  CHECK(fw.batch_cycles == 1 + 3 * kProbeLatency + 1 + 1);
}

TEST_CASE("collnoc analyze nc prints the documented keys and finds the best group", "[a2a]") {
  const test::Result r = run_collnoc("analyze nc --k 16 --group best --base all_at_once --json", false);
  REQUIRE(r.status == 0);
  const nlohmann::json j = nlohmann::json::parse(r.output);
  for (const char* key : {"group_size", "group_shape", "reduction"}) CHECK(j.contains(key));
  const KaryNCube mesh({16, 16}, false);
  const A2aCount plain = count_unicasts(AllToAllPlan(mesh, params("plain", "all_at_once", "auto")));
  CHECK(j["plain"]["unicasts"] == plain.unicasts);
  CHECK(j["plain"]["aggregate_hops"] == plain.hops);
  std::uint64_t best = ~0ull;
  for (const auto& c : j["candidates"]) best = std::min(best, c["coded_aggregate_hops"].get<std::uint64_t>());
  CHECK(j["coded"]["aggregate_hops"] == best);
  CHECK(j["candidates"].size() == 23u);  // 5 x 5 divisor pairs of 16, less 1x1 and 16x16
  CHECK(j["reduction"].get<double>() > 0.5);
}
