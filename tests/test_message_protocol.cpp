// Message protocols (msg.protocol, collectives/message_protocol.hpp): rendezvous costs its closed
// form on an idle path, both protocols keep a pair's order and pick recv_any's sender as
// documented, and the collectives run under them bit-exact (through the CLI, one child process
// per run).
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "collectives/collective.hpp"
#include "collectives/message_protocol.hpp"
#include "noc/zero_load.hpp"
#include "support.hpp"

using namespace collnoc;
using collnoc::test::Result;
using collnoc::test::run_collnoc;
using collnoc::test::run_json;
using collnoc::test::temp_path;

namespace {

constexpr Cycle kWatchdog = 5000;

FirmwareParams under(const std::string& protocol, unsigned mpb_bytes = 0) {
  FirmwareParams fp;
  fp.protocol.name = protocol;
  fp.protocol.mpb_bytes = mpb_bytes;
  return fp;
}

// Cores 0 and 1 each send kCount messages of growing length to core 2 (the longest spans two
// mpb chunks): core 1 at once, core 0 after 300 cycles. Core 2 waits until every announcement
// is in, then takes them all with recv_any. Records the senders in the order taken.
class TwoSenders : public Firmware {
 public:
  static constexpr unsigned kCount = 4;
  void run(MessageLayer& ml) override {
    if (ml.rank() == 0) ml.compute(300);
    if (ml.rank() < 2)
      for (unsigned i = 0; i < kCount; ++i) ml.send(2, message(ml.rank(), i));
    if (ml.rank() != 2) return;
    ml.compute(3000);
    unsigned next[2] = {0, 0};
    for (unsigned i = 0; i < 2 * kCount; ++i) {
      const Message m = ml.recv_any();
      order_.push_back(m.src);
      if (m.src > 1 || next[m.src] >= kCount || m.words != message(m.src, next[m.src]++))
        intact_ = false;
    }
  }
  void report(Report&) const override {}
  bool data_verified() const override { return intact_; }
  const std::vector<NodeId>& order() const { return order_; }

 private:
  static Words message(NodeId src, unsigned i) {
    return pattern_message(3, src, 2, i, 1 + 1200 * i);
  }
  std::vector<NodeId> order_;
  bool intact_ = true;
};

std::vector<NodeId> taken_order(NocSystem& sys, const FirmwareParams& fp) {
  auto owned = std::make_unique<TwoSenders>();
  TwoSenders& senders = *owned;
  auto fw = with_message_protocol(std::move(owned), fp, sys.topology().num_endpoints());
  RunOutcome out = test::run_firmware(sys, *fw, kWatchdog);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(fw->data_verified());
  return senders.order();
}

// Runs ping_pong under `fp` to its end and returns the report.
Report ping_pong(NocSystem& sys, const FirmwareParams& fp) {
  auto fw = make_firmware("ping_pong", fp, sys.topology());
  RunOutcome out = test::run_firmware(sys, *fw, kWatchdog);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  REQUIRE(fw->data_verified());
  return out.report;
}

// A message of w words one hop away, from the send call to the cycle it is available at the
// destination NI: send overhead, zero-load latency, the delivery register.
Cycle one_hop(const SystemParams& sp, unsigned words) {
  const unsigned per_flit = sp.ni.words_per_flit();
  const unsigned flits = std::max(1u, (words + per_flit - 1) / per_flit);
  return sp.ni.send_overhead_cycles +
         zero_load_latency({1, flits, sp.router.hop_latency_cycles, sp.link.latency_cycles}) + 1;
}

// Every (collective, algorithm) of the mesh set, as --set arguments; `onesided` and the `_mpb`
// forms of the nocmsg set (which lay out the scc buffers themselves: refused off scc and under
// mpb) when `buffers_free`. Not those that need HTA routers (hardware multicast: msg.protocol
// eager only; tests/test_manycore.cpp), nor the SCC libraries' (scc and mpb only;
// tests/test_scc_libraries.cpp).
std::vector<std::string> every_mesh_collective(bool buffers_free = false) {
  std::vector<std::string> args;
  for (const CollectiveEntry& e : collective_algorithms()) {
    const std::string algorithm = e.algorithm;
    const bool owns_buffers = algorithm == "onesided" || is_on_buffers_form(e);
    const bool scc_library = e.library == CollectiveLibrary::rcce || e.library == CollectiveLibrary::rckmpi;
    if (std::string(e.collective) != "total_exchange" && e.needs == CollectiveNeeds::any && !scc_library &&
        (buffers_free || !owns_buffers))
      args.push_back(std::string("--set workload.kind=collective --set workload.collective=") +
                     e.collective + " --set workload.algorithm=" + e.algorithm);
  }
  return args;
}

}  // namespace

