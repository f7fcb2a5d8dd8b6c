#include "rtl_models/fpc_encoder_rtl.hpp"

namespace collnoc {

using sc_dt::sc_uint;

FpcEncoderRtl::FpcEncoderRtl(sc_core::sc_module_name name) : StreamBlock(name, kPipelineDepth) {
  trace_also(in_word);
  trace_also(stage_valid(1), "s1_valid");
  trace_also(s1_prefix_, s1_word_, out_code, out_bits);
}

sc_uint<3> FpcEncoderRtl::classify(sc_uint<32> word) {
  // Highest priority first: the longest zero run from the MSB that a pattern covers.
  if (word.range(31, 14) == 0) return 0b101;  // top 18 (or more) bits zero
  if (word.range(31, 15) == 0) return 0b100;  // 17
  if (word.range(31, 16) == 0) return 0b011;  // 16
  if (word.range(31, 17) == 0) return 0b010;  // 15
  if (word.range(31, 18) == 0) return 0b001;  // 14
  if (word.range(31, 19) == 0) return 0b000;  // 13
  return 0b111;                               // sent whole
}

void FpcEncoderRtl::load(unsigned stage) {
  if (stage == 1) {  // classify
    const sc_uint<32> word = in_word.read();
    s1_word_.write(word);
    s1_prefix_.write(classify(word));
    return;
  }
  // pack: the prefix above the data bits of the word
  const sc_uint<3> prefix = s1_prefix_.read();
  const sc_uint<32> word = s1_word_.read();
  const unsigned data_bits = prefix == 0b111 ? 32u : 19u - prefix.to_uint();
  sc_uint<35> code = sc_uint<35>(prefix) << data_bits;
  code |= data_bits == 32 ? sc_uint<35>(word) : sc_uint<35>(word.range(data_bits - 1, 0));
  out_code.write(code);
  out_bits.write(3 + data_bits);
}

void FpcEncoderRtl::clear() {
  s1_word_.write(0);
  s1_prefix_.write(0);
  out_code.write(0);
  out_bits.write(0);
}

}  // namespace collnoc
