// libFuzzer target: the NI's decoders on arbitrary bit streams, and its codecs on arbitrary words.
//   byte 0     bit 0: the codec (0 fpc, 1 lsb_cut); bits 1-7: lsb_cut's cut bits, 1 + value % 52
//   byte 1     elements to decode (a word for fpc, a double for lsb_cut)
//   byte 2     bits left off the stream's end, 0..31
//   the rest   the stream, in wire order (word i is bytes 4i..4i+3, most significant first);
//              read again as little-endian words (a dump), the data of an encode/decode round trip
// A decode may fail only with std::runtime_error (a stream the encoder could not have written,
// or one that ends early). What decodes must re-encode as the format promises: FPC to a stream
// no longer than the one read that decodes to the same words; LSB-cut to exactly the bits read.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

#include "ni/fpc_codec.hpp"
#include "ni/lsb_cut_codec.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using namespace collnoc;
using fuzz::expect;

struct Decoded {
  bool ok = false;
  std::vector<std::uint32_t> words;
  std::uint64_t bits_read = 0;
};

Decoded decode(const Codec& codec, const std::vector<std::uint32_t>& stream, std::uint64_t bits,
               std::size_t count) {
  Decoded d;
  d.words.resize(count);
  BitReader in(stream, bits);
  try {
    codec.decode(in, count, d.words.data());
  } catch (const std::runtime_error& e) {
    // Exactly the documented type: anything derived from it is some other fault.
    expect(typeid(e) == typeid(std::runtime_error),
           std::string(codec.name()) + " decode threw " + typeid(e).name() + ": " + e.what());
    return d;
  }
  d.ok = true;
  d.bits_read = in.position();
  return d;
}

BitWriter encode(const Codec& codec, const std::vector<std::uint32_t>& words) {
  BitWriter out;
  codec.encode(words.data(), words.size(), out);
  expect(out.bit_count() == codec.encoded_bits(words.data(), words.size()),
         std::string(codec.name()) + ": encoded_bits differs from the bits encode wrote");
  return out;
}

// The first `bits` bits of two streams are equal.
bool same_prefix(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b,
                 std::uint64_t bits) {
  const std::size_t whole = static_cast<std::size_t>(bits / 32);
  const unsigned rest = static_cast<unsigned>(bits % 32);
  for (std::size_t i = 0; i < whole; ++i)
    if (a[i] != b[i]) return false;
  if (rest == 0) return true;
  const std::uint32_t mask = ~std::uint32_t{0} << (32 - rest);
  return (a[whole] & mask) == (b[whole] & mask);
}

void check_stream(const Codec& codec, const std::vector<std::uint32_t>& stream,
                  std::uint64_t bits, std::size_t count) {
  const Decoded d = decode(codec, stream, bits, count);
  if (!d.ok) return;
  const BitWriter again = encode(codec, d.words);
  if (codec.lossless()) {
    // FPC's encoder takes the shortest pattern a word fits; a stream may have used a longer one.
    expect(again.bit_count() <= d.bits_read, "fpc: re-encoding is longer than the stream read");
    const Decoded r = decode(codec, again.words(), again.bit_count(), count);
    expect(r.ok && r.words == d.words && r.bits_read == again.bit_count(),
           "fpc: the re-encoded stream does not decode to the same words");
  } else {
    expect(again.bit_count() == d.bits_read && same_prefix(again.words(), stream, d.bits_read),
           "lsb_cut: re-encoding does not give back the bits read");
  }
}

void check_round_trip(const Codec& codec, const LsbCutCodec* lsb,
                      const std::vector<std::uint32_t>& data) {
  const BitWriter stream = encode(codec, data);
  const Decoded d = decode(codec, stream.words(), stream.bit_count(), data.size());
  expect(d.ok && d.bits_read == stream.bit_count(),
         std::string(codec.name()) + ": its own stream does not decode whole");
  if (!lsb) {
    expect(d.words == data, "fpc: the round trip changed a word");
    return;
  }
  for (std::size_t i = 0; i < data.size(); i += 2) {
    const std::uint64_t original = (std::uint64_t{data[i + 1]} << 32) | data[i];
    const std::uint64_t decoded = (std::uint64_t{d.words[i + 1]} << 32) | d.words[i];
    expect(decoded == lsb->round_trip(original), "lsb_cut: a double decoded to other bits than "
                                                 "round_trip() says");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const FpcCodec fpc;
  const bool use_lsb = data[0] & 1;
  const LsbCutCodec lsb(1 + (data[0] >> 1) % 52);
  const Codec& codec = use_lsb ? static_cast<const Codec&>(lsb) : fpc;
  const std::size_t count = std::size_t{data[1]} * codec.words_per_unit();
  const unsigned left_off = data[2] % 32;
  data += 3;
  size -= 3;

  std::vector<std::uint32_t> stream((size + 3) / 4), words(size / 4);
  for (std::size_t i = 0; i < size; ++i)
    stream[i / 4] |= std::uint32_t{data[i]} << (24 - 8 * (i % 4));
  for (std::size_t i = 0; i < words.size(); ++i)
    words[i] = data[4 * i] | std::uint32_t{data[4 * i + 1]} << 8 |
               std::uint32_t{data[4 * i + 2]} << 16 | std::uint32_t{data[4 * i + 3]} << 24;
  words.resize(words.size() / codec.words_per_unit() * codec.words_per_unit());

  const std::uint64_t bits = 32 * std::uint64_t{stream.size()};
  check_stream(codec, stream, bits >= left_off ? bits - left_off : 0, count);
  check_round_trip(codec, use_lsb ? &lsb : nullptr, words);
  return 0;
}
