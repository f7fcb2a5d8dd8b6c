// Energy estimates (docs/energy.md): the events of one packet counted by hand give exactly the
// table's sum; energy is linear in the coefficients; an idle network only leaks, routers x
// cycles x a router's leakage; bad tables are refused naming the entry; runs repeat exactly.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>

#include "cli_support.hpp"
#include "support.hpp"

using namespace collnoc;

namespace {

const std::string kTable45 = std::string(COLLNOC_SOURCE_DIR) + "/configs/power/45nm.yaml";

// Every coefficient a distinct power of two (sums stay exact in binary).
PowerTable distinct_table() {
  PowerTable t;
  double v = 1.0 / 1024;
  for (const PowerCoefficient& c : power_coefficients()) t.*(c.field) = (v *= 2);
  return t;
}

// The 45 nm table with every value multiplied by `factor` (or one line replaced).
std::string write_table(const std::string& name, double factor, const std::string& from = "",
                        const std::string& to = "") {
  std::ifstream in(kTable45);
  std::ofstream out(test::temp_path(name));
  const std::regex value(R"(value: ([0-9.]+))");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, value))
      line = m.prefix().str() + "value: " + std::to_string(std::stod(m[1]) * factor) + m.suffix().str();
    if (!from.empty() && line.rfind(from, 0) == 0) line = to;
    out << line << "\n";
  }
  return test::temp_path(name);
}

double number(const nlohmann::json& j, const std::string& group, const std::string& key) {
  return j.at("energy").at(group).at(key).get<double>();
}

}  // namespace

TEST_CASE("energy: one packet over a 2x2 mesh, its events counted by hand", "[energy]") {
  SystemParams sp;  // 4 VCs of 4 flits, 128-bit flits (4 words), dimension order X first
  auto sys = test::build("mesh", {2, 2}, sp);
  // Node 0 (router 0) sends 32 words to node 3 (router 3): one packet of N = 32 / 4 = 8 flits,
  // along router 0 -> E -> router 1 -> N -> router 3 -> its NI.
  test::ScriptedFirmware fw({{10, 0, 3, 32}});
  sys->attach_firmware(fw);
  RunParams run;
  run.progress = false;
  run.energy.table_file = "hand";
  run.energy.table = distinct_table();
  run.energy.tile_pitch_mm = 1.5;
  const RunOutcome out = Simulation(*sys, run, &fw).run();
  test::require_conserved(out);
  const Report& r = out.report;
  const std::uint64_t n = 8, routers_on_path = 3, links_on_path = 2;
  REQUIRE(test::get<std::uint64_t>(r, "flits.injected") == n);
  const auto events = [&](const std::string& k) { return test::get<std::uint64_t>(r, "energy.events." + k); };
  CHECK(events("buffer_writes") == routers_on_path * n);
  CHECK(events("buffer_reads") == routers_on_path * n);
  CHECK(events("route_computations") == routers_on_path);
  CHECK(events("vc_allocations") == routers_on_path);
  CHECK(events("switch_allocations") == routers_on_path * n);
  CHECK(events("crossbar_traversals") == routers_on_path * n);
  CHECK(events("link_traversals") == links_on_path * n);
  CHECK(events("ni_flits_packetized") == n);
  CHECK(events("ni_flits_ejected") == n);
  CHECK(events("xor_words") + events("codec_words_in") + events("mpb_words_read") +
            events("deadlock_queue_moves") + events("static_switch_hops") == 0);

  const PowerTable c = distinct_table();
  const double bits = 128, mm = 1.5;
  const double per_flit_hop = bits * (c.buffer_write_pj_per_bit + c.buffer_read_pj_per_bit +
                                      c.crossbar_pj_per_bit) + c.switch_allocation_pj;
  const double per_packet_hop = c.route_computation_pj + c.vc_allocation_pj;
  const double dynamic = routers_on_path * (n * per_flit_hop + per_packet_hop) +
                         links_on_path * n * bits * mm * c.link_pj_per_bit_mm +
                         n * bits * (c.ni_packetize_pj_per_bit + c.ni_eject_pj_per_bit);
  CHECK(test::get<double>(r, "energy.dynamic_pj") == Approx(dynamic).epsilon(1e-12));
  // Every router of a 2x2 mesh has 3 connected ports (2 links, 1 NI), each with 4 x 4 flits.
  const double cycles = static_cast<double>(test::get<std::uint64_t>(r, "sim.cycles"));
  const double router_mw = 3 * c.router_port_leakage_mw + 3 * 4 * 4 * bits * c.buffer_leakage_nw_per_bit * 1e-6;
  CHECK(test::get<double>(r, "energy.leakage_pj") == Approx(4 * cycles * router_mw).epsilon(1e-12));
  CHECK(test::get<double>(r, "energy.total_pj") ==
        Approx(dynamic + 4 * cycles * router_mw).epsilon(1e-12));
  CHECK(test::get<double>(r, "energy.per_flit_pj") ==
        Approx(test::get<double>(r, "energy.total_pj") / n).epsilon(1e-12));
  // The link rows: router 0's E link and router 1's N link carried the packet.
  double links = 0;
  for (const auto& [key, rows] : r.lists())
    if (key == "links")
      for (const Report& row : rows) links += std::get<double>(*row.find("energy_pj"));
  CHECK(links == Approx(links_on_path * n * bits * mm * c.link_pj_per_bit_mm).epsilon(1e-12));
}

