#include "collectives/manycore_collectives.hpp"

#include <algorithm>

#include "collectives/collective.hpp"
#include "collectives/grid_communicator.hpp"
#include "collectives/reduction.hpp"
#include "noc/random.hpp"
#include "noc/topology/kary_ncube.hpp"

namespace collnoc::manycore {

namespace {

// 32-bit words per message: workload.message_bytes, a whole number of words.
unsigned message_words(const FirmwareParams& p) {
  if (p.message_bytes == 0 || p.message_bytes % 4 != 0)
    throw ParamError("workload.message_bytes", std::to_string(p.message_bytes),
                     "a positive multiple of 4 bytes");
  return static_cast<unsigned>(p.message_bytes / 4);
}

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
  unsigned lead(unsigned r) const {
    const unsigned per_tile = c_.cores_per_tile();
    return r / per_tile == root_ / per_tile ? root_ : r - r % per_tile;
  }
  // The other cores of r's tile (r a leader).
  std::vector<unsigned> mates(unsigned r) const {
    std::vector<unsigned> out;
    const unsigned first = r - r % c_.cores_per_tile();
    for (unsigned m = first; m < first + c_.cores_per_tile(); ++m)
      if (m != r) out.push_back(m);
    return out;
  }
  int parent(unsigned r) const {
    const int x = static_cast<int>(c_.x(r)), y = static_cast<int>(c_.y(r));
    if (y != cy_) return static_cast<int>(lead(c_.rank_at(x, y < cy_ ? y + 1 : y - 1)));
    if (x != cx_) return static_cast<int>(lead(c_.rank_at(x < cx_ ? x + 1 : x - 1, y)));
    return -1;
  }
  std::vector<unsigned> children(unsigned r) const {
    const int x = static_cast<int>(c_.x(r)), y = static_cast<int>(c_.y(r));
    std::vector<unsigned> out;
    const auto add = [&](int cx, int cy) {
      if (c_.inside(cx, cy)) out.push_back(lead(c_.rank_at(cx, cy)));
    };
    if (y == cy_) {
      if (x <= cx_) add(x - 1, y);
      if (x >= cx_) add(x + 1, y);
      add(x, y - 1);
      add(x, y + 1);
    } else {
      add(x, y < cy_ ? y - 1 : y + 1);
    }
    return out;
  }

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
  MeshCollective(const FirmwareParams& p, GridCommunicator comm)
      : CollectiveFirmware(p, comm.size()), comm_(comm), n_(comm.size()) {
    if (p.root >= n_)
      throw ParamError("workload.root", std::to_string(p.root),
                       "a rank of the grid: 0.." + std::to_string(n_ - 1));
  }
  int group_rank(NodeId core) const override { return comm_.rank_of(core); }
  void body(MessageLayer& ml) final { run_rank(ml, static_cast<unsigned>(comm_.rank_of(ml.rank()))); }
  virtual void run_rank(MessageLayer& ml, unsigned me) = 0;
  void report_more(Report& out) const override {
    out.set("collective.grid", std::to_string(comm_.width()) + "x" + std::to_string(comm_.height()));
    out.set("collective.bytes_moved", bytes_moved_);
  }

  void send(MessageLayer& ml, unsigned to, const Words& w) {
    bytes_moved_ += 4ull * w.size();
    ml.send(comm_.core(to), w);
  }
  Words recv(MessageLayer& ml, unsigned from) { return ml.recv(comm_.core(from)); }
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
  void scatter(MessageLayer& ml, const MeshTree& tree, unsigned me, Words& data) {
    ml.mark_round(2);  // down the tree
    if (tree.lead(me) != me) {
      data = recv(ml, tree.lead(me));
      return;
    }
    if (tree.parent(me) >= 0) data = recv(ml, static_cast<unsigned>(tree.parent(me)));
    for (unsigned child : tree.children(me)) send(ml, child, data);
    for (unsigned mate : tree.mates(me)) send(ml, mate, data);
  }
  // The static network serves one core per tile (tilepro); elsewhere trees use the dynamic one.
  bool use_static_network(const MessageLayer& ml) const {
    return ml.has_static_network() && comm_.cores_per_tile() == 1;
  }
  // Tree barrier rooted at the grid's centre: a count of arrived ranks goes up, the total
  // comes back down; every rank checks that all n arrived before it was released.
  void tree_barrier(MessageLayer& ml, unsigned me) {
    const MeshTree tree(comm_, comm_.rank_at((comm_.width() - 1) / 2, (comm_.height() - 1) / 2));
    Words count{1};
    gather(ml, tree, me, count, [](Words& acc, const Words& in) { acc[0] += in.at(0); });
    scatter(ml, tree, me, count);
    check(count, Words{n_}, "barrier release at rank " + std::to_string(me));
  }

