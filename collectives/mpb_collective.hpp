// The NoCMsg collectives on scc's message-passing buffers (SPEC 6.5): one-sided puts into the
// reader's buffer, each carrying its flag, polled by the reader in its own buffer; in rounds,
// so that no two messages share a link and the two cores of a tile never inject at once.
//
// Tiles and their cores: one core of each tile leads it (the root in the root's tile, else the
// tile's last core, scc's odd one); the other core, its mate, takes the network only when the
// leader has handed it the turn and gives it back with its last put, so the tile's two NIs never
// inject in overlapping cycles (contention_events_cores, docs/results.md). The tile trees are
// MeshTree's (single mesh links) or, in the alltoall, trees of its own per round.
//
// Each core's buffer: flag words first (each written by one core at a time), then data slots.
// A put writes [flag, data...] at once (the NI writes a put when its tail arrives), so a reader
// that sees the flag sees the data. Flag values count on across runs (run * steps + step + 1),
// so flags never need clearing.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "collectives/mesh_collective.hpp"

namespace collnoc {

class MpbCollective : public MeshCollective {
 public:
  // `sources`: data slots a reader keeps (one per core that writes to it in a step), each
  // `buffers` deep (2: a writer fills one while the reader empties the other). `rooted`: the
  // root (workload.root) leads its tile; else every tile's last core does.
  MpbCollective(const FirmwareParams& p, const Topology& t, unsigned sources, unsigned buffers,
                bool rooted = true);
  bool owns_message_passing_buffers() const override { return true; }

 protected:
  // Flag words of every buffer.
  static constexpr unsigned kTurn = 0;         // leader -> mate: the mate may start its next run
  static constexpr unsigned kMateArrived = 1;  // mate -> leader: {flag, count}
  static constexpr unsigned kRelease = 3;      // parent leader -> child leader, leader -> mate: {flag, count}
  static constexpr unsigned kChildArrived = 5; // child k's leader -> leader: {flag, count} at 5 + 2k
  static constexpr unsigned kMaxChildren = 4;
  static constexpr unsigned kAck = 16;         // reader -> writer, per writer's channel: 16 + channel
  static constexpr unsigned kFlagWords = 32;

  // Runs run_mpb with this rank's run number (0, 1, ...: workload.repetitions).
  void run_rank(MessageLayer& ml, unsigned me) final;
  virtual void run_mpb(MessageLayer& ml, unsigned me, unsigned run) = 0;

  unsigned tile_of(unsigned r) const { return r / per_tile_; }
  // The core that leads tile t: the root in its tile (`root` >= 0), else the tile's last core.
  unsigned leader(unsigned t, int root = -1) const {
    return root >= 0 && tile_of(static_cast<unsigned>(root)) == t ? static_cast<unsigned>(root)
                                                                   : t * per_tile_ + per_tile_ - 1;
  }
  // The other cores of r's tile.
  std::vector<unsigned> mates_of(unsigned r) const;
  // Parent tile of every tile (-1: the root's) in MeshTree rooted at rank `root`.
  std::vector<int> mesh_tree_tiles(unsigned root) const;
  // The tiles whose parent is t, in tile order (a child's index is its place here).
  static std::vector<unsigned> children(const std::vector<int>& parent, unsigned t);

  // A put of `data` behind the flag `flag` at word `word` of core `to`'s buffer. `copies`: the
  // user buffers of `data` (none: counts and flags, copies of their own size); the flag is the
  // layer's own word (docs/software_model.md#copies).
  void put_flagged(MessageLayer& ml, unsigned to, unsigned word, std::uint32_t flag,
                   const Words& data, const CopyBuffers& copies = {});
  // Polls this core's flag words until `ready` holds for them; returns them.
  template <typename Ready>
  Words wait_flags(MessageLayer& ml, Ready ready) {
    for (Words f = ml.mpb_read(0, kFlagWords);; f = ml.mpb_read(0, kFlagWords)) {
      if (ready(f)) return f;
      ml.mpb_wait();
    }
  }
  // Polls word `word` of this core's buffer until it reaches `flag`; returns the `words` words
  // after it, copied to `copies` (put_flagged's).
  Words wait_word(MessageLayer& ml, unsigned word, std::uint32_t flag, std::size_t words,
                  const CopyBuffers& copies);

