#include "rtl_models/fpc_decoder_rtl.hpp"

#include <string>

namespace collnoc {

using sc_dt::sc_uint;

FpcDecoderRtl::FpcDecoderRtl(sc_core::sc_module_name name) : sc_module(name) {
  SC_HAS_PROCESS(FpcDecoderRtl);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
  SC_METHOD(update_in_ready);
  sensitive << rst << out_valid << out_ready;
}

sc_uint<32> FpcDecoderRtl::decode(sc_uint<35> code, sc_uint<6> bits, bool& error) {
  error = true;
  const unsigned n = bits.to_uint();
  if (n < 17 || n > 35) return 0;  // shortest code 17 bits (101 + 14), longest 35
  if (n < 35 && (code >> n) != 0) return 0;
  const unsigned prefix = static_cast<unsigned>(code >> (n - 3)) & 0b111u;
  const unsigned data_bits = prefix == 0b111 ? 32u : prefix == 0b110 ? 0u : 19u - prefix;
  if (data_bits == 0 || n != 3 + data_bits) return 0;
  error = false;
  return sc_uint<32>(code.range(data_bits - 1, 0));  // the dropped top bits were zero
}

void FpcDecoderRtl::on_clock() {
  if (rst.read()) {
    out_valid.write(false);
    out_word.write(0);
    out_error.write(false);
    return;
  }
  const bool out_free = !out_valid.read() || out_ready.read();
  if (!out_free) return;
  const bool take = in_valid.read();
  out_valid.write(take);
  if (take) {
    bool error = false;
    out_word.write(decode(in_code.read(), in_bits.read(), error));
    out_error.write(error);
  }
}

void FpcDecoderRtl::update_in_ready() {
  in_ready.write(!rst.read() && (!out_valid.read() || out_ready.read()));
}

void FpcDecoderRtl::trace(sc_core::sc_trace_file* tf) const {
  const std::string p = std::string(name()) + ".";
  sc_core::sc_trace(tf, clk, p + "clk");
  sc_core::sc_trace(tf, rst, p + "rst");
  sc_core::sc_trace(tf, in_valid, p + "in_valid");
  sc_core::sc_trace(tf, in_ready, p + "in_ready");
  sc_core::sc_trace(tf, in_code, p + "in_code");
  sc_core::sc_trace(tf, in_bits, p + "in_bits");
  sc_core::sc_trace(tf, out_valid, p + "out_valid");
  sc_core::sc_trace(tf, out_ready, p + "out_ready");
  sc_core::sc_trace(tf, out_word, p + "out_word");
  sc_core::sc_trace(tf, out_error, p + "out_error");
}

}  // namespace collnoc
