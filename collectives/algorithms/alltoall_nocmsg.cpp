#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>

#include "collectives/alltoall_rounds.hpp"
#include "collectives/mesh_collective.hpp"

namespace collnoc {

namespace {

// Pattern-based rounds: in a round disjoint pairs of tiles swap messages, and no two messages
// of a round share a link (X-then-Y routes) or a tile. Pairs come in four classes, each filling
// its own rounds, in this order: direct along X, direct along Y, left (the partner is up-left /
// down-right: (x - dx, y + dy) and (x + dx, y - dy)) and right ((x + dx, y + dy), (x - dx, y - dy)).
// Every round still leaves every tile a path to the grid centre over links the round does not
// use. Two ways to fill the rounds (workload.schedule):
// - greedy (the default): within a class, pairs longest first into the first round that has
//   their links and tiles free and keeps that path.
// - modulo (SPEC 6): per distance (direct) or offset (left, right), the pairs go into sub-rounds
//   selected by a modulo rule that keeps their links and tiles apart (modulo_subrounds); a
//   sub-round that would cut a tile off from the centre is halved; then, within a class, each
//   sub-round whole joins the first round it fits (disjoint links and tiles, path kept).
// Whatever built them, the rounds are checked: every pair of tiles swaps once, and no link
// carries two messages of a round (check_rounds).
// A barrier closes each round: arrival counts go up that round's tree of unused links (so
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
  using Pairs = std::vector<std::pair<unsigned, unsigned>>;  // (tile, partner)
  // Rounds being filled: each tile's partner, and the directed links taken, per round.
  struct Rounds {
    std::vector<std::vector<int>> partner;
    std::vector<std::vector<bool>> links;
  };

  Schedule build() const {
    Rounds rounds;
    const int w = static_cast<int>(comm_.width()), h = static_cast<int>(comm_.height());
    if (p_.schedule == "modulo") {
      for (int cls = 0; cls < 4; ++cls) {
        const std::size_t first_round = rounds.partner.size();
        for (const Pairs& sub : fitting_subrounds(modulo_subrounds(cls))) place(rounds, first_round, sub);
      }
    } else {
      Pairs pairs[4];  // per class: (left end, partner)
      for (unsigned a = 0; a < tiles_; ++a)
        for (int dx = 0; dx < w; ++dx)
          for (int dy = -(h - 1); dy < h; ++dy) {
            if (dx == 0 && dy <= 0) continue;
            const int bx = tx(a) + dx, by = ty(a) + dy;
            if (!comm_.inside(bx, by)) continue;
            const int cls = dy == 0 ? 0 : dx == 0 ? 1 : dy < 0 ? 2 : 3;
            pairs[cls].emplace_back(a, tile_at(bx, by));
          }
      for (auto& cls : pairs) {
        std::stable_sort(cls.begin(), cls.end(), [&](const auto& l, const auto& r) {
          return hops(l.first, l.second) > hops(r.first, r.second);
        });
        const std::size_t first_round = rounds.partner.size();
        for (const auto& pair : cls) place(rounds, first_round, Pairs{pair});
      }
    }
    check_rounds(rounds.partner);
    Schedule s;
    s.rounds = rounds.partner;
    const std::vector<bool> no_links(4 * tiles_, false);
    for (std::size_t r = 0; r < s.rounds.size(); ++r) {
      // A round that had to open with a pair whose links cut some tile off (two tiles, one
      // link) reports over any links.
      s.arrival.push_back(tree_over_free_links(rounds.links[r]));
      if (s.arrival.back().empty()) s.arrival.back() = tree_over_free_links(no_links);
      std::vector<int> release;
      if (r + 1 < s.rounds.size()) release = release_tree(rounds.links[r + 1]);
      if (release.empty()) release = tree_over_free_links(no_links, true);
      s.release.push_back(std::move(release));
    }
    return s;
  }

  // The links both messages of every pair in `pairs` take.
  std::vector<unsigned> links_of(const Pairs& pairs) const {
    std::vector<unsigned> links;
    for (const auto& [a, b] : pairs)
      for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
        const std::vector<unsigned> route = route_links(from, to);
        links.insert(links.end(), route.begin(), route.end());
      }
    return links;
  }
  // Puts `pairs` (disjoint tiles and links) together into the first round from `first_round` on
  // that has their tiles and links free and keeps a tree of free links into the centre; a new
  // round if none has.
  void place(Rounds& rounds, std::size_t first_round, const Pairs& pairs) const {
    const std::vector<unsigned> links = links_of(pairs);
    std::size_t r = first_round;
    for (; r < rounds.partner.size(); ++r) {
      bool free = true;
      for (const auto& [a, b] : pairs) free = free && rounds.partner[r][a] < 0 && rounds.partner[r][b] < 0;
      if (!free) continue;
      std::vector<bool> used = rounds.links[r];
      for (unsigned l : links) free = free && !used[l], used[l] = true;
      if (free && !tree_over_free_links(used).empty()) break;
    }
    if (r == rounds.partner.size()) {
      rounds.partner.emplace_back(tiles_, -1);
      rounds.links.emplace_back(4 * tiles_, false);
    }
    for (const auto& [a, b] : pairs) {
      rounds.partner[r][a] = static_cast<int>(b);
      rounds.partner[r][b] = static_cast<int>(a);
    }
    for (unsigned l : links) rounds.links[r][l] = true;
  }

