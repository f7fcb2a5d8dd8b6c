// Helpers shared by the tests: build a system from parameters, and a scripted firmware that
// sends single messages at chosen cycles (for latency measurements).
#pragma once
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "collectives/firmware.hpp"
#include "platforms/platform.hpp"
#include "platforms/simulation.hpp"

namespace collnoc::test {

inline std::unique_ptr<NocSystem> build(const std::string& kind, std::vector<unsigned> k,
                                        const SystemParams& sys) {
  PlatformParams p;
  p.topology.kind = kind;
  p.topology.k = k;
  p.topology.n = static_cast<unsigned>(k.size());
  p.system = sys;
  return make_platform(p);
}

// A result by its dotted key, of the type the report holds it in.
template <typename T>
T get(const Report& r, const std::string& key) {
  const Report::Value* v = r.find(key);
  REQUIRE(v != nullptr);
  return std::get<T>(*v);
}

// The run ended ok (so without a stall of a watchdog period at its end: see run_traffic) and
// every flit that left an NI was delivered or is still in the network.
inline void require_conserved(const RunOutcome& out) {
  INFO(out.diagnosis);
  REQUIRE(out.status == RunStatus::ok);
  CHECK(get<std::uint64_t>(out.report, "sim.stalled_cycles") < 1000);
  CHECK(get<std::uint64_t>(out.report, "flits.injected") ==
        get<std::uint64_t>(out.report, "flits.delivered") +
            get<std::uint64_t>(out.report, "flits.in_flight"));
}

// Synthetic traffic (seed 1) through warm-up, measurement and drain. The watchdog is shorter
// than the runs: a network that stops moving ends the run as a deadlock, or, near its end, as
// stalled.
inline RunOutcome run_traffic(NocSystem& sys, const TrafficParams& tp, Cycle warmup,
                              Cycle measure, Cycle max_cycles = 200000,
                              Cycle watchdog_cycles = 1000) {
  sys.attach_traffic(tp, 1);
  RunParams run;
  run.warmup_cycles = warmup;
  run.measure_cycles = measure;
  run.max_cycles = max_cycles;
  run.watchdog_cycles = watchdog_cycles;
  run.progress = false;
  return Simulation(sys, run, nullptr).run();
}

// `fw` on every core until all have finished.
inline RunOutcome run_firmware(NocSystem& sys, Firmware& fw, Cycle watchdog_cycles = 20000) {
  sys.attach_firmware(fw);
  RunParams run;
  run.progress = false;
  run.watchdog_cycles = watchdog_cycles;
  return Simulation(sys, run, &fw).run();
}

// Runs the systems, built side by side in this process with their firmware attached, until
// every core of each has finished (required) or `max_cycles` have passed.
inline void run_until_finished(const std::vector<const NocSystem*>& systems, Cycle max_cycles) {
  const auto done = [&] {
    for (const NocSystem* sys : systems)
      for (const auto& core : sys->cores())
        if (!core->finished()) return false;
    return true;
  };
  const Clock& clock = systems.front()->clock();
  while (!done() && clock.now() < max_cycles) sc_core::sc_start(clock.delay(1000));
  REQUIRE(done());
}

// Each entry: at cycle `at`, core `src` sends `words` words to `dst`; `dst` receives it.
// With `small_ints` the words are int32 values below 1024 (what FPC compresses well).
struct ScriptedSend {
  Cycle at;
  NodeId src, dst;
  unsigned words;
  bool small_ints = false;
};

class ScriptedFirmware : public Firmware {
 public:
  explicit ScriptedFirmware(std::vector<ScriptedSend> script) : script_(std::move(script)) {}
  void run(MessageLayer& ml) override {
    for (std::size_t i = 0; i < script_.size(); ++i) {
      const ScriptedSend& s = script_[i];
      if (s.src == ml.rank()) {
        if (ml.now() < s.at) ml.compute(s.at - ml.now());
        SendOptions opt;
        if (s.small_ints) opt.element_type = 1;  // ElementType::int32
        ml.send(s.dst, message(i), opt);
      }
      if (s.dst == ml.rank() && ml.recv(s.src) != message(i)) ok_ = false;
    }
  }
  void report(Report&) const override {}
  bool data_verified() const override { return ok_; }

 private:
  Words message(std::size_t i) const {
    const ScriptedSend& s = script_[i];
    Words w = pattern_message(7, s.src, s.dst, static_cast<unsigned>(i), s.words);
    if (s.small_ints)
      for (auto& x : w) x %= 1024;
    return w;
  }
  std::vector<ScriptedSend> script_;
  bool ok_ = true;
};

}  // namespace collnoc::test
