#include <algorithm>
#include <utility>

#include "collectives/scc_libraries.hpp"

namespace collnoc {

std::unique_ptr<Firmware> make_allreduce_recursive_doubling(const FirmwareParams&, const Topology&);

namespace {

// Rabenseifner's reduction as MPICH2 runs it (make_rabenseifner, scc_libraries.hpp). The vector
// is cut into p' blocks of elements (the last takes the remainder). Ranks below 2 x rem
// (rem = n - p') pair up first: the even one hands its vector to the odd one and leaves; a
// remaining rank's index among the p' is its `newrank`.
class Rabenseifner : public ReductionCollective {
 public:
  Rabenseifner(const FirmwareParams& p, const Topology& t, bool all)
      : ReductionCollective(p, t), all_(all), pof2_(power_of_two_floor(n_)), rem_(n_ - pof2_),
        word_per_element_(red_.words() / red_.elements()) {}

  void run_rank(MessageLayer& ml, unsigned me) override {
    const unsigned root = all_ ? 0 : p_.root;
    // Reduce: the rank that collects for the root (the root, or its partner if it left).
    const unsigned collector = leaves(root) ? root + 1 : root;
    Words acc = mine(me);
    ml.mark_round(1);
    if (leaves(me)) {
      send(ml, me + 1, acc);
      if (all_ || me == root) {
        ml.mark_round(4);
        acc = recv(ml, me + 1);
        check(acc, want_, what(me));
      }
      return;
    }
    if (me < 2 * rem_) fold(ml, acc, recv(ml, me - 1));
    const unsigned newrank = me < 2 * rem_ ? me / 2 : me - rem_;
    // Reduce-scatter: at distance d, keep half of the blocks held, send the other half.
    std::vector<std::pair<unsigned, unsigned>> held;  // blocks held before each halving
    unsigned lo = 0, hi = pof2_;
    ml.mark_round(2);
    for (unsigned d = 1; d < pof2_; d <<= 1) {
      held.emplace_back(lo, hi);
      const unsigned partner_new = newrank ^ d, partner = actual(partner_new), mid = (lo + hi) / 2;
      const bool lower = newrank < partner_new;
      send(ml, partner, slice(acc, lower ? mid : lo, lower ? hi : mid));
      const unsigned keep_lo = lower ? lo : mid, keep_hi = lower ? mid : hi;
      fold_blocks(ml, acc, keep_lo, keep_hi, recv(ml, partner));
      lo = keep_lo;
      hi = keep_hi;
    }
    // Gather the blocks back, the reverse of the halvings: to every rank (allreduce), or down
    // to the collector's newrank, the rank that differs from it at distance d handing over
    // all it holds and leaving.
    ml.mark_round(3);
    const unsigned new_collector = collector < 2 * rem_ ? collector / 2 : collector - rem_;
    for (unsigned d = pof2_ / 2, level = static_cast<unsigned>(held.size()); d > 0; d >>= 1) {
      const unsigned partner = actual(newrank ^ d);
      --level;
      if (!all_ && ((newrank ^ new_collector) & d)) {
        send(ml, partner, slice(acc, lo, hi));
        return;
      }
      if (all_) send(ml, partner, slice(acc, lo, hi));
      const auto [plo, phi] = held[level];
      const bool mine_low = lo == plo;
      place(acc, mine_low ? hi : plo, mine_low ? phi : lo, recv(ml, partner));
      lo = plo;
      hi = phi;
    }
    ml.mark_round(4);
    if (all_ && me < 2 * rem_) send(ml, me - 1, acc);
    if (!all_ && me != root) {  // the collector, for a root that left
      send(ml, root, acc);
      return;
    }
    check(acc, want_, what(me));
  }

 private:
  bool leaves(unsigned r) const { return r < 2 * rem_ && r % 2 == 0; }
  unsigned actual(unsigned newrank) const { return newrank < rem_ ? 2 * newrank + 1 : newrank + rem_; }
  std::string what(unsigned me) const {
    return std::string(all_ ? "allreduce" : "reduce") + " result at rank " + std::to_string(me);
  }
  // First word of block b (blocks of elements / p' elements, the last one the rest).
  std::size_t word_of(unsigned b) const {
    const std::size_t per_block = red_.elements() / pof2_;
    return b >= pof2_ ? red_.words() : b * per_block * word_per_element_;
  }
  Words slice(const Words& acc, unsigned lo, unsigned hi) const {
    return Words(acc.begin() + static_cast<std::ptrdiff_t>(word_of(lo)),
                 acc.begin() + static_cast<std::ptrdiff_t>(word_of(hi)));
  }
  // acc's blocks [lo, hi) = themselves (op) in; the software model charges their elements.
  void fold_blocks(MessageLayer& ml, Words& acc, unsigned lo, unsigned hi, const Words& in) {
    Words part = slice(acc, lo, hi);
    if (in.size() != part.size()) {
      fail("reduce-scatter block of " + std::to_string(in.size()) + " words, expected " +
           std::to_string(part.size()));
      return;
    }
    red_.combine(part, in);
    ml.reduced(part.size() / word_per_element_);
    std::copy(part.begin(), part.end(), acc.begin() + static_cast<std::ptrdiff_t>(word_of(lo)));
  }
  void place(Words& acc, unsigned lo, unsigned hi, const Words& in) {
    if (in.size() != word_of(hi) - word_of(lo)) {
      fail("gathered blocks of " + std::to_string(in.size()) + " words, expected " +
           std::to_string(word_of(hi) - word_of(lo)));
      return;
    }
    std::copy(in.begin(), in.end(), acc.begin() + static_cast<std::ptrdiff_t>(word_of(lo)));
  }

  bool all_;
  unsigned pof2_, rem_, word_per_element_;
};

}  // namespace

std::unique_ptr<Firmware> make_rabenseifner(const FirmwareParams& p, const Topology& t, bool all) {
  return std::make_unique<Rabenseifner>(p, t, all);
}

// MPICH2's choice: recursive doubling up to allreduce_short_bytes or with fewer elements than
// p', Rabenseifner's above.
std::unique_ptr<Firmware> make_allreduce_rckmpi(const FirmwareParams& p, const Topology& t) {
  require_library_transport(p);
  const unsigned n = GridCommunicator(t, p.grid).size();
  if (p.message_bytes <= MpichThresholds::allreduce_short_bytes ||
      Reduction(p).elements() < power_of_two_floor(n))
    return with_variant(make_allreduce_recursive_doubling(p, t), "recursive_doubling");
  return with_variant(make_rabenseifner(p, t, true), "rabenseifner");
}

}  // namespace collnoc
