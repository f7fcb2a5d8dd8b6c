// Pin-level FPC encoder (SPEC 2.1): one 32-bit word in, its variable-length code out, one word
// per cycle. Functional twin: collnoc::FpcCodec (ni/fpc_codec.hpp); tests/test_rtl_codecs.cpp
// checks it bit- and cycle-exact against it. Ports, handshake and timing: rtl_models/README.md.
//
// Two register stages, kPipelineDepth = 2:
//   classify  the prefix from the word's leading-zero run (six range compares, a priority encoder)
//   pack      code = prefix . data, right-aligned in out_code; out_bits = 3 + data bits (17..35)
// A word accepted at rising edge t (in_valid && in_ready high there) is in stage 1 after edge t
// and on out_valid/out_code/out_bits after edge t + 1, so the earliest edge a consumer takes it
// is t + 2: two cycles, one per stage. Under a stall it is taken the edge after the word ahead of
// it left, if that is later.
//
// Handshake (both sides): a transfer happens at a rising edge where valid and ready are both
// high. in_ready = !rst && (stage 1 empty || it moves on this edge), combinational from out_ready,
// so a full pipeline keeps streaming while out_ready is high and holds everything (no loss, no
// duplicate) while it is low. out_valid and out_code/out_bits stay stable until taken.
// Reset is synchronous and active high: it empties both stages; in_ready is low while it is held.
#pragma once
#include <systemc>

namespace collnoc {

class FpcEncoderRtl : public sc_core::sc_module {
 public:
  static constexpr unsigned kPipelineDepth = 2;  // cycles, input to earliest output transfer

  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_in<bool> rst{"rst"};  // synchronous, active high

  sc_core::sc_in<bool> in_valid{"in_valid"};
  sc_core::sc_out<bool> in_ready{"in_ready"};
  sc_core::sc_in<sc_dt::sc_uint<32>> in_word{"in_word"};

  sc_core::sc_out<bool> out_valid{"out_valid"};
  sc_core::sc_in<bool> out_ready{"out_ready"};
  sc_core::sc_out<sc_dt::sc_uint<35>> out_code{"out_code"};  // the code in its low out_bits bits
  sc_core::sc_out<sc_dt::sc_uint<6>> out_bits{"out_bits"};   // 17..35

  explicit FpcEncoderRtl(sc_core::sc_module_name name);

  // Adds the ports and the stage-1 registers to `tf` as "<this module's name>.<signal>"; call
  // before the simulation starts. Signal names: rtl_models/fpc_encoder_rtl.gtkw.
  void trace(sc_core::sc_trace_file* tf) const;

  // The prefix the classify stage finds (0b000..0b101, or 0b111 for a word sent whole).
  static sc_dt::sc_uint<3> classify(sc_dt::sc_uint<32> word);

 private:
  void on_clock();        // clocked: both register stages
  void update_in_ready();  // combinational: in_ready from rst, stage 1 and the output stage

  // Stage 1 (classify) registers.
  sc_core::sc_signal<bool> s1_valid_{"s1_valid"};
  sc_core::sc_signal<sc_dt::sc_uint<32>> s1_word_{"s1_word"};
  sc_core::sc_signal<sc_dt::sc_uint<3>> s1_prefix_{"s1_prefix"};
};

}  // namespace collnoc
