#include "noc/routing/selection.hpp"

#include <algorithm>

#include "noc/random.hpp"

namespace collnoc {

namespace {

// The output with the most free buffer space downstream first (the least congested), as in
// Noxim's buffer-level selection; ties keep the routing function's order.
class LeastCreditsUsed : public SelectionStrategy {
 public:
  bool needs_credits() const override { return true; }
  void order(SelectionChoice* c, unsigned n, PacketId, Cycle) const override {
    std::stable_sort(c, c + n, [](const SelectionChoice& a, const SelectionChoice& b) {
      return a.free_credits > b.free_credits;
    });
  }
};

// A uniformly random order, from a hash of the packet and the cycle (the same run, the same
// choices; a head that waits draws again each cycle).
class RandomSelection : public SelectionStrategy {
 public:
  void order(SelectionChoice* c, unsigned n, PacketId packet, Cycle now) const override {
    std::uint64_t bits = hash64(packet, now);
    for (unsigned i = n - 1; i > 0; --i) {  // Fisher-Yates
      const unsigned j = static_cast<unsigned>(bits % (i + 1));
      bits /= i + 1;
      std::swap(c[i], c[j]);
    }
  }
};

}  // namespace

const std::vector<SelectionEntry>& selection_strategies() {
  static const std::vector<SelectionEntry> table = {
      {"first_free", "the routing function's order: the first candidate with a free VC",
       []() -> std::unique_ptr<SelectionStrategy> { return nullptr; }},
      {"least_credits_used", "the candidate whose free output VCs have the most credits first",
       [] { return std::make_unique<LeastCreditsUsed>(); }},
      {"random", "a random order, drawn per packet and cycle",
       [] { return std::make_unique<RandomSelection>(); }},
  };
  return table;
}

std::unique_ptr<SelectionStrategy> make_selection(const std::string& name) {
  return lookup(selection_strategies(), name, "routing.selection").make();
}

}  // namespace collnoc
