// Pin-level LSB-cut (SPEC 2.2) for 64-bit IEEE-754 double patterns, one double per cycle.
// Functional twin: collnoc::LsbCutCodec (ni/lsb_cut_codec.hpp).
//   LsbCutRtl  the sender's cut: pattern in, its top 64 - b bits out (right-aligned in out_kept,
//              the field LsbCutCodec::encode writes; the b high bits of out_kept are zero)
//   LsbPadRtl  the receiver's pad: kept bits in (right-aligned), the pattern out with the b
//              dropped bits filled with 1 then b - 1 zeros (LsbCutCodec::round_trip)
// b is fixed at construction, 1..52, else ParamError("ni.lsb_cut_bits", ...) as the codec does.
// In hardware both are wiring (a fixed shift) plus one register stage: kPipelineDepth = 1.
// Clock, reset and handshake: StreamBlock.
#pragma once
#include <systemc>

#include "rtl_models/stream_block.hpp"

namespace collnoc {

// b, checked in a base built before sc_module, so a bad b throws before any SystemC object
// exists.
class LsbCutWidth {
 public:
  explicit LsbCutWidth(unsigned cut_bits);
  unsigned cut_bits() const { return cut_bits_; }
  unsigned kept_bits() const { return 64 - cut_bits_; }

 private:
  unsigned cut_bits_;
};

// Signal names: rtl_models/lsb_cut_rtl.gtkw.
class LsbCutRtl : public LsbCutWidth, public StreamBlock {
 public:
  static constexpr unsigned kPipelineDepth = 1;

  sc_core::sc_in<sc_dt::sc_uint<64>> in_pattern{"in_pattern"};  // a double's bits
  sc_core::sc_out<sc_dt::sc_uint<64>> out_kept{"out_kept"};     // pattern >> b

  LsbCutRtl(sc_core::sc_module_name name, unsigned cut_bits);

 private:
  void load(unsigned stage) override;
  void clear() override { out_kept.write(0); }
};

// Signal names: rtl_models/lsb_pad_rtl.gtkw.
class LsbPadRtl : public LsbCutWidth, public StreamBlock {
 public:
  static constexpr unsigned kPipelineDepth = 1;

  sc_core::sc_in<sc_dt::sc_uint<64>> in_kept{"in_kept"};  // low 64 - b bits used, the rest ignored
  sc_core::sc_out<sc_dt::sc_uint<64>> out_pattern{"out_pattern"};  // kept . 1 0...0

  LsbPadRtl(sc_core::sc_module_name name, unsigned cut_bits);

 private:
  void load(unsigned stage) override;
  void clear() override { out_pattern.write(0); }
};

}  // namespace collnoc
