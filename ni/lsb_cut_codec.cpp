#include "ni/lsb_cut_codec.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

namespace collnoc {

namespace {

std::uint64_t double_bits(const std::uint32_t* words) {
  return (std::uint64_t{words[1]} << 32) | words[0];  // low word first
}

double to_double(std::uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

}  // namespace

LsbCutCodec::LsbCutCodec(unsigned cut_bits) : cut_bits_(cut_bits) {
  CodecParams p;
  p.lsb_cut_bits = cut_bits;
  validate(p);
}

std::uint64_t LsbCutCodec::encoded_bits(const std::uint32_t*, std::size_t count) const {
  check_count(count);
  return std::uint64_t{count / 2} * kept_bits();
}

void LsbCutCodec::encode(const std::uint32_t* words, std::size_t count, BitWriter& out) const {
  check_count(count);
  const unsigned kept = kept_bits();
  for (std::size_t i = 0; i < count; i += 2) out.write64(double_bits(words + i) >> cut_bits_, kept);
}

void LsbCutCodec::decode(BitReader& in, std::size_t count, std::uint32_t* words) const {
  check_count(count);
  const unsigned kept = kept_bits();
  const std::uint64_t pad = std::uint64_t{1} << (cut_bits_ - 1);
  for (std::size_t i = 0; i < count; i += 2) {
    const std::uint64_t bits = (in.read64(kept) << cut_bits_) | pad;
    words[i] = static_cast<std::uint32_t>(bits);
    words[i + 1] = static_cast<std::uint32_t>(bits >> 32);
  }
}

double lsb_cut_relative_error_bound(unsigned cut_bits) {
  return std::ldexp(1.0, static_cast<int>(cut_bits) - 53);
}

double relative_error(double original, double decoded) {
  std::uint64_t a, b;
  std::memcpy(&a, &original, sizeof a);
  std::memcpy(&b, &decoded, sizeof b);
  if (a == b) return 0.0;
  if (!std::isfinite(original) || original == 0.0) return std::nan("");
  // Close values subtract exactly; the quotient is rounded once, so a true ratio at or below a
  // power-of-two bound never rounds above it.
  return std::fabs(decoded - original) / std::fabs(original);
}

DoubleErrorStats double_error_stats(const std::uint32_t* original, const std::uint32_t* decoded,
                                    std::size_t word_count) {
  if (word_count % 2 != 0)
    throw std::invalid_argument("double_error_stats: " + std::to_string(word_count) +
                                " words: a double is 2 words");
  DoubleErrorStats s;
  for (std::size_t i = 0; i < word_count; i += 2) {
    const std::uint64_t ob = double_bits(original + i), db = double_bits(decoded + i);
    const double o = to_double(ob), d = to_double(db);
    ++s.values;
    if (ob == db) ++s.exact;
    if (!std::isfinite(o)) {
      ++s.non_finite;
      continue;
    }
    if (!std::isfinite(d)) ++s.non_finite_decoded_from_finite;
    if (o == 0.0) {
      ++s.zeros;
      s.max_abs_error_of_zeros = std::fmax(s.max_abs_error_of_zeros, std::fabs(d));
      continue;
    }
    // fmax ignores a NaN argument; a non-finite decoding of a finite value counts as infinite.
    const double e = std::isfinite(d) ? relative_error(o, d) : INFINITY;
    s.max_relative_error = std::fmax(s.max_relative_error, e);
    if (std::fpclassify(o) == FP_SUBNORMAL)
      ++s.subnormals;
    else
      s.max_relative_error_normal = std::fmax(s.max_relative_error_normal, e);
  }
  return s;
}

}  // namespace collnoc
