#include "rtl_models/fpc_encoder_rtl.hpp"

#include <string>

namespace collnoc {

using sc_dt::sc_uint;

FpcEncoderRtl::FpcEncoderRtl(sc_core::sc_module_name name) : sc_module(name) {
  SC_HAS_PROCESS(FpcEncoderRtl);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
  SC_METHOD(update_in_ready);
  sensitive << rst << s1_valid_ << out_valid << out_ready;
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

void FpcEncoderRtl::on_clock() {
  if (rst.read()) {
    s1_valid_.write(false);
    s1_word_.write(0);
    s1_prefix_.write(0);
    out_valid.write(false);
    out_code.write(0);
    out_bits.write(0);
    return;
  }
  // A stage loads when it is empty or its word moves on at this edge.
  const bool out_free = !out_valid.read() || out_ready.read();
  const bool s1_free = !s1_valid_.read() || out_free;

  if (out_free) {  // pack stage
    out_valid.write(s1_valid_.read());
    if (s1_valid_.read()) {
      const sc_uint<3> prefix = s1_prefix_.read();
      const sc_uint<32> word = s1_word_.read();
      const unsigned data_bits = prefix == 0b111 ? 32u : 19u - prefix.to_uint();
      sc_uint<35> code = sc_uint<35>(prefix) << data_bits;
      code |= data_bits == 32 ? sc_uint<35>(word) : sc_uint<35>(word.range(data_bits - 1, 0));
      out_code.write(code);
      out_bits.write(3 + data_bits);
    }
  }
  if (s1_free) {  // classify stage
    const bool take = in_valid.read();
    s1_valid_.write(take);
    if (take) {
      const sc_uint<32> word = in_word.read();
      s1_word_.write(word);
      s1_prefix_.write(classify(word));
    }
  }
}

void FpcEncoderRtl::update_in_ready() {
  const bool out_free = !out_valid.read() || out_ready.read();
  in_ready.write(!rst.read() && (!s1_valid_.read() || out_free));
}

void FpcEncoderRtl::trace(sc_core::sc_trace_file* tf) const {
  const std::string p = std::string(name()) + ".";
  sc_core::sc_trace(tf, clk, p + "clk");
  sc_core::sc_trace(tf, rst, p + "rst");
  sc_core::sc_trace(tf, in_valid, p + "in_valid");
  sc_core::sc_trace(tf, in_ready, p + "in_ready");
  sc_core::sc_trace(tf, in_word, p + "in_word");
  sc_core::sc_trace(tf, s1_valid_, p + "s1_valid");
  sc_core::sc_trace(tf, s1_prefix_, p + "s1_prefix");
  sc_core::sc_trace(tf, s1_word_, p + "s1_word");
  sc_core::sc_trace(tf, out_valid, p + "out_valid");
  sc_core::sc_trace(tf, out_ready, p + "out_ready");
  sc_core::sc_trace(tf, out_code, p + "out_code");
  sc_core::sc_trace(tf, out_bits, p + "out_bits");
}

}  // namespace collnoc
