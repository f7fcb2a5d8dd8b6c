#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <tuple>
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
// - modulo (SPEC 6): the pairs go into sub-rounds selected by closed-form rules that keep their
//   links and tiles apart and mix distances (modulo_subrounds): direct, each line's rounds by
//   p mod (d + 1), shifted from line to line; left and right, one row pair's pairs whose X spans
//   share no link. A sub-round that would cut a tile off from the centre is halved; then,
//   within a class, each sub-round whole joins the first round it fits (disjoint links and
//   tiles, path kept); a left / right one that fits no open round goes in pair by pair.
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
        for (const Pairs& sub : fitting_subrounds(modulo_subrounds(cls))) {
          // A left / right sub-round that fits no open round whole goes in pair by pair.
          if (cls < 2 || sub.size() < 2 || first_fit(rounds, first_round, sub) < rounds.partner.size())
            place(rounds, first_round, sub);
          else
            for (const auto& pair : sub) place(rounds, first_round, Pairs{pair});
        }
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
  // The first round from `first_round` on that has the tiles and links of `pairs` (disjoint
  // tiles and links) free and keeps a tree of free links into the centre with them; the round
  // count if none has.
  std::size_t first_fit(const Rounds& rounds, std::size_t first_round, const Pairs& pairs) const {
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
    return r;
  }
  // Puts `pairs` together into their first fitting round (first_fit); a new round if none fits.
  void place(Rounds& rounds, std::size_t first_round, const Pairs& pairs) const {
    const std::size_t r = first_fit(rounds, first_round, pairs);
    if (r == rounds.partner.size()) {
      rounds.partner.emplace_back(tiles_, -1);
      rounds.links.emplace_back(4 * tiles_, false);
    }
    for (const auto& [a, b] : pairs) {
      rounds.partner[r][a] = static_cast<int>(b);
      rounds.partner[r][b] = static_cast<int>(a);
    }
    for (unsigned l : links_of(pairs)) rounds.links[r][l] = true;
  }

  // SPEC 6's sub-rounds of class `cls` (0 direct along X, 1 along Y, 2 left, 3 right); in each,
  // no two pairs share a tile or a directed link. Sub-rounds hold several distances (offsets).
  std::vector<Pairs> modulo_subrounds(int cls) const {
    return cls < 2 ? direct_subrounds(cls == 0) : diagonal_subrounds(cls == 3);
  }
  // Direct, along a line of n tiles: the line rounds of one line first. A pair (p, p + d) takes
  // d links each way and its two tiles, so two pairs of a line may share a round only if their
  // spans [p, p + d] do not meet. Per distance d the starts with one value of p mod (d + 1) are
  // such (their spans are d + 1 apart); with k = min(d + 1, n - d) values that is k line rounds
  // per distance, sum_d k in all (15 at n = 7): as few as any schedule of one line can have,
  // since every pair whose span holds the middle tile meets every other one.
  // Every line runs all of them, line `line` line round c in round (c + step * line) mod R:
  // one round holds different distances on different lines, which leaves some link toward the
  // centre free (the same line round on every line would cut the grid in two for the barrier's
  // tree). R is the line rounds plus `extra` idle ones; step, then extra, the smallest for which
  // every round leaves each tile its path to the centre (else step 1 and no idle round, and
  // rounds that cut the grid are halved).
  std::vector<Pairs> direct_subrounds(bool along_x) const {
    const int n = static_cast<int>(along_x ? comm_.width() : comm_.height());
    const int lines = static_cast<int>(along_x ? comm_.height() : comm_.width());
    std::vector<std::vector<std::pair<int, int>>> line_rounds;  // (p, p + d)
    for (int d = n - 1; d >= 1; --d)
      for (int sub = 0; sub < std::min(d + 1, n - d); ++sub) {
        line_rounds.emplace_back();
        for (int p = 0; p + d < n; ++p)
          if (p % (d + 1) == sub) line_rounds.back().emplace_back(p, p + d);
      }
    const int count = static_cast<int>(line_rounds.size());
    const auto spread = [&](int step, int extra) {
      std::vector<Pairs> rounds(static_cast<std::size_t>(count + extra));
      for (int line = 0; line < lines; ++line)
        for (int c = 0; c < count; ++c)
          for (const auto& [p, q] : line_rounds[static_cast<std::size_t>(c)])
            rounds[static_cast<std::size_t>((c + step * line) % (count + extra))].emplace_back(
                along_x ? tile_at(p, line) : tile_at(line, p), along_x ? tile_at(q, line) : tile_at(line, q));
      return rounds;
    };
    for (int extra = 0; extra <= n; ++extra)
      for (int step = 1; step < count + extra; ++step) {
        std::vector<Pairs> rounds = spread(step, extra);
        if (std::all_of(rounds.begin(), rounds.end(), [&](const Pairs& r) { return keeps_tree(r); }))
          return rounds;
      }
    return spread(1, 0);
  }
  // Left / right: a pair is a rectangle, its X span [a, b] (columns) by its Y span [c, d]
  // (rows); right swaps (a, c) with (b, d), left (b, c) with (a, d). Its messages take the
  // rectangle's sides: along X [a, b] on row c one way and on row d the other, along Y [c, d]
  // in column a one way and in column b the other. Pairs of one row pair (c, d) whose X spans
  // share no link therefore share no link at all (two spans that meet at a column use it in
  // opposite directions) and no tile. The X spans of a line of n tiles fall into s (n - s) such
  // sets, s = floor(n / 2) (colour_of): as many as spans cross the middle link, the fewest
  // possible. A sub-round is the pairs of one row pair (c, c + span) whose X spans have one
  // colour i: row pairs longest first, then by (i + 2 c) mod colours, then by c, so that row
  // pairs next to each other start on different colours (k = 2 is the one shift k c of
  // k = 0 .. 11 with which each grid from 4x4 to 7x7 takes fewer rounds than greedy). On a grid
  // taller than wide the roles of X and Y swap (colours of the longer side).
  std::vector<Pairs> diagonal_subrounds(bool right) const {
    const bool by_rows = comm_.width() >= comm_.height();  // colours along X
    const int n = static_cast<int>(by_rows ? comm_.width() : comm_.height());
    const int m = static_cast<int>(by_rows ? comm_.height() : comm_.width());
    const int colours = (n / 2) * (n - n / 2);
    std::vector<Pairs> out;
    for (int span = m - 1; span >= 1; --span) {
      // (order, lower row or column, pairs) of this span's sub-rounds
      std::vector<std::tuple<int, int, Pairs>> subs;
      for (int c = 0; c + span < m; ++c) {
        std::vector<Pairs> by_colour(static_cast<std::size_t>(colours));
        for (int a = 0; a < n; ++a)
          for (int b = a + 1; b < n; ++b) {
            // The rectangle [a, b] x [c, c + span] in grid coordinates.
            const int x0 = by_rows ? a : c, x1 = by_rows ? b : c + span;
            const int y0 = by_rows ? c : a, y1 = by_rows ? c + span : b;
            by_colour[static_cast<std::size_t>(colour_of(a, b, n))].emplace_back(
                right ? tile_at(x0, y0) : tile_at(x1, y0), right ? tile_at(x1, y1) : tile_at(x0, y1));
          }
        for (int i = 0; i < colours; ++i)
          if (!by_colour[static_cast<std::size_t>(i)].empty())
            subs.emplace_back((i + 2 * c) % colours, c, std::move(by_colour[static_cast<std::size_t>(i)]));
      }
      std::stable_sort(subs.begin(), subs.end(), [](const auto& l, const auto& r) {
        return std::tie(std::get<0>(l), std::get<1>(l)) < std::tie(std::get<0>(r), std::get<1>(r));
      });
      for (auto& sub : subs) out.push_back(std::move(std::get<2>(sub)));
    }
    return out;
  }
  // The colour of span [a, b] of a line of n tiles, s = floor(n / 2): colour (i, j), i < s <= j,
  // holds [i, j] (it crosses the middle link), [j - s, i] when j - s < i and [j, j + i + 1] when
  // j + i + 1 < n; the three meet at tiles but share no link. Numbered i (n - s) + j - s.
  static int colour_of(int a, int b, int n) {
    const int s = n / 2;
    const int i = a < s && b >= s ? a : b < s ? b : b - a - 1;
    const int j = a < s && b >= s ? b : b < s ? s + a : a;
    return i * (n - s) + j - s;
  }
  // Whether a round of `pairs` leaves every tile a path of free links to the centre.
  bool keeps_tree(const Pairs& pairs) const {
    std::vector<bool> used(4 * tiles_, false);
    for (unsigned l : links_of(pairs)) used[l] = true;
    return !tree_over_free_links(used).empty();
  }
  // Sub-rounds halved (even and odd pairs) until none cuts a tile off from the centre.
  std::vector<Pairs> fitting_subrounds(std::vector<Pairs> subs) const {
    std::vector<Pairs> out;
    while (!subs.empty()) {
      Pairs pairs = std::move(subs.front());
      subs.erase(subs.begin());
      if (pairs.size() < 2 || keeps_tree(pairs)) {
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
    return alltoall_route_links(comm_.width(), a, b);
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

std::vector<unsigned> alltoall_route_links(unsigned width, unsigned a, unsigned b) {
  std::vector<unsigned> out;
  unsigned x = a % width, y = a / width;
  const unsigned to_x = b % width, to_y = b / width;
  for (; x != to_x; x = x < to_x ? x + 1 : x - 1) out.push_back(4 * (y * width + x) + (x < to_x ? 0 : 1));
  for (; y != to_y; y = y < to_y ? y + 1 : y - 1) out.push_back(4 * (y * width + x) + (y < to_y ? 2 : 3));
  return out;
}

// The rounds and their barrier trees for the alltoall on the message-passing buffers.
AlltoallRounds alltoall_pattern_rounds(const FirmwareParams& p, const Topology& t) {
  PatternAlltoall::Schedule s = PatternAlltoall(p, t, false).build();
  return {std::move(s.rounds), std::move(s.arrival), std::move(s.release)};
}

}  // namespace collnoc
