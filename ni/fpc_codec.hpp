// Frequent-pattern compression of 32-bit integers (SPEC 2.1), lossless. A word whose top 13..18
// bits are zero (a small non-negative value) is sent as a 3-bit prefix and its remaining low
// bits; any other word (including every negative one) as prefix 111 and all 32 bits:
//
//   prefix  word's top bits zero  bits sent (prefix + data)
//   101     18 or more            17 (3 + 14)
//   100     17                    18 (3 + 15)
//   011     16                    19 (3 + 16)
//   010     15                    20 (3 + 17)
//   001     14                    21 (3 + 18)
//   000     13                    22 (3 + 19)
//   110     unused                -  (a decoder meeting it reports a corrupt stream)
//   111     fewer than 13         35 (3 + 32)
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "ni/codec.hpp"

namespace collnoc {

class FpcCodec final : public Codec {
 public:
  static constexpr unsigned kPrefixBits = 3;
  static constexpr std::uint32_t kPrefixUnused = 0b110;
  static constexpr std::uint32_t kPrefixWhole = 0b111;

  // The prefix `word` is sent with: the longest zero run from the MSB that a pattern covers.
  static std::uint32_t prefix_of(std::uint32_t word) {
    const unsigned zeros = word == 0 ? 32u : static_cast<unsigned>(__builtin_clz(word));
    if (zeros >= 18) return 0b101;
    if (zeros >= 13) return zeros - 13;  // 17 -> 100, 16 -> 011, ..., 13 -> 000
    return kPrefixWhole;
  }
  // Data bits after `prefix` (0 for the unused prefix).
  static unsigned data_bits(std::uint32_t prefix) {
    if (prefix == kPrefixWhole) return 32;
    if (prefix == kPrefixUnused) return 0;
    return 19 - prefix;  // 000 -> 19, ..., 101 -> 14
  }
  // Bits `word` takes on the wire, prefix included.
  static unsigned word_bits(std::uint32_t word) { return kPrefixBits + data_bits(prefix_of(word)); }

  const char* name() const override { return "fpc"; }
  bool lossless() const override { return true; }
  unsigned words_per_unit() const override { return 1; }
  std::uint64_t encoded_bits(const std::uint32_t* words, std::size_t count) const override;
  void encode(const std::uint32_t* words, std::size_t count, BitWriter& out) const override;
  void decode(BitReader& in, std::size_t count, std::uint32_t* words) const override;
};

// Words of a buffer per FPC prefix (index = prefix value; index 0b110 always 0).
using FpcPatternHistogram = std::array<std::uint64_t, 8>;
FpcPatternHistogram fpc_pattern_histogram(const std::uint32_t* words, std::size_t count);

// "101" for 0b101.
std::string fpc_prefix_string(std::uint32_t prefix);
// What the pattern matches, e.g. "top 18+ bits zero", "no match (sent whole)".
const char* fpc_pattern_description(std::uint32_t prefix);

}  // namespace collnoc
