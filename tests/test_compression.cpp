// Compression at the NI: real bits through the codecs, end to end, with the policies and size
// modes, the latency charged for the codec, and throughput counted at the offered size.
#include <catch2/catch.hpp>

#include "ni/lsb_cut_codec.hpp"
#include "noc/zero_load.hpp"
#include "support.hpp"

using namespace collnoc;

namespace {

using test::get;

RunOutcome run_synthetic(const std::string& policy, const std::string& payload,
                         CompressedSize mode = CompressedSize::real, double rate = 0.05) {
  SystemParams sp;
  sp.ni.compression.policy = policy;
  sp.ni.compression.size_mode = mode;
  sp.ni.compression.codec_latency_cycles = 20;
  sp.ni.max_packet_flits = 16;
  auto sys = test::build("mesh", {4, 4}, sp);
  TrafficParams tp;
  tp.injection_rate = rate;
  tp.packet_flits = 16;
  tp.payload = payload;
  return test::run_traffic(*sys, tp, 500, 4000);
}

}  // namespace

TEST_CASE("always-compression of small integers: fewer network flits and every word intact",
          "[compression]") {
  RunOutcome out = run_synthetic("always", "small_ints");
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);  // a payload word altered on the way would be data_error
  CHECK(get<double>(out.report, "compression.share") == Approx(1.0));
  // 10-bit values: 17 bits each under FPC instead of 32, 64 words -> 1088 bits -> 9 flits of 128
  CHECK(get<double>(out.report, "compression.ratio") == Approx(32.0 / 17.0));
  const double app = get<double>(out.report, "throughput.accepted_flits_per_node_cycle");
  const double net = get<double>(out.report, "throughput.accepted_network_flits_per_node_cycle");
  CHECK(app == Approx(0.05).epsilon(0.1));
  CHECK(net == Approx(app * 9.0 / 16.0).epsilon(0.02));
  CHECK(get<std::uint64_t>(out.report, "compression.codec_busy_cycles") ==
        20 * get<std::uint64_t>(out.report, "compression.packets_compressed"));
}

TEST_CASE("LSB-cut of smooth doubles stays within its error bound end to end", "[compression]") {
  RunOutcome out = run_synthetic("always", "smooth_doubles");
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);  // decoded words checked against the codec's promise
  CHECK(get<double>(out.report, "compression.share") == Approx(1.0));
  CHECK(get<double>(out.report, "compression.ratio") == Approx(64.0 / 36.0));
  const double err = get<double>(out.report, "compression.max_relative_error");
  CHECK(err > 0.0);
  CHECK(err <= lsb_cut_relative_error_bound(28));
}

TEST_CASE("raw payloads and policy never are never compressed", "[compression]") {
  RunOutcome raw = run_synthetic("always", "random");
  REQUIRE(raw.status == RunStatus::ok);
  CHECK(get<std::uint64_t>(raw.report, "compression.packets_compressed") == 0);
  CHECK(get<double>(raw.report, "compression.ratio") == Approx(1.0));
}

TEST_CASE("random integers that FPC would lengthen travel uncompressed", "[compression]") {
  RunOutcome out = run_synthetic("always", "random_ints");
  REQUIRE(out.status == RunStatus::ok);
  // Uniform 32-bit words mostly take 35 bits: the packet would grow, so it goes as it is.
  CHECK(get<double>(out.report, "compression.share") < 0.01);
}

TEST_CASE("fixed-ratio size mode halves packets and still delivers the words", "[compression]") {
  RunOutcome out = run_synthetic("always", "small_ints", CompressedSize::fixed_ratio);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(get<double>(out.report, "compression.ratio") == Approx(2.0));
  const double app = get<double>(out.report, "throughput.accepted_flits_per_node_cycle");
  const double net = get<double>(out.report, "throughput.accepted_network_flits_per_node_cycle");
  CHECK(net == Approx(app / 2).epsilon(0.02));
}

TEST_CASE("selective compression: long packets always and short ones only under load",
          "[compression]") {
  SystemParams sp;
  sp.ni.compression.policy = "selective";
  sp.ni.compression.threshold_flits = 8;
  sp.ni.compression.codec_latency_cycles = 10;
  auto sys = test::build("mesh", {4, 4}, sp);
  // An idle network: node 0 sends a 4-flit and then a 16-flit message of small integers; the
  // short one is not compressed (no traffic seen, nothing waiting), the long one is.
  test::ScriptedFirmware fw({{100, 0, 5, 16, true}, {2100, 0, 5, 64, true}});
  RunOutcome out = test::run_firmware(*sys, fw);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(fw.data_verified());
  CHECK(get<std::uint64_t>(out.report, "compression.packets_compressed") == 1);
  CHECK(sys->ni(0).packetizer().counters().packets_compressed == 1);
}

TEST_CASE("a compressed message's latency is the zero-load latency of its compressed size plus D",
          "[compression]") {
  SystemParams sp;
  sp.ni.compression.policy = "always";
  sp.ni.compression.codec_latency_cycles = 100;
  auto sys = test::build("mesh", {4, 4}, sp);
  // 64 small integers: 16 flits plain, 64 x 17 bits = 9 flits compressed
  test::ScriptedFirmware fw({{10, 0, 15, 64, true}});
  RunOutcome out = test::run_firmware(*sys, fw);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(fw.data_verified());
  // created at 10 (send overhead 1), 6 hops, 9 flits, then D = 100
  const Cycle t0 = zero_load_latency({6, 9, 3, 1, 1, 1, Switching::wormhole});
  REQUIRE(sys->ni(15).reassembler().latency_samples().size() == 1);
  CHECK(sys->ni(15).reassembler().latency_samples()[0] == 1 + t0 + 100);
}
