// The message layer carries data bit-exact: single and multi-packet messages, in order per
// source, with deterministic and adaptive routing; and a firmware deadlock is diagnosed.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace collnoc;

constexpr Cycle kWatchdog = 2000;  // firmware deadlocks are reported quickly

TEST_CASE("all-pairs exchange of multi-packet messages arrives bit-exact (adaptive)", "[message]") {
  SystemParams sp;
  sp.routing = "adaptive";
  sp.ni.max_packet_flits = 4;  // 75 words = 19 flits = 5 packets per message
  auto sys = test::build("mesh", {4, 4}, sp);
  FirmwareParams fp;
  fp.message_words = 75;
  fp.iterations = 3;
  auto fw = make_firmware("all_pairs", fp, sys->topology());
  RunOutcome out = test::run_firmware(*sys, *fw, kWatchdog);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(fw->data_verified());
  CHECK(std::get<std::uint64_t>(*out.report.find("firmware.messages_checked")) == 16 * 15 * 3);
  CHECK(std::get<std::uint64_t>(*out.report.find("messages.delivered")) == 16 * 15 * 3);
}

TEST_CASE("ping-pong round trip equals two zero-load latencies plus NI overheads", "[message]") {
  SystemParams sp;
  auto sys = test::build("mesh", {4, 4}, sp);
  FirmwareParams fp;
  fp.message_words = 4;  // one flit
  fp.iterations = 5;
  fp.peer = 15;          // 6 hops away
  auto fw = make_firmware("ping_pong", fp, sys->topology());
  RunOutcome out = test::run_firmware(*sys, *fw, kWatchdog);
  REQUIRE(out.status == RunStatus::ok);
  REQUIRE(fw->data_verified());
  // One way: send overhead 1 + zero-load (1 + 6*3 + 2 + 1 = 22) + delivery register 1
  // + receive overhead 1 = 25.
  CHECK(std::get<double>(*out.report.find("firmware.round_trip_cycles_mean")) == Approx(50.0));
}

TEST_CASE("a message of zero words is delivered as a single flit", "[message]") {
  auto sys = test::build("mesh", {2, 2}, SystemParams{});
  test::ScriptedFirmware fw({{5, 0, 3, 0}, {50, 3, 0, 0}, {100, 1, 2, 1}});
  RunOutcome out = test::run_firmware(*sys, fw, kWatchdog);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(fw.data_verified());
  CHECK(std::get<std::uint64_t>(*out.report.find("flits.delivered")) == 3);
}

TEST_CASE("firmware waiting for a message nobody sends is reported instead of hanging", "[message]") {
  class Stuck : public Firmware {
   public:
    void run(MessageLayer& ml) override {
      if (ml.rank() == 1) ml.recv(2);
    }
    void report(Report&) const override {}
    bool data_verified() const override { return true; }
  } fw;
  auto sys = test::build("mesh", {2, 2}, SystemParams{});
  RunOutcome out = test::run_firmware(*sys, fw, kWatchdog);
  REQUIRE(out.status == RunStatus::firmware_deadlock);
  CHECK(out.diagnosis.find("core 1 waits for a message from core 2") != std::string::npos);
}

// Regression: a long message whose last flit has left the network but which its NI makes
// available a cycle later, while every other core waits, is on its way, not a deadlock.
// Each exchange shifts the sender's start by a cycle, so that some delivery falls on every
// cycle of the run control's check interval.
TEST_CASE("a delivered message not yet available is not a firmware deadlock", "[message]") {
  class LongPingPong : public Firmware {
   public:
    void run(MessageLayer& ml) override {
      const Words data(800, 0x5a5a5a5au);  // 200 flits: it streams for longer than the watchdog
      for (unsigned k = 0; k < 300; ++k) {
        if (ml.rank() == 1) {
          ml.compute(150 + k);
          ml.send(0, data);
          ok_ = ok_ && ml.recv(0) == Words{k};
        } else if (ml.rank() == 0) {
          ok_ = ok_ && ml.recv(1) == data;
          ml.send(1, Words{k});
        }
      }
    }
    void report(Report&) const override {}
    bool data_verified() const override { return ok_; }

   private:
    bool ok_ = true;
  } fw;
  auto sys = test::build("mesh", {2, 2}, SystemParams{});
  RunOutcome out = test::run_firmware(*sys, fw, 100);
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(fw.data_verified());
}

// A core that runs ahead issues its receive at its own cycle: a message there by then is taken
// then, one that comes later when it is available; messages from other sources do not end the
// wait, and stay queued for the receives that name them.
TEST_CASE("a receive completes at its issue cycle or its message's arrival, whichever is later", "[message]") {
  class Ahead : public Firmware {
   public:
    void run(MessageLayer& ml) override {
      const SendOptions opt;
      if (ml.rank() == 1) ml.send(0, Words{11}, opt);             // arrives long before 200
      if (ml.rank() == 2) ml.send(0, Words{22}, opt);             // ... and before rank 3's
      if (ml.rank() == 3) ml.compute(400), ml.send(0, Words{33}, opt);
      if (ml.rank() != 0) return;
      ml.compute(200);
      Message first = ml.recv_message(1);
      taken_[0] = {first.words, ml.now(), first.arrival_cycle};
      Message late = ml.recv_message(3);  // rank 2's message is there and does not end it
      taken_[1] = {late.words, ml.now(), late.arrival_cycle};
      Message queued = ml.recv_message(2);
      taken_[2] = {queued.words, ml.now(), queued.arrival_cycle};
    }
    void report(Report&) const override {}
    bool data_verified() const override { return true; }
    struct Taken {
      Words words;
      Cycle after = 0, arrival = 0;
    };
    Taken taken_[3];
  } fw;
  auto sys = test::build("mesh", {2, 2}, SystemParams{});
  RunOutcome out = test::run_firmware(*sys, fw, kWatchdog);
  REQUIRE(out.status == RunStatus::ok);
  const Cycle overhead = SystemParams{}.ni.recv_overhead_cycles;
  CHECK(fw.taken_[0].words == Words{11});
  CHECK(fw.taken_[0].arrival < 200);
  CHECK(fw.taken_[0].after == 200 + overhead);  // taken at its issue cycle
  CHECK(fw.taken_[1].words == Words{33});
  CHECK(fw.taken_[1].arrival > 400);
  CHECK(fw.taken_[1].after == fw.taken_[1].arrival + overhead);  // when it was there
  CHECK(fw.taken_[2].words == Words{22});
  CHECK(fw.taken_[2].arrival < 200);
  CHECK(fw.taken_[2].after == fw.taken_[1].after + overhead);  // queued: at once
}
