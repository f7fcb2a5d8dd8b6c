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
  REQUIRE(sys->ni(15).reassembler().latency_samples().sorted() ==
          std::vector<std::uint32_t>{static_cast<std::uint32_t>(1 + t0 + 100)});
}

namespace {

// The latency of the one message node `dst` received.
std::uint32_t latency_at(NocSystem& sys, NodeId dst) {
  const auto samples = sys.ni(dst).reassembler().latency_samples().sorted();
  REQUIRE(samples.size() == 1);
  return samples[0];
}

// A 4x4 mesh whose NIs compress every packet with one unpipelined codec, D = 100.
std::unique_ptr<NocSystem> unpipelined_mesh() {
  SystemParams sp;
  sp.ni.compression.policy = "always";
  sp.ni.compression.codec_latency_cycles = 100;
  sp.ni.compression.codec_pipelined = false;
  return test::build("mesh", {4, 4}, sp);
}

}  // namespace

TEST_CASE("an unpipelined codec has the pipelined one's zero-load latency", "[compression]") {
  auto sys = unpipelined_mesh();
  test::ScriptedFirmware fw({{10, 0, 15, 64, true}});
  RunOutcome out = test::run_firmware(*sys, fw);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(fw.data_verified());
  const Cycle t0 = zero_load_latency({6, 9, 3, 1, 1, 1, Switching::wormhole});
  CHECK(latency_at(*sys, 15) == 1 + t0 + 100);
  CHECK(get<std::uint64_t>(out.report, "compression.encoder_wait_cycles") == 0);
  CHECK(get<std::uint64_t>(out.report, "compression.decoder_wait_cycles") == 0);
}

TEST_CASE("an unpipelined encoder holds the next compressed packet D cycles after the previous",
          "[compression]") {
  auto sys = unpipelined_mesh();
  // Node 0 sends two compressed messages at once, along disjoint 3-hop paths (DOR: along row 0
  // to node 3, along column 0 to node 12). Pipelined, the second would follow the first's 9
  // flits; here it starts when the encoder frees, 100 cycles after the first started.
  test::ScriptedFirmware fw({{10, 0, 3, 64, true}, {10, 0, 12, 64, true}});
  RunOutcome out = test::run_firmware(*sys, fw);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(fw.data_verified());
  const Cycle t0 = zero_load_latency({3, 9, 3, 1, 1, 1, Switching::wormhole});
  CHECK(latency_at(*sys, 3) == 1 + t0 + 100);
  // (the second message was handed over a cycle after the first: the core's send overhead)
  CHECK(latency_at(*sys, 12) == 1 + t0 + 100 + 100 - 1);
  CHECK(get<std::uint64_t>(out.report, "compression.encoder_wait_cycles") == 100 - 1 - 9 + 1);
}

TEST_CASE("an unpipelined decoder decodes one packet at a time", "[compression]") {
  auto sys = unpipelined_mesh();
  // Nodes 3 and 12 send to node 0 at once, over disjoint 3-hop paths: the tails arrive a few
  // cycles apart (the ejection port takes a flit a cycle), and the second packet's decoding
  // waits for the first's, so it is ready exactly D after the first.
  test::ScriptedFirmware fw({{10, 3, 0, 64, true}, {10, 12, 0, 64, true}});
  RunOutcome out = test::run_firmware(*sys, fw);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(fw.data_verified());
  const auto samples = sys->ni(0).reassembler().latency_samples().sorted();
  REQUIRE(samples.size() == 2);
  CHECK(samples[1] - samples[0] == 100);
  const std::uint64_t waited = get<std::uint64_t>(out.report, "compression.decoder_wait_cycles");
  CHECK(waited > 0);
  CHECK(waited < 100);
}

TEST_CASE("selective's congestion test: N above N_th or Q above Q_th; 0 and 0 read SPEC 2.4 "
          "literally", "[compression]") {
  auto selective = make_compression_policy("selective");
  // {L, N, Q, L_th, N_th, Q_th}
  CHECK(selective->compress({20, 0, 0, 20, 50, 3}));        // L >= L_th: always
  CHECK_FALSE(selective->compress({4, 0, 0, 20, 0, 0}));    // idle NI
  CHECK(selective->compress({4, 1, 0, 20, 0, 0}));          // one flit received
  CHECK(selective->compress({4, 0, 1, 20, 0, 0}));          // one packet waiting
  CHECK_FALSE(selective->compress({4, 50, 3, 20, 50, 3}));  // at the thresholds: not yet
  CHECK(selective->compress({4, 51, 0, 20, 50, 3}));
  CHECK(selective->compress({4, 0, 4, 20, 50, 3}));
}
