// Codec throughput: encode, decode and the size-only path (encoded_bits), in 32-bit words per
// second, for FPC on small and random ints and LSB-cut on smooth doubles. Every run is checked
// (exact for FPC, cut interval and padding for LSB-cut), so a fast wrong codec cannot pass.
//
// Usage: codec_bench [MILLION_WORDS]   (default 4; the best of 5 repetitions is printed)
#include <systemc>  // libsystemc provides main() and calls sc_main

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ni/codec.hpp"

using namespace collnoc;

namespace {

using Clock = std::chrono::steady_clock;

// Best of `repeats` wall times of `f`, in seconds.
double best_seconds(int repeats, const std::function<void()>& f) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return best;
}

struct Case {
  const char* name;
  const char* codec;
  std::vector<std::uint32_t> words;
};

std::vector<std::uint32_t> small_ints(std::size_t n, std::mt19937& rng) {
  std::vector<std::uint32_t> w(n);
  for (auto& x : w) x = rng() % 1000;
  return w;
}

std::vector<std::uint32_t> random_ints(std::size_t n, std::mt19937& rng) {
  std::vector<std::uint32_t> w(n);
  for (auto& x : w) x = static_cast<std::uint32_t>(rng());
  return w;
}

// Small magnitudes of both signs: every FPC pattern, and a branch the predictor cannot learn.
std::vector<std::uint32_t> mixed_ints(std::size_t n, std::mt19937& rng) {
  std::vector<std::uint32_t> w(n);
  for (auto& x : w) {
    const auto m = static_cast<std::int32_t>(rng() % 300000);
    x = static_cast<std::uint32_t>(rng() % 5 == 0 ? -m : m);
  }
  return w;
}

std::vector<std::uint32_t> smooth_doubles(std::size_t n_words) {
  std::vector<std::uint32_t> w(n_words);
  for (std::size_t i = 0; i + 1 < n_words; i += 2) {
    const double v = 200.0 + 100.0 * std::sin(1e-4 * static_cast<double>(i));
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    w[i] = static_cast<std::uint32_t>(b);
    w[i + 1] = static_cast<std::uint32_t>(b >> 32);
  }
  return w;
}

}  // namespace

int sc_main(int argc, char** argv) {
  const double millions = argc > 1 ? std::atof(argv[1]) : 4.0;
  if (!(millions > 0)) {
    std::fprintf(stderr, "codec_bench: MILLION_WORDS = %s: must be > 0\n", argv[1]);
    return 2;
  }
  const auto n = static_cast<std::size_t>(millions * 1e6) / 2 * 2;  // whole doubles
  const int repeats = 5;
  std::mt19937 rng(42);
  std::vector<Case> cases;
  cases.push_back({"fpc small ints (0..999)", "fpc", small_ints(n, rng)});
  cases.push_back({"fpc mixed ints (+/-3e5)", "fpc", mixed_ints(n, rng)});
  cases.push_back({"fpc random ints", "fpc", random_ints(n, rng)});
  cases.push_back({"lsb_cut b=28 smooth doubles", "lsb_cut", smooth_doubles(n)});

  std::printf("%zu words per case, best of %d\n\n", n, repeats);
  std::printf("%-28s %9s %7s %15s %15s %15s\n", "case", "bits/word", "ratio", "size Mwords/s",
              "encode Mwords/s", "decode Mwords/s");
  for (const Case& c : cases) {
    const auto codec = make_codec(c.codec, CodecParams{});
    const std::uint32_t* in = c.words.data();
    std::uint64_t bits = 0;
    const double t_size = best_seconds(repeats, [&] { bits = codec->encoded_bits(in, n); });
    BitWriter stream;
    stream.reserve_bits(std::uint64_t{n} * 35);  // the NI keeps its buffers between packets
    const double t_encode = best_seconds(repeats, [&] {
      stream.clear();
      codec->encode(in, n, stream);
    });
    std::vector<std::uint32_t> out(n);
    const double t_decode = best_seconds(repeats, [&] {
      BitReader r(stream);
      codec->decode(r, n, out.data());
    });
    if (stream.bit_count() != bits) {
      std::fprintf(stderr, "codec_bench: %s: encoded_bits %llu != %llu written\n", c.name,
                   static_cast<unsigned long long>(bits),
                   static_cast<unsigned long long>(stream.bit_count()));
      return 1;
    }
    for (std::size_t i = 0; i < n; i += 2) {
      const std::uint64_t a = (std::uint64_t{in[i + 1]} << 32) | in[i];
      const std::uint64_t d = (std::uint64_t{out[i + 1]} << 32) | out[i];
      const bool ok = codec->lossless() ? a == d  // b = 28: kept bits, then 1 and 27 zeros
                                        : (d >> 28) == (a >> 28) && (d & 0xFFFFFFF) == 1u << 27;
      if (!ok) {
        std::fprintf(stderr, "codec_bench: %s: word %zu not restored\n", c.name, i);
        return 1;
      }
    }
    const double mw = static_cast<double>(n) / 1e6;
    // LSB-cut's size is a product (64 - b per double): no per-word work to time.
    const std::string size_rate =
        codec->lossless() ? std::to_string(static_cast<long>(mw / t_size)) : "O(1)";
    std::printf("%-28s %9.2f %7.3f %15s %15.0f %15.0f\n", c.name,
                static_cast<double>(bits) / static_cast<double>(n),
                32.0 * static_cast<double>(n) / static_cast<double>(bits), size_rate.c_str(),
                mw / t_encode, mw / t_decode);
  }
  return 0;
}
