#include "rtl_models/xor_engine_rtl.hpp"

#include <algorithm>
#include <string>

#include "noc/types.hpp"  // ParamError (header only: rtl_models links SystemC alone)

namespace collnoc {

using sc_dt::sc_uint;

namespace rtl_detail {

CheckedXorLatency::CheckedXorLatency(unsigned latency_cycles) : latency_cycles_(latency_cycles) {
  if (latency_cycles < 1 || latency_cycles > XorEngineRtl::kMaxLatencyCycles)
    throw ParamError("nc.xor_latency_cycles", std::to_string(latency_cycles),
                     "the pin-level XOR engine has 1..1024 register stages (latency 0 is the "
                     "combinational XorEngine, without a register of its own)");
}

}  // namespace rtl_detail

XorEngineRtl::XorEngineRtl(sc_core::sc_module_name name, unsigned latency_cycles)
    : CheckedXorLatency(latency_cycles), sc_module(name),
      valid_(latency_cycles - 1, false), word_(latency_cycles - 1, 0) {
  SC_HAS_PROCESS(XorEngineRtl);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
  SC_METHOD(update_in_ready);
  sensitive << rst << full_ << out_ready;
}

void XorEngineRtl::on_clock() {
  if (rst.read()) {
    std::fill(valid_.begin(), valid_.end(), false);
    std::fill(word_.begin(), word_.end(), 0u);
    out_valid.write(false);
    out_word.write(0);
    full_.write(false);
    occupancy_.write(0);
    return;
  }
  // From the output back to the input: a stage loads when it is empty or its word moves on at
  // this edge, and it loads the value its predecessor held before the edge (not yet updated).
  const std::size_t inner = valid_.size();  // stages 1..D-1 are valid_[0..D-2]
  const bool in_v = in_valid.read();
  const std::uint32_t in_x = in_a.read().to_uint() ^ in_b.read().to_uint();  // the XOR gates
  bool moves = !out_valid.read() || out_ready.read();  // the output register loads
  bool out_v = out_valid.read();
  if (moves) {
    out_v = inner ? valid_[inner - 1] : in_v;
    out_valid.write(out_v);
    if (out_v) out_word.write(inner ? word_[inner - 1] : in_x);
  }
  unsigned count = out_v ? 1u : 0u;
  for (std::size_t i = inner; i-- > 0;) {
    moves = !valid_[i] || moves;
    if (moves) {
      valid_[i] = i ? valid_[i - 1] : in_v;
      if (valid_[i]) word_[i] = i ? word_[i - 1] : in_x;
    }
    count += valid_[i] ? 1u : 0u;
  }
  occupancy_.write(count);
  full_.write(count == latency_cycles_);
}

void XorEngineRtl::update_in_ready() {
  in_ready.write(!rst.read() && (!full_.read() || out_ready.read()));
}

void XorEngineRtl::trace(sc_core::sc_trace_file* tf) const {
  const std::string p = std::string(name()) + ".";
  sc_core::sc_trace(tf, clk, p + "clk");
  sc_core::sc_trace(tf, rst, p + "rst");
  sc_core::sc_trace(tf, in_valid, p + "in_valid");
  sc_core::sc_trace(tf, in_ready, p + "in_ready");
  sc_core::sc_trace(tf, in_a, p + "in_a");
  sc_core::sc_trace(tf, in_b, p + "in_b");
  sc_core::sc_trace(tf, occupancy_, p + "occupancy");
  sc_core::sc_trace(tf, full_, p + "full");
  sc_core::sc_trace(tf, out_valid, p + "out_valid");
  sc_core::sc_trace(tf, out_ready, p + "out_ready");
  sc_core::sc_trace(tf, out_word, p + "out_word");
}

}  // namespace collnoc
