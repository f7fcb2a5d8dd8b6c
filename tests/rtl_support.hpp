// Shared by the pin-level testbenches (tests/test_rtl_*.cpp): the stream testbench StreamBench,
// the long stress run with the checks every block must pass (run_stress), and the traced run whose
// VCD must hold exactly the signals of the block's .gtkw save file (run_traced). A test file
// brings the block-specific part: a Side per block (its data pins, its functional twin), the
// stimuli, and the checks only that block has.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "noc/types.hpp"  // ParamError
#include "rtl_models/stream_block.hpp"

namespace collnoc::test {

// The pin and signal types every testbench names.
using sc_core::sc_in;
using sc_core::sc_out;
using sc_core::sc_signal;
using sc_dt::sc_uint;

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

// Wires a block's clock, reset and handshake pins: its input side to in_valid/in_ready, its
// output side to out_valid/out_ready (in a chain, the signals between two blocks).
inline void wire_handshake(StreamBlock& block, sc_core::sc_clock& clk, sc_signal<bool>& rst,
                           sc_signal<bool>& in_valid, sc_signal<bool>& in_ready,
                           sc_signal<bool>& out_valid, sc_signal<bool>& out_ready) {
  block.clk(clk), block.rst(rst);
  block.in_valid(in_valid), block.in_ready(in_ready);
  block.out_valid(out_valid), block.out_ready(out_ready);
}
// ... both sides to the bench's.
template <class Bench>
void wire_handshake(StreamBlock& block, Bench& tb) {
  wire_handshake(block, tb.clk, tb.rst, tb.in_valid, tb.in_ready, tb.out_valid, tb.out_ready);
}

// Building a block with a bad parameter throws ParamError naming the parameter and the value.
template <class Build>
void check_refused(Build build, const std::string& key, const std::string& value) {
  INFO(key << " = " << value);
  try {
    build();
    FAIL("the block accepted " << key << " = " << value);
  } catch (const ParamError& e) {
    CHECK(e.key() == key);
    CHECK(e.value() == value);
  }
}

// The block-specific part of a testbench, a Side, wires the block, drives and samples its data
// pins and judges each word; it may also follow a functional twin:
//   bind(bench), depth(), drive(item), sample(), check(in, out) -> error text (empty: fine),
//   trace(trace file): the block's signals (for run_traced),
//   accepted(item, cycle), reset(words inside), handed_off(index, accepted_at, now, out): errors.
// FixedDepthSide supplies depth() and the last three for a block of a fixed depth, no twin;
// BlockSide and ChainSide also bind and trace one block or two in a row.
template <unsigned Depth>
struct FixedDepthSide {
  unsigned depth() const { return Depth; }
  template <class Item>
  std::string accepted(const Item&, std::int64_t) { return {}; }
  std::string reset(std::size_t) { return {}; }
  template <class Out>
  std::string handed_off(std::size_t, std::int64_t, std::int64_t, const Out&) { return {}; }
};

// The Side part that is the same for every block of a fixed depth: the block, named `instance`
// and built with `args`, its clock, reset and handshake on the bench's, and its trace. The Side
// adds the signals on its data pins (bound in its constructor), drive, sample and check.
template <class Block>
struct BlockSide : FixedDepthSide<Block::kPipelineDepth> {
  Block block;

  template <class... Args>
  explicit BlockSide(const char* instance, const Args&... args) : block(instance, args...) {}
  template <class Bench>
  void bind(Bench& tb) {
    wire_handshake(block, tb);
  }
  void trace(sc_core::sc_trace_file* tf) const { block.trace(tf); }
};

// The same for two blocks in a row, built with the same `args`: the first's input and the
// second's output on the bench, the handshake between them on mid_valid/mid_ready. The Side
// wires the data pins, between the two blocks too.
template <class First, class Second>
struct ChainSide : FixedDepthSide<First::kPipelineDepth + Second::kPipelineDepth> {
  sc_signal<bool> mid_valid{"mid_valid"}, mid_ready{"mid_ready"};
  First first;
  Second second;

