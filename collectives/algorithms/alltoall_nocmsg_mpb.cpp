#include "collectives/alltoall_rounds.hpp"
#include "collectives/mpb_collective.hpp"

namespace collnoc {

namespace {

// The nocmsg alltoall's pattern rounds (alltoall_pattern_rounds) on the message-passing
// buffers. The two cores of a tile split the work so that data and barrier flags never meet,
// neither on a link nor at a core's port: the tile's first (even) core, its carrier, takes it
// through the rounds' data; the other, its leader (the odd core), keeps its barrier flags.
// First the leader puts everything it sends into the carrier's buffer, chunk by chunk in turns
// (each chunk acknowledged before the next). In a round each carrier swaps with its partner
// carrier, pair-local (swap): one stream of chunks per direction, each chunk holding a part of
// what every core of its tile sends every core of the other, on links no other message of the
// round takes. Then it reports the round done to its leader, which runs the barrier of the
// round (MpbCollective::flag_barrier over barrier_trees()) and releases its carrier last, after
// its children: the odd core is released first and then signals its sibling. A tile's two
// cores inject in turn (the carrier swaps, then the leader barriers). Last, the carrier hands
// its leader what arrived for it, in turns. Data is checked as it arrives.
class MpbAlltoall : public MpbCollective {
 public:
  MpbAlltoall(const FirmwareParams& p, const Topology& t, bool varying)
      : MpbCollective(p, t, 3, 1, false), varying_(varying), rounds_(alltoall_pattern_rounds(p, t)),
        barriers_(barrier_trees()) {
    message_words(p);
  }

  void run_mpb(MessageLayer& ml, unsigned me, unsigned run) override {
    const unsigned t = tile_of(me);
    if (me != carrier(t)) {
      run_keeper(ml, me, run);
      return;
    }
    // out[i][dst]: what core i of this tile sends dst; in[i][src]: what arrived for it.
    const unsigned first = t * per_tile_;
    std::vector<std::vector<Words>> out(per_tile_, std::vector<Words>(n_)), in = out;
    for (unsigned i = 0; i < per_tile_; ++i)
      if (first + i != me) {
        ml.mark_round(0);
        const Words bundle = stream_in(ml, first + i, run, alltoall_sizes_from(p_, n_, first + i, varying_));
        std::size_t at = 0;
        for (unsigned dst = 0; dst < n_; ++dst)
          if (dst != first + i) out[i][dst] = cut(bundle, at, message(first + i, dst).size());
      }
    for (unsigned i = 0; i < per_tile_; ++i) out[me - first][first + i] = message(me, first + i);
    for (unsigned i = 0; i < per_tile_; ++i)  // within the tile
      for (unsigned j = 0; j < per_tile_; ++j)
        if (i != j) in[j][first + i] = out[i][first + j];

    const unsigned rounds = static_cast<unsigned>(rounds_.partner.size());
    std::uint32_t base = run * steps();  // flags of this run's round steps count on from here
    for (unsigned r = 0; r < rounds; ++r) {
      ml.mark_round(r + 1);
      const int partner = rounds_.partner[r][t];
      if (partner >= 0) {
        const unsigned other = static_cast<unsigned>(partner) * per_tile_;
        Words sent;
        std::vector<std::uint64_t> sent_sizes, got_sizes;  // each message a user buffer of its own
        for (unsigned i = 0; i < per_tile_; ++i)
          for (unsigned j = 0; j < per_tile_; ++j) {
            const Words& m = first + i == me ? message(me, other + j) : out[i][other + j];
            sent.insert(sent.end(), m.begin(), m.end());
            sent_sizes.push_back(alltoall_message_words(p_, n_, first + i, other + j, varying_));
            got_sizes.push_back(alltoall_message_words(p_, n_, other + i, first + j, varying_));
          }
        const Words got = swap(ml, static_cast<unsigned>(partner), base, sent, sent_sizes, got_sizes);
        std::size_t at = 0;
        for (unsigned i = 0; i < per_tile_; ++i)
          for (unsigned j = 0; j < per_tile_; ++j)
            in[j][other + i] = cut(got, at, alltoall_message_words(p_, n_, other + i, first + j, varying_));
      }
      base += round_chunks(r);
      round_barrier(ml, me, r, base);
    }
    for (unsigned src = 0; src < n_; ++src)
      if (src != me) check(in[me - first][src], message(src, me), what(src, me));
    ml.mark_round(rounds + 1);
    for (unsigned i = 0; i < per_tile_; ++i)
      if (first + i != me) {
        Words bundle;
        for (const Words& m : in[i]) bundle.insert(bundle.end(), m.begin(), m.end());
        stream_out(ml, first + i, run, bundle, alltoall_sizes_to(p_, n_, first + i, varying_));
      }
  }
  void report_more(Report& out) const override {
    MpbCollective::report_more(out);
    out.set("collective.rounds", static_cast<std::uint64_t>(rounds_.partner.size()));
  }

