// The mesh collectives as a user runs them: results on tilepro (bad input: bad_input.table).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

using collnoc::test::Result;
using collnoc::test::run_collnoc;
using collnoc::test::temp_path;

namespace {
const std::string kTilePro =
    "run --quiet --set platform=tilepro --set workload.kind=collective ";
}

TEST_CASE("cli: a tilepro allreduce on the default 7x7 grid writes the collective keys", "[cli]") {
  const std::string out = temp_path("allreduce.json");
  Result r = run_collnoc(kTilePro + "--set workload.collective=allreduce --out " + out);
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::ifstream in(out);
  const auto j = nlohmann::json::parse(in);
  CHECK(j["collective"]["algorithm"] == "reduce_broadcast");
  CHECK(j["collective"]["grid"] == "7x7");
  CHECK(j["collective"]["data_verified"] == true);
  CHECK(j["collective"]["per_core_cycles"].size() == 49);
  CHECK(j["contention_events_links"] == 0);
  CHECK(j["sim"]["topology"] == "8x8 mesh");
  // 700 MHz: a cycle is 1/700 us.
  CHECK(j["collective"]["execution_us"].get<double>() ==
        Approx(j["collective"]["execution_cycles"].get<double>() / 700.0));
}

// workload.algorithm = hta makes the platform build HTA routers: the root's one multicast
// reaches the 63 other cores of the 8x8 mesh (63 headers and 8 data flits fit a VC of 72).
TEST_CASE("cli: broadcast hta builds HTA routers and multicasts to every core", "[cli]") {
  const auto j = collnoc::test::run_json(
      "--set workload.kind=collective --set workload.collective=broadcast "
      "--set workload.algorithm=hta --set router.vc_classes=2 --set router.buffer_flits=72",
      "broadcast_hta");
  CHECK(j["collective"]["data_verified"] == true);
  CHECK(j["collective"]["multicasts"] == 1);
  CHECK(j["collective"]["messages_checked"] == 64);
  CHECK(j["multicast"]["copies_delivered"] == 63);
  CHECK(j["multicast"]["copies_verified"] == 63);
  CHECK(j["hta"]["headers_consumed"] == 63);
}

TEST_CASE("cli: an scc allreduce runs on its 48 cores at 1066 MHz", "[cli]") {
  const std::string out = temp_path("scc.json");
  Result r = run_collnoc("run --quiet --set platform=scc --set workload.kind=collective "
                         "--set workload.collective=allreduce "
                         "--set workload.algorithm=recursive_doubling --out " + out);
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::ifstream in(out);
  const auto j = nlohmann::json::parse(in);
  CHECK(j["collective"]["data_verified"] == true);
  CHECK(j["collective"]["per_core_cycles"].size() == 48);
  CHECK(j["sim"]["topology"] == "6x4 mesh");
  CHECK(j["collective"]["execution_us"].get<double>() ==
        Approx(j["collective"]["execution_cycles"].get<double>() / 1066.0));
  // The nocmsg set, two cores per tile: rounds over the tiles, tile mates over the local ports.
  const std::string nocmsg = temp_path("scc_nocmsg.json");
  Result tiles = run_collnoc("run --quiet --set platform=scc --set workload.kind=collective "
                             "--set workload.collective=reduce --set workload.root=5 --out " + nocmsg);
  INFO(tiles.output);
  REQUIRE(tiles.status == 0);
  std::ifstream in2(nocmsg);
  const auto k = nlohmann::json::parse(in2);
  CHECK(k["collective"]["data_verified"] == true);
  CHECK(k["contention_events_links"] == 0);
  CHECK(k["contention_by_round"].size() == 1);  // all up the tree
}

TEST_CASE("cli: tilepro waves show UDN and SN links and each core's round", "[cli]") {
  const std::string vcd = temp_path("a2a.vcd");
  Result r = run_collnoc(kTilePro + "--set workload.collective=alltoall --set workload.grid=3x3 "
                         "--trace-nodes 0,9 --vcd " + vcd + " --out " + temp_path("a2a.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::ifstream v(vcd), g(vcd + ".gtkw");
  std::stringstream vs, gs;
  vs << v.rdbuf();
  gs << g.rdbuf();
  for (const char* name : {"out_valid", "round", "sn_switch9", "out_valid_E", "route_input"}) {
    INFO(name);
    CHECK(vs.str().find(name) != std::string::npos);
    CHECK(gs.str().find(name) != std::string::npos);
  }
}
