// Who sends what to whom in an all-to-all broadcast (SPEC 3.2): the plain scheme, the
// hierarchical network-coded one (with its every-node and recursive variants) and message
// combining, over a base multicast (binomial tree or all at once). The firmware follows this plan
// message by message, and `collnoc analyze nc` sums the hops of the same unicasts, so the
// calculator and the simulator count the same thing by construction.
//
// Nodes are the endpoints of a k-ary n-cube (one per router). Groups are sub-meshes (boxes) of a
// settable shape that tile the network; a group's nodes are numbered in their own row-major
// order (dimension 0 fastest), which is also the order of their node ids.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "noc/topology/kary_ncube.hpp"
#include "noc/topology/topology.hpp"

namespace collnoc {

enum class A2aScheme { plain, hierarchical_nc, combining };
enum class A2aBase { tree, all_at_once };
enum class A2aVariant { intermediate, every_node, recursive };
const char* to_string(A2aScheme s);
const char* to_string(A2aBase b);
const char* to_string(A2aVariant v);
// Every value, in the order errors list them (workload.scheme, .base, .variant).
inline constexpr A2aScheme kA2aSchemes[] = {A2aScheme::plain, A2aScheme::hierarchical_nc,
                                            A2aScheme::combining};
inline constexpr A2aBase kA2aBases[] = {A2aBase::tree, A2aBase::all_at_once};
inline constexpr A2aVariant kA2aVariants[] = {A2aVariant::intermediate, A2aVariant::every_node,
                                              A2aVariant::recursive};
// Their names, as the configuration allows them.
template <typename E, std::size_t N>
std::vector<std::string> names_of(const E (&values)[N]) {
  std::vector<std::string> names;
  for (E v : values) names.emplace_back(to_string(v));
  return names;
}

struct AllToAllParams {
  std::string scheme = "hierarchical_nc";  // workload.scheme
  std::string base = "tree";               // workload.base
  std::string group = "auto";              // workload.group: GxH (one extent per dimension)
  std::string variant = "intermediate";    // workload.variant
  std::string subgroup = "auto";           // workload.subgroup: recursive, the shape in a group
  std::string intermediate = "center";     // workload.intermediate: center | corner
  std::string decoding = "chain";          // workload.decoding: chain | tree (the firmware's)
  unsigned sources = 0;                    // workload.sources: 0 = every node
  unsigned packet_flits = 1;               // traffic.packet_flits: one datum is one packet
  unsigned words_per_flit = 4;             // from ni.flit_width_bits
  unsigned vc_classes = 1;                 // router.vc_classes: steps share them when < 4
  unsigned max_packet_flits = 16;          // ni.max_packet_flits: a datum must fit one packet
  unsigned xor_latency_cycles = 1;         // nc.xor_latency_cycles (step 3 of the execution time)
};

// The communication steps, as message kinds (SPEC 3.2 numbering). The inner level of the
// recursive variant uses the same numbers plus kInnerLevel.
enum A2aStep : std::uint8_t {
  kStepBroadcast = 1,  // plain: a source's datum to every node
  kStepIntra = 2,      // 2: a source's datum to its group
  kStepInter = 4,      // 4: coded (or combined) packets between groups
  kStepDeliver = 5,    // 5: an intermediate hands them to its group
  kStepPartner = 6,    // 6: a datum to one node of every other group
  kStepDecode = 7,     // 7: not a unicast: the XOR engine's decodes (reported beside the steps)
};
constexpr std::uint8_t kInnerLevel = 10;
// The virtual network (VC class) of a step: its own, so steps overlap without deadlock.
unsigned step_vc_class(std::uint8_t kind);
const char* step_name(std::uint8_t kind);

// A box of a k-ary n-cube: the whole network, a group, or a subgroup.
class Box {
 public:
  Box(const KaryNCube& topo, std::vector<unsigned> origin, std::vector<unsigned> extent);
  unsigned size() const { return size_; }
  const std::vector<unsigned>& origin() const { return origin_; }
  const std::vector<unsigned>& extent() const { return extent_; }
  NodeId node(unsigned local) const;
  bool contains(NodeId n) const;
  unsigned local(NodeId n) const;
  // Tiling by `shape` (it must divide the extent): tiles numbered like nodes.
  unsigned tiles(const std::vector<unsigned>& shape) const;
  Box tile(const std::vector<unsigned>& shape, unsigned t) const;
  unsigned tile_of(const std::vector<unsigned>& shape, NodeId n) const;
  const KaryNCube& topology() const { return *topo_; }

