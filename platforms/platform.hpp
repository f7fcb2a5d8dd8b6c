// Platform builders, chosen by name (`platform`), and the topologies they can be built on.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "noc/static_switch.hpp"
#include "platforms/noc_system.hpp"

namespace collnoc {

struct TopologyParams {
  std::string kind = "mesh";        // registered topology name
  std::vector<unsigned> k{8};       // routers per dimension; one value applies to every dimension
  unsigned n = 2;                   // dimensions
  unsigned directions = 2;          // torus: 1 for one channel per dimension, the + way (SPEC 5)
  unsigned endpoints_per_router = 1;
  unsigned nodes = 64;              // random: routers
  unsigned degree = 4;              // random: network ports per router
  std::uint64_t seed = 1;           // random: which graph
  std::string hdn_base = "torus:2x3x5";  // hdn: base network (noc/topology/hdn.hpp)
  unsigned hdn_levels = 1;               // hdn: k
  std::string hdn_supernodes = "1";      // hdn: super-node set per level, comma-separated

  static constexpr UintRange k_range{2, kU32Max};  // each dimension's
  static constexpr UintRange n_range{1, 8};
  static constexpr UintRange directions_range{1, 2};
  static constexpr UintRange nodes_range{3, 65536};
  static constexpr UintRange degree_range{2, kMaxRouterPorts - 1};  // and below nodes
  static constexpr UintRange hdn_levels_range{0, 16};               // HdnSpec::kMaxLevels
  static constexpr UintRange seed_range{0, kU64Max};
};

struct PlatformParams {
  std::string name = "kary_ncube";
  TopologyParams topology;
  SystemParams system;
  unsigned udn_hop_latency_cycles = 2;  // tilepro: per-hop latency of the dynamic network (UDN)
  StaticSwitchParams sn;                // tilepro: the static network (SN)
  std::string instance = "system";      // SystemC name of the built system (unique per process)

  static constexpr UintRange udn_hop_latency_cycles_range{1, 1000};
};

// Throws ParamError naming the key whose value is out of its range, whatever the platform
// (topology.*, udn.*, sn.*, and the system's through validate(SystemParams)); how they fit
// together is checked when the topology and the platform are made.
void validate(const TopologyParams& p);
void validate(const PlatformParams& p);

using TopologyEntry = Registered<std::function<std::unique_ptr<Topology>(const TopologyParams&)>>;
const std::vector<TopologyEntry>& topologies();
std::unique_ptr<Topology> make_topology(const TopologyParams& p);

// A platform: its builder, and what it is, so that nothing else asks for it by name. A platform
// is one builder function and one entry in platforms().
struct PlatformEntry {
  const char* name;
  const char* description;
  std::function<std::unique_ptr<NocSystem>(const PlatformParams&)> make;
  // A chip of fixed shape (a 2-D mesh of these routers per side, this many cores per router;
  // topology.* must stay at its defaults), or none: built on topology.*, of one of these kinds.
  std::vector<unsigned> chip_k{};
  unsigned chip_cores_per_router = 1;
  std::vector<std::string> topology_kinds{};
  unsigned mpb_bytes = 0;         // message-passing buffer per core (0: ni.mpb_bytes, none)
  const char* default_grid = "";  // applications' sub-grid when workload.grid is empty ("": all)
  bool static_network = false;    // a configured (static) network beside the routers
  // The software model core.software_model = auto gives the MPI-style baselines
  // (collectives/software_model.hpp; "": auto is none there).
  const char* mpi_software = "";
  // The cores' cache, which decides a copy's rate under any software model (its
  // cache_resident_bytes: the chip's L2, not the library's); 0: the preset's own value.
  std::uint64_t cache_resident_bytes = 0;
};
const std::vector<PlatformEntry>& platforms();
const PlatformEntry& platform_entry(const std::string& name);  // ParamError naming `platform`
std::unique_ptr<NocSystem> make_platform(const PlatformParams& p);

// The topology platform `p` is built on: the chip's own for a fixed chip (tilepro: 8x8 mesh),
// topology.* otherwise. ParamError if topology.* was changed for a fixed chip, or if
// topology.kind is not one the platform builds (so that checking a configuration refuses it
// as building it would).
TopologyParams platform_topology(const PlatformParams& p);
// The routers `t` describes, counted without building it (meshes, tori, random graphs, HDNs;
// other kinds are built and counted). Throws ParamError for a description make_topology refuses
// before building.
std::uint64_t topology_routers(const TopologyParams& t);
// Bytes of each core's message-passing buffer on platform `p` (0: none).
unsigned platform_mpb_bytes(const PlatformParams& p);
// The sub-grid applications use when workload.grid is empty ("" = all).
std::string default_application_grid(const std::string& platform);

}  // namespace collnoc