 private:
  // One round's swap with the partner tile's carrier, pair-local: chunk c goes into the
  // partner's slot c mod 2 behind flag base + c + 1, and the next chunk leaves once the
  // partner's chunk c is in. The partner put that one only after it had read this core's chunk
  // c - 1, so the slot chunk c + 1 overwrites is free, without an acknowledgement. Both put as
  // many chunks as the longer direction needs (empty ones past the end of the shorter).
  // `sent_sizes`, `got_sizes`: the words of the messages each direction holds, end to end (each
  // its own user buffer).
  Words swap(MessageLayer& ml, unsigned partner, std::uint32_t base, const Words& sent,
             const std::vector<std::uint64_t>& sent_sizes, const std::vector<std::uint64_t>& got_sizes) {
    std::size_t incoming = 0;
    for (const std::uint64_t w : got_sizes) incoming += w;
    const std::size_t pieces = chunks(std::max(sent.size(), incoming));
    Words got;
    for (std::size_t c = 0; c < pieces; ++c) {
      const auto flag = static_cast<std::uint32_t>(base + c + 1);
      const auto slot = static_cast<unsigned>(c % 2);
      const Words piece = chunk(sent, c);
      put_flagged(ml, carrier(partner), slot_word(slot, 0), flag, piece,
                  CopyBuffers::messages(sent_sizes, c * slot_words_, piece.size()));
      const std::size_t words = chunk_size(incoming, c);
      const Words part = wait_word(ml, slot_word(slot, 0), flag, words,
                                   CopyBuffers::messages(got_sizes, c * slot_words_, words));
      got.insert(got.end(), part.begin(), part.end());
    }
    return got;
  }

  // The barrier closing round r, behind flag `flag`: the carrier reports, the leader counts.
  void round_barrier(MessageLayer& ml, unsigned me, unsigned r, std::uint32_t flag) {
    const std::uint32_t released = flag_barrier(ml, me, barriers_[r].arrival, barriers_[r].release, flag);
    if (released != n_)
      fail("round " + std::to_string(r + 1) + " released rank " + std::to_string(me) + " after " +
           std::to_string(released) + " of " + std::to_string(n_) + " arrived");
  }