TEST_CASE("rendezvous one-way latency on an idle 2-node path is L(RTS) + L(CTS) + L(data)",
          "[protocol]") {
  SystemParams sp;
  auto sys = test::build("mesh", {2}, sp);
  FirmwareParams fp = under("rendezvous");
  fp.message_words = 12;  // 3 flits
  fp.iterations = 4;
  const Report report = ping_pong(*sys, fp);
  // Each until the receive returns (receive overhead): L(0) for RTS and CTS (no payload).
  const auto latency = [&](unsigned words) {
    return one_hop(sp, words) + sp.ni.recv_overhead_cycles;
  };
  const Cycle rendezvous = latency(0) + latency(0) + latency(12);
  CHECK(rendezvous == 10 + 10 + 12);
  CHECK(test::get<double>(report, "firmware.round_trip_cycles_mean") == Approx(2.0 * rendezvous));
  CHECK(test::get<std::uint64_t>(report, "msg.control_messages") == 2 * 2 * 4);
  CHECK(test::get<std::uint64_t>(report, "msg.data_chunks") == 2 * 4);
}

TEST_CASE("mpb one-way latency over one hop is an announce, then a credit and a chunk per chunk",
          "[protocol]") {
  PlatformParams pp;
  pp.name = "scc";
  auto sys = make_platform(pp);
  const SystemParams sp;
  FirmwareParams fp = under("mpb", platform_mpb_bytes(pp));
  fp.message_words = 2 * 1944 + 100;  // two full chunks and a part
  fp.peer = 2;                        // the core on the next tile: one hop
  fp.iterations = 2;
  const Report report = ping_pong(*sys, fp);
  // A put carries its offset before the words; it has landed when available at the NI. The
  // polling core then reads its flags (1 cycle); after a chunk it also reads the chunk (1).
  const auto put = [&](unsigned words) { return one_hop(sp, 1 + words); };
  const auto chunk = [&](unsigned words) {
    return put(1) + 1 + put(MpbLayout::kHeaderWords + words) + 1 + 1;  // credit, then data
  };
  const Cycle one_way = put(1) + 1 + 2 * chunk(1944) + chunk(100);  // announce first
  CHECK(test::get<double>(report, "firmware.round_trip_cycles_mean") == Approx(2.0 * one_way));
  CHECK(test::get<std::uint64_t>(report, "msg.data_chunks") == 2 * 2 * 3);
}

TEST_CASE("rendezvous keeps a pair's order and recv_any answers the oldest RTS", "[protocol]") {
  auto sys = test::build("mesh", {3}, SystemParams{});
  // Core 1's RTSs were in first.
  CHECK(taken_order(*sys, under("rendezvous")) == std::vector<NodeId>{1, 1, 1, 1, 0, 0, 0, 0});
}

TEST_CASE("mpb keeps a pair's order across chunks and recv_any takes the lowest rank",
          "[protocol]") {
  PlatformParams pp;
  pp.name = "scc";
  auto sys = make_platform(pp);
  CHECK(taken_order(*sys, under("mpb", platform_mpb_bytes(pp))) ==
        std::vector<NodeId>{0, 0, 0, 0, 1, 1, 1, 1});
}

TEST_CASE("mpb: a core polling for a message nobody sends is a firmware deadlock", "[protocol]") {
  // Core 1 sends to core 3, which never receives: core 1 polls for a credit at its flush, and
  // core 2 polls for an announce from core 0.
  class Stuck : public Firmware {
   public:
    void run(MessageLayer& ml) override {
      if (ml.rank() == 1) ml.send(3, Words{1, 2});
      if (ml.rank() == 2) ml.recv(0);
    }
    void report(Report&) const override {}
    bool data_verified() const override { return true; }
  };
  PlatformParams pp;
  pp.name = "scc";
  auto sys = make_platform(pp);
  auto fw = with_message_protocol(std::make_unique<Stuck>(), under("mpb", platform_mpb_bytes(pp)),
                                  sys->topology().num_endpoints());
  RunOutcome out = test::run_firmware(*sys, *fw, kWatchdog);
  REQUIRE(out.status == RunStatus::firmware_deadlock);
  CHECK(out.diagnosis.find("core 1 waits") != std::string::npos);
  CHECK(out.diagnosis.find("core 2 waits") != std::string::npos);
}

TEST_CASE("the buffer layout leaves a data area of whole words after the flags", "[protocol]") {
  const MpbLayout scc{48, 8192};
  CHECK(scc.announce(5) == 20);
  CHECK(scc.credit(0) == 192);
  CHECK(scc.data_area() == 384);
  CHECK(scc.chunk_words() == (8192 - 384) / 4 - 8);  // 1944 words, 7776 bytes
  CHECK(MpbLayout{1024, 8192}.chunk_words() == 0);   // flags alone fill the buffer
}

TEST_CASE("cli: every mesh collective runs bit-exact under rendezvous on tilepro 3x3",
          "[protocol][cli]") {
  for (const std::string& args : every_mesh_collective()) {
    const auto j = run_json("--set platform=tilepro --set workload.grid=3x3 "
                            "--set msg.protocol=rendezvous --set workload.message_bytes=400 " + args,
                            "tilepro");
    INFO(args);
    CHECK(j["collective"]["data_verified"] == true);
    CHECK(j["msg"]["protocol"] == "rendezvous");
    // Every data message was asked for: one RTS and one CTS each.
    CHECK(j["msg"]["control_messages"] == 2 * j["msg"]["data_chunks"].get<int>());
  }
}