 private:
  const KaryNCube* topo_;
  std::vector<unsigned> origin_, extent_;
  unsigned size_;
};

// A unicast of the plan.
struct Unicast {
  std::uint8_t kind;  // A2aStep (+ kInnerLevel)
  NodeId src, dst;
  unsigned packets;   // data packets it carries (combining: a group's worth)
};

class AllToAllPlan {
 public:
  // Throws ParamError naming the workload.* key for a shape that does not tile the network,
  // a group of one node or of all of them, an unknown scheme, base or variant, sources > N.
  AllToAllPlan(const Topology& topology, const AllToAllParams& params);

  A2aScheme scheme() const { return scheme_; }
  A2aBase base() const { return base_; }
  A2aVariant variant() const { return variant_; }
  const KaryNCube& topology() const { return *topo_; }
  unsigned nodes() const { return whole_.size(); }
  const std::vector<NodeId>& sources() const { return sources_; }
  bool is_source(NodeId n) const { return is_source_[n]; }
  bool hierarchical() const { return scheme_ != A2aScheme::plain; }
  const std::vector<unsigned>& group_shape() const { return group_; }
  const std::vector<unsigned>& subgroup_shape() const { return subgroup_; }
  unsigned group_size() const;

  // The level a kind belongs to: the whole network tiled by groups, or (inner level of the
  // recursive variant) the group of `node` tiled by subgroups.
  struct Level {
    Box region;
    std::vector<unsigned> tile;
    unsigned intermediate_local;  // the intermediate's place in every tile
  };
  const Level& outer() const { return outer_; }
  Level inner(NodeId node) const;  // recursive variant: the group of `node`, by subgroups

  // Sources of tile t of a level, in chain order (their local order).
  std::vector<NodeId> tile_sources(const Level& l, unsigned t) const;
  NodeId intermediate(const Level& l, unsigned t) const {
    return l.region.tile(l.tile, t).node(l.intermediate_local);
  }

  // Positions of the children of position `me` in the base multicast from position `root`
  // among `count` ordered participants (binomial doubling ranks them from the root, wrapping
  // around), in the order they are sent to; and the doubling round in which `me` receives.
  std::vector<unsigned> children(unsigned count, unsigned root, unsigned me) const;
  unsigned round(unsigned count, unsigned root, unsigned me) const;

  // Every unicast of the plan, in no particular order.
  void for_each_unicast(const std::function<void(const Unicast&)>& f) const;

 private:
  void plain_multicasts(const Box& region, const std::vector<NodeId>& sources, std::uint8_t kind,
                        const std::function<void(const Unicast&)>& f) const;
  void level_unicasts(const Level& l, std::uint8_t offset,
                      const std::function<void(const Unicast&)>& f) const;
  void multicast(const std::vector<NodeId>& participants, unsigned root, std::uint8_t kind,
                 unsigned packets, const std::function<void(const Unicast&)>& f) const;
  unsigned pick_intermediate(const std::vector<unsigned>& tile) const;

  const KaryNCube* topo_;
  A2aScheme scheme_;
  A2aBase base_;
  A2aVariant variant_;
  Box whole_;
  std::vector<unsigned> group_, subgroup_;
  bool corner_;
  Level outer_;
  std::vector<NodeId> sources_;
  std::vector<bool> is_source_;
};

// Every shape of 2..N-1 nodes that tiles `extent` (dimension 0 varies fastest), and its text.
std::vector<std::vector<unsigned>> tiling_shapes(const std::vector<unsigned>& extent);
std::string shape_text(const std::vector<unsigned>& shape);
// Parses "GxH..." (one extent per dimension) for `key`; "auto" picks the tiling shape whose size
// is nearest the square root of the region's (ties: the squarer one).
std::vector<unsigned> parse_group_shape(const std::string& key, const std::string& text,
                                        const std::vector<unsigned>& extent);

}  // namespace collnoc
