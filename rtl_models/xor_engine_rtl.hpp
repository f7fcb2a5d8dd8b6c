// Pin-level XOR engine (SPEC 3.1): two 32-bit words in, their XOR out, one word pair per cycle.
// Functional twin: collnoc::XorEngine (ni/xor_engine.hpp) with packets one word long;
// tests/test_rtl_xor.cpp checks it bit- and cycle-exact against it. Clock, reset, handshake and
// timing: StreamBlock.
//
// The depth D is the configured latency, latency_cycles = 1..1024
// (XorEngineParams::xor_latency_cycles). The XOR gates sit in front of stage 1; stages 2..D are
// registers that carry the word on; stage D is the output register (out_valid, out_word). A pair
// accepted at edge t leaves at edge t + D at the earliest, as XorEngine's result is ready
// L = D cycles after submit. Latency 0 (XorEngine's combinational case) has no register stage
// and is not built here: the constructor throws ParamError("nc.xor_latency_cycles", ...); in
// hardware the gates then fold into the stage that takes the word (the NI's injection register).
// The pipeline's `full` and `occupancy` registers are traced.
#pragma once
#include <cstdint>
#include <vector>

#include <systemc>

#include "rtl_models/stream_block.hpp"

namespace collnoc {

class XorEngineRtl : public StreamBlock {
 public:
  static constexpr unsigned kMaxLatencyCycles = StreamBlock::kMaxDepth;

  sc_core::sc_in<sc_dt::sc_uint<32>> in_a{"in_a"};  // a word of packet A
  sc_core::sc_in<sc_dt::sc_uint<32>> in_b{"in_b"};  // the word of packet B at the same place
  sc_core::sc_out<sc_dt::sc_uint<32>> out_word{"out_word"};  // in_a ^ in_b

  // `latency_cycles` = pipeline depth, 1..1024, else ParamError("nc.xor_latency_cycles", ...),
  // thrown before any SystemC object is built. Signal names: rtl_models/xor_engine_rtl.gtkw.
  XorEngineRtl(sc_core::sc_module_name name, unsigned latency_cycles);

 private:
  void load(unsigned stage) override;
  void clear() override;

  std::vector<std::uint32_t> word_;  // stages 1..D-1 (stage D is out_word)
};

}  // namespace collnoc
