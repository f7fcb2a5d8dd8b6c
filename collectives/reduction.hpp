// Reductions computed for real: an operator (sum, max, min) over int32 or double elements held
// in message words (a double takes two words, low word first). Contributions are generated
// from (seed, rank, repetition); doubles are multiples of 2^-10 below 2^9 in magnitude, so
// every sum of up to 2^20 of them is exact and every summation order gives the same bits.
#pragma once
#include <string>

#include "collectives/firmware.hpp"

namespace collnoc {

class Reduction {
 public:
  enum class Op { sum, max, min };
  // From workload.reduce_op, workload.element_type and workload.message_bytes (a multiple of
  // the element size); ParamError naming the key otherwise.
  explicit Reduction(const FirmwareParams& p);

  unsigned words() const { return words_; }
  unsigned elements() const { return doubles_ ? words_ / 2 : words_; }
  // What `rank` contributes in repetition `rep`.
  Words contribution(std::uint64_t seed, unsigned rank, unsigned rep) const;
  // acc = acc (op) in, element by element: a whole message or the same chunk of two (of an
  // even number of words for doubles).
  void combine(Words& acc, const Words& in) const;
  // The reduction over ranks 0 .. ranks-1, computed here directly.
  Words expected(std::uint64_t seed, unsigned ranks, unsigned rep) const;

 private:
  Op op_ = Op::sum;
  bool doubles_ = false;
  unsigned words_ = 0;
};

}  // namespace collnoc