  // Broadcast on the static network: every tile routes its switch once, then the root injects
  // and the others take `data.size()` words. The root sends on all its links into the grid;
  // tiles of the root's column take the stream along Y and pass it on along Y and both ways
  // along X; the other tiles take it along X and pass it on along X. Every tile delivers a copy
  // to its core. Words that reach a switch before its route is in force wait there.
  void sn_route_broadcast(MessageLayer& ml, unsigned me, unsigned root) {
    if (sn_routed_[me]) return;  // the route stays for the next repetitions
    sn_routed_[me] = true;
    const KaryNCube& mesh = comm_.mesh();
    const int x = static_cast<int>(comm_.x(me)), y = static_cast<int>(comm_.y(me));
    const int rx = static_cast<int>(comm_.x(root)), ry = static_cast<int>(comm_.y(root));
    std::uint64_t outputs = 0;
    const auto out_to = [&](int dim, int step) {  // onward link if it stays inside the grid
      if (comm_.inside(dim == 0 ? x + step : x, dim == 1 ? y + step : y))
        outputs |= std::uint64_t{1} << (step > 0 ? mesh.plus_port(dim) : mesh.minus_port(dim));
    };
    unsigned input = mesh.local_port_of(comm_.core(me));
    if (me == root) {
      for (int dim : {0, 1})
        for (int step : {1, -1}) out_to(dim, step);
    } else {
      // Take the stream from the neighbour toward the root (Y in its column, X elsewhere).
      const int dim = x == rx ? 1 : 0;
      const int step = dim == 1 ? (y > ry ? 1 : -1) : (x > rx ? 1 : -1);  // away from root
      const unsigned from = comm_.rank_at(dim == 0 ? x - step : x, dim == 1 ? y - step : y);
      const unsigned toward_me = step > 0 ? mesh.plus_port(dim) : mesh.minus_port(dim);
      input = mesh.peer(comm_.router(from), toward_me).port;
      out_to(dim, step);
      if (dim == 1) {
        out_to(0, 1);
        out_to(0, -1);
      }
      outputs |= std::uint64_t{1} << mesh.local_port_of(comm_.core(me));
    }
    ml.sn_configure(input, outputs);
  }
  void sn_broadcast(MessageLayer& ml, unsigned me, unsigned root, Words& data) {
    ml.mark_round(2);  // down, on the static network
    if (me == root) {
      bytes_moved_ += 4ull * data.size();
      ml.sn_send(data);
    } else {
      data = ml.sn_recv(data.size());
    }
  }

  GridCommunicator comm_;
  unsigned n_;
  std::uint64_t bytes_moved_ = 0;
  std::vector<bool> sn_routed_ = std::vector<bool>(n_, false);  // per rank: SN route is set
};

// ---------------------------------------------------------------- barriers

class TreeBarrier : public MeshCollective {
 public:
  using MeshCollective::MeshCollective;
  void run_rank(MessageLayer& ml, unsigned me) override { tree_barrier(ml, me); }
};

// Every rank reports to rank 0, which releases them all.
class CentralBarrier : public MeshCollective {
 public:
  using MeshCollective::MeshCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    if (me != 0) {
      send(ml, 0, Words{1});
      check(recv(ml, 0), Words{n_}, "barrier release at rank " + std::to_string(me));
      return;
    }
    Words count{1};
    for (unsigned r = 1; r < n_; ++r) count[0] += recv(ml, r).at(0);
    for (unsigned r = 1; r < n_; ++r) send(ml, r, count);
    check(count, Words{n_}, "barrier arrivals at rank 0");
  }
};

// ---------------------------------------------------------------- broadcast

Words broadcast_data(const FirmwareParams& p) {
  return pattern_message(p.seed, p.root, p.root, 0, message_words(p));
}

// Binomial tree from the root (ranks relative to it): a rank receives from the rank that
// differs in its lowest set bit, then sends to the ranks below it, largest distance first.
class BinomialBroadcast : public MeshCollective {
 public:
  using MeshCollective::MeshCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    const unsigned v = (me + n_ - p_.root) % n_;
    const auto actual = [&](unsigned rel) { return (rel + p_.root) % n_; };
    Words data;
    if (v == 0) data = broadcast_data(p_);
    unsigned mask = 1;
    for (; mask < n_; mask <<= 1)
      if (v & mask) {
        data = recv(ml, actual(v - mask));
        break;
      }
    for (mask >>= 1; mask > 0; mask >>= 1)
      if (v + mask < n_) send(ml, actual(v + mask), data);
    check(data, broadcast_data(p_), "broadcast data at rank " + std::to_string(me));
  }
};

