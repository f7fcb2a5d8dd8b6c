// The analytic side of SPEC 3.2: unicasts and aggregate hop count (sum of minimal DOR path
// lengths) of an all-to-all broadcast plan, without simulating it. The unicasts are those of
// AllToAllPlan::for_each_unicast, the ones the firmware sends.
#pragma once
#include <cstdint>

#include "collectives/all_to_all_plan.hpp"

namespace collnoc {

struct A2aCount {
  std::uint64_t unicasts = 0;
  std::uint64_t hops = 0;  // sum over unicasts of their path length
  bool operator==(const A2aCount& o) const { return unicasts == o.unicasts && hops == o.hops; }
};

// Closed forms when every node is a source (groups are translates of one another, so one group
// stands for all, and sums over all roots of a rotated binomial tree collapse per doubling
// distance): O(N log N). With fewer sources it walks every unicast.
A2aCount count_unicasts(const AllToAllPlan& plan);
// Walks every unicast of the plan (the reference the closed forms are tested against).
A2aCount count_unicasts_by_walking(const AllToAllPlan& plan);

}  // namespace collnoc
