#include "collectives/collective.hpp"

namespace collnoc {

namespace {

// The baseline: p - 1 steps of direct messages, step i to rank + i and from rank - i.
class PairwiseExchange : public CollectiveFirmware {
 public:
  using CollectiveFirmware::CollectiveFirmware;

 protected:
  void body(MessageLayer& ml) override {
    const NodeId me = ml.rank();
    const unsigned p = ml.size();
    for (unsigned i = 1; i < p; ++i) {
      const NodeId to = (me + i) % p, from = (me + p - i) % p;
      ml.send(to, pattern_message(p_.seed, me, to, 0, p_.message_words));
      check(ml.recv(from), pattern_message(p_.seed, from, me, 0, p_.message_words),
            "core " + std::to_string(me) + ", message from " + std::to_string(from));
    }
  }
};

}  // namespace

std::unique_ptr<Firmware> make_total_exchange_pairwise(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<PairwiseExchange>(p, t.num_endpoints());
}

}  // namespace collnoc
