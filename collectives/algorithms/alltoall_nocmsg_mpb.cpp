#include "collectives/alltoall_rounds.hpp"
#include "collectives/mpb_collective.hpp"

namespace collnoc {

namespace {

// The nocmsg alltoall's pattern rounds (alltoall_pattern_rounds) on the message-passing
// buffers. The tile's leader (its odd core) carries the tile through the rounds: first its
// mate puts everything it sends into the leader's buffer, chunk by chunk in turns (each chunk
// acknowledged before the next). In a round each leader puts into its partner leader's buffer,
// behind the round's flag, one message holding what every core of its tile sends every core of
// the other (a chunk of it per round when longer than a slot), and polls its own buffer for
// the partner's; one message per direction on links no other message of the round takes. A
// barrier of the leaders on flags closes each round, over that round's trees (arrival up links
// no data of the round takes, release down; MpbCollective::flag_barrier), so a slot is refilled
// only once read. Last, the leader hands its mate what arrived for it, in turns. Only one core
// of a tile injects at any time. Data is checked as it arrives.
class MpbAlltoall : public MpbCollective {
 public:
  MpbAlltoall(const FirmwareParams& p, const Topology& t, bool varying)
      : MpbCollective(p, t, 2, 1, false), varying_(varying), rounds_(alltoall_pattern_rounds(p, t)) {
    message_words(p);
  }

  void run_mpb(MessageLayer& ml, unsigned me, unsigned run) override {
    const unsigned t = tile_of(me), lead = leader(t);
    if (me != lead) {
      run_mate(ml, me, lead, run);
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
    std::uint32_t flag = run * steps();
    for (unsigned r = 0; r < rounds; ++r) {
      ml.mark_round(r + 1);
      const int partner = rounds_.partner[r][t];
      Words sent, got;
      std::vector<std::uint64_t> sent_sizes, got_sizes;  // each message a user buffer of its own
      if (partner >= 0) {
        const unsigned other = static_cast<unsigned>(partner) * per_tile_;
        for (unsigned i = 0; i < per_tile_; ++i)
          for (unsigned j = 0; j < per_tile_; ++j) {
            const Words& m = first + i == me ? message(me, other + j) : out[i][other + j];
            sent.insert(sent.end(), m.begin(), m.end());
            sent_sizes.push_back(alltoall_message_words(p_, n_, first + i, other + j, varying_));
            got_sizes.push_back(alltoall_message_words(p_, n_, other + i, first + j, varying_));
          }
      }
      const unsigned pieces = round_chunks(r);
      for (unsigned c = 0; c < pieces; ++c) {
        ++flag;
        if (partner >= 0) {
          const Words piece = chunk(sent, c);
          put_flagged(ml, leader(static_cast<unsigned>(partner)), slot_word(0, 0), flag, piece,
                      CopyBuffers::messages(sent_sizes, c * slot_words_, piece.size()));
          const std::size_t words = chunk_size(round_words(r, t), c);
          const Words part = wait_word(ml, slot_word(0, 0), flag, words,
                                       CopyBuffers::messages(got_sizes, c * slot_words_, words));
          got.insert(got.end(), part.begin(), part.end());
        }
        // The release before the round's next chunk takes the tree chosen to precede this
        // round (round 1: the arrival tree backwards); before the next round, its own.
        // The release before the round's next chunk takes the tree chosen to precede this
        // round (round 1: the arrival tree backwards); before the next round, its own.
        const std::vector<int>& release = c + 1 == pieces ? rounds_.release[r]
                                          : r > 0          ? rounds_.release[r - 1]
                                                           : rounds_.arrival[r];
        const std::uint32_t released = flag_barrier(ml, me, rounds_.arrival[r], release, flag, -1, true);
        if (released != n_)
          fail("round " + std::to_string(r + 1) + " released rank " + std::to_string(me) + " after " +
               std::to_string(released) + " of " + std::to_string(n_) + " arrived");
      }
      if (partner < 0) continue;
      const unsigned other = static_cast<unsigned>(partner) * per_tile_;
      std::size_t at = 0;
      for (unsigned i = 0; i < per_tile_; ++i)
        for (unsigned j = 0; j < per_tile_; ++j)
          in[j][other + i] = cut(got, at, alltoall_message_words(p_, n_, other + i, first + j, varying_));
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
  // A mate: everything it sends to its leader, everything sent to it back from the leader.
  void run_mate(MessageLayer& ml, unsigned me, unsigned lead, unsigned run) {
    ml.mark_round(0);
    Words bundle;
    for (unsigned dst = 0; dst < n_; ++dst)
      if (dst != me) {
        const Words m = message(me, dst);
        bundle.insert(bundle.end(), m.begin(), m.end());
      }
    stream_out(ml, lead, run, bundle, alltoall_sizes_from(p_, n_, me, varying_));
    const Words got = stream_in(ml, lead, run, alltoall_sizes_to(p_, n_, me, varying_));
    std::size_t at = 0;
    for (unsigned src = 0; src < n_; ++src)
      if (src != me) check(cut(got, at, alltoall_message_words(p_, n_, src, me, varying_)), message(src, me), what(src, me));
  }
  // Between a leader and its mate, in slot 1, in turns: each chunk acknowledged before the next
  // (ack channel 0 at the mate, 1 at the leader). The same stream count each run. `sizes`: the
  // words of the messages the stream holds, end to end (each its own user buffer).
  void stream_out(MessageLayer& ml, unsigned to, unsigned run, const Words& data,
                  const std::vector<std::uint64_t>& sizes) {
    const std::uint32_t n = static_cast<std::uint32_t>(chunks(data.size()));
    const unsigned channel = to == leader(tile_of(to)) ? 0 : 1;
    for (std::uint32_t c = 0; c < n; ++c) {
      const Words piece = chunk(data, c);
      send_chunk(ml, to, 1, channel, run * n + c + 1, piece,
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
      const Words piece = take_chunk(ml, 1, from, channel, run * n + c + 1, part,
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
