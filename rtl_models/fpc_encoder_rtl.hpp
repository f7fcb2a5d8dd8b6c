// Pin-level FPC encoder (SPEC 2.1): one 32-bit word in, its variable-length code out, one word
// per cycle. Functional twin: collnoc::FpcCodec (ni/fpc_codec.hpp); tests/test_rtl_codecs.cpp
// checks it bit- and cycle-exact against it. Clock, reset, handshake and timing: StreamBlock.
//
// Two register stages, kPipelineDepth = 2:
//   classify  the prefix from the word's leading-zero run (six range compares, a priority encoder)
//   pack      code = prefix . data, right-aligned in out_code; out_bits = 3 + data bits (17..35)
// A word accepted at rising edge t is in stage 1 after edge t and on out_code/out_bits after
// edge t + 1, so the earliest edge a consumer takes it is t + 2.
#pragma once
#include <systemc>

#include "rtl_models/stream_block.hpp"

namespace collnoc {

class FpcEncoderRtl : public StreamBlock {
 public:
  static constexpr unsigned kPipelineDepth = 2;  // cycles, input to earliest output transfer

  sc_core::sc_in<sc_dt::sc_uint<32>> in_word{"in_word"};
  sc_core::sc_out<sc_dt::sc_uint<35>> out_code{"out_code"};  // the code in its low out_bits bits
  sc_core::sc_out<sc_dt::sc_uint<6>> out_bits{"out_bits"};   // 17..35

  // Traces the stage-1 registers too: rtl_models/fpc_encoder_rtl.gtkw.
  explicit FpcEncoderRtl(sc_core::sc_module_name name);

  // The prefix the classify stage finds (0b000..0b101, or 0b111 for a word sent whole).
  static sc_dt::sc_uint<3> classify(sc_dt::sc_uint<32> word);

 private:
  void load(unsigned stage) override;  // 1: classify, 2: pack
  void clear() override;

  // Stage 1 (classify) registers; its valid bit is stage_valid(1).
  sc_core::sc_signal<sc_dt::sc_uint<32>> s1_word_{"s1_word"};
  sc_core::sc_signal<sc_dt::sc_uint<3>> s1_prefix_{"s1_prefix"};
};

}  // namespace collnoc
