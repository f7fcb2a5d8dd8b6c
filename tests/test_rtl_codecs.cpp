// Pin-level codec models (rtl_models/) against their functional twins (ni/): every output word
// bit-exact with FpcCodec / LsbCutCodec, the latency in cycles equal to the documented pipeline
// depth, no word lost or duplicated under random input gaps and output stalls, reset emptying the
// pipeline, and the VCD carrying every signal the shipped .gtkw save files name.
//
// Each TEST_CASE elaborates one testbench (StreamBench, tests/rtl_support.hpp): a clock, the
// handshake signals, a driver SC_METHOD that offers the words (valid held, data stable, until
// taken) and a monitor SC_METHOD that takes them (random out_ready) and checks them. Both act at
// the rising edge on the values before it, as the DUT does. They record errors; the test checks
// the record after sc_start. This file holds what is particular to the codecs: a Side per block
// (its data pins and its functional twin) and the stimuli.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "ni/bitstream.hpp"
#include "ni/fpc_codec.hpp"
#include "ni/lsb_cut_codec.hpp"
#include "noc/types.hpp"
#include "rtl_support.hpp"
#include "rtl_models/fpc_decoder_rtl.hpp"
#include "rtl_models/fpc_encoder_rtl.hpp"
#include "rtl_models/lsb_cut_rtl.hpp"

using namespace collnoc;
using namespace collnoc::test;

namespace {

// One word through a block: `a`, `b` are the values on its data pins (which pins depends on the
// block: see each Side); `orig` is what the functional model starts from; `corrupt` marks a
// decoder input the encoder could not have produced.
struct Item {
  std::uint64_t a = 0, b = 0, orig = 0;
  bool corrupt = false;
};
bool operator!=(const Item& x, const Item& y) { return x.a != y.a || x.b != y.b; }

// ---------------------------------------------------------------- the blocks under test

struct EncoderSide : BlockSide<FpcEncoderRtl> {
  sc_signal<sc_uint<32>> in_word{"in_word"};
  sc_signal<sc_uint<35>> out_code{"out_code"};
  sc_signal<sc_uint<6>> out_bits{"out_bits"};

  EncoderSide() : BlockSide("enc") {
    block.in_word(in_word), block.out_code(out_code), block.out_bits(out_bits);
  }
  void drive(const Item& x) { in_word.write(x.a); }
  Item sample() const { return {out_code.read(), out_bits.read(), 0, false}; }

  // The code must be the field FpcCodec::encode writes for the word: same length, same bits.
  static std::string check(const Item& in, const Item& out) {
    const auto word = static_cast<std::uint32_t>(in.orig);
    BitWriter w;
    FpcCodec().encode(&word, 1, w);
    const auto bits = static_cast<unsigned>(w.bit_count());
    BitReader r(w);
    const std::uint64_t code = r.read64(bits);
    if (out.b != bits || out.a != code)
      return "word " + hex(word) + ": code " + hex(out.a) + "/" + std::to_string(out.b) +
             " bits, FpcCodec wrote " + hex(code) + "/" + std::to_string(bits);
    if (bits != FpcCodec::word_bits(word) || (out.a >> (bits - 3)) != FpcCodec::prefix_of(word))
      return "word " + hex(word) + ": prefix or size differs from FpcCodec::prefix_of/word_bits";
    return {};
  }
};

struct DecoderSide : BlockSide<FpcDecoderRtl> {
  sc_signal<sc_uint<35>> in_code{"in_code"};
  sc_signal<sc_uint<6>> in_bits{"in_bits"};
  sc_signal<sc_uint<32>> out_word{"out_word"};
  sc_signal<bool> out_error{"out_error"};

  DecoderSide() : BlockSide("dec") {
    block.in_code(in_code), block.in_bits(in_bits);
    block.out_word(out_word), block.out_error(out_error);
  }
  void drive(const Item& x) {
    in_code.write(x.a);
    in_bits.write(x.b);
  }
  Item sample() const { return {out_word.read(), out_error.read(), 0, false}; }

