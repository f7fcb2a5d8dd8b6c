// The software on the cores (core.software_model): what a message library costs each core in
// simulated time, per message, on top of the hardware (NI, routers). A model is a set of costs
// (SoftwareCosts) taken from a named preset, each overridable (core.software.<cost>); firmware
// runs through a SoftwareLayer that charges them, and through an iLib-style channel per message
// where the model sets channels up. Nothing here runs per cycle: costs are charged per message,
// per receive and per reduced element (docs/software_model.md).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "noc/registry.hpp"
#include "noc/types.hpp"

namespace collnoc {

class Firmware;
struct FirmwareParams;

// Costs in cycles of the run's clock. Each charge (a send, a receive, a fold) is rounded up to
// whole cycles.
struct SoftwareCosts {
  double send_overhead_cycles = 0;  // per message sent: the library call, header, NI command
  double recv_overhead_cycles = 0;  // per message received: matching, bookkeeping
  // Copying the payload between memory and the NI, on both sides: cache-resident when the
  // buffer it comes from or goes to (the user's message, however a call cuts it: CopyBuffers)
  // is at most cache_resident_bytes, not resident (from DRAM) otherwise.
  double copy_cycles_per_byte_cached = 0;
  double copy_cycles_per_byte_uncached = 0;
  double cache_resident_bytes = 0;
  // A polling receive checks every poll_cycles from the call: it sees a message at the first
  // check at or after its arrival, and that check costs poll_cycles too.
  double poll_cycles = 0;
  double interrupt_cycles = 0;  // per message received: interrupt entry and exit
  // A channel per message (iLib under MPI): request, grant, data, teardown messages over the
  // network (each paying the per-message costs), plus channel_setup_cycles at the sender.
  bool channel_setup = false;
  double channel_setup_cycles = 0;
  double reduce_cycles_per_element = 0;  // folding one element of a reduction
  // Timing jitter: each charge of c cycles (a send, the work of a receive, a fold) takes
  // c + d, d drawn uniformly from 0 .. floor(c x jitter_percent / 100), from a stream seeded by
  // (seed, core, repetition). What the model leaves out (cache misses, branch history, an
  // interrupt arriving mid-call) makes the same call take a little longer some times.
  double jitter_percent = 0;

  static constexpr RealRange cost_range{0, 1e9};
  static constexpr RealRange jitter_percent_range{0, 100};
};

// The costs core.software.<name> overrides, in key order; index kChannelSetup is the switch
// (true / false), kJitterPercent a number in jitter_percent_range, the others numbers in
// cost_range.
struct SoftwareCostKey {
  const char* name;
  const char* unit;
  const char* meaning;
};
inline constexpr std::size_t kSoftwareCostCount = 11;
inline constexpr std::size_t kChannelSetup = 7;
inline constexpr std::size_t kJitterPercent = 10;  // (its own range: jitter_percent_range)
extern const std::array<SoftwareCostKey, kSoftwareCostCount> kSoftwareCostKeys;

struct SoftwareModelParams {
  // core.software_model: auto (nocmsg for the NoCMsg algorithms, platform_preset for the
  // MPI-style baselines, rcce and rckmpi for the SCC libraries' algorithms, none for anything
  // else), none (no software costs: the hardware alone,
  // as before the model existed), or a preset's name.
  std::string model = "auto";
  // What auto gives the baselines: the platform's MPI-style library (derive_params: ilib_mpi on
  // tilepro, rckmpi on scc; empty elsewhere, where auto is none).
  std::string platform_preset;
  // The platform's cache (derive_params: its L2, tilepro 64 KB, scc 256 KB): every preset's
  // cache_resident_bytes there, since what stays resident is the chip's, not the library's;
  // 0 (no platform of its own) keeps the preset's.
  double platform_cache_resident_bytes = 0;
  // core.software.<kSoftwareCostKeys[i].name>: empty keeps the preset's value.
  std::array<std::string, kSoftwareCostCount> overrides{};
};

using SoftwarePreset = Registered<SoftwareCosts>;
const std::vector<SoftwarePreset>& software_presets();
// Every value core.software_model takes: auto, none, then the presets.
std::vector<std::string> software_model_names();

// Throws ParamError naming core.software_model or the core.software.<cost> key at fault.
void validate(const SoftwareModelParams& p);

// The model a program runs under: core.software_model with auto resolved for `workload_kind`
// and p's collective and algorithm.
std::string resolve_software_model(const std::string& workload_kind, const FirmwareParams& p);
// The model's costs with the overrides applied (a resolved model other than none).
SoftwareCosts software_costs(const std::string& model, const SoftwareModelParams& p);

// `program` under the resolved model: itself for none, else wrapped so that each core runs it
// through a SoftwareLayer (and a channel layer when the model sets channels up). Reports
// software.model, software.cycles and, for a collective, collective.software_cycles.
// ParamError naming core.software_model for a channel model with a program that codes packets
// in the NI or multicasts in hardware.
std::unique_ptr<Firmware> with_software_model(std::unique_ptr<Firmware> program,
                                              const std::string& workload_kind,
                                              const FirmwareParams& p, unsigned cores);

}  // namespace collnoc