TEST_CASE("energy: doubling every coefficient doubles the energy", "[energy]") {
  const std::string run = "--set topology.k=4 --set traffic.injection_rate=0.2 "
                          "--set sim.warmup_cycles=200 --set sim.measure_cycles=1000 --set power.table=";
  const auto once = test::run_json(run + kTable45, "once");
  const auto twice = test::run_json(run + write_table("double.yaml", 2.0), "twice");
  CHECK(number(once, "events", "buffer_writes") > 0);
  for (const char* key : {"dynamic_pj", "leakage_pj", "total_pj"})
    CHECK(twice["energy"][key].get<double>() == Approx(2 * once["energy"][key].get<double>()).epsilon(1e-9));
  for (const auto& [name, value] : once["energy"]["by_component"].items())
    CHECK(twice["energy"]["by_component"][name].get<double>() ==
          Approx(2 * value.get<double>()).epsilon(1e-9));
}

TEST_CASE("energy: an idle torus only leaks, routers x cycles x a router's leakage", "[energy]") {
  const auto j = test::run_json("--set topology.kind=torus --set topology.k=4 "
                                "--set traffic.injection_rate=0 --set sim.warmup_cycles=100 "
                                "--set sim.measure_cycles=1000 --set sim.clock_period_ns=0.5 "
                                "--set power.table=" + kTable45, "idle");
  CHECK(j["energy"]["dynamic_pj"].get<double>() == 0.0);
  // 45nm.yaml: 1.04 mW per port and 2370 nW per buffer bit; 5 ports of 4 VCs x 4 flits x 128 bits.
  const double router_mw = 5 * 1.04 + 5 * 4 * 4 * 128 * 2370e-6;
  const double cycles = j["sim"]["cycles"].get<double>();
  CHECK(j["energy"]["leakage_pj"].get<double>() == Approx(16 * cycles * 0.5 * router_mw));
  CHECK(j["energy"]["total_pj"].get<double>() == j["energy"]["leakage_pj"].get<double>());
  CHECK(j["energy"]["average_power_mw"].get<double>() == Approx(16 * router_mw));
}

TEST_CASE("energy: bad tables are refused naming the file and the entry", "[energy]") {
  struct Bad {
    std::string name, from, to, message;
  };
  const std::vector<Bad> cases{
      {"unit.yaml", "link:", "link: {value: 0.04, unit: pJ/bit}",
       "entry link: unit pJ/bit, expected pJ/bit/mm"},
      {"unknown.yaml", "xor:", "xor_gate: {value: 0.1, unit: pJ/bit}", "entry xor_gate: unknown entry"},
      {"missing.yaml", "crossbar:", "", "entry crossbar is missing"},
      {"negative.yaml", "mpb_read:", "mpb_read: {value: -1, unit: pJ/word}",
       "entry mpb_read: value -1: a finite number >= 0 is expected"},
      {"form.yaml", "vc_allocation:", "vc_allocation: 0.2", "entry vc_allocation: expected {value: X, unit: pJ}"},
  };
  for (const Bad& b : cases) {
    const std::string file = write_table(b.name, 1.0, b.from, b.to);
    const test::Result r = test::run_collnoc("run --check --set power.table=" + file);
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK(r.output.find("power.table = " + file + ": " + b.message) != std::string::npos);
  }
}

TEST_CASE("energy: the same configuration gives the same energy, bit for bit", "[energy]") {
  const std::string run = "--set topology.kind=torus --set topology.k=4 "
                          "--set traffic.injection_rate=0.3 --set sim.warmup_cycles=200 "
                          "--set sim.measure_cycles=1000 --set sim.threads=2 --set power.table=" + kTable45;
  const auto a = test::run_json(run, "a"), b = test::run_json(run, "b");
  CHECK(a["energy"].dump() == b["energy"].dump());
  CHECK(a["links"].dump() == b["links"].dump());
  CHECK(a["energy"]["by_component"]["link_pj"].get<double>() > 0);
}