// The static network's broadcast tree (one route configuration per tile). Without a static
// network (kary_ncube, scc) the same tree shape on the dynamic network: down the mesh tree
// rooted at the root, each link once.
class TreeBroadcast : public MeshCollective {
 public:
  using MeshCollective::MeshCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    Words data;
    if (me == p_.root) data = broadcast_data(p_);
    if (use_static_network(ml)) {
      sn_route_broadcast(ml, me, p_.root);
      data.resize(broadcast_data(p_).size());
      sn_broadcast(ml, me, p_.root, data);
    } else {
      scatter(ml, MeshTree(comm_, p_.root), me, data);
    }
    check(data, broadcast_data(p_), "broadcast data at rank " + std::to_string(me));
  }
};

// One-sided broadcast on the message-passing buffers (scc), in the manner of OC-Bcast: the
// message goes down a tree of ranks numbered from the root, workload.fanout children each (1: a
// pipelined chain), in chunks staged in each
// core's own buffer. A parent writes chunk i into slot i mod 2 of its buffer and puts a ready
// count into each child's buffer; the child gets the chunk from its parent's slot (a request
// and a reply over the network), writes it into its own slot for its children, and puts a done
// count into its parent's buffer. A parent refills a slot once every child is done with the
// chunk it held, so chunk i + 1 goes down while chunk i is read. Counts run on across
// repetitions, so flags never need clearing.
class OneSidedBroadcast : public MeshCollective {
 public:
  OneSidedBroadcast(const FirmwareParams& p, const Topology& t)
      : MeshCollective(p, t),
        fanout_(p.fanout), slot_words_((p.protocol.mpb_bytes - slots_offset_bytes()) / 2 / 4),
        chunks_done_(n_, 0) {
    if (fanout_ < 1 || fanout_ > 47)
      throw ParamError("workload.fanout", std::to_string(fanout_), "1 .. 47 children");
    if (p.protocol.mpb_bytes < slots_offset_bytes() + 64)
      throw ParamError("workload.algorithm", p.algorithm,
                       "broadcast onesided works on message-passing buffers (platform scc)");
  }
  bool owns_message_passing_buffers() const override { return true; }
  void run_rank(MessageLayer& ml, unsigned me) override {
    const unsigned v = (me + n_ - p_.root) % n_;
    const auto actual = [&](unsigned rel) { return (rel + p_.root) % n_; };
    std::vector<unsigned> children;
    for (unsigned c = fanout_ * v + 1; c <= fanout_ * v + fanout_ && c < n_; ++c)
      children.push_back(actual(c));
    const Words want = broadcast_data(p_);
    Words data = v == 0 ? want : Words(want.size(), 0);
    const std::size_t chunks = (data.size() + slot_words_ - 1) / slot_words_;
    const std::uint32_t base = chunks_done_[me];  // counts of the runs before this one
    ml.mark_round(2);  // down the tree
    for (std::size_t i = 0; i < chunks; ++i) {
      const std::uint32_t count = base + static_cast<std::uint32_t>(i) + 1;
      const std::uint32_t slot = slots_offset_bytes() + static_cast<std::uint32_t>(i % 2) * slot_words_ * 4;
      const std::size_t first = i * slot_words_, words = std::min<std::size_t>(slot_words_, data.size() - first);
      if (v != 0) {
        wait_flags(ml, [&](const Words& f) { return f[kReadyWord] >= count; });
        const Words piece = ml.get(comm_.core(actual((v - 1) / fanout_)), slot, words);
        bytes_moved_ += 4ull * words;
        std::copy(piece.begin(), piece.end(), data.begin() + static_cast<std::ptrdiff_t>(first));
        ml.put(comm_.core(actual((v - 1) / fanout_)), 4 * (kDoneWord + (v - 1) % fanout_), Words{count});
      }
      if (children.empty()) continue;
      if (i >= 2)  // the slot held chunk i - 2: every child must have it
        wait_flags(ml, [&](const Words& f) {
          for (std::size_t c = 0; c < children.size(); ++c)
            if (f[kDoneWord + c] < count - 2) return false;
          return true;
        });
      ml.mpb_write(slot, Words(data.begin() + static_cast<std::ptrdiff_t>(first),
                               data.begin() + static_cast<std::ptrdiff_t>(first + words)));
      for (unsigned child : children) ml.put(comm_.core(child), 4 * kReadyWord, Words{count});
    }
    // Done when every child has the last chunk (the buffer is free for the next run).
    if (!children.empty())
      wait_flags(ml, [&](const Words& f) {
        for (std::size_t c = 0; c < children.size(); ++c)
          if (f[kDoneWord + c] < base + chunks) return false;
        return true;
      });
    chunks_done_[me] = base + static_cast<std::uint32_t>(chunks);
    check(data, want, "broadcast data at rank " + std::to_string(me));
  }

