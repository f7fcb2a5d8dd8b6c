#include "collectives/collective.hpp"

#include <algorithm>
#include <sstream>

#include "noc/random.hpp"

namespace collnoc {

// Every algorithm's maker, defined in its file in collectives/algorithms/.
#define COLLNOC_COLLECTIVE(collective, algorithm, needs, library, on_buffers, schedules, description) \
  std::unique_ptr<Firmware> make_##collective##_##algorithm(const FirmwareParams&, const Topology&);
#include "collectives/algorithms.def"

const std::vector<CollectiveEntry>& collective_algorithms() {
#define COLLNOC_COLLECTIVE(collective, algorithm, needs, library, on_buffers, schedules, description) \
  {#collective, #algorithm, description, make_##collective##_##algorithm, CollectiveNeeds::needs,     \
   CollectiveLibrary::library, schedules, on_buffers},
  static const std::vector<CollectiveEntry> table = {
#include "collectives/algorithms.def"
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

namespace {

// `e`, or its put/get form on message-passing buffers (e.on_buffers; lookup_collective).
const CollectiveEntry& on_buffers(const FirmwareParams& p, const CollectiveEntry& e) {
  if (!*e.on_buffers || !p.nocmsg_mpb || p.protocol.mpb_bytes == 0 || p.protocol.name == "mpb")
    return e;
  for (const CollectiveEntry& other : collective_algorithms())
    if (p.collective == other.collective && std::string(e.on_buffers) == other.algorithm)
      return other;
  throw std::logic_error(std::string("algorithms.def: ") + e.collective + " " + e.algorithm +
                         "'s on_buffers names no algorithm of " + e.collective);
}

}  // namespace

const CollectiveEntry& lookup_collective(const FirmwareParams& p) {
  const CollectiveEntry* first = nullptr;
  std::string algorithms;
  for (const CollectiveEntry& e : collective_algorithms()) {
    if (p.collective != e.collective) continue;
    if (!first) first = &e;
    if (p.algorithm == e.algorithm) return on_buffers(p, e);
    algorithms += std::string(" ") + e.algorithm;
  }
  if (!first) {
    std::string allowed = "one of:";
    for (const std::string& n : collective_names()) allowed += " " + n;
    throw ParamError("workload.collective", p.collective, allowed);
  }
  if (p.algorithm.empty()) return on_buffers(p, *first);
  throw ParamError("workload.algorithm", p.algorithm,
                   "an algorithm of " + p.collective + ", one of:" + algorithms);
}

bool is_on_buffers_form(const CollectiveEntry& e) {
  for (const CollectiveEntry& other : collective_algorithms())
    if (std::string(other.collective) == e.collective && std::string(other.on_buffers) == e.algorithm)
      return true;
  return false;
}

std::string resolve_schedule(const CollectiveEntry& e, const FirmwareParams& p) {
  std::istringstream names(e.schedules);
  std::string name, first, allowed;
  while (names >> name) {
    if (first.empty()) first = name;
    if (name == p.schedule) return name;
    allowed += (allowed.empty() ? "" : ", ") + name;
  }
  if (p.schedule.empty()) return first;
  const std::string which = std::string(e.collective) + " " + e.algorithm;
  if (allowed.empty()) {
    std::string takers;  // the algorithms that have schedules
    for (const CollectiveEntry& o : collective_algorithms())
      if (*o.schedules) takers += std::string(takers.empty() ? "" : ", ") + o.collective + " " + o.algorithm;
    throw ParamError("workload.schedule", p.schedule,
                     which + " has one schedule: leave it empty (schedules exist for " + takers + ")");
  }
  throw ParamError("workload.schedule", p.schedule, "for " + which + " one of: " + allowed);
}

bool needs_hta_routers(const std::string& workload_kind, const FirmwareParams& p) {
  if (workload_kind != "collective") return false;
  bool first = true;  // (a collective's first algorithm is its default)
  for (const CollectiveEntry& e : collective_algorithms()) {
    if (p.collective != e.collective) continue;
    if (p.algorithm == e.algorithm || (p.algorithm.empty() && first))
      return e.needs == CollectiveNeeds::hta_routers;
    first = false;
  }
  return false;
}

CollectiveFirmware::CollectiveFirmware(const FirmwareParams& p, unsigned cores)
    : p_(p), cores_(cores), start_(std::size_t{p.repetitions} * cores, 0),
      finish_(start_.size(), 0) {
  if (p.repetitions < 1)
    throw ParamError("workload.repetitions", std::to_string(p.repetitions), "must be >= 1");
}

void CollectiveFirmware::run(MessageLayer& ml) {
  const int rank = group_rank(ml.rank());
  if (rank < 0) return;
  for (unsigned rep = 0; rep < p_.repetitions; ++rep) {
    ml.start_repetition(rep);
    // Each repetition starts after a random delay of this core's (workload.start_skew_cycles);
    // repetitions follow each other without a barrier, as an application's loop would.
    if (p_.start_skew_cycles > 0)
      ml.compute(hash64(hash64(p_.seed, 0x5e3e), (std::uint64_t{rep} << 32) | rank) %
                 (p_.start_skew_cycles + 1));
    const std::size_t i = std::size_t{rep} * cores_ + rank;
    start_[i] = ml.now();
    body(ml);
    finish_[i] = ml.now();
  }
}

Cycle CollectiveFirmware::repetition_cycles(unsigned rep) const {
  const auto first = start_.begin() + std::size_t{rep} * cores_;
  const auto last = finish_.begin() + std::size_t{rep} * cores_;
  return *std::max_element(last, last + cores_) - *std::min_element(first, first + cores_);
}

Cycle CollectiveFirmware::completion_cycles() const {
  Cycle sum = 0;
  for (unsigned rep = 0; rep < p_.repetitions; ++rep) sum += repetition_cycles(rep);
  return sum / p_.repetitions;
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
  if (!p_.schedule.empty()) out.set("collective.schedule", p_.schedule);
  if (!variant_.empty()) out.set("collective.variant", variant_);
  out.set("collective.execution_cycles", execution_cycles());
  out.set("collective.completion_cycles", completion_cycles());
  std::vector<std::uint64_t> per_core(cores_, 0), per_repetition;
  for (unsigned rep = 0; rep < p_.repetitions; ++rep) {
    per_repetition.push_back(repetition_cycles(rep));
    for (unsigned c = 0; c < cores_; ++c)
      per_core[c] += finish_[rep * cores_ + c] - start_[rep * cores_ + c];
  }
  for (std::uint64_t& c : per_core) c /= p_.repetitions;
  out.set("collective.per_core_cycles", per_core);
  double mean = 0, variance = 0;
  for (std::uint64_t c : per_repetition) mean += static_cast<double>(c) / p_.repetitions;
  for (std::uint64_t c : per_repetition)
    variance += (static_cast<double>(c) - mean) * (static_cast<double>(c) - mean) / p_.repetitions;
  out.set("collective.repetitions", static_cast<std::uint64_t>(p_.repetitions));
  out.set("collective.repetition_cycles", per_repetition);
  out.set("collective.variance_cycles2", variance);
  out.set("collective.messages_checked", checked_);
  out.set("collective.data_verified", data_verified());
  report_more(out);
}

}  // namespace collnoc
