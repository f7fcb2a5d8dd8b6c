// What the collectives on the tiles of a 2-D mesh sub-grid (workload.grid) share: the mesh tree,
// the MeshCollective base (point-to-point by rank, gather and scatter along a tree, the tree
// barrier, the static network's broadcast), and the bases of the reductions and the alltoalls.
// The algorithms themselves are one file each in collectives/algorithms/ (docs/manycore.md).
#pragma once
#include <cstdint>
#include <vector>

#include "collectives/collective.hpp"
#include "collectives/grid_communicator.hpp"
#include "collectives/reduction.hpp"

namespace collnoc {

// 32-bit words per message: workload.message_bytes, a whole number of words.
unsigned message_words(const FirmwareParams& p);
// What a broadcast sends: pattern data of (seed, root), message_words(p) words.
Words broadcast_data(const FirmwareParams& p);

// A spanning tree of the sub-grid whose edges are single mesh links, centred on the tile of
// rank `root`: the centre's row is the first level, each column hangs below its member of that
// row. The centre has up to 4 children, the other tiles of its row up to 3, every other tile 1.
// With two cores per tile (scc) one core of each tile leads it in the tree (the root in its own
// tile, the tile's first core elsewhere); the others hand their data to their leader and get it
// back from it, over the router's local ports, never a mesh link.
class MeshTree {
 public:
  MeshTree(const GridCommunicator& c, unsigned root)
      : c_(c), root_(root), cx_(c.x(root)), cy_(c.y(root)) {}

  // The core that stands for rank r's tile in the tree.
  unsigned lead(unsigned r) const;
  // The other cores of r's tile (r a leader).
  std::vector<unsigned> mates(unsigned r) const;
  int parent(unsigned r) const;
  std::vector<unsigned> children(unsigned r) const;

 private:
  const GridCommunicator& c_;
  unsigned root_;
  int cx_, cy_;
};

// Base of the mesh collectives: ranks are the tiles of workload.grid; point-to-point by rank.
class MeshCollective : public CollectiveFirmware {
 public:
  MeshCollective(const FirmwareParams& p, const Topology& t)
      : MeshCollective(p, GridCommunicator(t, p.grid)) {}

 protected:
  MeshCollective(const FirmwareParams& p, GridCommunicator comm);
  int group_rank(NodeId core) const override { return comm_.rank_of(core); }
  void body(MessageLayer& ml) final { run_rank(ml, static_cast<unsigned>(comm_.rank_of(ml.rank()))); }
  virtual void run_rank(MessageLayer& ml, unsigned me) = 0;
  void report_more(Report& out) const override;

  // The payload of send and recv is the collective's user data, copied from or to `copies`
  // (by default copies_); send_control and recv_control carry counts and go's, the layer's own
  // words (docs/software_model.md#copies).
  void send(MessageLayer& ml, unsigned to, const Words& w) { send(ml, to, w, copies_); }
  void send(MessageLayer& ml, unsigned to, const Words& w, const CopyBuffers& copies) {
    bytes_moved_ += 4ull * w.size();
    const CopyBuffersScope scope(ml, copies);
    ml.send(comm_.core(to), w);
  }
  Words recv(MessageLayer& ml, unsigned from) { return recv(ml, from, copies_); }
  Words recv(MessageLayer& ml, unsigned from, const CopyBuffers& copies) {
    const CopyBuffersScope scope(ml, copies);
    return ml.recv(comm_.core(from));
  }
  void send_control(MessageLayer& ml, unsigned to, const Words& w) { send(ml, to, w, {}); }
  Words recv_control(MessageLayer& ml, unsigned from) { return recv(ml, from, {}); }
  // Up the tree: fold the tile mates' and every child's message into `acc`, then pass it on.
  template <typename Fold>
  void gather(MessageLayer& ml, const MeshTree& tree, unsigned me, Words& acc, Fold fold) {
    ml.mark_round(1);  // up the tree
    if (tree.lead(me) != me) {
      send(ml, tree.lead(me), acc);
      return;
    }
    for (unsigned mate : tree.mates(me)) fold(acc, recv(ml, mate));
    for (unsigned child : tree.children(me)) fold(acc, recv(ml, child));
    if (tree.parent(me) >= 0) send(ml, static_cast<unsigned>(tree.parent(me)), acc);
  }
  // Down the tree: take `data` from the parent (the root has it) and hand it to every child,
  // then to the tile mates.
  void scatter(MessageLayer& ml, const MeshTree& tree, unsigned me, Words& data);
  // The static network serves one core per tile (tilepro); elsewhere trees use the dynamic one.
  bool use_static_network(const MessageLayer& ml) const {
    return ml.has_static_network() && comm_.cores_per_tile() == 1;
  }
  // Tree barrier rooted at the grid's centre: a count of arrived ranks goes up, the total
  // comes back down; every rank checks that all n arrived before it was released.
  void tree_barrier(MessageLayer& ml, unsigned me);

