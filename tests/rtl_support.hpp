// Shared by the pin-level testbenches: stream phases, the stream testbench, and reading VCD and
// GTKWave save files.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

namespace collnoc::test {

inline std::string hex(std::uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

// A stretch of the stream, up to `end_word` words accepted: the chance of a gap in in_valid, of a
// stall on out_ready; with `reset_after`, the output is then held until the pipeline is full and
// reset is asserted for two cycles (the words inside are dropped).
struct Phase {
  std::size_t end_word;
  double gap_prob;
  double stall_prob;
  bool reset_after;
};

inline std::vector<Phase> stress_phases(std::size_t words) {
  return {{300, 0.0, 0.0, true},
          {words * 3 / 10, 0.3, 0.0, false},
          {words * 6 / 10, 0.2, 0.3, true},
          {words * 8 / 10, 0.0, 0.6, false},
          {words, 0.5, 0.5, false}};
}

const sc_core::sc_time kRtlPeriod(1, sc_core::SC_NS);  // one clock cycle

// A valid/ready stream testbench for a pipelined block: drives `items` through phases of input
// gaps and output stalls with resets mid-stream, and checks the handshake, order, no loss or
// duplication, and that each word shows exactly side.depth() cycles after it was taken (or the
// cycle after the word ahead left). The Side wires the block, drives and samples its data pins
// and judges each word; it may also follow a functional twin:
//   bind(bench), depth(), drive(item), sample(), check(in, out) -> error text (empty: fine),
//   accepted(item, cycle), reset(words inside), handed_off(index, accepted_at, now, out): errors.
// FixedDepthSide supplies depth() and the last three for a block of a fixed depth, no twin.
template <unsigned Depth>
struct FixedDepthSide {
  static constexpr unsigned kDepth = Depth;
  unsigned depth() const { return Depth; }
  template <class Item>
  std::string accepted(const Item&, std::int64_t) { return {}; }
  std::string reset(std::size_t) { return {}; }
  template <class Out>
  std::string handed_off(std::size_t, std::int64_t, std::int64_t, const Out&) { return {}; }
};

template <class Side, class Item>
class StreamBench : public sc_core::sc_module {
 public:
  sc_core::sc_clock clk{"clk", kRtlPeriod};  // first rising edge at 0: edge n at n ns
  sc_core::sc_signal<bool> rst{"rst", true};
  sc_core::sc_signal<bool> in_valid{"in_valid"}, in_ready{"in_ready"};
  sc_core::sc_signal<bool> out_valid{"out_valid"}, out_ready{"out_ready", true};
  Side side;

  // Results.
  std::size_t accepted = 0;              // words taken by the block (in_valid && in_ready)
  std::size_t outputs = 0;               // words it handed out (out_valid && out_ready)
  std::vector<std::size_t> dropped;      // words inside the block at each reset edge
  std::vector<std::int64_t> latency;     // per word: first shown - accepted, in cycles; -1 dropped
  std::size_t checks = 0;                // data comparisons made
  std::size_t error_count = 0;
  std::vector<std::string> errors;       // the first few
  bool in_ready_low_in_free_flow = false;
  std::size_t backpressured_cycles = 0;  // in_valid high, in_ready low, not in reset

  template <class... SideArgs>
  StreamBench(sc_core::sc_module_name name, std::vector<Item> items, std::vector<Phase> phases,
        unsigned seed, SideArgs&&... side_args)
      : sc_module(name), side(std::forward<SideArgs>(side_args)...), items_(std::move(items)),
        phases_(std::move(phases)), drive_rng_(seed), take_rng_(seed * 7919u + 1) {
    side.bind(*this);
    latency.assign(items_.size(), -1);
    SC_HAS_PROCESS(StreamBench);
    SC_METHOD(drive);
    sensitive << clk.posedge_event();
    dont_initialize();
    SC_METHOD(take);
    sensitive << clk.posedge_event();
    dont_initialize();
  }

  // Runs until every word is out (or dropped), at most `max_cycles`.
  void run(std::uint64_t max_cycles) {
    sc_core::sc_start(static_cast<double>(max_cycles), sc_core::SC_NS);
  }
  bool done() const { return accepted == items_.size() && in_flight_.empty(); }

 private:
  enum class Mode { run, fill, reset };
  struct InFlight {
    std::size_t index;
    std::int64_t accepted_at;
  };

  static std::int64_t cycle() {
    return static_cast<std::int64_t>(sc_core::sc_time_stamp() / kRtlPeriod + 0.5);
  }
  void fail(const std::string& what) {
    ++error_count;
    if (errors.size() < 20) errors.push_back("cycle " + std::to_string(cycle()) + ": " + what);
  }
  const Phase& phase() const { return phases_[std::min(phase_, phases_.size() - 1)]; }

  void drive() {
    const bool valid = in_valid.read(), ready = in_ready.read();
    if (rst.read() && ready) fail("in_ready high during reset");
    if (valid && !ready && !rst.read()) {
      ++backpressured_cycles;
      if (mode_ == Mode::run && phase_ == 0) in_ready_low_in_free_flow = true;
    }
    if (valid && ready) {
      const std::string wrong = side.accepted(items_[accepted], cycle());
      if (!wrong.empty()) fail(wrong);
      in_flight_.push_back({accepted, cycle()});
      ++accepted;
      pending_ = false;
    }

    switch (mode_) {
      case Mode::run:
        if (accepted >= phase().end_word && phase_ < phases_.size()) {
          if (phase().reset_after) {
            mode_ = Mode::fill;  // hold the output until the pipeline is full, then reset
            left_ = side.depth() + 3;
            hold_output_ = true;
          } else {
            ++phase_;
          }
        }
        break;
      case Mode::fill:
        if (--left_ == 0) {
          mode_ = Mode::reset;
          left_ = 2;
        }
        break;
      case Mode::reset:
        if (--left_ == 0) {
          mode_ = Mode::run;
          hold_output_ = false;
          if (initial_reset_)
            initial_reset_ = false;
          else
            ++phase_;
        }
        break;
    }
    rst.write(mode_ == Mode::reset);

    // Valid stays high, with the same data, until the word is taken; a gap only between words.
    if (pending_) return;
    const bool offer = accepted < items_.size() &&
                       (mode_ != Mode::run || coin(drive_rng_) >= phase().gap_prob);
    in_valid.write(offer);
    if (offer) {
      side.drive(items_[accepted]);
      pending_ = true;
    }
  }

  void take() {
    const std::int64_t now = cycle();
    const bool valid = out_valid.read();
    if (valid && after_reset_) fail("out_valid high right after a reset edge");
    if (valid) {
      const Out got = side.sample();
      if (!presenting_) {
        presenting_ = true;
        first_seen_ = now;
        shown_ = got;
      } else if (got != shown_) {
        fail("output changed while stalled");
      }
      if (out_ready.read()) {
        handoff(got, now);
        presenting_ = false;
      }
    } else if (presenting_) {
      fail("out_valid dropped before the word was taken");
      presenting_ = false;
    }

    const bool in_reset = rst.read();
    if (in_reset) {  // the words inside are gone
      if (!after_reset_) dropped.push_back(in_flight_.size());  // once per reset
      const std::string wrong = side.reset(in_flight_.size());
      if (!wrong.empty()) fail(wrong);
      in_flight_.clear();
      presenting_ = false;
    }
    after_reset_ = in_reset;

    out_ready.write(!hold_output_ && coin(take_rng_) >= phase().stall_prob);
    if (done() && !initial_reset_ && mode_ == Mode::run) sc_core::sc_stop();
  }

  using Out = decltype(std::declval<const Side&>().sample());

  void handoff(const Out& got, std::int64_t now) {
    if (in_flight_.empty()) {
      fail("a word came out that was never accepted (duplicate?)");
      return;
    }
    const InFlight w = in_flight_.front();
    in_flight_.pop_front();
    ++outputs;
    ++checks;
    const std::string wrong = side.check(items_[w.index], got);
    if (!wrong.empty()) fail("word " + std::to_string(w.index) + ": " + wrong);
    // A pipeline that forwards as soon as the stage ahead frees: the word shows D cycles after
    // acceptance, or the cycle after the word ahead of it left, whichever is later.
    const std::string wrong_twin = side.handed_off(w.index, w.accepted_at, now, got);
    if (!wrong_twin.empty()) fail("word " + std::to_string(w.index) + ": " + wrong_twin);
    const std::int64_t expected = std::max(w.accepted_at + std::int64_t{side.depth()},
                                           last_handoff_ + 1);
    if (first_seen_ != expected)
      fail("word " + std::to_string(w.index) + " accepted at " + std::to_string(w.accepted_at) +
           " shown at " + std::to_string(first_seen_) + ", expected " + std::to_string(expected));
    latency[w.index] = first_seen_ - w.accepted_at;
    last_handoff_ = now;
  }

  static double coin(std::mt19937& rng) {
    return std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  }

  std::vector<Item> items_;
  std::vector<Phase> phases_;
  std::mt19937 drive_rng_, take_rng_;
  Mode mode_ = Mode::reset;  // rst starts high for a few cycles
  unsigned left_ = 3;
  bool initial_reset_ = true;
  std::size_t phase_ = 0;
  bool hold_output_ = false;
  bool pending_ = false;
  std::deque<InFlight> in_flight_;
  bool presenting_ = false, after_reset_ = false;
  std::int64_t first_seen_ = 0, last_handoff_ = -1;
  Out shown_{};
};

inline std::string source_path(const std::string& relative) {
  return std::string(COLLNOC_SOURCE_DIR) + "/" + relative;
}

// Signal rows of a GTKWave save file: what is not a flag (@), comment (-), directive ([) or
// note (*), as waves/grab.tcl reads them.
inline std::vector<std::string> gtkw_signals(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::vector<std::string> names;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || std::string("@-[*#").find(line[0]) != std::string::npos) continue;
    names.push_back(line);
  }
  return names;
}