  // The leaders' barrier after each round, on trees of its own (the rounds' trees are the
  // router-network form's). Arrival: up links that no message of the round takes, so a count
  // never meets data on its way. Release: while it travels, released carriers put the next
  // round's chunks (after the last round, the next run's first); an edge p -> c takes a link
  // that no such put of another tile crosses (p's own leaves behind the release, which p's
  // leader sent before it released its carrier). Arrival and release never meet: both are one
  // link long, and a tile's arrival on the link of its release edge follows that release. The
  // root is the tile whose two trees are the shallowest (the grid centre first on ties). A round
  // without both trees for any root (on scc, only 6x1's round that spans the row) keeps the
  // rounds' trees, which may meet data.
  struct BarrierTrees {
    std::vector<int> arrival, release;
  };
  std::vector<BarrierTrees> barrier_trees() const {
    const std::size_t rounds = rounds_.partner.size();
    const unsigned w = comm_.width();
    std::vector<BarrierTrees> out(rounds);
    const auto owners = [&](std::size_t r) {  // per directed link: the tile whose put takes it
      std::vector<int> owner(4 * tiles_, -1);
      for (unsigned a = 0; a < tiles_; ++a)
        if (rounds_.partner[r][a] >= 0)
          for (unsigned l : alltoall_route_links(w, a, static_cast<unsigned>(rounds_.partner[r][a])))
            owner[l] = static_cast<int>(a);
      return owner;
    };
    const unsigned centre = ((comm_.height() - 1) / 2) * w + (comm_.width() - 1) / 2;
    for (std::size_t r = 0; r < rounds; ++r) {
      const std::vector<int> now = owners(r), next = owners((r + 1) % rounds);
      unsigned best_depth = ~0u;
      for (unsigned k = 0; k < tiles_; ++k) {
        const unsigned root = (centre + k) % tiles_;
        unsigned depth = 0;
        const std::vector<int> up = tree(root, false, [&](unsigned l, unsigned) { return now[l] < 0; }, depth);
        if (up.empty()) continue;
        const std::vector<int> down = tree(root, true, [&](unsigned l, unsigned from) {
          return next[l] < 0 || next[l] == static_cast<int>(from);
        }, depth);
        if (down.empty() || depth >= best_depth) continue;
        best_depth = depth;
        out[r] = {up, down};
      }
      if (out[r].arrival.empty()) out[r] = {rounds_.arrival[r], rounds_.release[r]};
    }
    return out;
  }
  // A tree rooted at tile `root` over the mesh links `usable(link, from)` allows, breadth-first:
  // each tile's parent, the link tile -> parent (up) or parent -> tile (`down`); empty if some
  // tile has no path. Adds its depth to `depth`.
  template <typename Usable>
  std::vector<int> tree(unsigned root, bool down, Usable usable, unsigned& depth) const {
    const unsigned w = comm_.width();
    std::vector<int> parent(tiles_, -2);
    std::vector<unsigned> level(tiles_, 0);
    parent[root] = -1;
    std::vector<unsigned> queue{root};
    for (std::size_t i = 0; i < queue.size(); ++i) {
      const unsigned v = queue[i];
      const int x = static_cast<int>(v % w), y = static_cast<int>(v / w);
      const int step[4][2] = {{x + 1, y}, {x - 1, y}, {x, y + 1}, {x, y - 1}};  // +X, -X, +Y, -Y
      for (unsigned d = 0; d < 4; ++d) {
        if (!comm_.inside(step[d][0], step[d][1])) continue;
        const unsigned u = static_cast<unsigned>(step[d][1]) * w + static_cast<unsigned>(step[d][0]);
        const unsigned link = down ? 4 * v + d : 4 * u + (d ^ 1);  // v -> u, u -> v
        if (parent[u] != -2 || !usable(link, down ? v : u)) continue;
        parent[u] = static_cast<int>(v);
        level[u] = level[v] + 1;
        queue.push_back(u);
      }
    }
    if (queue.size() != tiles_) return {};
    depth += level[queue.back()];
    return parent;
  }

