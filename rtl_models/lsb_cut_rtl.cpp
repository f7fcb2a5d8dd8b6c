#include "rtl_models/lsb_cut_rtl.hpp"

#include <cstdint>
#include <string>

#include "noc/types.hpp"  // ParamError (header only: rtl_models links SystemC alone)

namespace collnoc {

LsbCutWidth::LsbCutWidth(unsigned cut_bits) : cut_bits_(cut_bits) {
  // The same rule and message as validate(CodecParams) in ni/codec.cpp.
  if (cut_bits < 1 || cut_bits > 52)
    throw ParamError("ni.lsb_cut_bits", std::to_string(cut_bits),
                     "must be 1..52 (low mantissa bits cut from each double)");
}

LsbCutRtl::LsbCutRtl(sc_core::sc_module_name name, unsigned cut_bits)
    : LsbCutWidth(cut_bits), StreamBlock(name, kPipelineDepth) {
  trace_also(in_pattern, out_kept);
}

void LsbCutRtl::load(unsigned) { out_kept.write(in_pattern.read() >> cut_bits()); }

LsbPadRtl::LsbPadRtl(sc_core::sc_module_name name, unsigned cut_bits)
    : LsbCutWidth(cut_bits), StreamBlock(name, kPipelineDepth) {
  trace_also(in_kept, out_pattern);
}

void LsbPadRtl::load(unsigned) {
  // Bits of in_kept above 64 - b fall off the top; the pad is 1 then b - 1 zeros.
  const std::uint64_t kept = in_kept.read();
  out_pattern.write((kept << cut_bits()) | (std::uint64_t{1} << (cut_bits() - 1)));
}

}  // namespace collnoc
