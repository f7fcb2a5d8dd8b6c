// Small, fast, portable random numbers: identical streams on every platform and compiler,
// which std:: distributions do not promise. Every model owns its generator (no global state).
#pragma once
#include <cmath>
#include <cstdint>

namespace collnoc {

inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Stateless mix of two values (payload words, seeds per node).
inline std::uint64_t hash64(std::uint64_t a, std::uint64_t b) {
  std::uint64_t s = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL);
  return splitmix64(s);
}

// xoshiro256** (Blackman and Vigna).
class Rng {
 public:
  explicit Rng(std::uint64_t seed = 1) { reseed(seed); }
  void reseed(std::uint64_t seed) {
    for (auto& w : s_) w = splitmix64(seed);
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform integer in [0, n).
  std::uint64_t below(std::uint64_t n) { return n ? next() % n : 0; }
  // Number of failures before the first success of a Bernoulli(p) trial: the gap to the next
  // event of a per-cycle Bernoulli process, drawn in one step.
  std::uint64_t geometric(double p) {
    if (p >= 1.0) return 0;
    const double u = 1.0 - uniform();  // (0, 1]
    return static_cast<std::uint64_t>(std::floor(std::log(u) / std::log1p(-p)));
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

}  // namespace collnoc