  static std::string check(const Item& in, const Item& out) {
    if (in.corrupt) {
      if (out.b != 1 || out.a != 0)
        return "corrupt code " + hex(in.a) + "/" + std::to_string(in.b) + " not flagged";
      // A 110 prefix is the one corruption the functional decoder sees in a stream: it throws.
      if (in.b >= 17 && in.b <= 35 && ((in.a >> (in.b - 3)) & 7) == FpcCodec::kPrefixUnused) {
        BitWriter w;
        w.write64(in.a, static_cast<unsigned>(in.b));
        BitReader r(w);
        std::uint32_t word = 0;
        try {
          FpcCodec().decode(r, 1, &word);
          return "FpcCodec::decode accepted prefix 110";
        } catch (const std::runtime_error&) {
        }
      }
      return {};
    }
    if (out.b != 0 || out.a != in.orig)
      return "code " + hex(in.a) + "/" + std::to_string(in.b) + ": word " + hex(out.a) +
             (out.b ? " (error)" : "") + ", expected " + hex(in.orig);
    return {};
  }
};

// The encoder's pins wired to the decoder's: word in, word out, three stages.
struct FpcChainSide : ChainSide<FpcEncoderRtl, FpcDecoderRtl> {
  sc_signal<sc_uint<32>> in_word{"in_word"};
  sc_signal<sc_uint<35>> mid_code{"mid_code"};
  sc_signal<sc_uint<6>> mid_bits{"mid_bits"};
  sc_signal<sc_uint<32>> out_word{"out_word"};
  sc_signal<bool> out_error{"out_error"};

  FpcChainSide() : ChainSide("enc", "dec") {
    first.in_word(in_word), first.out_code(mid_code), first.out_bits(mid_bits);
    second.in_code(mid_code), second.in_bits(mid_bits);
    second.out_word(out_word), second.out_error(out_error);
  }
  void drive(const Item& x) { in_word.write(x.a); }
  Item sample() const { return {out_word.read(), out_error.read(), 0, false}; }
  static std::string check(const Item& in, const Item& out) {
    if (out.b != 0 || out.a != in.orig)
      return "word " + hex(in.orig) + " came back as " + hex(out.a) + (out.b ? " (error)" : "");
    return {};
  }
};

// LsbCutRtl or LsbPadRtl, one 64-bit data pin on each side, beside the LsbCutCodec of its b.
template <class Block, sc_in<sc_uint<64>> Block::*InPin, sc_out<sc_uint<64>> Block::*OutPin>
struct LsbSide : BlockSide<Block> {
  sc_signal<sc_uint<64>> in{"in"}, out{"out"};
  LsbCutCodec codec;

  LsbSide(const char* instance, unsigned cut_bits)
      : BlockSide<Block>(instance, cut_bits), codec(cut_bits) {
    (this->block.*InPin)(in), (this->block.*OutPin)(out);
  }
  void drive(const Item& x) { in.write(x.a); }
  Item sample() const { return {out.read(), 0, 0, false}; }
};

struct CutSide : LsbSide<LsbCutRtl, &LsbCutRtl::in_pattern, &LsbCutRtl::out_kept> {
  explicit CutSide(unsigned cut_bits) : LsbSide("cut", cut_bits) {}

  // The kept bits must be the field LsbCutCodec::encode writes for the double (low word first).
  std::string check(const Item& in, const Item& out) const {
    const std::uint32_t words[2] = {static_cast<std::uint32_t>(in.orig),
                                    static_cast<std::uint32_t>(in.orig >> 32)};
    BitWriter w;
    codec.encode(words, 2, w);
    BitReader r(w);
    const std::uint64_t kept = r.read64(static_cast<unsigned>(w.bit_count()));
    if (w.bit_count() != codec.kept_bits() || out.a != kept || kept != in.orig >> codec.cut_bits())
      return "pattern " + hex(in.orig) + ": kept " + hex(out.a) + ", LsbCutCodec wrote " +
             hex(kept);
    return {};
  }
};

struct PadSide : LsbSide<LsbPadRtl, &LsbPadRtl::in_kept, &LsbPadRtl::out_pattern> {
  explicit PadSide(unsigned cut_bits) : LsbSide("pad", cut_bits) {}

