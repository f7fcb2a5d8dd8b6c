// Collective operations (workload.kind = collective): one table of (collective, algorithm)
// pairs, e.g. (total_exchange, hdn) or (broadcast, binomial), and the bookkeeping every
// collective shares: per-core start and finish, the first data mismatch, the collective.* keys.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "collectives/firmware.hpp"

namespace collnoc {

// What an algorithm needs of the network beyond routers that carry messages.
enum class CollectiveNeeds : std::uint8_t {
  any,          // nothing more
  hta_routers,  // routers that replicate multicasts (MessageLayer::multicast; docs/hta.md)
};

// The message library an algorithm stands for in SPEC 6's comparison: what software costs
// core.software_model = auto charges it (collectives/software_model.hpp).
enum class CollectiveLibrary : std::uint8_t {
  nocmsg,  // the predictable set: the nocmsg preset
  mpi,     // an MPI-style baseline: the platform's MPI preset
  rcce,    // the SCC's RCCE (its collectives, algorithm rcce): the rcce preset
  rckmpi,  // the SCC's RCKMPI (MPICH2's collectives, algorithm rckmpi): the rckmpi preset
  none,    // outside the comparison: no software costs under auto
};

struct CollectiveEntry {
  const char* collective;   // workload.collective
  const char* algorithm;    // workload.algorithm
  const char* description;
  std::function<std::unique_ptr<Firmware>(const FirmwareParams&, const Topology&)> make;
  CollectiveNeeds needs = CollectiveNeeds::any;
  CollectiveLibrary library = CollectiveLibrary::none;
  const char* schedules = "";  // workload.schedule's values, blank-separated, the default first
  // The algorithm of this collective that runs in its place on message-passing buffers (the
  // NoCMsg set's put/get form); "" for none.
  const char* on_buffers = "";
};
// Every algorithm of every collective, one entry per line of collectives/algorithms.def; a
// collective's first entry is its default algorithm.
const std::vector<CollectiveEntry>& collective_algorithms();
// Collective names in table order, each once.
std::vector<std::string> collective_names();
// The entry for p.collective / p.algorithm (empty algorithm: the collective's first);
// ParamError naming workload.collective or workload.algorithm otherwise. An algorithm with a
// put/get form (its on_buffers) on message-passing buffers (p.protocol.mpb_bytes, p.nocmsg_mpb,
// and no msg.protocol = mpb keeping its flags there) is that form.
const CollectiveEntry& lookup_collective(const FirmwareParams& p);
// Whether `e` is another algorithm's put/get form (some entry's on_buffers names it).
bool is_on_buffers_form(const CollectiveEntry& e);
// p.schedule for entry e: its default when empty; ParamError naming workload.schedule when e
// does not take that value (or takes none).
std::string resolve_schedule(const CollectiveEntry& e, const FirmwareParams& p);
// Whether firmware `workload_kind` with `p` runs an algorithm that needs HTA routers (false for
// names the tables do not know: they are refused when the firmware is made).
bool needs_hta_routers(const std::string& workload_kind, const FirmwareParams& p);

// Base of collective firmware (`cores`: the size of its group). run() calls body()
// workload.repetitions times, each after a random start skew, and stamps this core's start and
// finish around each; report() writes collective.name, .algorithm, .variant (when set),
// .execution_cycles (first start to last finish, mean over repetitions), .per_core_cycles,
// .variance_cycles2, .messages_checked and .data_verified, then whatever report_more() adds.
class CollectiveFirmware : public Firmware {
 public:
  CollectiveFirmware(const FirmwareParams& p, unsigned cores);
  void run(MessageLayer& ml) final;
  void report(Report& out) const final;
  bool data_verified() const final { return failure_.empty(); }
  std::string failure() const final { return failure_; }
  // collective.variant: which of its algorithms a library picked (collectives/scc_libraries.hpp).
  void set_variant(std::string variant) { variant_ = std::move(variant); }

 protected:
  virtual void body(MessageLayer& ml) = 0;
  virtual void report_more(Report&) const {}
  // This core's rank in the collective's group (0 .. cores-1), or -1 when it takes no part and
  // idles (a sub-grid communicator). Default: every core, by its id.
  virtual int group_rank(NodeId core) const { return static_cast<int>(core); }
  // Compares what arrived with what should have; the first mismatch is kept for failure().
  void check(const Words& got, const Words& want, const std::string& what);
  // Records a failure that is not a word mismatch (a wrong length, a missing datum).
  void fail(const std::string& why);
  // collective.execution_cycles; by default the completion time.
  virtual Cycle execution_cycles() const { return completion_cycles(); }
  Cycle completion_cycles() const;  // first start to last finish, mean over repetitions
  Cycle repetition_cycles(unsigned rep) const;

  FirmwareParams p_;
  unsigned cores_;

 private:
  std::vector<Cycle> start_, finish_;
  std::uint64_t checked_ = 0;
  std::string failure_;
  std::string variant_;  // empty: not reported
};

}  // namespace collnoc
