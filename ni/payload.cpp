#include "ni/payload.hpp"

#include <cmath>
#include <cstring>
#include <fstream>

#include "noc/input_file.hpp"
#include "noc/random.hpp"

namespace collnoc {

namespace {

std::uint64_t bits_of(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// Random 32-bit words: incompressible, the default (raw: never compressed).
class RandomWords : public PayloadGenerator {
 public:
  explicit RandomWords(ElementType type) : type_(type) {}
  ElementType element_type() const override { return type_; }
  std::uint32_t word(PacketId p, std::uint32_t i) const override {
    return static_cast<std::uint32_t>(hash64(p, i));
  }
  void fill(PacketId p, std::uint32_t first, std::uint32_t count, std::uint32_t* out) const override {
    for (std::uint32_t i = 0; i < count; ++i) out[i] = static_cast<std::uint32_t>(hash64(p, first + i));
  }

 private:
  ElementType type_;
};

// Small non-negative integers, as indices or counters are: 0..1023.
class SmallInts : public PayloadGenerator {
 public:
  ElementType element_type() const override { return ElementType::int32; }
  std::uint32_t word(PacketId p, std::uint32_t i) const override {
    return static_cast<std::uint32_t>(hash64(p, i) % 1024);
  }
};

// Sorted keys: each packet a run of increasing keys from a random base below 2^20.
class SortedKeys : public PayloadGenerator {
 public:
  ElementType element_type() const override { return ElementType::int32; }
  std::uint32_t word(PacketId p, std::uint32_t i) const override {
    return static_cast<std::uint32_t>(hash64(p, ~0ull) % (1u << 20)) + 37u * i;
  }
};

// A smooth field of doubles: a sine sampled along the packet, as in a stencil code.
class SmoothDoubles : public PayloadGenerator {
 public:
  ElementType element_type() const override { return ElementType::float64; }
  std::uint32_t word(PacketId p, std::uint32_t i) const override {
    const double phase = static_cast<double>(hash64(p, ~0ull) % 4096);
    const double x = 1.5 + std::sin((phase + i / 2) * (2 * M_PI / 256.0));
    const std::uint64_t b = bits_of(x);
    return static_cast<std::uint32_t>(i % 2 ? b >> 32 : b);
  }
};

// Random doubles uniform in [-1e6, 1e6).
class RandomDoubles : public PayloadGenerator {
 public:
  ElementType element_type() const override { return ElementType::float64; }
  std::uint32_t word(PacketId p, std::uint32_t i) const override {
    const double u = static_cast<double>(hash64(p, i / 2) >> 11) * 0x1.0p-53;
    const std::uint64_t b = bits_of((u - 0.5) * 2e6);
    return static_cast<std::uint32_t>(i % 2 ? b >> 32 : b);
  }
};

// A user's dump: packet p starts at a pseudo-random element and reads on, wrapping around.
class FileWords : public PayloadGenerator {
 public:
  FileWords(std::vector<std::uint32_t> words, ElementType type)
      : words_(std::move(words)), type_(type) {}
  ElementType element_type() const override { return type_; }
  std::uint32_t word(PacketId p, std::uint32_t i) const override {
    const std::size_t per = words_per_element(type_);
    const std::size_t start = (hash64(p, ~0ull) % (words_.size() / per)) * per;
    return words_[(start + i) % words_.size()];
  }

 private:
  std::vector<std::uint32_t> words_;
  ElementType type_;
};

std::unique_ptr<PayloadGenerator> load_file(const std::string& spec) {
  // file:PATH:TYPE (PATH may itself contain ':')
  const std::size_t last = spec.rfind(':');
  if (last == std::string::npos || last <= 5)
    throw ParamError("traffic.payload", spec, "file:PATH:int32 or file:PATH:double");
  const std::string path = spec.substr(5, last - 5);
  const std::string type_name = spec.substr(last + 1);
  ElementType type;
  if (type_name == "int32") type = ElementType::int32;
  else if (type_name == "double") type = ElementType::float64;
  else throw ParamError("traffic.payload", spec, "the element type after the path is int32 or double");
  if (const auto problem = input_file_problem(path)) throw ParamError("traffic.payload", spec, *problem);
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw ParamError("traffic.payload", spec, "cannot read " + path);
  const std::streamsize bytes = in.tellg();
  const std::size_t element_bytes = 4 * words_per_element(type);
  if (bytes <= 0 || static_cast<std::size_t>(bytes) % element_bytes != 0)
    throw ParamError("traffic.payload", spec,
                     path + " holds " + std::to_string(bytes) + " bytes: needs a non-zero multiple of " +
                         std::to_string(element_bytes) + " (" + type_name + ")");
  std::vector<std::uint32_t> words(static_cast<std::size_t>(bytes) / 4);
  in.seekg(0);
  in.read(reinterpret_cast<char*>(words.data()), bytes);
  return std::make_unique<FileWords>(std::move(words), type);
}

}  // namespace

const std::vector<PayloadEntry>& payload_generators() {
  static const std::vector<PayloadEntry> table = {
      {"random", "random 32-bit words, raw (never compressed)",
       [] { return std::make_unique<RandomWords>(ElementType::raw); }},
      {"random_ints", "random int32 over the whole range (FPC cannot shrink them)",
       [] { return std::make_unique<RandomWords>(ElementType::int32); }},
      {"small_ints", "int32 uniform in 0..1023, like indices or counters",
       [] { return std::make_unique<SmallInts>(); }},
      {"sorted_keys", "int32 runs of increasing keys from a base below 2^20",
       [] { return std::make_unique<SortedKeys>(); }},
      {"smooth_doubles", "doubles of a smooth sine field, as a stencil code has",
       [] { return std::make_unique<SmoothDoubles>(); }},
      {"random_doubles", "doubles uniform in [-1e6, 1e6)",
       [] { return std::make_unique<RandomDoubles>(); }},
  };
  return table;
}

std::unique_ptr<PayloadGenerator> make_payload_generator(const std::string& spec) {
  if (spec.rfind("file:", 0) == 0) return load_file(spec);
  return lookup(payload_generators(), spec, "traffic.payload",
                "file:PATH:int32|double or one of:").make();
}

}  // namespace collnoc
