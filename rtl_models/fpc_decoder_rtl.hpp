// Pin-level FPC decoder (SPEC 2.1): one code word (as FpcEncoderRtl emits it: the code in the low
// in_bits bits of in_code) in, the restored 32-bit word out, one word per cycle. Functional twin:
// FpcCodec::decode (ni/fpc_codec.hpp). It takes code/length pairs, not the packed bit stream: a
// receiver would put a bit aligner in front (a 3-bit prefix peek, then a shift by the length).
//
// One register stage, kPipelineDepth = 1: a code accepted at rising edge t is decoded on out_word
// right after edge t; the earliest edge a consumer takes it is t + 1. Clock, reset and handshake:
// StreamBlock.
//
// out_error flags a code the encoder could not have written (FpcCodec::decode throws for it):
// the unused prefix 110, a length that is not 3 + the prefix's data bits, or bits set above the
// length. Such a code still takes one transfer; out_word is 0 with it.
#pragma once
#include <systemc>

#include "rtl_models/stream_block.hpp"

namespace collnoc {

class FpcDecoderRtl : public StreamBlock {
 public:
  static constexpr unsigned kPipelineDepth = 1;

  sc_core::sc_in<sc_dt::sc_uint<35>> in_code{"in_code"};
  sc_core::sc_in<sc_dt::sc_uint<6>> in_bits{"in_bits"};
  sc_core::sc_out<sc_dt::sc_uint<32>> out_word{"out_word"};
  sc_core::sc_out<bool> out_error{"out_error"};

  // Signal names: rtl_models/fpc_decoder_rtl.gtkw.
  explicit FpcDecoderRtl(sc_core::sc_module_name name);

  // The combinational decode: the word, or error = true (and word 0) for an impossible code.
  static sc_dt::sc_uint<32> decode(sc_dt::sc_uint<35> code, sc_dt::sc_uint<6> bits, bool& error);

 private:
  void load(unsigned stage) override;
  void clear() override;
};

}  // namespace collnoc
