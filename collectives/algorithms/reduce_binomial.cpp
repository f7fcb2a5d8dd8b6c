#include "collectives/mesh_collective.hpp"

namespace collnoc {

namespace {

// Binomial tree to the root: a rank folds in the ranks above it that differ in one lower bit,
// then sends to the rank that differs in its lowest set bit.
class BinomialReduce : public ReductionCollective {
 public:
  using ReductionCollective::ReductionCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    const unsigned v = (me + n_ - p_.root) % n_;
    const auto actual = [&](unsigned rel) { return (rel + p_.root) % n_; };
    Words acc = mine(me);
    for (unsigned mask = 1; mask < n_; mask <<= 1) {
      if (v & mask) {
        send(ml, actual(v - mask), acc);
        return;
      }
      if (v + mask < n_) fold(ml, acc, recv(ml, actual(v + mask)));
    }
    check(acc, want_, "reduce result at root " + std::to_string(me));
  }
};

}  // namespace

std::unique_ptr<Firmware> make_reduce_binomial(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<BinomialReduce>(p, t);
}

}  // namespace collnoc
