#include "rtl_models/fpc_decoder_rtl.hpp"

namespace collnoc {

using sc_dt::sc_uint;

FpcDecoderRtl::FpcDecoderRtl(sc_core::sc_module_name name) : StreamBlock(name, kPipelineDepth) {
  trace_also(in_code, in_bits, out_word, out_error);
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

void FpcDecoderRtl::load(unsigned) {
  bool error = false;
  out_word.write(decode(in_code.read(), in_bits.read(), error));
  out_error.write(error);
}

void FpcDecoderRtl::clear() {
  out_word.write(0);
  out_error.write(false);
}

}  // namespace collnoc