 private:
  // This core's buffer: word 0 the ready count its parent puts, then the done counts of its
  // children, then two slots from the next 32-byte line.
  static constexpr unsigned kReadyWord = 0, kDoneWord = 1;
  unsigned slots_offset_bytes() const { return (4 * (kDoneWord + fanout_) + 31) / 32 * 32; }
  // Polls the flag words: a local read, then a sleep until a put lands, until `ready`.
  template <typename Ready>
  void wait_flags(MessageLayer& ml, Ready ready) {
    for (Words f = ml.mpb_read(0, kDoneWord + fanout_); !ready(f); f = ml.mpb_read(0, kDoneWord + fanout_))
      ml.mpb_wait();
  }
  unsigned fanout_;
  unsigned slot_words_;
  std::vector<std::uint32_t> chunks_done_;  // per rank: chunks of all runs so far
};

// ---------------------------------------------------------------- reductions

class ReductionCollective : public MeshCollective {
 public:
  ReductionCollective(const FirmwareParams& p, const Topology& t)
      : MeshCollective(p, t), red_(p), want_(red_.expected(p.seed, n_, 0)) {}

 protected:
  void fold(Words& acc, const Words& in) const {
    if (in.size() != acc.size()) return;  // check() reports the short result
    red_.combine(acc, in);
  }
  Words mine(unsigned me) const { return red_.contribution(p_.seed, me, 0); }
  // Folds the contributions up the tree rooted at the root; returns this rank's partial result
  // (the whole reduction at the root).
  Words tree_reduce(MessageLayer& ml, const MeshTree& tree, unsigned me) {
    Words acc = mine(me);
    gather(ml, tree, me, acc, [this](Words& a, const Words& in) { fold(a, in); });
    return acc;
  }
  void report_more(Report& out) const override {
    MeshCollective::report_more(out);
    out.set("collective.reduce_op", p_.reduce_op);
    out.set("collective.element_type", p_.element_type);
  }
  Reduction red_;
  Words want_;
};

// Two steps over the tree rooted at the root: each column folds into the root's row, far
// tiles first (a tile adds its own contribution to what came from further out and passes it
// one link on), then the row folds into the root. Every link carries one message, once.
class TreeReduce : public ReductionCollective {
 public:
  using ReductionCollective::ReductionCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    const Words acc = tree_reduce(ml, MeshTree(comm_, p_.root), me);
    if (me == p_.root) check(acc, want_, "reduce result at root " + std::to_string(me));
  }
};

// Tree reduce to the root, then the result broadcast on the static network (tilepro); without
// one, back down the same tree on the dynamic network (links used in the opposite direction,
// after every upward message has arrived).
class ReduceBroadcastAllreduce : public ReductionCollective {
 public:
  using ReductionCollective::ReductionCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    const MeshTree tree(comm_, p_.root);
    const bool sn = use_static_network(ml);
    if (sn) sn_route_broadcast(ml, me, p_.root);
    Words acc = tree_reduce(ml, tree, me);
    if (sn) sn_broadcast(ml, me, p_.root, acc);
    else scatter(ml, tree, me, acc);
    check(acc, want_, "allreduce result at rank " + std::to_string(me));
  }
};

// Binomial tree to the root: a rank folds in the ranks above it that differ in one lower bit,
// then sends to the rank that differs in its lowest set bit.
class BinomialReduce : public ReductionCollective {
 public:
  using ReductionCollective::ReductionCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    const unsigned v = (me + n_ - p_.root) % n_;
    const auto actual = [&](unsigned rel) { return (rel + p_.root) % n_; };
    Words acc = mine(me);
    for (unsigned mask = 1; mask < n_; mask <<= 1) {
      if (v & mask) {
        send(ml, actual(v - mask), acc);
        return;
      }
      if (v + mask < n_) fold(acc, recv(ml, actual(v + mask)));
    }
    check(acc, want_, "reduce result at root " + std::to_string(me));
  }
};

