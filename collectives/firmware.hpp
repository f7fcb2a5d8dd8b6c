// Firmware programs: what every core runs, chosen by name (workload.kind).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "collectives/all_to_all_plan.hpp"
#include "collectives/message_layer.hpp"
#include "collectives/software_model.hpp"
#include "noc/registry.hpp"
#include "noc/report.hpp"
#include "noc/topology/topology.hpp"

namespace collnoc {

// SPEC 4.3's cost of a one-hop message of m words, t_s + m t_w, on the configured network
// (platforms/noc_system.hpp: neighbour_message_cost); closed forms of collectives use it.
struct MessageCost {
  double startup_cycles = 0;  // t_s
  double word_cycles = 0;     // t_w, per 32-bit word
};

// How the message layer carries messages (collectives/message_protocol.hpp).
struct MessageProtocolParams {
  std::string name = "eager";  // msg.protocol: eager, rendezvous, mpb
  unsigned mpb_bytes = 0;      // each core's message-passing buffer (platform scc; 0: none)
};

// Longest message a core may hand its NI: 2^24 words (64 MiB; its bytes fit the 32-bit data
// length of a TLM-2.0 payload with room, and every count derived from it fits 32 bits).
constexpr unsigned kMaxMessageWords = 1u << 24;

struct FirmwareParams {
  unsigned message_words = 16;  // payload of each message
  unsigned iterations = 1;      // repetitions (ping-pong round trips, exchange rounds)
  NodeId peer = 1;              // ping_pong: the partner of core 0
  std::uint64_t seed = 1;
  // workload.kind = collective (collectives/collective.hpp)
  std::string collective;       // workload.collective
  std::string algorithm;        // workload.algorithm; empty: the collective's first algorithm
  std::string schedule;         // workload.schedule; empty: the algorithm's default (if it has any)
  AllToAllParams all_to_all;    // workload.kind = all_to_all_broadcast
  MessageCost neighbour_cost;   // from the system's parameters, for closed forms
  // collectives on a 2-D mesh (collectives/mesh_collective.hpp)
  std::string grid;                    // workload.grid: ranks' sub-grid "AxB"; empty: whole mesh
  std::uint64_t message_bytes = 128;   // workload.message_bytes: per message (per rank pair)
  unsigned root = 0;                   // workload.root: rank of broadcast / reduce
  unsigned fanout = 1;                 // workload.fanout: children per core (broadcast onesided)
  // workload.nocmsg_mpb: with message-passing buffers (scc), the NoCMsg set runs its put/get
  // form (the algorithm's on_buffers in collectives/algorithms.def; lookup_collective)
  bool nocmsg_mpb = true;
  std::string reduce_op = "sum";       // workload.reduce_op: sum, max, min
  std::string element_type = "int32";  // workload.element_type: int32, double
  unsigned repetitions = 1;            // workload.repetitions: runs of the collective
  Cycle start_skew_cycles = 0;         // workload.start_skew_cycles: random delay before each
  MessageProtocolParams protocol;
  SoftwareModelParams software;  // core.software_model, core.software.*

  static constexpr UintRange message_words_range{1, kMaxMessageWords};
  static constexpr UintRange iterations_range{1, kU32Max};
  static constexpr UintRange rank_range{0, kU32Max};  // peer and root (below the node count)
  static constexpr UintRange message_bytes_range{1, 1u << 20};
  static constexpr UintRange fanout_range{1, 47};  // a core's children fit its 48 flags
  static constexpr UintRange repetitions_range{1, 1000000};
  static constexpr UintRange start_skew_cycles_range{0, 100000000};
  static constexpr UintRange sources_range{0, kU32Max};  // all_to_all.sources
};

// The values workload.intermediate, workload.reduce_op and workload.element_type allow.
inline constexpr const char* kA2aIntermediates[] = {"center", "corner"};
inline constexpr const char* kA2aDecodings[] = {"chain", "tree"};  // workload.decoding
inline constexpr const char* kReduceOps[] = {"sum", "max", "min"};
inline constexpr const char* kElementTypes[] = {"int32", "double"};

// Throws ParamError naming the workload.* or msg.* key whose value is out of its range or not
// one of its names, whatever the program (how they fit the program and the topology is checked
// when make_firmware builds it).
void validate(const FirmwareParams& p);

// One program object for the whole system; run() is called once per core, from that core's
// SC_THREAD. Firmware records what it observed (and whether the data arrived intact) and adds
// it to the results.
class Firmware {
 public:
  virtual ~Firmware() = default;
  virtual void run(MessageLayer& ml) = 0;
  virtual void report(Report& out) const = 0;
  // False if any core saw data that differs from what was sent.
  virtual bool data_verified() const = 0;
  // Human-readable reason when data_verified() is false.
  virtual std::string failure() const { return {}; }
  // True if it codes packets in the NI (send_coded, xor_words): only the eager path has that.
  virtual bool codes_in_network() const { return false; }
  // True if it lays out the message-passing buffers itself (put / get / mpb_*), so that no
  // protocol may keep its own flags there (msg.protocol = mpb).
  virtual bool owns_message_passing_buffers() const { return false; }
};

// Programs see the topology they run on (group shapes, coordinates, HDN structure); every
// endpoint of it runs one core.
using FirmwareEntry =
    Registered<std::function<std::unique_ptr<Firmware>(const FirmwareParams&, const Topology&)>>;
const std::vector<FirmwareEntry>& firmware_programs();
// Program `name` under the software model (with_software_model) and the message protocol
// (with_message_protocol) p asks for.
std::unique_ptr<Firmware> make_firmware(const std::string& name, const FirmwareParams& p,
                                        const Topology& topology);

// Deterministic test data: word i of the message `src` sends to `dst` in round `round`.
std::uint32_t pattern_word(std::uint64_t seed, NodeId src, NodeId dst, unsigned round, unsigned i);
Words pattern_message(std::uint64_t seed, NodeId src, NodeId dst, unsigned round, unsigned words);

}  // namespace collnoc
