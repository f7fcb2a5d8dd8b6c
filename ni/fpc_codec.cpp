#include "ni/fpc_codec.hpp"

#include <stdexcept>

namespace collnoc {

std::uint64_t FpcCodec::encoded_bits(const std::uint32_t* words, std::size_t count) const {
  check_count(count);
  std::uint64_t bits = 0;
  for (std::size_t i = 0; i < count; ++i) bits += word_bits(words[i]);
  return bits;
}

void FpcCodec::encode(const std::uint32_t* words, std::size_t count, BitWriter& out) const {
  check_count(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t word = words[i];
    const std::uint32_t prefix = prefix_of(word);
    if (prefix == kPrefixWhole) {
      out.write(prefix, kPrefixBits);
      out.write(word, 32);
    } else {
      // Prefix and data fit one field of at most 22 bits; the data's high bits are zero.
      const unsigned n = data_bits(prefix);
      out.write((prefix << n) | word, kPrefixBits + n);
    }
  }
}

void FpcCodec::decode(BitReader& in, std::size_t count, std::uint32_t* words) const {
  check_count(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t prefix = in.read(kPrefixBits);
    if (prefix == kPrefixUnused)
      throw std::runtime_error("fpc: prefix 110 (unused) at bit " +
                               std::to_string(in.position() - kPrefixBits) + ": corrupt stream");
    words[i] = in.read(data_bits(prefix));  // the dropped top bits were zero
  }
}

FpcPatternHistogram fpc_pattern_histogram(const std::uint32_t* words, std::size_t count) {
  FpcPatternHistogram h{};
  for (std::size_t i = 0; i < count; ++i) ++h[FpcCodec::prefix_of(words[i])];
  return h;
}

std::string fpc_prefix_string(std::uint32_t prefix) {
  std::string s(FpcCodec::kPrefixBits, '0');
  for (unsigned b = 0; b < FpcCodec::kPrefixBits; ++b)
    if (prefix & (1u << (FpcCodec::kPrefixBits - 1 - b))) s[b] = '1';
  return s;
}

const char* fpc_pattern_description(std::uint32_t prefix) {
  switch (prefix) {
    case 0b101: return "top 18+ bits zero";
    case 0b100: return "top 17 bits zero";
    case 0b011: return "top 16 bits zero";
    case 0b010: return "top 15 bits zero";
    case 0b001: return "top 14 bits zero";
    case 0b000: return "top 13 bits zero";
    case 0b110: return "unused";
    case 0b111: return "no match (sent whole)";
  }
  return "?";
}

}  // namespace collnoc