// Recursive doubling; for a rank count that is not a power of two, the first 2 * rem ranks
// pair up first (the even one hands its data to the odd one and gets the result at the end).
class RecursiveDoublingAllreduce : public ReductionCollective {
 public:
  using ReductionCollective::ReductionCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    unsigned pof2 = 1, exchanges = 0;
    while (pof2 * 2 <= n_) pof2 *= 2, ++exchanges;
    const unsigned rem = n_ - pof2;
    Words acc = mine(me);
    int newrank;
    // Rounds: 1 the pairing, 2 .. log2(pof2) + 1 the exchanges, then the hand-back.
    unsigned round = 1;
    ml.mark_round(round);
    if (me < 2 * rem) {
      if (me % 2 == 0) {
        send(ml, me + 1, acc);
        newrank = -1;
      } else {
        fold(acc, recv(ml, me - 1));
        newrank = static_cast<int>(me / 2);
      }
    } else {
      newrank = static_cast<int>(me - rem);
    }
    if (newrank >= 0)
      for (unsigned mask = 1; mask < pof2; mask <<= 1) {
        ml.mark_round(++round);
        const unsigned peer_new = static_cast<unsigned>(newrank) ^ mask;
        const unsigned peer = peer_new < rem ? peer_new * 2 + 1 : peer_new + rem;
        send(ml, peer, acc);
        fold(acc, recv(ml, peer));
      }
    ml.mark_round(exchanges + 2);
    if (me < 2 * rem) {
      if (me % 2 == 0) acc = recv(ml, me + 1);
      else send(ml, me - 1, acc);
    }
    check(acc, want_, "allreduce result at rank " + std::to_string(me));
  }
};

// ---------------------------------------------------------------- alltoall

// Words rank `src` sends rank `dst`: workload.message_bytes for alltoall; for alltoallv a size
// drawn per pair in 1 .. 2 x that, from the seed.
class AlltoallBase : public MeshCollective {
 public:
  AlltoallBase(const FirmwareParams& p, const Topology& t, bool varying)
      : MeshCollective(p, t), words_(message_words(p)), varying_(varying) {}

 protected:
  Words message(unsigned src, unsigned dst) const {
    unsigned w = words_;
    if (varying_) w = 1 + static_cast<unsigned>(hash64(p_.seed ^ 0xa11a11, src * n_ + dst) % (2 * words_));
    return pattern_message(p_.seed, src, dst, 0, w);
  }
  unsigned words_;
  bool varying_;
};

// N-1 stages; in stage s rank r sends to r + s and receives from r - s (mod N).
class PairwiseAlltoall : public AlltoallBase {
 public:
  PairwiseAlltoall(const FirmwareParams& p, const Topology& t, bool varying)
      : AlltoallBase(p, t, varying) {}
  void run_rank(MessageLayer& ml, unsigned me) override {
    for (unsigned s = 1; s < n_; ++s) {
      ml.mark_round(s);
      const unsigned dst = (me + s) % n_, src = (me + n_ - s) % n_;
      send(ml, dst, message(me, dst));
      check(recv(ml, src), message(src, me), "message " + std::to_string(src) + " -> " + std::to_string(me));
    }
  }
};

// Pattern-based rounds: in a round disjoint pairs of tiles swap messages, and no two messages
// of a round share a link (X-then-Y routes) or a tile. Pairs come in four classes, each filling
// its own rounds, in this order: direct along X, direct along Y, left (the partner is up-left /
// down-right: (x - dx, y + dy) and (x + dx, y - dy)) and right ((x + dx, y + dy), (x - dx, y - dy)).
// Within a class, pairs are placed longest first into the first round that has their links and
// tiles free and still leaves every tile a path to the grid centre over links the round does not
// use. A barrier closes each round: arrival counts go up that round's tree of unused links (so
// they never meet the round's data), and the release comes from the centre on the static network
// (routed once), so the next round's data meets no barrier traffic either. Without a static
// network the release goes back down the tree on the dynamic network.
// With two cores per tile (scc) the tile's first core leads it through the rounds: the other
// core first hands it, over the router's local ports, everything it sends (one bundle), the
// leaders swap per round one message holding what every core of one tile sends every core of
// the other, and at the end the leader hands its mate what arrived for it (one bundle).
class PatternAlltoall : public AlltoallBase {
 public:
  PatternAlltoall(const FirmwareParams& p, const Topology& t, bool varying)
      : AlltoallBase(p, t, varying), per_tile_(comm_.cores_per_tile()), tiles_(n_ / per_tile_),
        centre_(tile_at((comm_.width() - 1) / 2, (comm_.height() - 1) / 2)), plan_(build()) {}

