#include "collectives/mpb_collective.hpp"

namespace collnoc {

MpbCollective::MpbCollective(const FirmwareParams& p, const Topology& t, unsigned sources,
                             unsigned buffers, bool rooted)
    : MeshCollective(p, t), per_tile_(comm_.cores_per_tile()), tiles_(n_ / per_tile_),
      buffers_(buffers), runs_(n_, 0), root_(rooted ? static_cast<int>(p.root) : -1) {
  const unsigned words = p.protocol.mpb_bytes / 4;
  const unsigned per_slot = words > kFlagWords ? (words - kFlagWords) / (sources * buffers) : 0;
  slot_words_ = per_slot > 1 ? (per_slot - 1) & ~1u : 0;  // even: a double never straddles two
  if (slot_words_ < 2 || per_tile_ > 2)
    throw ParamError("workload.algorithm", p.algorithm,
                     "runs on message-passing buffers of at least " +
                         std::to_string(4 * (kFlagWords + 3 * sources * buffers)) +
                         " bytes, one or two cores per tile (platform scc)");
  tree_ = mesh_tree_tiles(p.root);
}

void MpbCollective::run_rank(MessageLayer& ml, unsigned me) {
  // Runs back to back: a mate starts its next run once its leader has finished this one (its
  // last put hands the turn), so that the two never inject at once across runs either.
  const unsigned run = runs_[me]++;
  const bool leads = me == leader(tile_of(me), root_);
  if (!leads && run > 0) wait_flags(ml, [&](const Words& f) { return f[kTurn] >= run; });
  run_mpb(ml, me, run);
  if (leads && run + 1 < p_.repetitions)
    for (unsigned mate : mates_of(me)) put_flagged(ml, mate, kTurn, run + 1, {});
}

std::vector<unsigned> MpbCollective::mates_of(unsigned r) const {
  std::vector<unsigned> out;
  for (unsigned m = tile_of(r) * per_tile_; m < (tile_of(r) + 1) * per_tile_; ++m)
    if (m != r) out.push_back(m);
  return out;
}

std::vector<int> MpbCollective::mesh_tree_tiles(unsigned root) const {
  const MeshTree tree(comm_, root);
  std::vector<int> parent(tiles_);
  for (unsigned t = 0; t < tiles_; ++t) {
    const int up = tree.parent(t * per_tile_);
    parent[t] = up < 0 ? -1 : static_cast<int>(tile_of(static_cast<unsigned>(up)));
  }
  return parent;
}

std::vector<unsigned> MpbCollective::children(const std::vector<int>& parent, unsigned t) {
  std::vector<unsigned> out;
  for (unsigned u = 0; u < parent.size(); ++u)
    if (parent[u] == static_cast<int>(t)) out.push_back(u);
  return out;
}

unsigned MpbCollective::child_index(unsigned t) const {
  const std::vector<unsigned> siblings = children(tree_, static_cast<unsigned>(tree_[t]));
  return static_cast<unsigned>(std::find(siblings.begin(), siblings.end(), t) - siblings.begin());
}

namespace {

// `copies` behind one flag word (put_flagged, wait_word).
CopyBuffers behind_flag(const CopyBuffers& copies) {
  CopyBuffers b = copies;
  b.own_words = 1;
  return b;
}

}  // namespace

void MpbCollective::put_flagged(MessageLayer& ml, unsigned to, unsigned word, std::uint32_t flag,
                                const Words& data, const CopyBuffers& copies) {
  Words m{flag};
  m.insert(m.end(), data.begin(), data.end());
  bytes_moved_ += 4ull * data.size();
  const CopyBuffersScope scope(ml, behind_flag(copies));
  ml.put(comm_.core(to), 4 * word, m);
}

Words MpbCollective::wait_word(MessageLayer& ml, unsigned word, std::uint32_t flag, std::size_t words,
                               const CopyBuffers& copies) {
  const CopyBuffersScope scope(ml, behind_flag(copies));
  for (Words w = ml.mpb_read(4 * word, words + 1);; w = ml.mpb_read(4 * word, words + 1)) {
    if (w[0] >= flag) return Words(w.begin() + 1, w.end());
    ml.mpb_wait();
  }
}

Words MpbCollective::chunk(const Words& data, std::size_t c) const {
  const std::size_t first = std::min(data.size(), c * slot_words_);
  const std::size_t last = std::min(data.size(), first + slot_words_);
  return Words(data.begin() + static_cast<std::ptrdiff_t>(first),
               data.begin() + static_cast<std::ptrdiff_t>(last));
}

void MpbCollective::send_chunk(MessageLayer& ml, unsigned to, unsigned source, unsigned channel,
                               std::uint32_t seq, const Words& piece, const CopyBuffers& copies,
                               bool alone) {
  if (seq > buffers_)  // its buffer held chunk seq - buffers: the reader must be done with it
    wait_flags(ml, [&](const Words& f) { return f[kAck + channel] >= seq - buffers_; });
  put_flagged(ml, to, slot_word(source, seq % buffers_), seq, piece, copies);
  if (alone) wait_flags(ml, [&](const Words& f) { return f[kAck + channel] >= seq; });
}

Words MpbCollective::take_chunk(MessageLayer& ml, unsigned source, unsigned from, unsigned channel,
                                std::uint32_t seq, std::size_t words, const CopyBuffers& copies) {
  Words piece = wait_word(ml, slot_word(source, seq % buffers_), seq, words, copies);
  put_flagged(ml, from, kAck + channel, seq, {});
  return piece;
}

void MpbCollective::tree_down(MessageLayer& ml, unsigned me, unsigned run, Words& data,
                              unsigned down_source) {
  const unsigned t = tile_of(me), lead = leader(t, static_cast<int>(p_.root));
  const std::uint32_t n = static_cast<std::uint32_t>(chunks(data.size())), base = run * n;
  ml.mark_round(2);  // down the tree
  if (me != lead) {
    for (std::uint32_t c = 0; c < n; ++c) {
      const Words piece =
          take_chunk(ml, down_source, lead, 5, base + c + 1, chunk(data, c).size(), copies_);
      std::copy(piece.begin(), piece.end(), data.begin() + static_cast<std::ptrdiff_t>(c * slot_words_));
    }
    return;
  }
  const std::vector<unsigned> kids = children(tree_, t);
  const int up = tree_[t];
  for (std::uint32_t c = 0; c < n; ++c) {
    Words piece = chunk(data, c);
    if (up >= 0) {
      piece = take_chunk(ml, down_source, leader(static_cast<unsigned>(up), static_cast<int>(p_.root)),
                         1 + child_index(t), base + c + 1, piece.size(), copies_);
      std::copy(piece.begin(), piece.end(), data.begin() + static_cast<std::ptrdiff_t>(c * slot_words_));
    }
    for (std::size_t k = 0; k < kids.size(); ++k)
      send_chunk(ml, leader(kids[k], static_cast<int>(p_.root)), down_source,
                 1 + static_cast<unsigned>(k), base + c + 1, piece, copies_);
  }
  // The mates last, in turns: the leader has nothing more to inject.
  for (unsigned mate : mates_of(me))
    for (std::uint32_t c = 0; c < n; ++c)
      send_chunk(ml, mate, down_source, 5, base + c + 1, chunk(data, c), copies_, true);
}

std::uint32_t MpbCollective::flag_barrier(MessageLayer& ml, unsigned me, const std::vector<int>& arrival,
                                          const std::vector<int>& release, std::uint32_t flag, int root,
                                          bool leaders_only) {
  const unsigned t = tile_of(me), lead = leader(t, root);
  if (me != lead) {
    put_flagged(ml, lead, kMateArrived, flag, Words{1});
    return wait_flags(ml, [&](const Words& f) { return f[kRelease] >= flag; })[kRelease + 1];
  }
  const std::vector<unsigned> kids = children(arrival, t);
  const bool mate = per_tile_ > 1 && !leaders_only;
  const Words f = wait_flags(ml, [&](const Words& w) {
    if (mate && w[kMateArrived] < flag) return false;
    for (std::size_t k = 0; k < kids.size(); ++k)
      if (w[kChildArrived + 2 * k] < flag) return false;
    return true;
  });
  // (Leaders alone stand for their tiles' cores.)
  std::uint32_t count = leaders_only ? per_tile_ : 1 + (mate ? f[kMateArrived + 1] : 0);
  for (std::size_t k = 0; k < kids.size(); ++k) count += f[kChildArrived + 2 * k + 1];
  std::uint32_t total = count;
  if (arrival[t] >= 0) {
    const unsigned up = static_cast<unsigned>(arrival[t]);
    const std::vector<unsigned> siblings = children(arrival, up);
    const auto k = static_cast<unsigned>(std::find(siblings.begin(), siblings.end(), t) - siblings.begin());
    put_flagged(ml, leader(up, root), kChildArrived + 2 * k, flag, Words{count});
  }
  if (release[t] >= 0)
    total = wait_flags(ml, [&](const Words& w) { return w[kRelease] >= flag; })[kRelease + 1];
  for (unsigned u : children(release, t)) put_flagged(ml, leader(u, root), kRelease, flag, Words{total});
  if (mate)
    for (unsigned m : mates_of(me)) put_flagged(ml, m, kRelease, flag, Words{total});
  return total;
}

}  // namespace collnoc