  // The core that carries tile t's data through the rounds: its first (even) core; the other
  // keeps the tile's barrier flags.
  unsigned carrier(unsigned t) const { return t * per_tile_; }
  // The tile's other core: everything it sends to the carrier, then the barrier of each round
  // (its arrival once the carrier reports the round done, the release to its children and last
  // to its carrier), then everything sent to it back from the carrier.
  void run_keeper(MessageLayer& ml, unsigned me, unsigned run) {
    const unsigned t = tile_of(me);
    ml.mark_round(0);
    Words bundle;
    for (unsigned dst = 0; dst < n_; ++dst)
      if (dst != me) {
        const Words m = message(me, dst);
        bundle.insert(bundle.end(), m.begin(), m.end());
      }
    stream_out(ml, carrier(t), run, bundle, alltoall_sizes_from(p_, n_, me, varying_));
    std::uint32_t base = run * steps();
    for (unsigned r = 0; r < rounds_.partner.size(); ++r) {
      ml.mark_round(r + 1);
      base += round_chunks(r);
      round_barrier(ml, me, r, base);
    }
    ml.mark_round(static_cast<unsigned>(rounds_.partner.size()) + 1);
    const Words got = stream_in(ml, carrier(t), run, alltoall_sizes_to(p_, n_, me, varying_));
    std::size_t at = 0;
    for (unsigned src = 0; src < n_; ++src)
      if (src != me) check(cut(got, at, alltoall_message_words(p_, n_, src, me, varying_)), message(src, me), what(src, me));
  }
  // Between a carrier and its leader, in slot 2, in turns: each chunk acknowledged before the
  // next (ack channel 0 at the carrier, 1 at the leader). The same stream count each run.
  // `sizes`: the words of the messages the stream holds, end to end (each its own user buffer).
  void stream_out(MessageLayer& ml, unsigned to, unsigned run, const Words& data,
                  const std::vector<std::uint64_t>& sizes) {
    const std::uint32_t n = static_cast<std::uint32_t>(chunks(data.size()));
    const unsigned channel = to == leader(tile_of(to)) ? 0 : 1;
    for (std::uint32_t c = 0; c < n; ++c) {
      const Words piece = chunk(data, c);
      send_chunk(ml, to, 2, channel, run * n + c + 1, piece,
                 CopyBuffers::messages(sizes, c * slot_words_, piece.size()), true);
    }
  }
  Words stream_in(MessageLayer& ml, unsigned from, unsigned run, const std::vector<std::uint64_t>& sizes) {
    std::size_t words = 0;
    for (const std::uint64_t w : sizes) words += w;
    const std::uint32_t n = static_cast<std::uint32_t>(chunks(words));
    const unsigned channel = from == leader(tile_of(from)) ? 1 : 0;
    Words data;
    for (std::uint32_t c = 0; c < n; ++c) {
      const std::size_t part = chunk_size(words, c);
      const Words piece = take_chunk(ml, 2, from, channel, run * n + c + 1, part,
                                     CopyBuffers::messages(sizes, c * slot_words_, part));
      data.insert(data.end(), piece.begin(), piece.end());
    }
    return data;
  }
  Words message(unsigned src, unsigned dst) const {
    return pattern_message(p_.seed, src, dst, 0, alltoall_message_words(p_, n_, src, dst, varying_));
  }
  // Words tile t receives in round r (what every core of its partner sends every core of t).
  std::size_t round_words(unsigned r, unsigned t) const {
    const int partner = rounds_.partner[r][t];
    std::size_t w = 0;
    if (partner < 0) return 0;
    for (unsigned i = 0; i < per_tile_; ++i)
      for (unsigned j = 0; j < per_tile_; ++j)
        w += alltoall_message_words(p_, n_, static_cast<unsigned>(partner) * per_tile_ + i, t * per_tile_ + j, varying_);
    return w;
  }
  // Chunks of round r: of its longest swap, so that every tile takes part in each.
  unsigned round_chunks(unsigned r) const {
    std::size_t most = 0;
    for (unsigned t = 0; t < tiles_; ++t) most = std::max(most, round_words(r, t));
    return static_cast<unsigned>(chunks(most));
  }
  std::uint32_t steps() const {
    std::uint32_t s = 0;
    for (unsigned r = 0; r < rounds_.partner.size(); ++r) s += round_chunks(r);
    return s;
  }
  std::size_t chunk_size(std::size_t words, std::size_t c) const {
    const std::size_t first = std::min(words, c * slot_words_);
    return std::min(words, first + slot_words_) - first;
  }
  // The next `words` words of `data` from `at` (fewer if it is short: check() finds it).
  static Words cut(const Words& data, std::size_t& at, std::size_t words) {
    const std::size_t from = std::min(at, data.size()), to = std::min(at + words, data.size());
    at += words;
    return Words(data.begin() + static_cast<std::ptrdiff_t>(from), data.begin() + static_cast<std::ptrdiff_t>(to));
  }
  static std::string what(unsigned src, unsigned dst) {
    return "message " + std::to_string(src) + " -> " + std::to_string(dst);
  }

  bool varying_;
  AlltoallRounds rounds_;
  std::vector<BarrierTrees> barriers_;  // per round
};

}  // namespace

std::unique_ptr<Firmware> make_alltoall_nocmsg_mpb(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<MpbAlltoall>(p, t, false);
}

// alltoallv nocmsg_mpb: the same class with a size per pair (its own line in algorithms.def).
std::unique_ptr<Firmware> make_alltoallv_nocmsg_mpb(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<MpbAlltoall>(p, t, true);
}

}  // namespace collnoc
