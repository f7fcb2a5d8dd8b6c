#include "rtl_models/lsb_cut_rtl.hpp"

#include <cstdint>
#include <string>

#include "noc/types.hpp"  // ParamError (header only: rtl_models links SystemC alone)

namespace collnoc {

using sc_dt::sc_uint;

namespace rtl_detail {

CheckedCutBits::CheckedCutBits(unsigned cut_bits) : cut_bits_(cut_bits) {
  // The same rule and message as validate(CodecParams) in ni/codec.cpp.
  if (cut_bits < 1 || cut_bits > 52)
    throw ParamError("ni.lsb_cut_bits", std::to_string(cut_bits),
                     "must be 1..52 (low mantissa bits cut from each double)");
}

}  // namespace rtl_detail

// ---------------------------------------------------------------- cut

LsbCutRtl::LsbCutRtl(sc_core::sc_module_name name, unsigned cut_bits)
    : CheckedCutBits(cut_bits), sc_module(name) {
  SC_HAS_PROCESS(LsbCutRtl);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
  SC_METHOD(update_in_ready);
  sensitive << rst << out_valid << out_ready;
}

void LsbCutRtl::on_clock() {
  if (rst.read()) {
    out_valid.write(false);
    out_kept.write(0);
    return;
  }
  if (out_valid.read() && !out_ready.read()) return;  // stalled: hold
  const bool take = in_valid.read();
  out_valid.write(take);
  if (take) out_kept.write(in_pattern.read() >> cut_bits_);
}

void LsbCutRtl::update_in_ready() {
  in_ready.write(!rst.read() && (!out_valid.read() || out_ready.read()));
}

void LsbCutRtl::trace(sc_core::sc_trace_file* tf) const {
  const std::string p = std::string(name()) + ".";
  sc_core::sc_trace(tf, clk, p + "clk");
  sc_core::sc_trace(tf, rst, p + "rst");
  sc_core::sc_trace(tf, in_valid, p + "in_valid");
  sc_core::sc_trace(tf, in_ready, p + "in_ready");
  sc_core::sc_trace(tf, in_pattern, p + "in_pattern");
  sc_core::sc_trace(tf, out_valid, p + "out_valid");
  sc_core::sc_trace(tf, out_ready, p + "out_ready");
  sc_core::sc_trace(tf, out_kept, p + "out_kept");
}

// ---------------------------------------------------------------- pad

LsbPadRtl::LsbPadRtl(sc_core::sc_module_name name, unsigned cut_bits)
    : CheckedCutBits(cut_bits), sc_module(name) {
  SC_HAS_PROCESS(LsbPadRtl);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
  SC_METHOD(update_in_ready);
  sensitive << rst << out_valid << out_ready;
}

void LsbPadRtl::on_clock() {
  if (rst.read()) {
    out_valid.write(false);
    out_pattern.write(0);
    return;
  }
  if (out_valid.read() && !out_ready.read()) return;  // stalled: hold
  const bool take = in_valid.read();
  out_valid.write(take);
  if (take) {
    // Bits of in_kept above 64 - b fall off the top; the pad is 1 then b - 1 zeros.
    const std::uint64_t kept = in_kept.read();
    out_pattern.write((kept << cut_bits_) | (std::uint64_t{1} << (cut_bits_ - 1)));
  }
}

void LsbPadRtl::update_in_ready() {
  in_ready.write(!rst.read() && (!out_valid.read() || out_ready.read()));
}

void LsbPadRtl::trace(sc_core::sc_trace_file* tf) const {
  const std::string p = std::string(name()) + ".";
  sc_core::sc_trace(tf, clk, p + "clk");
  sc_core::sc_trace(tf, rst, p + "rst");
  sc_core::sc_trace(tf, in_valid, p + "in_valid");
  sc_core::sc_trace(tf, in_ready, p + "in_ready");
  sc_core::sc_trace(tf, in_kept, p + "in_kept");
  sc_core::sc_trace(tf, out_valid, p + "out_valid");
  sc_core::sc_trace(tf, out_ready, p + "out_ready");
  sc_core::sc_trace(tf, out_pattern, p + "out_pattern");
}

}  // namespace collnoc
