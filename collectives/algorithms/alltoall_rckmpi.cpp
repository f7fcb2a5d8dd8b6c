#include "collectives/scc_libraries.hpp"

namespace collnoc {

namespace {

// MPICH2's alltoall (RCKMPI's), its three algorithms:
enum class MpichAlltoall {
  // Bruck's: ceil(log2 n) steps. Each rank first rotates its blocks so that block i is for
  // rank + i; in the step at distance d it sends every block whose index has bit d set to
  // rank + d (packed into one message) and receives the same blocks from rank - d; at the end
  // block i holds what rank - i sent it.
  bruck,
  // Every send at once, then the receives (MPICH posts n - 1 isends and irecvs, partners
  // rank + i and rank - i, and waits for all).
  burst,
  // n - 1 exchanges: partner rank XOR i on 2^k ranks, else send to rank + i and receive from
  // rank - i.
  pairwise,
};

class RckmpiAlltoall : public AlltoallBase {
 public:
  RckmpiAlltoall(const FirmwareParams& p, const Topology& t, MpichAlltoall how,
                 bool varying = false)
      : AlltoallBase(p, t, varying), how_(how) {}
  void run_rank(MessageLayer& ml, unsigned me) override {
    if (how_ == MpichAlltoall::bruck) return bruck(ml, me);
    const bool power_of_two = power_of_two_floor(n_) == n_;
    for (unsigned i = 1; i < n_; ++i) {
      if (how_ == MpichAlltoall::burst) {
        ml.mark_round(1);
        send(ml, (me + i) % n_, message(me, (me + i) % n_));
        continue;
      }
      ml.mark_round(i);
      const unsigned dst = power_of_two ? me ^ i : (me + i) % n_;
      const unsigned src = power_of_two ? me ^ i : (me + n_ - i) % n_;
      send(ml, dst, message(me, dst));
      take(ml, me, src);
    }
    if (how_ == MpichAlltoall::burst)
      for (unsigned i = 1; i < n_; ++i) take(ml, me, (me + n_ - i) % n_);
  }

 private:
  void take(MessageLayer& ml, unsigned me, unsigned src) {
    check(recv(ml, src), message(src, me), "message " + std::to_string(src) + " -> " + std::to_string(me));
  }
  void bruck(MessageLayer& ml, unsigned me) {
    std::vector<Words> block(n_);
    for (unsigned i = 0; i < n_; ++i) block[i] = message(me, (me + i) % n_);
    unsigned step = 0;
    for (unsigned d = 1; d < n_; d <<= 1) {
      ml.mark_round(++step);
      Words packed;
      for (unsigned i = 0; i < n_; ++i)
        if (i & d) packed.insert(packed.end(), block[i].begin(), block[i].end());
      send(ml, (me + d) % n_, packed);
      const Words in = recv(ml, (me + n_ - d) % n_);
      if (in.size() != packed.size()) {
        fail("bruck step of " + std::to_string(in.size()) + " words, expected " + std::to_string(packed.size()));
        return;
      }
      auto next = in.begin();
      for (unsigned i = 0; i < n_; ++i)
        if (i & d) {
          std::copy(next, next + words_, block[i].begin());
          next += words_;
        }
    }
    for (unsigned i = 1; i < n_; ++i) {
      const unsigned src = (me + n_ - i) % n_;
      check(block[i], message(src, me), "message " + std::to_string(src) + " -> " + std::to_string(me));
    }
  }

  MpichAlltoall how_;
};

}  // namespace

// MPICH2's choice by the bytes per rank pair: Bruck's up to alltoall_short_bytes on 8 ranks or
// more, every send at once up to alltoall_medium_bytes, pairwise exchanges above.
std::unique_ptr<Firmware> make_alltoall_rckmpi(const FirmwareParams& p, const Topology& t) {
  require_library_transport(p);
  message_words(p);
  using M = MpichThresholds;
  const unsigned n = GridCommunicator(t, p.grid).size();
  if (p.message_bytes <= M::alltoall_short_bytes && n >= 8)
    return with_variant(std::make_unique<RckmpiAlltoall>(p, t, MpichAlltoall::bruck), "bruck");
  if (p.message_bytes <= M::alltoall_medium_bytes)
    return with_variant(std::make_unique<RckmpiAlltoall>(p, t, MpichAlltoall::burst), "burst");
  return with_variant(std::make_unique<RckmpiAlltoall>(p, t, MpichAlltoall::pairwise), "pairwise");
}

// MPICH2's alltoallv has one algorithm: every send at once, then the receives (its own line in
// algorithms.def).
std::unique_ptr<Firmware> make_alltoallv_rckmpi(const FirmwareParams& p, const Topology& t) {
  require_library_transport(p);
  message_words(p);
  return with_variant(std::make_unique<RckmpiAlltoall>(p, t, MpichAlltoall::burst, true), "burst");
}

}  // namespace collnoc