TEST_CASE("cli: scc collectives and firmware run bit-exact under rendezvous and mpb",
          "[protocol][cli]") {
  for (const std::string protocol : {"rendezvous", "mpb"})
    for (std::string args : every_mesh_collective(protocol == "rendezvous")) {
      const auto j = run_json("--set platform=scc --set msg.protocol=" + protocol +
                                  " --set workload.message_bytes=256 " + args,
                              "scc");
      INFO(protocol << " " << args);
      CHECK(j["collective"]["data_verified"] == true);
      CHECK(j["msg"]["protocol"] == protocol);
    }
  for (const std::string protocol : {"rendezvous", "mpb"})
    for (const char* args : {"--set workload.kind=ping_pong --set workload.peer=47 --set workload.iterations=3",
                             "--set workload.kind=all_pairs --set workload.message_words=600"}) {
      const auto j = run_json("--set platform=scc --set msg.protocol=" + protocol + " " + args, "scc");
      INFO(protocol << " " << args);
      CHECK(j["firmware"]["data_verified"] == true);
      CHECK(j["msg"]["protocol"] == protocol);
    }
}

TEST_CASE("cli: mpb carries 1 packet, 64 KB and a non-multiple of the chunk bit-exact",
          "[protocol][cli]") {
  // scc grid 3x1: 6 cores. Chunks per message: ceil(words / 1944). The protocol's data path
  // alone (no software model: 64 KB copies would take it past sim.max_cycles).
  for (const char* collective : {"alltoall", "broadcast"})
    for (unsigned bytes : {128u, 65536u, 2 * 7776u + 4u}) {
      const auto j = run_json("--set platform=scc --set workload.grid=3x1 --set msg.protocol=mpb "
                              "--set core.software_model=none "
                              "--set workload.kind=collective --set workload.collective=" +
                                  std::string(collective) +
                                  (collective == std::string("alltoall")
                                       ? " --set workload.algorithm=pairwise"
                                       : " --set workload.algorithm=binomial") +
                                  " --set workload.message_bytes=" + std::to_string(bytes),
                              "mpb");
      INFO(collective << " " << bytes << " bytes");
      CHECK(j["collective"]["data_verified"] == true);
      const std::uint64_t messages = collective == std::string("alltoall") ? 6 * 5 : 5;
      const std::uint64_t chunks = (bytes / 4 + 1943) / 1944;
      CHECK(j["msg"]["data_chunks"] == messages * chunks);
      // An announce per message, a credit per chunk.
      CHECK(j["msg"]["control_messages"] == messages * (1 + chunks));
    }
}

TEST_CASE("cli: total exchange pairwise and hdn run bit-exact under rendezvous",
          "[protocol][cli]") {
  const std::string hdn = "--set platform=hdn --set topology.kind=hdn --set hdn.base=hypercube:2 "
                          "--set routing.algorithm=hdn --set router.switching=saf "
                          "--set router.buffer_flits=32 --set ni.max_packet_flits=32 "
                          "--set workload.kind=collective --set workload.collective=total_exchange "
                          "--set workload.message_words=3 --set msg.protocol=rendezvous ";
  for (const char* algorithm : {"hdn", "pairwise"}) {
    const auto j = run_json(hdn + "--set workload.algorithm=" + algorithm, algorithm);
    INFO(algorithm);
    CHECK(j["collective"]["data_verified"] == true);
    CHECK(j["collective"]["messages_checked"] == (algorithm == std::string("hdn") ? 32 : 31) * 32);
    CHECK(j["msg"]["data_chunks"].get<int>() > 0);
  }
}

TEST_CASE("cli: the same seed gives the same results under both protocols", "[protocol][cli]") {
  for (const char* protocol : {"rendezvous", "mpb"}) {
    const std::string args = "--set platform=scc --set workload.grid=2x2 --set seed=9 "
                             "--set workload.kind=collective --set workload.collective=alltoall "
                             "--set workload.algorithm=pairwise --set workload.message_bytes=9000 "
                             "--set workload.start_skew_cycles=300 "
                             "--set workload.repetitions=2 --set msg.protocol=" +
                             std::string(protocol);
    auto a = run_json(args, "a"), b = run_json(args, "b");
    for (auto* j : {&a, &b})  // how fast the host ran differs
      for (const char* key : {"wall_seconds", "router_cycles_per_second", "flit_hops_per_second"})
        (*j)["sim"].erase(key);
    INFO(protocol);
    CHECK(a == b);
    CHECK(a["collective"]["data_verified"] == true);
  }
}

TEST_CASE("cli: collnoc list names the message protocols", "[protocol][cli]") {
  const Result r = run_collnoc("list");
  REQUIRE(r.status == 0);
  const std::size_t table = r.output.find("message protocols (msg.protocol");
  REQUIRE(table != std::string::npos);
  for (const char* name : {"\n  eager ", "\n  rendezvous ", "\n  mpb "}) {
    INFO(name);
    CHECK(r.output.find(name, table) != std::string::npos);
  }
}