  // SPEC 6's sub-rounds of class `cls` (0 direct along X, 1 along Y, 2 left, 3 right), longest
  // distance first; in each, no two pairs share a tile or a directed link.
  // Direct, distance d on a line of n tiles: pairs (p, p + d). Two on one line share links
  // unless their starts differ by d or more, and a tile unless by exactly d: so a sub-round takes
  // starts p with the same p mod (d + 1). With k = min(d + 1, n - d) sub-rounds
  // ((p mod (d + 1)) + line) mod k selects it: the lines' patterns are shifted against each
  // other, so that no link between two columns (rows) is taken on every line, which would cut
  // the grid in two for the barrier's tree; when k = n - d every start is below k and alone.
  // Left / right, offset (dx, dy): the pair of start (x, y) spans [x, x + dx] x [y, y + dy], its
  // two messages go once round that rectangle's boundary (right: (x, y) <-> (x + dx, y + dy),
  // counter-clockwise; left: (x + dx, y) <-> (x, y + dy), clockwise). Two such pairs share a
  // link only if their starts are on one row less than dx apart, or in one column less than dy
  // apart, and a tile only if the starts differ by (dx, dy) (right) or (-dx, dy) (left). The
  // sub-round is (x + c y) mod m, for the smallest m and then c for which those differences are
  // never 0 mod m (modulo_rule).
  std::vector<Pairs> modulo_subrounds(int cls) const {
    const int w = static_cast<int>(comm_.width()), h = static_cast<int>(comm_.height());
    std::vector<Pairs> out;
    if (cls < 2) {
      const bool along_x = cls == 0;
      const int n = along_x ? w : h, lines = along_x ? h : w;
      for (int d = n - 1; d >= 1; --d) {
        const int k = std::min(d + 1, n - d);
        for (int sub = 0; sub < k; ++sub) {
          Pairs pairs;
          for (int line = 0; line < lines; ++line)
            for (int p = 0; p + d < n; ++p)
              if ((p % (d + 1) + line) % k == sub)
                pairs.emplace_back(along_x ? tile_at(p, line) : tile_at(line, p),
                                   along_x ? tile_at(p + d, line) : tile_at(line, p + d));
          out.push_back(std::move(pairs));
        }
      }
      return out;
    }
    const bool right = cls == 3;
    std::vector<std::pair<int, int>> offsets;
    for (int dx = 1; dx < w; ++dx)
      for (int dy = 1; dy < h; ++dy) offsets.emplace_back(dx, dy);
    std::stable_sort(offsets.begin(), offsets.end(), [](const auto& l, const auto& r) {
      return l.first + l.second > r.first + r.second;
    });
    for (const auto& [dx, dy] : offsets) {
      const auto [m, c] = modulo_rule(dx, dy, right);
      std::vector<Pairs> subs(static_cast<std::size_t>(m));
      for (int y = 0; y + dy < h; ++y)
        for (int x = 0; x + dx < w; ++x)
          subs[static_cast<std::size_t>((x + c * y) % m)].emplace_back(
              right ? tile_at(x, y) : tile_at(x + dx, y), right ? tile_at(x + dx, y + dy) : tile_at(x, y + dy));
      for (Pairs& pairs : subs)
        if (!pairs.empty()) out.push_back(std::move(pairs));
    }
    return out;
  }
  // (m, c) of a left / right offset's sub-rounds (modulo_subrounds): starts on one row differ
  // by 1 .. min(dx, w - dx) - 1 where they would share a link, in one column by 1 .. min(dy,
  // h - dy) - 1 (times c), and by dx +- c dy where they would share a tile, when that fits.
  std::pair<int, int> modulo_rule(int dx, int dy, bool right) const {
    const int w = static_cast<int>(comm_.width()), h = static_cast<int>(comm_.height());
    for (int m = 1;; ++m)
      for (int c = 0; c < m; ++c) {
        bool ok = true;
        for (int k = 1; ok && k < std::min(dx, w - dx); ++k) ok = k % m != 0;
        for (int k = 1; ok && k < std::min(dy, h - dy); ++k) ok = c * k % m != 0;
        if (ok && dx < w - dx && dy < h - dy) ok = ((dx + (right ? c : -c) * dy) % m + m) % m != 0;
        if (ok) return {m, c};
      }
  }
  // Sub-rounds halved (even and odd pairs) until none cuts a tile off from the centre.
  std::vector<Pairs> fitting_subrounds(std::vector<Pairs> subs) const {
    std::vector<Pairs> out;
    while (!subs.empty()) {
      Pairs pairs = std::move(subs.front());
      subs.erase(subs.begin());
      std::vector<bool> used(4 * tiles_, false);
      for (unsigned l : links_of(pairs)) used[l] = true;
      if (pairs.size() < 2 || !tree_over_free_links(used).empty()) {
        out.push_back(std::move(pairs));
        continue;
      }
      Pairs halves[2];
      for (std::size_t i = 0; i < pairs.size(); ++i) halves[i % 2].push_back(pairs[i]);
      subs.insert(subs.begin(), {std::move(halves[0]), std::move(halves[1])});
    }
    return out;
  }
  // Every pair of tiles swaps in exactly one round, and no directed link carries two messages
  // of one round: the schedule's promise, checked whatever built it.
  void check_rounds(const std::vector<std::vector<int>>& rounds) const {
    std::vector<unsigned> swaps(std::size_t{tiles_} * tiles_, 0);
    for (std::size_t r = 0; r < rounds.size(); ++r) {
      std::vector<bool> used(4 * tiles_, false);
      for (unsigned a = 0; a < tiles_; ++a) {
        const int b = rounds[r][a];
        if (b < 0) continue;
        if (rounds[r][static_cast<unsigned>(b)] != static_cast<int>(a))
          throw std::logic_error("alltoall round " + std::to_string(r) + ": tile " + std::to_string(a) +
                                 " is not its partner's partner");
        ++swaps[a * tiles_ + static_cast<unsigned>(b)];
        for (unsigned l : route_links(a, static_cast<unsigned>(b))) {
          if (used[l])
            throw std::logic_error("alltoall round " + std::to_string(r) + ": link " + std::to_string(l) +
                                   " carries two messages");
          used[l] = true;
        }
      }
    }
    for (unsigned a = 0; a < tiles_; ++a)
      for (unsigned b = 0; b < tiles_; ++b)
        if (a != b && swaps[a * tiles_ + b] != 1)
          throw std::logic_error("alltoall rounds: tiles " + std::to_string(a) + " and " + std::to_string(b) +
                                 " swap " + std::to_string(swaps[a * tiles_ + b]) + " times");
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
    for (unsigned i = 1; i < per_tile_; ++i)
      out[i] = split(recv(ml, lead + i, bundle_copies(alltoall_sizes_from(p_, n_, lead + i, varying_))), lead + i, true);
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
        std::vector<std::uint64_t> sent_sizes, got_sizes;
        for (unsigned i = 0; i < per_tile_; ++i)
          for (unsigned j = 0; j < per_tile_; ++j) {
            const Words piece = i == 0 ? message(me, peer + j) : std::move(out[i][peer + j]);
            sent.insert(sent.end(), piece.begin(), piece.end());
            sent_sizes.push_back(alltoall_message_words(p_, n_, lead + i, peer + j, varying_));
            got_sizes.push_back(alltoall_message_words(p_, n_, peer + i, lead + j, varying_));
          }
        send(ml, peer, sent, bundle_copies(sent_sizes));
        const Words got = recv(ml, peer, bundle_copies(got_sizes));
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
        if (parent[u] == static_cast<int>(tile)) count[0] += recv_control(ml, u * per_tile_).at(0);
      if (parent[tile] >= 0) send_control(ml, static_cast<unsigned>(parent[tile]) * per_tile_, count);
      if (sn) {
        sn_broadcast(ml, me, centre_ * per_tile_, count, {});
      } else {
        const std::vector<int>& down = plan_.release[r];
        if (down[tile] >= 0) count = recv_control(ml, static_cast<unsigned>(down[tile]) * per_tile_);
        for (unsigned u = 0; u < tiles_; ++u)
          if (down[u] == static_cast<int>(tile)) send_control(ml, u * per_tile_, count);
      }
      check(count, Words{tiles_}, "barrier release at rank " + std::to_string(me));
    }
    for (unsigned i = 1; i < per_tile_; ++i) {
      Words bundle;
      for (const Words& piece : in[i]) bundle.insert(bundle.end(), piece.begin(), piece.end());
      send(ml, lead + i, bundle, bundle_copies(alltoall_sizes_to(p_, n_, lead + i, varying_)));
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
    send(ml, lead, bundle, bundle_copies(alltoall_sizes_from(p_, n_, me, varying_)));
    const std::vector<Words> got = split(recv(ml, lead, bundle_copies(alltoall_sizes_to(p_, n_, me, varying_))), me, false);
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

}  // namespace

std::unique_ptr<Firmware> make_alltoall_nocmsg(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<PatternAlltoall>(p, t, false);
}

// alltoallv nocmsg: the same class with a size per pair (its own line in algorithms.def).
std::unique_ptr<Firmware> make_alltoallv_nocmsg(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<PatternAlltoall>(p, t, true);
}

// The rounds and their barrier trees for the alltoall on the message-passing buffers.
AlltoallRounds alltoall_pattern_rounds(const FirmwareParams& p, const Topology& t) {
  PatternAlltoall::Schedule s = PatternAlltoall(p, t, false).build();
  return {std::move(s.rounds), std::move(s.arrival), std::move(s.release)};
}

}  // namespace collnoc