  // Data slots: slot (source, buffer) of a reader's buffer, a flag word then slot_words_ words.
  unsigned slot_word(unsigned source, unsigned buffer) const {
    return kFlagWords + (source * buffers_ + buffer) * (slot_words_ + 1);
  }
  // Writes chunk `seq` (1, 2, ...) of a stream into its buffer of slot `source` at `to`, once
  // the reader has acknowledged chunk seq - buffers (on this core's ack word `channel`). With
  // `alone`, waits for this chunk's acknowledgement too: the reader's ack and this core's next
  // put never overlap (a mate and its leader take turns). `copies`: the piece's user buffers.
  void send_chunk(MessageLayer& ml, unsigned to, unsigned source, unsigned channel,
                  std::uint32_t seq, const Words& piece, const CopyBuffers& copies,
                  bool alone = false);
  // Takes chunk `seq` of `words` words from slot `source` into `copies` and acknowledges it to
  // the writer `from`, on its ack word `channel`.
  Words take_chunk(MessageLayer& ml, unsigned source, unsigned from, unsigned channel,
                   std::uint32_t seq, std::size_t words, const CopyBuffers& copies);
  // Chunk c of `data` (slot_words_ words each, the last one shorter).
  Words chunk(const Words& data, std::size_t c) const;
  std::size_t chunks(std::size_t words) const {
    return words == 0 ? 1 : (words + slot_words_ - 1) / slot_words_;
  }

  // Barrier over tile trees of leaders: a count of arrived ranks goes up `arrival` (each tile's
  // parent) and the total down `release`, then to the mates. `flag` is this step's value. The
  // mate reports once it is done with the step (the turn comes back with its report). Returns
  // the count released.
  // `leaders_only`: the mates take no part (the caller runs it on leaders only).
  std::uint32_t flag_barrier(MessageLayer& ml, unsigned me, const std::vector<int>& arrival,
                             const std::vector<int>& release, std::uint32_t flag, int root = -1,
                             bool leaders_only = false);

  // Tree collectives over MeshTree rooted at workload.root, chunk by chunk (seq = run * chunks
  // + chunk + 1 on every stream). Up: the mates' contributions to their leader (in turns), then
  // each leader folds its children's chunks into its own and passes each chunk on to its
  // parent as soon as it has it; `acc` is this rank's contribution and returns its fold (the
  // whole reduction at the root). Down: `data` (the root's) goes chunk by chunk to every
  // child's leader, then from each leader to its mates (in turns). Slots: children's up chunks
  // in sources 0..3, the mates' in 4, down chunks in `down_source`; a leader's ack words: 0 up
  // (also a mate's), 1 + k down to child k, 5 to its mate.
  template <typename Fold>
  void tree_up(MessageLayer& ml, unsigned me, unsigned run, Words& acc, Fold fold);
  void tree_down(MessageLayer& ml, unsigned me, unsigned run, Words& data, unsigned down_source);

  unsigned per_tile_, tiles_;
  unsigned buffers_, slot_words_;
  std::vector<unsigned> runs_;  // per rank: runs done
  int root_;                    // the rank that leads its tile, -1: none (leader())
  std::vector<int> tree_;       // MeshTree rooted at workload.root, per tile
  // Tile t's place among its parent's children in tree_.
  unsigned child_index(unsigned t) const;
};

// The reduce (all: the allreduce) on the buffers (collectives/algorithms/reduce_nocmsg_mpb.cpp).
std::unique_ptr<Firmware> make_mpb_reduction(const FirmwareParams& p, const Topology& t, bool all);

template <typename Fold>
void MpbCollective::tree_up(MessageLayer& ml, unsigned me, unsigned run, Words& acc, Fold fold) {
  const unsigned t = tile_of(me), lead = leader(t, static_cast<int>(p_.root));
  const std::uint32_t n = static_cast<std::uint32_t>(chunks(acc.size())), base = run * n;
  ml.mark_round(1);  // up the tree
  if (me != lead) {
    for (std::uint32_t c = 0; c < n; ++c)
      send_chunk(ml, lead, 4, 0, base + c + 1, chunk(acc, c), copies_, true);
    return;
  }
  const auto fold_chunk = [&](std::uint32_t c, const Words& in) {
    Words part = chunk(acc, c);
    fold(part, in);
    std::copy(part.begin(), part.end(), acc.begin() + static_cast<std::ptrdiff_t>(c * slot_words_));
  };
  for (unsigned mate : mates_of(me))
    for (std::uint32_t c = 0; c < n; ++c)
      fold_chunk(c, take_chunk(ml, 4, mate, 0, base + c + 1, chunk(acc, c).size(), copies_));
  const std::vector<unsigned> kids = children(tree_, t);
  const int up = tree_[t];
  for (std::uint32_t c = 0; c < n; ++c) {
    for (std::size_t k = 0; k < kids.size(); ++k)
      fold_chunk(c, take_chunk(ml, static_cast<unsigned>(k), leader(kids[k], static_cast<int>(p_.root)),
                               0, base + c + 1, chunk(acc, c).size(), copies_));
    if (up >= 0)
      send_chunk(ml, leader(static_cast<unsigned>(up), static_cast<int>(p_.root)), child_index(t),
                 0, base + c + 1, chunk(acc, c), copies_);
  }
}

}  // namespace collnoc