  // The pattern must be what LsbCutCodec::decode restores from the kept field, = round_trip.
  std::string check(const Item& in, const Item& out) const {
    BitWriter w;
    w.write64(in.a, codec.kept_bits());
    BitReader r(w);
    std::uint32_t words[2] = {0, 0};
    codec.decode(r, 2, words);
    const std::uint64_t decoded = (std::uint64_t{words[1]} << 32) | words[0];
    if (out.a != decoded || decoded != codec.round_trip(in.orig))
      return "pattern " + hex(in.orig) + " (kept " + hex(in.a) + "): padded " + hex(out.a) +
             ", LsbCutCodec restores " + hex(decoded);
    return {};
  }
};

// The cut's pins wired to the pad's: a pattern in, its round trip out.
struct LsbChainSide : ChainSide<LsbCutRtl, LsbPadRtl> {
  sc_signal<sc_uint<64>> in_pattern{"in_pattern"};
  sc_signal<sc_uint<64>> mid_kept{"mid_kept"};
  sc_signal<sc_uint<64>> out_pattern{"out_pattern"};
  LsbCutCodec codec;

  explicit LsbChainSide(unsigned cut_bits) : ChainSide("cut", "pad", cut_bits), codec(cut_bits) {
    first.in_pattern(in_pattern), first.out_kept(mid_kept);
    second.in_kept(mid_kept), second.out_pattern(out_pattern);
  }
  void drive(const Item& x) { in_pattern.write(x.a); }
  Item sample() const { return {out_pattern.read(), 0, 0, false}; }
  std::string check(const Item& in, const Item& out) const {
    if (out.a != codec.round_trip(in.orig))
      return "pattern " + hex(in.orig) + " came back as " + hex(out.a) + ", expected " +
             hex(codec.round_trip(in.orig));
    return {};
  }
};

// ---------------------------------------------------------------- stimuli

// FPC edge values: 0, all ones, 2^k - 1, 2^k, 2^k + 1 for every k (13..19 are the pattern
// boundaries), the signed extremes, small negatives.
std::vector<std::uint32_t> fpc_edge_words() {
  std::vector<std::uint32_t> w = {0u, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 1u, 0xFFFFFFFEu};
  for (unsigned k = 1; k < 32; ++k) {
    const std::uint32_t p = 1u << k;
    w.insert(w.end(), {p - 1, p, p + 1, ~(p - 1)});
  }
  for (std::int32_t v : {-2, -1000, -65536, -524288}) w.push_back(static_cast<std::uint32_t>(v));
  return w;
}

// Edge values first, then a random mix: every pattern class (a word with exactly z leading
// zeros, z = 0..32), edge values again, and uniform 32-bit words.
std::vector<std::uint32_t> fpc_words(std::size_t count, unsigned seed) {
  std::vector<std::uint32_t> w = fpc_edge_words();
  const std::vector<std::uint32_t> edges = w;
  std::mt19937 rng(seed);
  while (w.size() < count) {
    switch (rng() % 4) {
      case 0: {  // a word with exactly z leading zeros
        const unsigned z = rng() % 33;
        if (z == 32) {
          w.push_back(0);
        } else {
          const std::uint32_t top = 1u << (31 - z);
          w.push_back(top | (rng() & (top - 1)));
        }
        break;
      }
      case 1: {  // near a pattern boundary
        const unsigned k = 13 + rng() % 7;
        w.push_back((1u << k) + (rng() % 5) - 2);
        break;
      }
      case 2: w.push_back(edges[rng() % edges.size()]); break;
      default: w.push_back(static_cast<std::uint32_t>(rng())); break;
    }
  }
  w.resize(count);  // a short stream: the first edge values only
  return w;
}

std::vector<Item> encoder_items(std::size_t count, unsigned seed) {
  std::vector<Item> items;
  for (std::uint32_t word : fpc_words(count, seed)) items.push_back({word, 0, word, false});
  return items;
}

Item code_item(std::uint32_t word) {
  BitWriter w;
  FpcCodec().encode(&word, 1, w);
  const auto bits = static_cast<unsigned>(w.bit_count());
  BitReader r(w);
  return {r.read64(bits), bits, word, false};
}

// The encoder's codes of the FPC words, and now and then a code the encoder could not write:
// prefix 110, a length that does not match the prefix, bits above the length.
std::vector<Item> decoder_items(std::size_t count, unsigned seed) {
  std::vector<Item> items;
  std::mt19937 rng(seed + 1);
  for (std::uint32_t word : fpc_words(count, seed)) {
    items.push_back(code_item(word));
    if (rng() % 40 != 0) continue;
    Item bad = items.back();
    bad.corrupt = true;
    switch (rng() % 3) {
      case 0: {  // prefix 110 with a plausible length
        const unsigned bits = 17 + rng() % 19;
        bad.b = bits;
        bad.a = (std::uint64_t{0b110} << (bits - 3)) | (rng() & ((1u << 14) - 1));
        break;
      }
      case 1:  // a length no code has (a wrong length within 17..35 can look valid)
        bad.b = rng() % 2 ? rng() % 17 : 36 + rng() % 28;
        break;
      default:
        if (bad.b == 35) {
          bad.b = 34;  // 111 then 31 bits: a length the prefix does not have
        } else {
          bad.a |= std::uint64_t{1} << (bad.b + rng() % (35 - bad.b));
        }
        break;
    }
    items.push_back(bad);
  }
  return items;
}

std::uint64_t bits_of(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

// Double patterns: zeros, ones, infinities, NaNs, subnormals, extremes, all-ones mantissas,
// random doubles of every magnitude, uniform 64-bit patterns.
std::vector<std::uint64_t> double_patterns(std::size_t count, unsigned seed) {
  std::vector<std::uint64_t> p;
  for (double d : {0.0, -0.0, 1.0, -1.0, 1.5, -7.0, 0.1, 1.0 / 3.0, DBL_MAX, -DBL_MAX, DBL_MIN,
                   DBL_EPSILON, std::numeric_limits<double>::denorm_min(),
                   std::numeric_limits<double>::infinity(),
                   -std::numeric_limits<double>::infinity(),
                   std::numeric_limits<double>::quiet_NaN()})
    p.push_back(bits_of(d));
  p.insert(p.end(), {0xFFFFFFFFFFFFFFFFull, 0x7FF0000000000001ull, 0x000FFFFFFFFFFFFFull,
                     0x3FFFFFFFFFFFFFFFull, 0x8000000000000001ull, 0x0000000100000000ull,
                     0x00000000FFFFFFFFull});
  for (unsigned k = 0; k < 64; ++k) p.push_back(std::uint64_t{1} << k);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  while (p.size() < count) {
    if (rng() % 2) {
      const int exp = static_cast<int>(rng() % 2098) - 1074;
      const double d = std::ldexp(mantissa(rng), exp) * (rng() % 2 ? 1 : -1);
      p.push_back(bits_of(d));
    } else {
      p.push_back(rng());
    }
  }
  p.resize(count);
  return p;
}

std::vector<Item> pattern_items(std::size_t count, unsigned seed) {
  std::vector<Item> items;
  for (std::uint64_t p : double_patterns(count, seed)) items.push_back({p, 0, p, false});
  return items;
}

std::vector<Item> kept_items(std::size_t count, unsigned seed, unsigned cut_bits) {
  std::vector<Item> items;
  for (std::uint64_t p : double_patterns(count, seed))
    items.push_back({p >> cut_bits, 0, p, false});
  return items;
}

}  // namespace

// ---------------------------------------------------------------- combinational parts

TEST_CASE("rtl fpc classify and decode agree with FpcCodec on every boundary and at random") {
  std::vector<std::uint32_t> words = fpc_words(200000, 11);
  for (std::uint32_t w : words) {
    INFO("word " << hex(w));
    REQUIRE(FpcEncoderRtl::classify(w).to_uint() == FpcCodec::prefix_of(w));
    const Item c = code_item(w);
    bool error = true;
    REQUIRE(FpcDecoderRtl::decode(c.a, c.b, error).to_uint() == w);
    REQUIRE_FALSE(error);
  }
  bool error = false;
  CHECK(FpcDecoderRtl::decode(std::uint64_t{0b110} << 14, 17, error).to_uint() == 0u);
  CHECK(error);
  CHECK(FpcDecoderRtl::decode(0, 16, error).to_uint() == 0u);
  CHECK(error);
  CHECK(FpcDecoderRtl::decode(std::uint64_t{0b101} << 14, 18, error).to_uint() == 0u);
  CHECK(error);
  CHECK(FpcDecoderRtl::decode(std::uint64_t{0b111} << 32, 34, error).to_uint() == 0u);
  CHECK(error);
}

// ---------------------------------------------------------------- streams

TEST_CASE("rtl fpc encoder matches FpcCodec bit and cycle exact under stalls and reset") {
  run_stress<EncoderSide>(encoder_items(6000, 1), 1);
}

TEST_CASE("rtl fpc decoder restores FpcCodec codes bit and cycle exact under stalls and reset") {
  const auto items = decoder_items(6000, 2);
  REQUIRE(std::count_if(items.begin(), items.end(), [](const Item& x) { return x.corrupt; }) >
          50);
  run_stress<DecoderSide>(items, 2);
}

TEST_CASE("rtl fpc encoder into decoder restores every word") {
  run_stress<FpcChainSide>(encoder_items(6000, 3), 3);
}

TEST_CASE("rtl lsb cut b 1 matches LsbCutCodec") {
  run_stress<CutSide>(pattern_items(4000, 4), 4, 1u);
}
TEST_CASE("rtl lsb cut b 28 matches LsbCutCodec") {
  run_stress<CutSide>(pattern_items(4000, 5), 5, 28u);
}
TEST_CASE("rtl lsb cut b 52 matches LsbCutCodec") {
  run_stress<CutSide>(pattern_items(4000, 6), 6, 52u);
}

TEST_CASE("rtl lsb pad b 1 matches LsbCutCodec round trip") {
  run_stress<PadSide>(kept_items(4000, 7, 1), 7, 1u);
}
TEST_CASE("rtl lsb pad b 28 matches LsbCutCodec round trip") {
  run_stress<PadSide>(kept_items(4000, 8, 28), 8, 28u);
}
TEST_CASE("rtl lsb pad b 52 matches LsbCutCodec round trip") {
  run_stress<PadSide>(kept_items(4000, 9, 52), 9, 52u);
}

TEST_CASE("rtl lsb cut into pad gives LsbCutCodec round trip") {
  run_stress<LsbChainSide>(pattern_items(4000, 10), 10, 28u);
}

TEST_CASE("rtl lsb cut and pad refuse b outside 1..52 like the codec") {
  for (unsigned b : {0u, 53u, 64u}) {
    check_refused([b] { LsbCutRtl cut("cut", b); }, "ni.lsb_cut_bits", std::to_string(b));
    check_refused([b] { LsbPadRtl pad("pad", b); }, "ni.lsb_cut_bits", std::to_string(b));
    CHECK_THROWS_AS(LsbCutCodec(b), ParamError);
  }
  LsbCutRtl cut("cut_ok", 52);
  LsbPadRtl pad("pad_ok", 1);
  CHECK(cut.kept_bits() == 12);
  CHECK(pad.kept_bits() == 63);
}

// ---------------------------------------------------------------- waves

TEST_CASE("rtl vcd of the fpc encoder holds the signals of its gtkw") {
  run_traced<EncoderSide>("fpc_encoder_rtl", encoder_items(40, 12));
}

TEST_CASE("rtl vcd of the fpc decoder holds the signals of its gtkw") {
  std::vector<Item> items;
  for (std::uint32_t w : {5u, 70000u, 0xFFFFFFFFu, 20000u, 300000u, 40000u, 0u, 9000u, 1u << 18,
                          123456789u, 17u, 1u << 16, 600000u, 2u, 0x80000000u, 16383u, 16384u})
    items.push_back(code_item(w));
  items.insert(items.begin() + 12, {std::uint64_t{0b110} << 14, 17, 0, true});  // a corrupt code
  for (std::uint32_t w : fpc_words(40, 13)) items.push_back(code_item(w));
  items.resize(40);
  run_traced<DecoderSide>("fpc_decoder_rtl", items);
}

TEST_CASE("rtl vcd of the lsb cut holds the signals of its gtkw") {
  run_traced<CutSide>("lsb_cut_rtl", pattern_items(40, 14), 28u);
}

TEST_CASE("rtl vcd of the lsb pad holds the signals of its gtkw") {
  run_traced<PadSide>("lsb_pad_rtl", kept_items(40, 15, 28), 28u);
}