// The VCD's variables as GTKWave names them (scopes joined by dots, then the vector range), and
// how many distinct values each took.
inline std::map<std::string, std::size_t> vcd_signals(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::vector<std::string> scopes;
  std::map<std::string, std::string> name_of_id;
  std::string token;
  while (in >> token && token != "$enddefinitions") {
    if (token == "$scope") {
      std::string kind, name;
      in >> kind >> name;
      scopes.push_back(name);
    } else if (token == "$upscope") {
      scopes.pop_back();
    } else if (token == "$var") {
      std::string type, size, id, ref, next;
      in >> type >> size >> id >> ref >> next;
      std::string full;
      for (const auto& s : scopes) full += s + ".";
      full += ref;
      if (next != "$end") full += next;  // "[31:0]"
      name_of_id[id] = full;
    }
  }
  std::map<std::string, std::set<std::string>> values;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == '$') continue;
    std::string value, id;
    if (line[0] == 'b' || line[0] == 'r') {
      std::istringstream ls(line);
      ls >> value >> id;
    } else {
      value = line.substr(0, 1);
      id = line.substr(1);
    }
    if (name_of_id.count(id)) values[name_of_id[id]].insert(value);
  }
  std::map<std::string, std::size_t> out;
  for (const auto& [id, name] : name_of_id) out[name] = values[name].size();
  return out;
}

}  // namespace collnoc::test
