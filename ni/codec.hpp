// Payload codecs of the NI (SPEC 2.1-2.3): a message's words are compressed according to the type
// of its elements (int32 -> FPC, lossless; double and complex -> LSB-cut, lossy; raw -> none).
// The header is never compressed, so routers are unchanged; only the payload's size on the wire
// (and, for LSB-cut, its value) changes.
//
// A codec works on 32-bit words, the NI's payload unit. `encoded_bits` gives the size without
// building the stream (what a fixed-function encoder computes in parallel with the header) and
// always equals the bits `encode` writes.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ni/bitstream.hpp"
#include "noc/registry.hpp"
#include "noc/types.hpp"

namespace collnoc {

// What a message's words hold (SPEC 2.3). complex64 is a complex of two 64-bit doubles.
enum class ElementType : std::uint8_t { raw, int32, float64, complex64 };

const char* to_string(ElementType type);
// "raw", "int32", "float64" (alias "double"), "complex64" (alias "complex");
// otherwise ParamError(key, name, the allowed names).
ElementType element_type_from_string(const std::string& name, const std::string& key);

// 32-bit words per element, in message order. A double is its IEEE-754 bit pattern's low word then
// its high word (a little-endian double read as two little-endian words); a complex is re then im.
constexpr unsigned words_per_element(ElementType type) {
  switch (type) {
    case ElementType::raw: return 1;
    case ElementType::int32: return 1;
    case ElementType::float64: return 2;
    case ElementType::complex64: return 4;
  }
  return 1;
}

struct CodecParams {
  unsigned lsb_cut_bits = 28;  // LSB-cut: low bits dropped from each double

  // 0 would send the double whole (no codec); more than 52 would cut into the exponent.
  static constexpr UintRange lsb_cut_bits_range{1, 52};
};

// Throws ParamError("ni.lsb_cut_bits", ...) for a value no codec could use. Checked whichever
// codec is built, since one parameter set serves all of an NI's codecs.
void validate(const CodecParams& params);

class Codec {
 public:
  virtual ~Codec() = default;

  virtual const char* name() const = 0;
  virtual bool lossless() const = 0;
  // `count` below must be a multiple of this (LSB-cut codes a double, two words, at a time);
  // otherwise std::invalid_argument.
  virtual unsigned words_per_unit() const = 0;

  // Size of `count` words once encoded, in bits; equals what `encode` appends.
  virtual std::uint64_t encoded_bits(const std::uint32_t* words, std::size_t count) const = 0;
  virtual void encode(const std::uint32_t* words, std::size_t count, BitWriter& out) const = 0;
  // Restores `count` words from `in` (exactly if lossless()). A stream that ends early throws
  // std::runtime_error (from BitReader), as does a stream the codec could not have written.
  virtual void decode(BitReader& in, std::size_t count, std::uint32_t* words) const = 0;

 protected:
  void check_count(std::size_t count) const;
};

using CodecFactory = std::function<std::unique_ptr<Codec>(const CodecParams&)>;
// A codec is one class and one entry: its name, and the element types it compresses
// ("compress by type", SPEC 2.3/2.4: the first entry serving a type is that type's codec).
struct CodecEntry {
  const char* name;
  const char* description;
  CodecFactory make;
  std::vector<ElementType> serves;
  bool serves_type(ElementType t) const;
};

// The codecs by name (the values of analyze codec --codec): fpc, lsb_cut.
const std::vector<CodecEntry>& codecs();
// Validates `params`; an unknown name is ParamError("ni.codec", name, the names).
std::unique_ptr<Codec> make_codec(const std::string& name, const CodecParams& params);

// The entry of the codec that compresses `type`, or nullptr (raw: never compressed).
const CodecEntry* codec_entry_for(ElementType type);

// One NI's codecs, built once from its parameters; codec_for() is what the NI calls per packet.
class CodecSet {
 public:
  explicit CodecSet(const CodecParams& params = {});
  const Codec* codec_for(ElementType type) const {
    return by_type_[static_cast<std::size_t>(type)].get();
  }

 private:
  std::array<std::unique_ptr<Codec>, 4> by_type_;  // indexed by ElementType
};

}  // namespace collnoc
