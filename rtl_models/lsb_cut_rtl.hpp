// Pin-level LSB-cut (SPEC 2.2) for 64-bit IEEE-754 double patterns, one double per cycle.
// Functional twin: collnoc::LsbCutCodec (ni/lsb_cut_codec.hpp).
//   LsbCutRtl  the sender's cut: pattern in, its top 64 - b bits out (right-aligned in out_kept,
//              the field LsbCutCodec::encode writes; the b high bits of out_kept are zero)
//   LsbPadRtl  the receiver's pad: kept bits in (right-aligned), the pattern out with the b
//              dropped bits filled with 1 then b - 1 zeros (LsbCutCodec::round_trip)
// b is fixed at construction, 1..52, else ParamError("ni.lsb_cut_bits", ...) as the codec does.
// In hardware both are wiring (a fixed shift) plus one register stage: kPipelineDepth = 1.
// Handshake and reset as in FpcEncoderRtl (rtl_models/README.md).
#pragma once
#include <systemc>

namespace collnoc {

namespace rtl_detail {
// A base checked before sc_module is built, so a bad b throws before any SystemC object exists.
struct CheckedCutBits {
  explicit CheckedCutBits(unsigned cut_bits);
  unsigned cut_bits_;
};
}  // namespace rtl_detail

class LsbCutRtl : private rtl_detail::CheckedCutBits, public sc_core::sc_module {
 public:
  static constexpr unsigned kPipelineDepth = 1;

  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_in<bool> rst{"rst"};  // synchronous, active high

  sc_core::sc_in<bool> in_valid{"in_valid"};
  sc_core::sc_out<bool> in_ready{"in_ready"};
  sc_core::sc_in<sc_dt::sc_uint<64>> in_pattern{"in_pattern"};  // a double's bits

  sc_core::sc_out<bool> out_valid{"out_valid"};
  sc_core::sc_in<bool> out_ready{"out_ready"};
  sc_core::sc_out<sc_dt::sc_uint<64>> out_kept{"out_kept"};  // pattern >> b

  LsbCutRtl(sc_core::sc_module_name name, unsigned cut_bits);

  unsigned cut_bits() const { return cut_bits_; }
  unsigned kept_bits() const { return 64 - cut_bits_; }
  // Adds the ports to `tf` as "<this module's name>.<port>". Names: rtl_models/lsb_cut_rtl.gtkw.
  void trace(sc_core::sc_trace_file* tf) const;

 private:
  void on_clock();
  void update_in_ready();
};

class LsbPadRtl : private rtl_detail::CheckedCutBits, public sc_core::sc_module {
 public:
  static constexpr unsigned kPipelineDepth = 1;

  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_in<bool> rst{"rst"};  // synchronous, active high

  sc_core::sc_in<bool> in_valid{"in_valid"};
  sc_core::sc_out<bool> in_ready{"in_ready"};
  sc_core::sc_in<sc_dt::sc_uint<64>> in_kept{"in_kept"};  // low 64 - b bits used, the rest ignored

  sc_core::sc_out<bool> out_valid{"out_valid"};
  sc_core::sc_in<bool> out_ready{"out_ready"};
  sc_core::sc_out<sc_dt::sc_uint<64>> out_pattern{"out_pattern"};  // kept . 1 0...0

  LsbPadRtl(sc_core::sc_module_name name, unsigned cut_bits);

  unsigned cut_bits() const { return cut_bits_; }
  unsigned kept_bits() const { return 64 - cut_bits_; }
  // Adds the ports to `tf` as "<this module's name>.<port>". Names: rtl_models/lsb_pad_rtl.gtkw.
  void trace(sc_core::sc_trace_file* tf) const;

 private:
  void on_clock();
  void update_in_ready();
};

}  // namespace collnoc
