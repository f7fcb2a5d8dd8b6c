#include "collectives/collective.hpp"

#include <algorithm>
#include <sstream>

#include "collectives/manycore_collectives.hpp"

namespace collnoc {

const std::vector<CollectiveEntry>& collective_algorithms() {
  namespace mc = manycore;
  static const std::vector<CollectiveEntry> table = {
      // 2-D mesh sub-grid (workload.grid); docs/manycore.md
      {"alltoall", "nocmsg", "pattern rounds on disjoint links, a barrier after each",
       mc::nocmsg_alltoall},
      {"alltoall", "pairwise", "N-1 stages: send to rank+s, receive from rank-s",
       mc::pairwise_alltoall},
      {"alltoallv", "nocmsg", "nocmsg alltoall with sizes per pair", mc::nocmsg_alltoallv},
      {"alltoallv", "pairwise", "pairwise alltoall with sizes per pair", mc::pairwise_alltoallv},
      {"barrier", "nocmsg", "tree of mesh links rooted at the grid centre", mc::nocmsg_barrier},
      {"barrier", "central", "every rank reports to rank 0, which releases all",
       mc::central_barrier},
      {"broadcast", "nocmsg", "static network tree, one route per tile", mc::nocmsg_broadcast},
      {"broadcast", "binomial", "binomial tree from workload.root", mc::binomial_broadcast},
      {"reduce", "nocmsg", "columns into the root's row, the row into the root",
       mc::nocmsg_reduce},
      {"reduce", "binomial", "binomial tree to workload.root", mc::binomial_reduce},
      {"allreduce", "reduce_broadcast", "nocmsg reduce, then static network broadcast",
       mc::reduce_broadcast_allreduce},
      {"allreduce", "recursive_doubling", "exchanges at distance 1, 2, 4, ...",
       mc::recursive_doubling_allreduce},
  };
  return table;
}

std::vector<std::string> collective_names() {
  std::vector<std::string> names;
  for (const CollectiveEntry& e : collective_algorithms())
    if (std::find(names.begin(), names.end(), e.collective) == names.end())
      names.emplace_back(e.collective);
  return names;
}

const CollectiveEntry& lookup_collective(const FirmwareParams& p) {
  const CollectiveEntry* first = nullptr;
  std::string algorithms;
  for (const CollectiveEntry& e : collective_algorithms()) {
    if (p.collective != e.collective) continue;
    if (!first) first = &e;
    if (p.algorithm == e.algorithm) return e;
    algorithms += std::string(" ") + e.algorithm;
  }
  if (!first) {
    std::string allowed = "one of:";
    for (const std::string& n : collective_names()) allowed += " " + n;
    throw ParamError("workload.collective", p.collective, allowed);
  }
  if (p.algorithm.empty()) return *first;
  throw ParamError("workload.algorithm", p.algorithm,
                   "an algorithm of " + p.collective + ", one of:" + algorithms);
}

CollectiveFirmware::CollectiveFirmware(const FirmwareParams& p, unsigned cores)
    : p_(p), cores_(cores), start_(cores, 0), finish_(cores, 0) {}

void CollectiveFirmware::run(MessageLayer& ml) {
  const int rank = group_rank(ml.rank());
  if (rank < 0) return;
  start_[rank] = ml.now();
  body(ml);
  finish_[rank] = ml.now();
}

Cycle CollectiveFirmware::execution_cycles() const {
  return *std::max_element(finish_.begin(), finish_.end()) -
         *std::min_element(start_.begin(), start_.end());
}

void CollectiveFirmware::check(const Words& got, const Words& want, const std::string& what) {
  ++checked_;
  if (got == want || !failure_.empty()) return;
  std::ostringstream os;
  os << what << ": got " << got.size() << " words, expected " << want.size();
  for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i)
    if (got[i] != want[i]) {
      os << "; first difference at word " << i;
      break;
    }
  failure_ = os.str();
}

void CollectiveFirmware::fail(const std::string& why) {
  if (failure_.empty()) failure_ = why;
}

void CollectiveFirmware::report(Report& out) const {
  out.set("collective.name", p_.collective);
  out.set("collective.algorithm", p_.algorithm);
  out.set("collective.execution_cycles", execution_cycles());
  std::vector<std::uint64_t> per_core(cores_);
  for (unsigned c = 0; c < cores_; ++c) per_core[c] = finish_[c] - start_[c];
  out.set("collective.per_core_cycles", per_core);
  out.set("collective.messages_checked", checked_);
  out.set("collective.data_verified", data_verified());
  report_more(out);
}

}  // namespace collnoc