  // The rounds and their barrier trees. With a static network the release never meets the
  // dynamic network's traffic. Without one, round r's release is still under way while released
  // tiles send round r + 1's data and report it: it takes a tree of links neither uses where
  // one exists, else the arrival tree's links backwards (free once round r's data is in), and
  // may then meet round r + 1's traffic (counted per round; docs/manycore.md). Packing rounds
  // so that such a tree always exists took half as many rounds again (73 -> 127 on scc's 6x4).
  struct Schedule {
    std::vector<std::vector<int>> rounds;   // per round: each tile's partner tile, -1 if idle
    std::vector<std::vector<int>> arrival;  // per round: each tile's parent in its arrival tree
    std::vector<std::vector<int>> release;  // per round: the same for its release (no SN)
  };
  Schedule build() const {
    Schedule s;
    const int w = static_cast<int>(comm_.width()), h = static_cast<int>(comm_.height());
    std::vector<std::pair<unsigned, unsigned>> pairs[4];  // per class: (left end, partner)
    for (unsigned a = 0; a < tiles_; ++a)
      for (int dx = 0; dx < w; ++dx)
        for (int dy = -(h - 1); dy < h; ++dy) {
          if (dx == 0 && dy <= 0) continue;
          const int bx = tx(a) + dx, by = ty(a) + dy;
          if (!comm_.inside(bx, by)) continue;
          const int cls = dy == 0 ? 0 : dx == 0 ? 1 : dy < 0 ? 2 : 3;
          pairs[cls].emplace_back(a, tile_at(bx, by));
        }
    std::vector<std::vector<bool>> links_used;  // per round, per directed link
    for (auto& cls : pairs) {
      std::stable_sort(cls.begin(), cls.end(), [&](const auto& l, const auto& r) {
        return hops(l.first, l.second) > hops(r.first, r.second);
      });
      const std::size_t first_round = s.rounds.size();
      for (const auto& [a, b] : cls) {
        std::vector<unsigned> links = route_links(a, b), back = route_links(b, a);
        links.insert(links.end(), back.begin(), back.end());
        std::size_t r = first_round;
        for (; r < s.rounds.size(); ++r) {
          if (s.rounds[r][a] >= 0 || s.rounds[r][b] >= 0) continue;
          std::vector<bool> used = links_used[r];
          bool free = true;
          for (unsigned l : links) free = free && !used[l], used[l] = true;
          if (free && !tree_over_free_links(used).empty()) break;
        }
        if (r == s.rounds.size()) {
          s.rounds.emplace_back(tiles_, -1);
          links_used.emplace_back(4 * tiles_, false);
        }
        s.rounds[r][a] = static_cast<int>(b);
        s.rounds[r][b] = static_cast<int>(a);
        for (unsigned l : links) links_used[r][l] = true;
      }
    }
    const std::vector<bool> no_links(4 * tiles_, false);
    for (std::size_t r = 0; r < s.rounds.size(); ++r) {
      // A round that had to open with a pair whose links cut some tile off (two tiles, one
      // link) reports over any links.
      s.arrival.push_back(tree_over_free_links(links_used[r]));
      if (s.arrival.back().empty()) s.arrival.back() = tree_over_free_links(no_links);
      std::vector<int> release;
      if (r + 1 < s.rounds.size()) release = release_tree(links_used[r + 1]);
      if (release.empty()) release = tree_over_free_links(no_links, true);
      s.release.push_back(std::move(release));
    }
    return s;
  }
  void run_rank(MessageLayer& ml, unsigned me) override {
    const unsigned tile = me / per_tile_, lead = tile * per_tile_;
    if (me != lead) {
      run_mate(ml, me, lead);
      return;
    }
    // What the mates send: out[i][dst] for core lead + i, cut from their bundles (the leader's
    // own messages are made when they leave).
    std::vector<std::vector<Words>> out(per_tile_);
    for (unsigned i = 1; i < per_tile_; ++i) out[i] = split(recv(ml, lead + i), lead + i, true);
    // What arrives for the mates, in source order.
    std::vector<std::vector<Words>> in(per_tile_);
    for (unsigned i = 1; i < per_tile_; ++i) {
      in[i].resize(n_);
      in[i][me] = message(me, lead + i);
    }
    for (unsigned i = 1; i < per_tile_; ++i) {
      check(out[i][me], message(lead + i, me),
            "message " + std::to_string(lead + i) + " -> " + std::to_string(me));
      for (unsigned j = 1; j < per_tile_; ++j)
        if (j != i) in[j][lead + i] = std::move(out[i][lead + j]);
    }

    const bool sn = use_static_network(ml);
    if (sn) sn_route_broadcast(ml, me, centre_);
    for (std::size_t r = 0; r < plan_.rounds.size(); ++r) {
      ml.mark_round(static_cast<unsigned>(r + 1));
      if (plan_.rounds[r][tile] >= 0) {
        const unsigned peer = static_cast<unsigned>(plan_.rounds[r][tile]) * per_tile_;
        Words sent;  // from every core of this tile to every core of the peer's
        for (unsigned i = 0; i < per_tile_; ++i)
          for (unsigned j = 0; j < per_tile_; ++j) {
            const Words piece = i == 0 ? message(me, peer + j) : std::move(out[i][peer + j]);
            sent.insert(sent.end(), piece.begin(), piece.end());
          }
        send(ml, peer, sent);
        const Words got = recv(ml, peer);
        std::size_t at = 0;
        for (unsigned i = 0; i < per_tile_; ++i)
          for (unsigned j = 0; j < per_tile_; ++j) {
            const std::size_t words = message(peer + i, lead + j).size();
            Words piece(got.begin() + static_cast<std::ptrdiff_t>(std::min(at, got.size())),
                        got.begin() + static_cast<std::ptrdiff_t>(std::min(at + words, got.size())));
            at += words;
            if (j == 0) check(piece, message(peer + i, me),
                              "message " + std::to_string(peer + i) + " -> " + std::to_string(me));
            else in[j][peer + i] = std::move(piece);
          }
      }
      const std::vector<int>& parent = plan_.arrival[r];
      Words count{1};
      for (unsigned u = 0; u < tiles_; ++u)
        if (parent[u] == static_cast<int>(tile)) count[0] += recv(ml, u * per_tile_).at(0);
      if (parent[tile] >= 0) send(ml, static_cast<unsigned>(parent[tile]) * per_tile_, count);
      if (sn) {
        sn_broadcast(ml, me, centre_ * per_tile_, count);
      } else {
        const std::vector<int>& down = plan_.release[r];
        if (down[tile] >= 0) count = recv(ml, static_cast<unsigned>(down[tile]) * per_tile_);
        for (unsigned u = 0; u < tiles_; ++u)
          if (down[u] == static_cast<int>(tile)) send(ml, u * per_tile_, count);
      }
      check(count, Words{tiles_}, "barrier release at rank " + std::to_string(me));
    }
    for (unsigned i = 1; i < per_tile_; ++i) {
      Words bundle;
      for (const Words& piece : in[i]) bundle.insert(bundle.end(), piece.begin(), piece.end());
      send(ml, lead + i, bundle);
    }
  }
  void report_more(Report& out) const override {
    AlltoallBase::report_more(out);
    out.set("collective.rounds", static_cast<std::uint64_t>(plan_.rounds.size()));
  }

