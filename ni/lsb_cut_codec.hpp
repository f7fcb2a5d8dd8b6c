// LSB-cut for 64-bit IEEE-754 doubles (SPEC 2.2), lossy. Each double (two words: low, high) is
// sent as the top 64 - b bits of its pattern; the receiver fills the b dropped bits with 1 and
// b - 1 zeros, the middle of the interval that was cut away. A complex is two doubles.
//
// Since b <= 52 the sign and exponent always travel, so a decoded value agrees with the original
// in its top 64 - b bits and keeps its sign and binade. Consequences, by kind of value:
//   normal x:       |decoded - x| / |x| <= 2^(b-53)  (lsb_cut_relative_error_bound; equality
//                   when x's dropped bits are all zero, e.g. x a power of two)
//   subnormal x:    |decoded - x| <= 2^(b-1) * 2^-1074, but the relative error is unbounded
//                   (the smallest subnormal becomes 2^(b-1) times itself)
//   +0.0 / -0.0:    become +/- 2^(b-1) * 2^-1074, a tiny subnormal of the same sign (the padding is
//                   applied to every value, as the hardware does: nothing marks a zero)
//   +inf / -inf:    become NaN (the pad bit makes the mantissa non-zero)
//   NaN:            stays NaN (the pad bit keeps the mantissa non-zero); its payload's low bits
//                   are lost
#pragma once
#include <cstdint>

#include "ni/codec.hpp"

namespace collnoc {

class LsbCutCodec final : public Codec {
 public:
  // `cut_bits` = b in 1..52, else ParamError("ni.lsb_cut_bits", ...).
  explicit LsbCutCodec(unsigned cut_bits);

  unsigned cut_bits() const { return cut_bits_; }
  unsigned kept_bits() const { return 64 - cut_bits_; }
  // What the receiver makes of one double's bit pattern.
  std::uint64_t round_trip(std::uint64_t bits) const {
    return ((bits >> cut_bits_) << cut_bits_) | (std::uint64_t{1} << (cut_bits_ - 1));
  }

  const char* name() const override { return "lsb_cut"; }
  bool lossless() const override { return false; }
  unsigned words_per_unit() const override { return 2; }
  std::uint64_t encoded_bits(const std::uint32_t* words, std::size_t count) const override;
  void encode(const std::uint32_t* words, std::size_t count, BitWriter& out) const override;
  void decode(BitReader& in, std::size_t count, std::uint32_t* words) const override;

 private:
  unsigned cut_bits_;
};

// Largest relative error LSB-cut with `cut_bits` can cause on a normal double: 2^(cut_bits-53).
double lsb_cut_relative_error_bound(unsigned cut_bits);

// |decoded - original| / |original| for a finite non-zero original; 0 when the two are the same
// bits; otherwise NaN (undefined: a zero that became non-zero, an infinity, a NaN).
double relative_error(double original, double decoded);

// How far a decoded buffer of doubles (words as in words_per_element) is from the original.
struct DoubleErrorStats {
  std::uint64_t values = 0;      // doubles compared
  std::uint64_t exact = 0;       // decoded to the same bits
  std::uint64_t zeros = 0;       // +/-0 originals: no relative error, see max_abs_error_of_zeros
  std::uint64_t subnormals = 0;  // counted in max_relative_error, not in the _normal figure
  std::uint64_t non_finite = 0;  // infinity and NaN originals: no error figure
  std::uint64_t non_finite_decoded_from_finite = 0;  // must stay 0 for LSB-cut
  double max_relative_error = 0;         // over finite non-zero originals
  double max_relative_error_normal = 0;  // over normal originals (the bounded case)
  double max_abs_error_of_zeros = 0;
};
// `word_count` must be even (std::invalid_argument otherwise).
DoubleErrorStats double_error_stats(const std::uint32_t* original, const std::uint32_t* decoded,
                                    std::size_t word_count);

}  // namespace collnoc
