// Payload codecs (SPEC 2.1-2.3): the bit stream, FPC's exact sizes and round trips, LSB-cut's
// padding and error bound, the edge values of both, the registry and the refusal of bad
// parameters.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "ni/bitstream.hpp"
#include "ni/codec.hpp"
#include "ni/fpc_codec.hpp"
#include "ni/lsb_cut_codec.hpp"

using namespace collnoc;

namespace {

using Words = std::vector<std::uint32_t>;

std::uint64_t bits_of(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

double double_of(std::uint64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

// Doubles as the NI carries them: low word, then high word.
Words words_of(const std::vector<double>& values) {
  Words w;
  for (double v : values) {
    const std::uint64_t b = bits_of(v);
    w.push_back(static_cast<std::uint32_t>(b));
    w.push_back(static_cast<std::uint32_t>(b >> 32));
  }
  return w;
}

std::vector<double> doubles_of(const Words& w) {
  std::vector<double> v;
  for (std::size_t i = 0; i + 1 < w.size(); i += 2)
    v.push_back(double_of((std::uint64_t{w[i + 1]} << 32) | w[i]));
  return v;
}

// Encodes, checks the size against encoded_bits, decodes and checks every bit was consumed.
Words round_trip(const Codec& codec, const Words& in, std::uint64_t* bits_out = nullptr) {
  BitWriter w;
  codec.encode(in.data(), in.size(), w);
  REQUIRE(w.bit_count() == codec.encoded_bits(in.data(), in.size()));
  REQUIRE(w.words().size() == (w.bit_count() + 31) / 32);
  BitReader r(w);
  Words out(in.size(), 0xDEADBEEFu);
  codec.decode(r, out.size(), out.data());
  REQUIRE(r.position() == w.bit_count());
  if (bits_out) *bits_out = w.bit_count();
  return out;
}

CodecParams with_cut(unsigned b) {
  CodecParams p;
  p.lsb_cut_bits = b;
  return p;
}

}  // namespace

// ------------------------------------------------------------------------------ bit stream

TEST_CASE("codec bitstream: fields are packed MSB-first into 32-bit words", "[codec][bitstream]") {
  BitWriter w;
  w.write(0b101, 3);
  REQUIRE(w.bit_count() == 3);
  REQUIRE(w.words() == Words{0xA0000000u});
  w.write(0xFFFFFFFFu, 30);  // straddles: 29 bits fill word 0, 1 spills into word 1
  REQUIRE(w.bit_count() == 33);
  REQUIRE(w.words() == Words{0xBFFFFFFFu, 0x80000000u});
  w.write(0xFFu, 2);  // only the low 2 bits count
  REQUIRE(w.words() == Words{0xBFFFFFFFu, 0xE0000000u});
  w.write64(0x123456789ABCDEF0ull, 64);
  REQUIRE(w.bit_count() == 99);
  BitReader r(w);
  REQUIRE(r.read(3) == 0b101);
  REQUIRE(r.read(30) == 0x3FFFFFFFu);
  REQUIRE(r.read(2) == 0b11);
  REQUIRE(r.read64(64) == 0x123456789ABCDEF0ull);
  REQUIRE(r.remaining_bits() == 0);
}

TEST_CASE("codec bitstream: random field widths read back exactly", "[codec][bitstream]") {
  std::mt19937_64 rng(7);
  std::vector<std::pair<std::uint64_t, unsigned>> fields;
  BitWriter w;
  std::uint64_t total = 0;
  for (int i = 0; i < 20000; ++i) {
    const unsigned n = static_cast<unsigned>(rng() % 65);
    const std::uint64_t v = n == 64 ? rng() : rng() & ((std::uint64_t{1} << n) - 1);
    fields.push_back({v, n});
    w.write64(v | (n < 64 ? ~std::uint64_t{0} << n : 0), n);  // high garbage must be ignored
    total += n;
  }
  REQUIRE(w.bit_count() == total);
  BitReader r(w);
  for (const auto& [v, n] : fields) REQUIRE(r.read64(n) == v);
  REQUIRE(r.remaining_bits() == 0);
}

TEST_CASE("codec bitstream: reading past the end throws and consumes nothing",
          "[codec][bitstream]") {
  BitWriter w;
  w.write(0x1234, 16);
  BitReader r(w);
  REQUIRE(r.read(10) == (0x1234u >> 6));
  REQUIRE_THROWS_AS(r.read(7), std::runtime_error);
  REQUIRE(r.position() == 10);
  REQUIRE_THROWS_AS(r.read64(40), std::runtime_error);
  REQUIRE(r.position() == 10);
  REQUIRE(r.read(6) == (0x1234u & 0x3Fu));
  REQUIRE_THROWS_AS(r.read(1), std::runtime_error);
  REQUIRE(r.read(0) == 0);
  BitReader empty(nullptr, 0);
  REQUIRE_THROWS_AS(empty.read(1), std::runtime_error);
  const Words two = {1, 2};
  REQUIRE_THROWS_AS(BitReader(two, 65), std::invalid_argument);
  BitReader whole(two, 64);
  REQUIRE(whole.read64(64) == 0x0000000100000002ull);
}

// ------------------------------------------------------------------------------ FPC

TEST_CASE("codec fpc: bits per word and prefix follow the SPEC 2.1 table", "[codec][fpc]") {
  struct Case {
    std::uint32_t word;
    std::uint32_t prefix;
    unsigned bits;
  };
  const std::vector<Case> cases = {
      {0u, 0b101, 17},
      {1u, 0b101, 17},
      {(1u << 13) - 1, 0b101, 17},  // 19 leading zeros
      {1u << 13, 0b101, 17},        // 18
      {(1u << 14) - 1, 0b101, 17},  // 18
      {1u << 14, 0b100, 18},        // 17
      {(1u << 15) - 1, 0b100, 18},  // 17
      {1u << 15, 0b011, 19},        // 16
      {(1u << 16) - 1, 0b011, 19},  // 16
      {1u << 16, 0b010, 20},        // 15
      {(1u << 17) - 1, 0b010, 20},  // 15
      {1u << 17, 0b001, 21},        // 14
      {(1u << 18) - 1, 0b001, 21},  // 14
      {1u << 18, 0b000, 22},        // 13
      {(1u << 19) - 1, 0b000, 22},  // 13
      {1u << 19, 0b111, 35},        // 12: no pattern
      {0x7FFFFFFFu, 0b111, 35},     // INT32_MAX
      {0x80000000u, 0b111, 35},     // INT32_MIN
      {0xFFFFFFFFu, 0b111, 35},     // -1 and UINT32_MAX: only zero runs count
  };
  const FpcCodec fpc;
  for (const Case& c : cases) {
    INFO("word " << c.word);
    REQUIRE(FpcCodec::prefix_of(c.word) == c.prefix);
    REQUIRE(FpcCodec::word_bits(c.word) == c.bits);
    REQUIRE(fpc.encoded_bits(&c.word, 1) == c.bits);
    std::uint64_t bits = 0;
    REQUIRE(round_trip(fpc, {c.word}, &bits) == Words{c.word});
    REQUIRE(bits == c.bits);
  }
}

TEST_CASE("codec fpc: the stream holds prefix then data bits", "[codec][fpc]") {
  const FpcCodec fpc;
  BitWriter w;
  const Words in = {5u, 0xFFFFFFFFu, 1u << 18};
  fpc.encode(in.data(), in.size(), w);
  REQUIRE(w.bit_count() == 17 + 35 + 22);
  BitReader r(w);
  REQUIRE(r.read(3) == 0b101);
  REQUIRE(r.read(14) == 5u);
  REQUIRE(r.read(3) == 0b111);
  REQUIRE(r.read(32) == 0xFFFFFFFFu);
  REQUIRE(r.read(3) == 0b000);
  REQUIRE(r.read(19) == (1u << 18));
  // 101 00000000000101 then 111 and the top 12 bits of the whole word
  REQUIRE(w.words()[0] == ((0b101u << 29) | (5u << 15) | (0b111u << 12) | 0xFFFu));
}

TEST_CASE("codec fpc: round trips on edge values in one stream", "[codec][fpc]") {
  Words in = {0u, 1u, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, static_cast<std::uint32_t>(-1),
              static_cast<std::uint32_t>(-12345)};
  for (unsigned k = 12; k <= 20; ++k) {
    in.push_back((1u << k) - 1);
    in.push_back(1u << k);
    in.push_back((1u << k) + 1);
  }
  const FpcCodec fpc;
  std::uint64_t bits = 0;
  REQUIRE(round_trip(fpc, in, &bits) == in);
  std::uint64_t expected = 0;
  for (std::uint32_t w : in) expected += FpcCodec::word_bits(w);
  REQUIRE(bits == expected);
}

TEST_CASE("codec fpc: 100k random words of several distributions round trip exactly",
          "[codec][fpc]") {
  std::mt19937 rng(12345);
  const FpcCodec fpc;
  auto uniform = [&] { return static_cast<std::uint32_t>(rng()); };
  auto small = [&] { return static_cast<std::uint32_t>(rng() % (1u << 14)); };
  auto sign_mixed = [&] {
    const auto m = static_cast<std::int32_t>(rng() % 100000);
    return static_cast<std::uint32_t>(rng() & 1 ? m : -m);
  };
  auto any_run = [&] { return static_cast<std::uint32_t>(rng()) >> (rng() % 32); };
  struct Dist {
    const char* name;
    std::function<std::uint32_t()> draw;
    double min_bits_per_word, max_bits_per_word;
  };
  const std::vector<Dist> dists = {
      {"uniform", uniform, 34.9, 35.0},  // almost every word has < 13 leading zeros
      {"small", small, 17.0, 17.0},
      {"sign_mixed", sign_mixed, 17.0, 35.0},
      {"any_zero_run", any_run, 17.0, 35.0},
  };
  for (const Dist& d : dists) {
    INFO(d.name);
    Words in(100000);
    for (auto& w : in) w = d.draw();
    std::uint64_t bits = 0;
    REQUIRE(round_trip(fpc, in, &bits) == in);
    const double per_word = static_cast<double>(bits) / in.size();
    REQUIRE(per_word >= d.min_bits_per_word);
    REQUIRE(per_word <= d.max_bits_per_word);
    // The histogram accounts for every bit.
    const FpcPatternHistogram h = fpc_pattern_histogram(in.data(), in.size());
    std::uint64_t from_histogram = 0, words = 0;
    for (std::uint32_t p = 0; p < 8; ++p) {
      from_histogram += h[p] * (FpcCodec::kPrefixBits + FpcCodec::data_bits(p));
      words += h[p];
    }
    REQUIRE(h[FpcCodec::kPrefixUnused] == 0);
    REQUIRE(words == in.size());
    REQUIRE(from_histogram == bits);
  }
}

TEST_CASE("codec fpc: pattern histogram counts words per prefix", "[codec][fpc]") {
  const Words in = {0u, 3u, 1u << 14, 1u << 15, 1u << 15, 1u << 16, 1u << 17, 1u << 18,
                    1u << 19, 0xFFFFFFFFu};
  const FpcPatternHistogram h = fpc_pattern_histogram(in.data(), in.size());
  REQUIRE(h == FpcPatternHistogram{1, 1, 1, 2, 1, 2, 0, 2});
  REQUIRE(fpc_prefix_string(0b101) == "101");
  REQUIRE(fpc_prefix_string(0b000) == "000");
  REQUIRE(std::string(fpc_pattern_description(0b111)) == "no match (sent whole)");
}

TEST_CASE("codec fpc: a corrupt or short stream is refused", "[codec][fpc]") {
  const FpcCodec fpc;
  Words out(1);
  BitWriter unused;
  unused.write(0b110, 3);
  unused.write(0, 20);
  BitReader r1(unused);
  REQUIRE_THROWS_AS(fpc.decode(r1, 1, out.data()), std::runtime_error);
  BitWriter short_stream;
  short_stream.write(0b111, 3);
  short_stream.write(0xABCD, 16);  // a whole word needs 32
  BitReader r2(short_stream);
  REQUIRE_THROWS_AS(fpc.decode(r2, 1, out.data()), std::runtime_error);
}

// ------------------------------------------------------------------------------ LSB-cut

TEST_CASE("codec lsb_cut: each double takes 64 - b bits", "[codec][lsb_cut]") {
  const std::vector<double> values = {1.0, -2.5, 3.14159, 1e300, 1e-300};
  const Words in = words_of(values);
  for (unsigned b : {1u, 2u, 28u, 32u, 33u, 51u, 52u}) {
    INFO("b = " << b);
    const auto codec = make_codec("lsb_cut", with_cut(b));
    REQUIRE(codec->encoded_bits(in.data(), in.size()) == values.size() * (64 - b));
    std::uint64_t bits = 0;
    round_trip(*codec, in, &bits);
    REQUIRE(bits == values.size() * (64 - b));
  }
}

TEST_CASE("codec lsb_cut: decoded bits are the kept bits then 1 and zeros", "[codec][lsb_cut]") {
  std::mt19937_64 rng(99);
  std::vector<double> values;
  for (int i = 0; i < 20000; ++i) {
    std::uint64_t b = rng();
    // Any sign and mantissa; exponents of finite values only (inf and NaN are tested below).
    const std::uint64_t exponent = rng() % 0x7FF;
    b = (b & 0x800FFFFFFFFFFFFFull) | (exponent << 52);
    values.push_back(double_of(b));
  }
  const Words in = words_of(values);
  for (unsigned b : {1u, 5u, 28u, 31u, 32u, 33u, 52u}) {
    INFO("b = " << b);
    const LsbCutCodec codec(b);
    const Words out = round_trip(codec, in);
    const std::uint64_t pad = std::uint64_t{1} << (b - 1);
    const std::uint64_t low_mask = (std::uint64_t{1} << b) - 1;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::uint64_t orig = bits_of(values[i]);
      const std::uint64_t dec = (std::uint64_t{out[2 * i + 1]} << 32) | out[2 * i];
      REQUIRE((dec >> b) == (orig >> b));  // within the cut interval
      REQUIRE((dec & low_mask) == pad);    // 0b100...0
      REQUIRE(codec.round_trip(orig) == dec);
    }
  }
}

TEST_CASE("codec lsb_cut: the stream carries the top 64 - b bits", "[codec][lsb_cut]") {
  const LsbCutCodec codec(28);
  const double x = -123.456;
  const Words in = words_of({x});
  BitWriter w;
  codec.encode(in.data(), in.size(), w);
  BitReader r(w);
  REQUIRE(r.read64(36) == (bits_of(x) >> 28));
  REQUIRE(r.remaining_bits() == 0);
}

TEST_CASE("codec lsb_cut: relative error of normal numbers is within 2^(b-53)",
          "[codec][lsb_cut]") {
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::vector<double> values;
  for (int i = 0; i < 50000; ++i) {
    const int e = static_cast<int>(rng() % 2045) - 1022;  // every normal binade
    values.push_back((rng() & 1 ? -1 : 1) * std::ldexp(mantissa(rng), e));
  }
  values.push_back(DBL_MAX);
  values.push_back(DBL_MIN);
  values.push_back(-DBL_MIN);
  const Words in = words_of(values);
  for (unsigned b : {1u, 8u, 20u, 28u, 40u, 52u}) {
    INFO("b = " << b);
    const double bound = lsb_cut_relative_error_bound(b);
    REQUIRE(bound == std::ldexp(1.0, static_cast<int>(b) - 53));
    const Words out = round_trip(*make_codec("lsb_cut", with_cut(b)), in);
    const DoubleErrorStats s = double_error_stats(in.data(), out.data(), in.size());
    REQUIRE(s.values == values.size());
    REQUIRE(s.zeros == 0);
    REQUIRE(s.subnormals == 0);
    REQUIRE(s.non_finite == 0);
    REQUIRE(s.non_finite_decoded_from_finite == 0);
    REQUIRE(s.max_relative_error == s.max_relative_error_normal);
    REQUIRE(s.max_relative_error <= bound);
    REQUIRE(s.max_relative_error > bound / 2);  // the bound is not loose
    // Attained where the dropped bits are all zero: DBL_MIN = 2^-1022 has an empty mantissa.
    const std::vector<double> dec = doubles_of(out);
    REQUIRE(relative_error(DBL_MIN, dec[values.size() - 2]) == bound);
  }
}

TEST_CASE("codec lsb_cut: edge values decode as documented", "[codec][lsb_cut]") {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double denorm_min = std::numeric_limits<double>::denorm_min();
  const std::vector<double> values = {0.0,  -0.0, 1.0,  -1.0,      DBL_MAX,   DBL_MIN,
                                      inf,  -inf, nan,  denorm_min, -DBL_MIN / 4};
  for (unsigned b : {1u, 28u, 52u}) {
    INFO("b = " << b);
    const Words in = words_of(values);
    const std::vector<double> d = doubles_of(round_trip(LsbCutCodec(b), in));
    const double pad_ulp1 = std::ldexp(1.0, static_cast<int>(b) - 53);  // pad in units of 1.0
    const double tiny = std::ldexp(denorm_min, static_cast<int>(b) - 1);
    // +/-0 become the smallest value the pad makes: 2^(b-1) subnormal steps, sign kept.
    REQUIRE(d[0] == tiny);
    REQUIRE(d[1] == -tiny);
    REQUIRE(std::signbit(d[1]));
    // 1.0 has an empty mantissa: the pad is the whole error.
    REQUIRE(d[2] == 1.0 + pad_ulp1);
    REQUIRE(d[3] == -(1.0 + pad_ulp1));
    // DBL_MAX (mantissa all ones) stays finite and just below itself.
    REQUIRE(std::isfinite(d[4]));
    REQUIRE(d[4] <= DBL_MAX);
    REQUIRE(relative_error(DBL_MAX, d[4]) <= lsb_cut_relative_error_bound(b));
    REQUIRE(d[5] == DBL_MIN * (1.0 + pad_ulp1));
    // Infinities become NaN: the pad bit lands in their (empty) mantissa.
    REQUIRE(std::isnan(d[6]));
    REQUIRE(std::isnan(d[7]));
    REQUIRE(std::isnan(d[8]));
    // The smallest subnormal grows by a factor 2^(b-1): bounded absolutely, not relatively.
    REQUIRE(d[9] == tiny);
    REQUIRE(std::fabs(d[10] - (-DBL_MIN / 4)) <= tiny);
    REQUIRE(std::signbit(d[10]));

    const DoubleErrorStats s = double_error_stats(in.data(), words_of(d).data(), in.size());
    REQUIRE(s.zeros == 2);
    REQUIRE(s.non_finite == 3);
    REQUIRE(s.subnormals == 2);
    REQUIRE(s.non_finite_decoded_from_finite == 0);
    REQUIRE(s.max_abs_error_of_zeros == tiny);
    REQUIRE(s.max_relative_error_normal <= lsb_cut_relative_error_bound(b));
    // The worst is the smallest subnormal (factor 2^(b-1)), except at b = 1 where it is exact.
    const double worst_subnormal = std::fmax(std::ldexp(1.0, static_cast<int>(b) - 1) - 1.0,
                                             relative_error(-DBL_MIN / 4, d[10]));
    REQUIRE(s.max_relative_error == worst_subnormal);
    REQUIRE(s.max_relative_error > lsb_cut_relative_error_bound(b));
  }
}

TEST_CASE("codec lsb_cut: b = 1 and b = 52 extremes", "[codec][lsb_cut]") {
  const std::vector<double> values = {1.0, 1.2, 1.9, -7.0, 3.0};
  const Words in = words_of(values);
  // b = 52: the whole mantissa is cut and every value becomes 1.5 * 2^e.
  const std::vector<double> d52 = doubles_of(round_trip(LsbCutCodec(52), in));
  REQUIRE(d52 == std::vector<double>{1.5, 1.5, 1.5, -6.0, 3.0});
  // b = 1: the lowest bit is forced to 1; values whose lowest bit was 1 come back exact.
  const std::vector<double> d1 = doubles_of(round_trip(LsbCutCodec(1), in));
  for (std::size_t i = 0; i < values.size(); ++i)
    REQUIRE(bits_of(d1[i]) == (bits_of(values[i]) | 1u));
  REQUIRE(bits_of(d1[0]) == bits_of(1.0) + 1);  // one ulp above 1.0
}

TEST_CASE("codec lsb_cut: a complex is two doubles coded independently", "[codec][lsb_cut]") {
  // Elements: (re, im) pairs, 4 words each.
  const std::vector<double> parts = {1.0, -2.0, 0.1, 1e10, -3.75, 2.5e-5};
  const Words in = words_of(parts);
  REQUIRE(in.size() == 3 * words_per_element(ElementType::complex64));
  const CodecSet set(with_cut(20));
  const Codec* codec = set.codec_for(ElementType::complex64);
  REQUIRE(codec != nullptr);
  REQUIRE(codec->encoded_bits(in.data(), in.size()) == 3 * 2 * (64 - 20));
  const std::vector<double> d = doubles_of(round_trip(*codec, in));
  const LsbCutCodec one(20);
  for (std::size_t i = 0; i < parts.size(); ++i)
    REQUIRE(bits_of(d[i]) == one.round_trip(bits_of(parts[i])));
  // A half double is refused.
  BitWriter w;
  REQUIRE_THROWS_AS(codec->encode(in.data(), 3, w), std::invalid_argument);
  REQUIRE_THROWS_AS(codec->encoded_bits(in.data(), 1), std::invalid_argument);
}

// ------------------------------------------------------------------------------ registry

TEST_CASE("codec registry: names and compress by type", "[codec]") {
  REQUIRE(codecs().size() == 2);
  const auto fpc = make_codec("fpc", {});
  const auto lsb = make_codec("lsb_cut", {});
  REQUIRE(std::string(fpc->name()) == "fpc");
  REQUIRE(fpc->lossless());
  REQUIRE(std::string(lsb->name()) == "lsb_cut");
  REQUIRE_FALSE(lsb->lossless());
  // Compress by type: the entry that serves a type names its codec; raw is never compressed.
  REQUIRE(codec_entry_for(ElementType::int32) != nullptr);
  CHECK(std::string(codec_entry_for(ElementType::int32)->name) == "fpc");
  CHECK(std::string(codec_entry_for(ElementType::float64)->name) == "lsb_cut");
  CHECK(std::string(codec_entry_for(ElementType::complex64)->name) == "lsb_cut");
  CHECK(codec_entry_for(ElementType::raw) == nullptr);
  REQUIRE(dynamic_cast<const LsbCutCodec&>(*lsb).cut_bits() == 28);  // the SPEC's default

  const CodecSet set;
  REQUIRE(set.codec_for(ElementType::raw) == nullptr);
  REQUIRE(std::string(set.codec_for(ElementType::int32)->name()) == "fpc");
  REQUIRE(std::string(set.codec_for(ElementType::float64)->name()) == "lsb_cut");
  REQUIRE(std::string(set.codec_for(ElementType::complex64)->name()) == "lsb_cut");
  for (ElementType t : {ElementType::int32, ElementType::float64, ElementType::complex64})
    REQUIRE(std::string(set.codec_for(t)->name()) == codec_entry_for(t)->name);
}

TEST_CASE("codec element types: names and words per element", "[codec]") {
  REQUIRE(words_per_element(ElementType::raw) == 1);
  REQUIRE(words_per_element(ElementType::int32) == 1);
  REQUIRE(words_per_element(ElementType::float64) == 2);
  REQUIRE(words_per_element(ElementType::complex64) == 4);
  for (ElementType t : {ElementType::raw, ElementType::int32, ElementType::float64,
                        ElementType::complex64})
    REQUIRE(element_type_from_string(to_string(t), "k") == t);
  REQUIRE(element_type_from_string("double", "k") == ElementType::float64);
  REQUIRE(element_type_from_string("complex", "k") == ElementType::complex64);
  try {
    element_type_from_string("float", "ni.element_type");
    FAIL("no error");
  } catch (const ParamError& e) {
    REQUIRE(e.key() == "ni.element_type");
    REQUIRE(e.value() == "float");
    REQUIRE(std::string(e.what()).find("int32") != std::string::npos);
  }
}

TEST_CASE("codec parameters: bad values name the key", "[codec]") {
  for (unsigned b : {0u, 53u, 64u}) {
    INFO("b = " << b);
    try {
      make_codec("lsb_cut", with_cut(b));
      FAIL("no error");
    } catch (const ParamError& e) {
      REQUIRE(e.key() == "ni.lsb_cut_bits");
      REQUIRE(e.value() == std::to_string(b));
      REQUIRE(std::string(e.what()).find("1..52") != std::string::npos);
    }
    REQUIRE_THROWS_AS(LsbCutCodec(b), ParamError);
    REQUIRE_THROWS_AS(CodecSet(with_cut(b)), ParamError);
  }
  try {
    make_codec("zip", {});
    FAIL("no error");
  } catch (const ParamError& e) {
    REQUIRE(e.key() == "ni.codec");
    REQUIRE(e.value() == "zip");
    REQUIRE(std::string(e.what()).find("fpc lsb_cut") != std::string::npos);
  }
  REQUIRE_NOTHROW(make_codec("lsb_cut", with_cut(1)));
  REQUIRE_NOTHROW(make_codec("lsb_cut", with_cut(52)));
}