  template <class... Args>
  ChainSide(const char* first_instance, const char* second_instance, const Args&... args)
      : first(first_instance, args...), second(second_instance, args...) {}
  template <class Bench>
  void bind(Bench& tb) {
    wire_handshake(first, tb.clk, tb.rst, tb.in_valid, tb.in_ready, mid_valid, mid_ready);
    wire_handshake(second, tb.clk, tb.rst, mid_valid, mid_ready, tb.out_valid, tb.out_ready);
  }
  void trace(sc_core::sc_trace_file* tf) const {
    first.trace(tf);
    second.trace(tf);
  }
};

// A valid/ready stream testbench for a pipelined block: drives `items` through phases of input
// gaps and output stalls with resets mid-stream, and checks the handshake, order, no loss or
// duplication, and that each word shows exactly side.depth() cycles after it was taken (or the
// cycle after the word ahead left).
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
  std::string first_errors() const {
    std::string s;
    for (const auto& e : errors) s += "  " + e + "\n";
    return s;
  }

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


// The long stream (stress_phases: free flow, a reset with a full pipeline, gaps, gaps and stalls, a
// second reset, heavy stalls, then both at random) through the Side's block, and the checks every
// block passes. Returns the bench for the block's own checks.
template <class Side, class Item, class... SideArgs>
std::unique_ptr<StreamBench<Side, Item>> run_stress(const std::vector<Item>& items, unsigned seed,
                                                    SideArgs&&... side_args) {
  REQUIRE(items.size() > 1000);
  auto tb = std::make_unique<StreamBench<Side, Item>>(
      "tb", items, stress_phases(items.size()), seed, std::forward<SideArgs>(side_args)...);
  const std::size_t depth = tb->side.depth();
  tb->run(20 * items.size() + 20 * depth + 1000);
  INFO("depth " << depth << ", first errors:\n" << tb->first_errors());
  CHECK(tb->error_count == 0);
  REQUIRE(tb->done());

  // Conservation: every accepted word came out once, except those inside at a reset.
  REQUIRE(tb->accepted == items.size());
  REQUIRE(tb->dropped.size() == 3);  // the initial reset and the two mid-stream ones
  CHECK(tb->dropped[0] == 0);
  // Reset empties a full pipeline: one word per stage was inside.
  CHECK(tb->dropped[1] == depth);
  CHECK(tb->dropped[2] == depth);
  CHECK(tb->outputs + tb->dropped[1] + tb->dropped[2] == items.size());
  CHECK(tb->checks == tb->outputs);

  // Free flow: one word per cycle, each out exactly the pipeline depth after acceptance.
  CHECK_FALSE(tb->in_ready_low_in_free_flow);
  const auto d = static_cast<std::int64_t>(depth);
  std::size_t at_depth = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (tb->latency[i] < 0) continue;
    if (i < 290) REQUIRE(tb->latency[i] == d);
    REQUIRE(tb->latency[i] >= d);
    if (tb->latency[i] == d) ++at_depth;
  }
  // Stalls delay the words behind them; in a deep pipeline a stall holds more words, so only
  // the free-flow words are sure to see exactly the depth.
  CHECK(at_depth > (depth <= 64 ? items.size() / 4 : 290));
  CHECK(tb->backpressured_cycles > items.size() / 10);  // the stalls reached the input
  return tb;
}

// Runs a short stream (40 words or so: gaps, stalls, a reset) with the Side's blocks traced to
// <dir>/<block>.vcd, next to a copy of rtl_models/<block>.gtkw named <block>.vcd.gtkw (what
// waves/render.sh looks for); <dir> is $COLLNOC_RTL_WAVES_DIR or ./rtl_waves. Then checks that
// the dump holds exactly the signals the save file names, and that each of them changed.
template <class Side, class Item, class... SideArgs>
void run_traced(const std::string& block, std::vector<Item> items, SideArgs&&... side_args) {
  const char* env = std::getenv("COLLNOC_RTL_WAVES_DIR");
  const std::filesystem::path dir = env && *env ? env : "rtl_waves";
  std::filesystem::create_directories(dir);
  const std::string base = (dir / block).string();
  const std::string gtkw = source_path("rtl_models/" + block + ".gtkw");
  std::filesystem::copy_file(gtkw, base + ".vcd.gtkw",
                             std::filesystem::copy_options::overwrite_existing);

  const std::size_t n = items.size();
  StreamBench<Side, Item> tb("tb", std::move(items),
                             {{6, 0.0, 0.0, true}, {n / 2, 0.3, 0.3, false}, {n, 0.0, 0.5, false}},
                             5, std::forward<SideArgs>(side_args)...);
  sc_core::sc_trace_file* tf = sc_core::sc_create_vcd_trace_file(base.c_str());
  tf->set_time_unit(100, sc_core::SC_PS);  // the clock's falling edge is at half a cycle
  tb.side.trace(tf);
  tb.run(40 * n + 100);
  sc_core::sc_close_vcd_trace_file(tf);
  CHECK(tb.error_count == 0);
  REQUIRE(tb.done());

  const auto in_dump = vcd_signals(base + ".vcd");
  const auto in_save = gtkw_signals(gtkw);
  REQUIRE(!in_save.empty());
  for (const auto& name : in_save) {
    INFO("signal " << name << " of " << gtkw);
    REQUIRE(in_dump.count(name) == 1);
    CHECK(in_dump.at(name) >= 2);  // it moved
  }
  const std::set<std::string> saved(in_save.begin(), in_save.end());
  for (const auto& [name, values] : in_dump) {
    INFO("signal " << name << " of the dump is missing from " << gtkw);
    CHECK(saved.count(name) == 1);
  }
}

}  // namespace collnoc::test
