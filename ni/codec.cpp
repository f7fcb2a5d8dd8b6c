#include "ni/codec.hpp"

#include <algorithm>

#include <stdexcept>

#include "ni/fpc_codec.hpp"
#include "ni/lsb_cut_codec.hpp"

namespace collnoc {

const char* to_string(ElementType type) {
  switch (type) {
    case ElementType::raw: return "raw";
    case ElementType::int32: return "int32";
    case ElementType::float64: return "float64";
    case ElementType::complex64: return "complex64";
  }
  return "?";
}

ElementType element_type_from_string(const std::string& name, const std::string& key) {
  if (name == "raw") return ElementType::raw;
  if (name == "int32") return ElementType::int32;
  if (name == "float64" || name == "double") return ElementType::float64;
  if (name == "complex64" || name == "complex") return ElementType::complex64;
  throw ParamError(key, name, "one of: raw int32 float64 (or double) complex64 (or complex)");
}

void validate(const CodecParams& params) {
  if (!CodecParams::lsb_cut_bits_range.contains(params.lsb_cut_bits))
    throw ParamError("ni.lsb_cut_bits", std::to_string(params.lsb_cut_bits),
                     "must be " + std::to_string(CodecParams::lsb_cut_bits_range.min) + ".." +
                         std::to_string(CodecParams::lsb_cut_bits_range.max) +
                         " (low mantissa bits cut from each double)");
}

void Codec::check_count(std::size_t count) const {
  if (count % words_per_unit() != 0)
    throw std::invalid_argument(std::string(name()) + ": " + std::to_string(count) +
                                " words is not a multiple of " +
                                std::to_string(words_per_unit()) + " (whole elements only)");
}

bool CodecEntry::serves_type(ElementType t) const {
  return std::find(serves.begin(), serves.end(), t) != serves.end();
}

const std::vector<CodecEntry>& codecs() {
  static const std::vector<CodecEntry> table = {
      {"fpc", "frequent-pattern compression of int32 words, lossless (SPEC 2.1)",
       [](const CodecParams&) -> std::unique_ptr<Codec> { return std::make_unique<FpcCodec>(); },
       {ElementType::int32}},
      {"lsb_cut", "drops the ni.lsb_cut_bits low bits of each double, lossy (SPEC 2.2)",
       [](const CodecParams& p) -> std::unique_ptr<Codec> {
         return std::make_unique<LsbCutCodec>(p.lsb_cut_bits);
       },
       {ElementType::float64, ElementType::complex64}},
  };
  return table;
}

std::unique_ptr<Codec> make_codec(const std::string& name, const CodecParams& params) {
  validate(params);
  return lookup(codecs(), name, "ni.codec").make(params);
}

const CodecEntry* codec_entry_for(ElementType type) {
  for (const CodecEntry& e : codecs())
    if (e.serves_type(type)) return &e;
  return nullptr;
}

CodecSet::CodecSet(const CodecParams& params) {
  validate(params);
  for (ElementType t : {ElementType::raw, ElementType::int32, ElementType::float64,
                        ElementType::complex64})
    if (const CodecEntry* entry = codec_entry_for(t))
      by_type_[static_cast<std::size_t>(t)] = entry->make(params);
}

}  // namespace collnoc
