#include "collectives/mesh_collective.hpp"

namespace collnoc {

namespace {

// Binomial tree from the root (ranks relative to it): a rank receives from the rank that
// differs in its lowest set bit, then sends to the ranks below it, largest distance first.
class BinomialBroadcast : public MeshCollective {
 public:
  BinomialBroadcast(const FirmwareParams& p, const Topology& t) : MeshCollective(p, t) {
    copies_ = CopyBuffers::user(4ull * message_words(p));
  }
  void run_rank(MessageLayer& ml, unsigned me) override {
    const unsigned v = (me + n_ - p_.root) % n_;
    const auto actual = [&](unsigned rel) { return (rel + p_.root) % n_; };
    Words data;
    if (v == 0) data = broadcast_data(p_);
    unsigned mask = 1;
    for (; mask < n_; mask <<= 1)
      if (v & mask) {
        data = recv(ml, actual(v - mask));
        break;
      }
    for (mask >>= 1; mask > 0; mask >>= 1)
      if (v + mask < n_) send(ml, actual(v + mask), data);
    check(data, broadcast_data(p_), "broadcast data at rank " + std::to_string(me));
  }
};

}  // namespace

// The data is made inside the cores' threads: workload.message_bytes is checked here.
std::unique_ptr<Firmware> make_broadcast_binomial(const FirmwareParams& p, const Topology& t) {
  message_words(p);
  return std::make_unique<BinomialBroadcast>(p, t);
}

}  // namespace collnoc