 private:
  // A core that does not lead its tile: everything it sends to its leader in one bundle, and
  // everything sent to it back from the leader in one bundle, which it checks.
  void run_mate(MessageLayer& ml, unsigned me, unsigned lead) {
    ml.mark_round(0);
    Words bundle;
    for (unsigned dst = 0; dst < n_; ++dst)
      if (dst != me) {
        const Words m = message(me, dst);
        bundle.insert(bundle.end(), m.begin(), m.end());
      }
    send(ml, lead, bundle);
    const std::vector<Words> got = split(recv(ml, lead), me, false);
    for (unsigned src = 0; src < n_; ++src)
      if (src != me)
        check(got[src], message(src, me), "message " + std::to_string(src) + " -> " + std::to_string(me));
  }
  // Cuts a bundle into the messages from `core` to every other rank (`outgoing`) or from every
  // other rank to `core`, in rank order; a short bundle leaves short pieces for check() to find.
  std::vector<Words> split(const Words& bundle, unsigned core, bool outgoing) const {
    std::vector<Words> pieces(n_);
    std::size_t at = 0;
    for (unsigned other = 0; other < n_; ++other) {
      if (other == core) continue;
      const std::size_t words = (outgoing ? message(core, other) : message(other, core)).size();
      pieces[other].assign(bundle.begin() + static_cast<std::ptrdiff_t>(std::min(at, bundle.size())),
                           bundle.begin() + static_cast<std::ptrdiff_t>(std::min(at + words, bundle.size())));
      at += words;
    }
    return pieces;
  }
  // Tiles are numbered y * width + x.
  int tx(unsigned tile) const { return static_cast<int>(tile % comm_.width()); }
  int ty(unsigned tile) const { return static_cast<int>(tile / comm_.width()); }
  unsigned tile_at(int x, int y) const { return static_cast<unsigned>(y) * comm_.width() + static_cast<unsigned>(x); }
  unsigned hops(unsigned a, unsigned b) const {
    return static_cast<unsigned>(std::abs(tx(a) - tx(b)) + std::abs(ty(a) - ty(b)));
  }
  // Directed links are numbered 4 per tile: out of it along +X, -X, +Y, -Y.
  // The links an X-then-Y route from tile a to tile b takes.
  std::vector<unsigned> route_links(unsigned a, unsigned b) const {
    std::vector<unsigned> out;
    int x = tx(a), y = ty(a);
    const int to_x = tx(b), to_y = ty(b);
    for (; x != to_x; x += x < to_x ? 1 : -1) out.push_back(4 * tile_at(x, y) + (x < to_x ? 0 : 1));
    for (; y != to_y; y += y < to_y ? 1 : -1) out.push_back(4 * tile_at(x, y) + (y < to_y ? 2 : 3));
    return out;
  }
  // The directed link from tile a to its neighbour b.
  unsigned link_between(unsigned a, unsigned b) const {
    return 4 * a + (tx(b) > tx(a) ? 0 : tx(b) < tx(a) ? 1 : ty(b) > ty(a) ? 2 : 3);
  }
  // Parent of every tile in a tree into the centre whose every edge is a link not in `used`,
  // tile -> parent (up) or parent -> tile (`down`), breadth-first from the centre; empty if some
  // tile has no such path.
  std::vector<int> tree_over_free_links(const std::vector<bool>& used, bool down = false) const {
    constexpr int kStepX[4] = {1, -1, 0, 0}, kStepY[4] = {0, 0, 1, -1};
    std::vector<int> parent(tiles_, -2);
    parent[centre_] = -1;
    std::vector<unsigned> queue{centre_};
    for (std::size_t i = 0; i < queue.size(); ++i) {
      const unsigned v = queue[i];
      for (unsigned d = 0; d < 4; ++d) {
        const int ux = tx(v) + kStepX[d], uy = ty(v) + kStepY[d];
        if (!comm_.inside(ux, uy)) continue;
        const unsigned u = tile_at(ux, uy);
        if (parent[u] != -2 || used[down ? 4 * v + d : 4 * u + (d ^ 1)]) continue;  // u -> v, v -> u
        parent[u] = static_cast<int>(v);
        queue.push_back(u);
      }
    }
    if (queue.size() != tiles_) return {};
    return parent;
  }