  // Broadcast on the static network: every tile routes its switch once, then the root injects
  // and the others take `data.size()` words. The root sends on all its links into the grid;
  // tiles of the root's column take the stream along Y and pass it on along Y and both ways
  // along X; the other tiles take it along X and pass it on along X. Every tile delivers a copy
  // to its core. Words that reach a switch before its route is in force wait there.
  void sn_route_broadcast(MessageLayer& ml, unsigned me, unsigned root);
  // (`copies`: the user buffer of the data, as send's.)
  void sn_broadcast(MessageLayer& ml, unsigned me, unsigned root, Words& data,
                    const CopyBuffers& copies);

  GridCommunicator comm_;
  unsigned n_;
  // The user buffer this collective's data is copied from and to: the message per rank
  // (none, each call its own size: barriers).
  CopyBuffers copies_;
  std::uint64_t bytes_moved_ = 0;
  std::vector<bool> sn_routed_ = std::vector<bool>(n_, false);  // per rank: SN route is set
};

// Base of the reductions: the operator of workload.reduce_op over workload.element_type, each
// rank's contribution and the result every checking rank expects.
class ReductionCollective : public MeshCollective {
 public:
  ReductionCollective(const FirmwareParams& p, const Topology& t);

 protected:
  // acc = acc (op) in, on this core (the software model charges the elements).
  void fold(MessageLayer& ml, Words& acc, const Words& in) const {
    if (in.size() != acc.size()) return;  // check() reports the short result
    red_.combine(acc, in);
    ml.reduced(red_.elements());
  }
  Words mine(unsigned me) const { return red_.contribution(p_.seed, me, 0); }
  // The reduction to the root, over `tree` (rooted at the root) as workload.schedule says;
  // returns this rank's partial result (the whole reduction at the root).
  // chain: up the tree link by link: each tile folds its children's results into its own and
  // passes that one link on (far tiles first, by the data's own order).
  // distance (SPEC 6's two steps): every tile of a column sends its contribution (with its tile
  // mates') directly to its column's tile in the root's row, then every row tile its result
  // directly to the root. The receiver takes each side of its line farthest first; a sender
  // waits for the receiver's go (one word, sent when the sender one farther on its side has
  // arrived), except the farthest of each side in the first run. So a round has at most one
  // message per side of a line and no two messages of a step share a link: data goes toward the
  // receiver, the go away from it, the steps along Y and along X. The receiver folds each
  // message after releasing the next sender, while that one travels.
  Words reduce_to_root(MessageLayer& ml, const MeshTree& tree, unsigned me);
  void report_more(Report& out) const override;
  Reduction red_;
  Words want_;

 private:
  Words tree_reduce(MessageLayer& ml, const MeshTree& tree, unsigned me);
  Words distance_reduce(MessageLayer& ml, const MeshTree& tree, unsigned me);
  // One line of the distance reduce: the receiver at `centre` of positions 0..n-1 takes each
  // side's senders farthest first and folds them into acc; `at` is the rank at a position.
  template <typename At>
  void receive_farthest_first(MessageLayer& ml, At at, unsigned centre, unsigned n, Words& acc,
                              bool later_run);
  // The sender at `pos` of that line: waits for its go unless it is the first of the run.
  void send_in_turn(MessageLayer& ml, unsigned to, unsigned pos, unsigned centre, unsigned n,
                    const Words& acc, bool later_run);
  std::vector<unsigned> runs_ = std::vector<unsigned>(n_, 0);  // per rank: runs begun
};

// Words in the message rank `src` sends rank `dst` in an alltoall of n ranks: workload.message_bytes
// for alltoall; for alltoallv (`varying`) a size drawn per pair in 1 .. 2 x that, from the seed.
unsigned alltoall_message_words(const FirmwareParams& p, unsigned n, unsigned src, unsigned dst,
                                bool varying);

// Base of the alltoalls: the words rank `src` sends rank `dst` (alltoall_message_words of
// pattern data).
// Sizes in words of the messages rank `src` sends every other rank, in rank order
// (alltoall_message_words); of those every other rank sends rank `dst` (alltoall_sizes_to).
std::vector<std::uint64_t> alltoall_sizes_from(const FirmwareParams& p, unsigned n, unsigned src,
                                               bool varying);
std::vector<std::uint64_t> alltoall_sizes_to(const FirmwareParams& p, unsigned n, unsigned dst,
                                             bool varying);

class AlltoallBase : public MeshCollective {
 public:
  AlltoallBase(const FirmwareParams& p, const Topology& t, bool varying)
      : MeshCollective(p, t), words_(message_words(p)), varying_(varying) {}

 protected:
  Words message(unsigned src, unsigned dst) const;
  // Each message its own user buffer (a message per rank pair): the one src sends dst, and a
  // bundle of messages of `sizes` words laid end to end.
  CopyBuffers copies_of(unsigned src, unsigned dst) const {
    return CopyBuffers::user(4ull * alltoall_message_words(p_, n_, src, dst, varying_));
  }
  static CopyBuffers bundle_copies(const std::vector<std::uint64_t>& sizes) {
    std::uint64_t words = 0;
    for (const std::uint64_t w : sizes) words += w;
    return CopyBuffers::messages(sizes, 0, words);
  }
  unsigned words_;
  bool varying_;
};

}  // namespace collnoc
