#include "collectives/reduction.hpp"

#include <algorithm>
#include <cstring>

#include "noc/random.hpp"

namespace collnoc {

namespace {

double as_double(const Words& w, std::size_t i) {
  const std::uint64_t bits = w[2 * i] | static_cast<std::uint64_t>(w[2 * i + 1]) << 32;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

void put_double(Words& w, std::size_t i, double d) {
  std::uint64_t bits;
  std::memcpy(&bits, &d, sizeof d);
  w[2 * i] = static_cast<std::uint32_t>(bits);
  w[2 * i + 1] = static_cast<std::uint32_t>(bits >> 32);
}

template <typename T>
T apply(Reduction::Op op, T a, T b) {
  switch (op) {
    case Reduction::Op::sum: return a + b;
    case Reduction::Op::max: return std::max(a, b);
    case Reduction::Op::min: return std::min(a, b);
  }
  return a;
}

}  // namespace

Reduction::Reduction(const FirmwareParams& p) {
  if (p.reduce_op == "sum") op_ = Op::sum;
  else if (p.reduce_op == "max") op_ = Op::max;
  else if (p.reduce_op == "min") op_ = Op::min;
  else throw ParamError("workload.reduce_op", p.reduce_op, "one of: sum max min");
  if (p.element_type == "double") doubles_ = true;
  else if (p.element_type != "int32")
    throw ParamError("workload.element_type", p.element_type, "one of: int32 double");
  const std::uint64_t element = doubles_ ? 8 : 4;
  if (p.message_bytes == 0 || p.message_bytes % element != 0)
    throw ParamError("workload.message_bytes", std::to_string(p.message_bytes),
                     "a positive multiple of the element size (" + std::to_string(element) +
                         " bytes for " + p.element_type + ")");
  words_ = static_cast<unsigned>(p.message_bytes / 4);
}

Words Reduction::contribution(std::uint64_t seed, unsigned rank, unsigned rep) const {
  Words w = pattern_message(seed, rank, rank, rep, words_);
  if (doubles_)
    for (std::size_t i = 0; i < words_ / 2; ++i) {
      const auto k = static_cast<std::int32_t>(w[2 * i]) >> 12;  // |k| < 2^19
      put_double(w, i, k / 1024.0);
    }
  return w;
}

void Reduction::combine(Words& acc, const Words& in) const {
  const std::size_t words = std::min(acc.size(), in.size());  // a message, or a chunk of one
  if (doubles_) {
    for (std::size_t i = 0; i < words / 2; ++i)
      put_double(acc, i, apply(op_, as_double(acc, i), as_double(in, i)));
    return;
  }
  for (std::size_t i = 0; i < words; ++i) {
    if (op_ == Op::sum) {
      acc[i] += in[i];  // two's complement wrap-around: the same in every order
    } else {
      const auto v = apply(op_, static_cast<std::int32_t>(acc[i]), static_cast<std::int32_t>(in[i]));
      acc[i] = static_cast<std::uint32_t>(v);
    }
  }
}

Words Reduction::expected(std::uint64_t seed, unsigned ranks, unsigned rep) const {
  Words acc = contribution(seed, 0, rep);
  for (unsigned r = 1; r < ranks; ++r) combine(acc, contribution(seed, r, rep));
  return acc;
}

}  // namespace collnoc