  // The release tree of the round before one whose data takes `used` (and whose arrival tree
  // takes the links it finds): links out of parents toward children that neither uses.
  std::vector<int> release_tree(std::vector<bool> used) const {
    const std::vector<int> arrival = tree_over_free_links(used);
    if (arrival.empty()) return {};
    for (unsigned u = 0; u < tiles_; ++u)
      if (arrival[u] >= 0) used[link_between(u, static_cast<unsigned>(arrival[u]))] = true;
    return tree_over_free_links(used, true);
  }

  unsigned per_tile_, tiles_;
  unsigned centre_;  // tile
  Schedule plan_;
};

template <typename T>
std::unique_ptr<Firmware> make(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<T>(p, t);
}
// Broadcasts make their data inside the cores' threads: workload.message_bytes is checked here.
template <typename T>
std::unique_ptr<Firmware> make_broadcast(const FirmwareParams& p, const Topology& t) {
  message_words(p);
  return std::make_unique<T>(p, t);
}
template <typename T, bool varying>
std::unique_ptr<Firmware> make_alltoall(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<T>(p, t, varying);
}

}  // namespace

const Maker nocmsg_alltoall = make_alltoall<PatternAlltoall, false>;
const Maker nocmsg_alltoallv = make_alltoall<PatternAlltoall, true>;
const Maker nocmsg_barrier = make<TreeBarrier>;
const Maker nocmsg_reduce = make<TreeReduce>;
const Maker reduce_broadcast_allreduce = make<ReduceBroadcastAllreduce>;
const Maker binomial_broadcast = make_broadcast<BinomialBroadcast>;
const Maker nocmsg_broadcast = make_broadcast<TreeBroadcast>;
const Maker onesided_broadcast = make_broadcast<OneSidedBroadcast>;
const Maker binomial_reduce = make<BinomialReduce>;
const Maker recursive_doubling_allreduce = make<RecursiveDoublingAllreduce>;
const Maker pairwise_alltoall = make_alltoall<PairwiseAlltoall, false>;
const Maker pairwise_alltoallv = make_alltoall<PairwiseAlltoall, true>;
const Maker central_barrier = make<CentralBarrier>;

}  // namespace collnoc::manycore
