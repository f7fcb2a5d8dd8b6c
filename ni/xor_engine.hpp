// The XOR engine of network coding (SPEC 3.1): a block at the NI that takes two packets of equal
// length and hands back their bitwise XOR, xor_latency_cycles later, for injection. Decoding is
// the same operation: A = (A xor B) xor B. The bits are real: the result is computed from the
// payload words, not counted.
//
// Timing model: a unit one packet wide. The coded packet can be taken (take) exactly
// L = xor_latency_cycles cycles after submit; L = 0 is combinational, the result is there in the
// cycle it was submitted. Pipelined (the default) it accepts a pair every cycle and pairs overlap,
// so L does not limit the throughput; unpipelined (one datapath iterated L cycles, as a small
// engine would be) it accepts the next pair max(L, 1) cycles after the last, so pairs queue.
// Results wait, in order, in an output buffer until the NI takes them: the engine never stalls
// (the NI's injection queue holds what waits).
// rtl_models/xor_engine_rtl.hpp is the pin-level twin, one word per cycle (docs/network_coding.md).
//
// The engine has no process of its own: its owner (an NI, or firmware) passes the current cycle
// and can wake itself for next_ready_cycle() (ClockedModule::wake_at, or wait in a thread).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include <systemc>

#include "noc/sim/fifo.hpp"
#include "noc/types.hpp"

namespace collnoc {

constexpr unsigned kMaxXorLatencyCycles = 1024;

struct XorEngineParams {
  unsigned xor_latency_cycles = 1;  // submit to result; 0 = combinational
  bool xor_pipelined = true;        // a pair every cycle; false: busy max(L, 1) cycles per pair

  static constexpr UintRange xor_latency_cycles_range{0, kMaxXorLatencyCycles};
};

// ParamError("nc.xor_latency_cycles", ...) for a latency outside 0..kMaxXorLatencyCycles.
void validate(const XorEngineParams& params);

namespace nc_detail {
// A base checked before sc_module is built, so bad parameters throw before any SystemC object
// exists.
struct CheckedXorParams {
  explicit CheckedXorParams(const XorEngineParams& params);
  XorEngineParams params_;
};
}  // namespace nc_detail

class XorEngine : private nc_detail::CheckedXorParams, public sc_core::sc_module {
 public:
  explicit XorEngine(sc_core::sc_module_name name, const XorEngineParams& params = {});

  unsigned latency_cycles() const { return params_.xor_latency_cycles; }

  bool pipelined() const { return params_.xor_pipelined; }
  // Cycles from one accepted pair to the next: 1 pipelined, max(L, 1) unpipelined.
  Cycle issue_interval_cycles() const {
    return pipelined() ? 1 : std::max<Cycle>(params_.xor_latency_cycles, 1);
  }
  // False until issue_interval_cycles() have passed since the last pair went in.
  bool can_accept(Cycle now) const {
    return !submitted_any_ || now >= last_submit_ + issue_interval_cycles();
  }
  // Starts coding a and b in cycle `now`. Throws std::invalid_argument for packets of unequal
  // length (or empty ones), std::logic_error when !can_accept(now) or `now` is earlier than the
  // previous submit. Nothing changes when it throws.
  void submit(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b, Cycle now);
  // The same for two packets of `words` words each, where they lie (no copies of the inputs).
  void submit(const std::uint32_t* a, const std::uint32_t* b, std::size_t words, Cycle now);

  // The oldest result can be taken in cycle `now`.
  bool ready(Cycle now) const { return !results_.empty() && results_.front().ready_at <= now; }
  // The cycle the oldest result is (or was) ready; kNever when none is inside.
  Cycle next_ready_cycle() const { return results_.empty() ? kNever : results_.front().ready_at; }
  // Hands out the oldest result; std::logic_error unless ready(now).
  std::vector<std::uint32_t> take(Cycle now);
  // Pairs submitted and not yet taken.
  std::size_t in_flight() const { return results_.size(); }
  // A reset: drops every pair inside. The counters keep what was done.
  void reset() { results_.clear(); }

  // The datapath: word-wise a xor b (std::invalid_argument for unequal lengths).
  static std::vector<std::uint32_t> xor_words(const std::vector<std::uint32_t>& a,
                                              const std::vector<std::uint32_t>& b);

  // Counters. An operation is one packet pair, coding or decoding alike.
  std::uint64_t xor_operations() const { return xor_operations_; }
  std::uint64_t words_xored() const { return words_xored_; }
  // Cycles in which at least one pair is inside the pipeline: a pair submitted in cycle t
  // occupies t .. t + max(L, 1) - 1. Counted at submit, so cycles still ahead are included.
  std::uint64_t busy_cycles() const { return busy_cycles_; }

 private:
  // The checks of a submit (throws; `empty`: no words in the pair).
  void check_submit(bool empty, Cycle now) const;
  // A checked pair's result goes into the pipeline.
  void start(std::vector<std::uint32_t>&& coded, Cycle now);
  struct Result {
    Cycle ready_at;
    std::vector<std::uint32_t> words;
  };
  Fifo<Result> results_;
  bool submitted_any_ = false;
  Cycle last_submit_ = 0;
  Cycle busy_until_ = 0;  // first cycle after the last busy one
  std::uint64_t xor_operations_ = 0;
  std::uint64_t words_xored_ = 0;
  std::uint64_t busy_cycles_ = 0;
};

}  // namespace collnoc
