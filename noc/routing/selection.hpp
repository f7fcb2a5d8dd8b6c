// Selection: which of an adaptive routing function's candidate ports a waiting head asks for
// first. A strategy chosen by name (routing.selection), separate from the routing function.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "noc/registry.hpp"
#include "noc/types.hpp"

namespace collnoc {

// One alternative as the router sees it this cycle.
struct SelectionChoice {
  std::uint8_t candidate;      // its index in the routing function's list
  std::uint32_t free_credits;  // credits of its acceptable output VCs (if the strategy reads them)
};

class SelectionStrategy {
 public:
  virtual ~SelectionStrategy() = default;
  // Whether order() reads free_credits (the router then sums them).
  virtual bool needs_credits() const { return false; }
  // Reorders the n alternatives; the router asks for them in the new order (the earlier
  // request has priority in VC allocation), after them any non-adaptive candidate (an escape
  // channel) as the routing function placed it.
  virtual void order(SelectionChoice* choices, unsigned n, PacketId packet, Cycle now) const = 0;
};

using SelectionEntry = Registered<std::function<std::unique_ptr<SelectionStrategy>()>>;
const std::vector<SelectionEntry>& selection_strategies();
// ParamError naming routing.selection for an unknown name. first_free: nullptr (the routing
// function's own order; the router skips selection).
std::unique_ptr<SelectionStrategy> make_selection(const std::string& name);

}  // namespace collnoc
