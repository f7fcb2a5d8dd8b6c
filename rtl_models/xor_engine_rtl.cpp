#include "rtl_models/xor_engine_rtl.hpp"

#include <algorithm>
#include <string>

#include "noc/types.hpp"  // ParamError (header only: rtl_models links SystemC alone)

namespace collnoc {

namespace {

// Checked as the base's argument, before sc_module is built.
unsigned checked_latency(unsigned latency_cycles) {
  if (latency_cycles < 1 || latency_cycles > XorEngineRtl::kMaxLatencyCycles)
    throw ParamError("nc.xor_latency_cycles", std::to_string(latency_cycles),
                     "the pin-level XOR engine has 1..1024 register stages (latency 0 is the "
                     "combinational XorEngine, without a register of its own)");
  return latency_cycles;
}

}  // namespace

XorEngineRtl::XorEngineRtl(sc_core::sc_module_name name, unsigned latency_cycles)
    : StreamBlock(name, checked_latency(latency_cycles)), word_(latency_cycles - 1, 0) {
  trace_also(in_a, in_b, occupancy_, full_, out_word);
}

void XorEngineRtl::load(unsigned stage) {
  const std::uint32_t word = stage == 1 ? in_a.read().to_uint() ^ in_b.read().to_uint()  // gates
                                        : word_[stage - 2];
  if (stage == pipeline_depth())
    out_word.write(word);
  else
    word_[stage - 1] = word;
}

void XorEngineRtl::clear() {
  std::fill(word_.begin(), word_.end(), 0u);
  out_word.write(0);
}

}  // namespace collnoc
