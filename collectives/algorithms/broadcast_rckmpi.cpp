#include <algorithm>

#include "collectives/scc_libraries.hpp"

namespace collnoc {

std::unique_ptr<Firmware> make_broadcast_binomial(const FirmwareParams&, const Topology&);

namespace {

// MPICH2's long-message broadcast (van de Geijn's): the root's message, cut into n pieces (one
// per rank, ranks relative to the root), is scattered down a binomial tree, each rank getting
// the pieces of its subtree; then every rank gathers all pieces, around a ring (n - 1 steps,
// each passing on the piece last received) or, for a power-of-two rank count, by recursive
// doubling (exchanges at distance 1, 2, 4, ... of everything held so far).
class ScatterAllgatherBroadcast : public MeshCollective {
 public:
  ScatterAllgatherBroadcast(const FirmwareParams& p, const Topology& t, bool ring)
      : MeshCollective(p, t), ring_(ring), words_(message_words(p)),
        piece_words_((words_ + n_ - 1) / n_) {
    copies_ = CopyBuffers::user(4ull * words_);  // a piece is a copy out of the whole message
  }

  void run_rank(MessageLayer& ml, unsigned me) override {
    const unsigned v = (me + n_ - p_.root) % n_;
    Words data(words_, 0);
    if (v == 0) data = broadcast_data(p_);
    ml.mark_round(1);  // the scatter
    unsigned mask = 1;
    for (; mask < n_; mask <<= 1)
      if (v & mask) {
        take(ml, data, v - mask, v, v + mask);
        break;
      }
    for (mask >>= 1; mask > 0; mask >>= 1)
      if (v + mask < n_) give(ml, data, v + mask, v + mask, v + 2 * mask);
    ml.mark_round(2);  // the allgather
    if (ring_) {
      const unsigned right = (v + 1) % n_, left = (v + n_ - 1) % n_;
      for (unsigned step = 0, piece = v; step + 1 < n_; ++step) {
        const unsigned next = (piece + n_ - 1) % n_;
        give(ml, data, right, piece, piece + 1);
        take(ml, data, left, next, next + 1);
        piece = next;
      }
    } else {
      for (unsigned span = 1; span < n_; span <<= 1) {
        const unsigned partner = v ^ span, mine = v / span * span, theirs = partner / span * span;
        give(ml, data, partner, mine, mine + span);
        take(ml, data, partner, theirs, theirs + span);
      }
    }
    check(data, broadcast_data(p_), "broadcast data at rank " + std::to_string(me));
  }

 private:
  // Words of pieces [first, last) (clipped to the message).
  std::size_t word_at(unsigned piece) const {
    return std::min<std::size_t>(std::size_t{piece} * piece_words_, words_);
  }
  std::size_t actual(unsigned rel) const { return (rel + p_.root) % n_; }
  // Pieces [first, last) to / from relative rank `rel`; an empty range is no message.
  void give(MessageLayer& ml, const Words& data, unsigned rel, unsigned first, unsigned last) {
    const std::size_t a = word_at(first), b = word_at(std::min(last, n_));
    if (a < b) send(ml, static_cast<unsigned>(actual(rel)), Words(data.begin() + a, data.begin() + b));
  }
  void take(MessageLayer& ml, Words& data, unsigned rel, unsigned first, unsigned last) {
    const std::size_t a = word_at(first), b = word_at(std::min(last, n_));
    if (a >= b) return;
    const Words in = recv(ml, static_cast<unsigned>(actual(rel)));
    if (in.size() != b - a) {
      fail("broadcast piece of " + std::to_string(in.size()) + " words, expected " + std::to_string(b - a));
      return;
    }
    std::copy(in.begin(), in.end(), data.begin() + static_cast<std::ptrdiff_t>(a));
  }

  bool ring_;
  unsigned words_, piece_words_;
};

}  // namespace

// MPICH2's choice: binomial below bcast_short_bytes or on fewer than bcast_min_ranks ranks;
// else scatter and recursive-doubling allgather below bcast_long_bytes on 2^k ranks; else
// scatter and ring allgather.
std::unique_ptr<Firmware> make_broadcast_rckmpi(const FirmwareParams& p, const Topology& t) {
  require_library_transport(p);
  using M = MpichThresholds;
  const unsigned n = GridCommunicator(t, p.grid).size();
  if (p.message_bytes < M::bcast_short_bytes || n < M::bcast_min_ranks)
    return with_variant(make_broadcast_binomial(p, t), "binomial");
  if (p.message_bytes < M::bcast_long_bytes && power_of_two_floor(n) == n)
    return with_variant(std::make_unique<ScatterAllgatherBroadcast>(p, t, false),
                        "scatter_doubling_allgather");
  return with_variant(std::make_unique<ScatterAllgatherBroadcast>(p, t, true),
                      "scatter_ring_allgather");
}

}  // namespace collnoc
