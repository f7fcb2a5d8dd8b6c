// All-to-all broadcast firmware (SPEC 3.2): every core runs the same event loop. It starts the
// sends that need nothing but its own datum, then takes whatever message arrives, forwards it as
// its role in the multicast says, codes once it holds its group's data, decodes as soon as it has
// one plain datum and the coded chain of a group, and stops when it holds every source's datum
// and has had every message the plan sends it. Receiving from anyone, in arrival order, means no
// core ever waits for one message while another it should forward sits in its NI.
#include "collectives/all_to_all_broadcast.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>

#include "collectives/all_to_all_plan.hpp"
#include "collectives/collective.hpp"

namespace collnoc {

namespace {

FirmwareParams named(FirmwareParams p) {
  p.collective = "all_to_all_broadcast";
  p.algorithm = p.all_to_all.scheme;
  return p;
}

constexpr std::uint32_t kItemBits = 16;
constexpr std::uint8_t kDecoded = 30;  // a decoding result from this core's own XOR engine
constexpr std::uint8_t kSegment = 31;  // a chain segment's XOR from it (tag: segment_ops_ key)

class AllToAllBroadcast : public CollectiveFirmware {
 public:
  AllToAllBroadcast(const FirmwareParams& p, const Topology& t)
      : CollectiveFirmware(named(p), t.num_endpoints()), plan_(t, p.all_to_all),
        words_(p.all_to_all.packet_flits * p.all_to_all.words_per_flit),
        piece_words_(p.all_to_all.max_packet_flits * p.all_to_all.words_per_flit),
        vc_classes_(std::max(1u, p.all_to_all.vc_classes)), expected_(t.num_endpoints(), 0),
        tree_decoding_(p.all_to_all.decoding == "tree") {
    if (p.all_to_all.packet_flits > p.all_to_all.max_packet_flits)
      throw ParamError("traffic.packet_flits", std::to_string(p.all_to_all.packet_flits),
                       "all_to_all_broadcast sends each datum as one packet: must be <= "
                       "ni.max_packet_flits (" + std::to_string(p.all_to_all.max_packet_flits) + ")");
    if (plan_.group_size() > (1u << kItemBits) || plan_.nodes() / plan_.group_size() >= (1u << kItemBits))
      throw ParamError("workload.group", p.all_to_all.group, "at most 65536 nodes per group and groups");
    datums_.resize(plan_.nodes());
    if (plan_.hierarchical()) {
      const AllToAllPlan::Level& outer = plan_.outer();
      for (NodeId n = 0; n < plan_.nodes(); ++n)
        outer_tile_.push_back(outer.region.tile_of(outer.tile, n));
      const unsigned groups = outer.region.tiles(outer.tile);
      for (unsigned g = 0; g < groups; ++g) chain_order_[0].add(plan_, outer, g);
      if (plan_.variant() == A2aVariant::recursive)
        for (unsigned g = 0; g < groups; ++g) {
          const AllToAllPlan::Level inner = plan_.inner(outer.region.tile(outer.tile, g).node(0));
          for (unsigned t = 0; t < inner.region.tiles(inner.tile); ++t)
            chain_order_[1].add(plan_, inner, t);
        }
    }
    for (NodeId s : plan_.sources()) datums_[s] = pattern_message(p_.seed, s, 0, 0, words_);
    plan_.for_each_unicast([this](const Unicast& u) {
      expected_[u.dst] += pieces(u.packets);  // messages: a combined one comes as its packets
      ++planned_unicasts_;
    });
  }

  void body(MessageLayer& ml) override;
  bool codes_in_network() const override { return true; }
  Cycle execution_cycles() const override;
  void report_more(Report& out) const override;

 private:
  struct StepStats {
    std::uint64_t unicasts = 0, packets = 0, operations = 0, latency_sum = 0, latency_max = 0;
    Cycle first_sent = kNever, last_arrival = 0;  // when the step runs, to set steps side by side
  };
  class Node;
  // Every tile's sources of one level in chain order, kept once for all cores: a core's chains
  // point here rather than each holding a copy.
  struct ChainOrder {
    std::vector<NodeId> sources;         // tile after tile (recursive inner level: group by group)
    std::vector<std::size_t> first{0};   // by tile: where its sources start (and one past the last)
    std::vector<unsigned> place;         // by node: its place in its tile's chain
    void add(const AllToAllPlan& plan, const AllToAllPlan::Level& l, unsigned t) {
      place.resize(plan.nodes(), 0);
      for (NodeId s : plan.tile_sources(l, t)) {
        place[s] = static_cast<unsigned>(sources.size() - first.back());
        sources.push_back(s);
      }
      first.push_back(sources.size());
    }
  };

  // What source `src` sends (every core starts from it and checks against it).
  const Words& datum(NodeId src) const { return datums_[src]; }
  // Message combining sends a group's data concatenated, as a train of packets that each relay
  // forwards as it arrives (cut-through at the message level): one piece per NI packet.
  unsigned pieces(unsigned data) const {
    if (plan_.scheme() != A2aScheme::combining || data <= 1) return 1;
    return (data * words_ + piece_words_ - 1) / piece_words_;
  }
  // One packet of a step; `first`: the first packet of its unicast (a combined message is one
  // unicast, counted with the hops of its first packet: all its packets take the same path).
  void record(std::uint8_t kind, unsigned round, const Message& m, bool first = true) {
    StepStats& s = steps_[{kind, round}];
    const std::uint64_t latency = m.arrival_cycle - m.sent_cycle;
    ++(kind == kStepDecode ? s.operations : s.packets);
    if (first && kind != kStepDecode) {
      ++s.unicasts;
      hops_ += m.hops;
    }
    s.latency_sum += latency;
    s.latency_max = std::max(s.latency_max, latency);
    s.first_sent = std::min(s.first_sent, m.sent_cycle);
    s.last_arrival = std::max(s.last_arrival, m.arrival_cycle);
  }
  Cycle step_sum(std::uint8_t kind) const {  // the rounds of one step, one after the other
    Cycle sum = 0;
    for (const auto& [key, s] : steps_)
      if (key.first == kind) sum += s.latency_max;
    return sum;
  }

  AllToAllPlan plan_;
  unsigned words_;
  unsigned piece_words_;  // words of one NI packet (ni.max_packet_flits)
  unsigned vc_classes_;
  std::vector<Words> datums_;            // by source
  std::vector<unsigned> outer_tile_;     // hierarchical: each node's group (outer tile)
  ChainOrder chain_order_[2];            // hierarchical: outer level, inner level (recursive)
  std::vector<std::uint64_t> expected_;  // messages the plan sends each node
  std::uint64_t planned_unicasts_ = 0;
  std::map<std::pair<std::uint8_t, unsigned>, StepStats> steps_;  // (kind, doubling round)
  std::uint64_t unicasts_ = 0, hops_ = 0, xor_codes_ = 0, xor_decodes_ = 0;
  bool tree_decoding_;    // workload.decoding = tree
};

// One core's part: what it holds and what it still has to do.
//
// A core holds every source's datum by the end, so what it keeps per datum is N^2 over the
// system: data and the coded items sit in flat arrays (no vector per datum), and what the plan
// says about this core (its tiles, their multicast children, the intermediates) is worked out
// once, not per message.
class AllToAllBroadcast::Node {
 public:
  Node(AllToAllBroadcast& fw, MessageLayer& ml)
      : fw_(fw), plan_(fw.plan_), ml_(ml), me_(ml.rank()), words_(fw.words_),
        data_(std::size_t{plan_.nodes()} * words_), have_(plan_.nodes(), false) {
    if (plan_.variant() == A2aVariant::recursive) inner_ = plan_.inner(me_);
    if (!plan_.hierarchical()) return;
    for (std::uint8_t off : {std::uint8_t{0}, kInnerLevel}) {
      if (off && !inner_) continue;
      const AllToAllPlan::Level& l = level(off);
      Tile& t = tiles_[off ? 1 : 0];
      t.index = l.region.tile_of(l.tile, me_);
      t.box.emplace(l.region.tile(l.tile, t.index));
      t.tiles = l.region.tiles(l.tile);
      t.chains.resize(t.tiles);
      t.children.resize(t.box->size());
      t.inter_children.resize(t.tiles);
      const bool every_node = plan_.variant() == A2aVariant::every_node && off == 0;
      t.coder = every_node || plan_.intermediate(l, t.index) == me_;
    }
  }

  void run() {
    if (plan_.is_source(me_)) give(me_, fw_.datum(me_).data());
    if (plan_.scheme() == A2aScheme::plain) {
      if (plan_.is_source(me_)) forward(kStepBroadcast, me_, fw_.datum(me_));
    } else {
      start_level(0);
      if (inner_) start_level(kInnerLevel);
    }
    progress();
    while (held_ < plan_.sources().size() || received_ < fw_.expected_[me_]) {
      Message m = ml_.recv_any();
      if (m.kind == kDecoded) {
        fw_.record(kStepDecode, 0, m);
        give(m.tag, m.words);
      } else if (m.kind == kSegment) {
        fw_.record(kStepDecode, 0, m);
        const auto it = segment_ops_.find(m.tag);
        const SegmentOp op = it->second;
        segment_ops_.erase(it);
        op.chain->tree->seg[op.level][op.index] = std::move(m.words);
        mark(*op.chain);
      } else {
        ++received_;
        handle(m);
      }
      progress();
    }
    for (NodeId s : plan_.sources()) {
      scratch_a_.assign(datum(s), datum(s) + words_);
      const Words& want = fw_.datum(s);
      // (the check's text is only read on a mismatch)
      fw_.check(scratch_a_, want,
                scratch_a_ == want ? std::string()
                                   : "core " + std::to_string(me_) + ": the datum of source " +
                                         std::to_string(s));
    }
  }

 private:
  struct Train {  // a combined message arriving packet by packet
    std::vector<NodeId> src;  // the tile's sources
    Words words;
    unsigned pieces = 0;
  };
  // workload.decoding=tree: seg[k][i] = d_a ^ d_b over [a, b] = [i 2^k, (i + 1) 2^k], k >= 1
  // (level 0 is the chain's items), each XORed from its two halves once both are here.
  struct Segments {
    std::vector<std::vector<Words>> seg;
    std::vector<std::vector<bool>> busy;
  };
  // A tile's coded chain as this core collects it. What a coded item touches (its arrival bit,
  // its check bit, its words) sits in one block, `store`, so taking an item costs a few cache
  // lines rather than one per vector: with every core holding a chain per tile, they are cold.
  struct Chain {
    const NodeId* src = nullptr;  // the tile's sources in chain order (ChainOrder's); null: none yet
    std::size_t length = 0;       // of src; items c_0 .. c_length-2
    unsigned created = 0;         // order of creation: a datum marks its chains in it
    bool dirty = false;           // on dirty_
    // Whether decode() looks at every item next (a new chain), not only the checked ones.
    bool check_all = true;
    std::size_t bit_words = 0;
    // here bits (c_j has arrived), check bits (c_j's neighbourhood changed since decode()
    // looked: it arrived, or the datum at either end became known), then c_j at j * words.
    std::vector<std::uint32_t> store;
    std::unique_ptr<Segments> tree;

    void start(const NodeId* sources, std::size_t n, unsigned words) {
      src = sources;
      length = n;
      bit_words = (n - 1 + 31) / 32;
      store.assign(2 * bit_words + (n - 1) * words, 0);
    }
    bool here(std::size_t j) const { return store[j / 32] >> (j % 32) & 1u; }
    void set_here(std::size_t j) { store[j / 32] |= 1u << (j % 32); }
    void check(std::size_t j) { store[bit_words + j / 32] |= 1u << (j % 32); }
    std::uint32_t* items() { return store.data() + 2 * bit_words; }
    const std::uint32_t* items() const { return store.data() + 2 * bit_words; }
  };
  struct SegmentOp {
    Chain* chain;
    unsigned level;
    std::size_t index;
  };
  // This core's tile at one level, and what the plan says it does there (children lists are
  // filled on first use).
  struct Tile {
    unsigned index = 0;                 // among the level's tiles
    std::optional<Box> box;             // the tile itself
    unsigned tiles = 0;                 // of the level
    bool coder = false;                 // codes (or combines) the tile's data
    std::vector<Chain> chains;                             // by tile (started once an item came)
    std::vector<std::vector<NodeId>> children;             // in my tile, by root (local)
    std::vector<std::vector<NodeId>> inter_children;       // among intermediates, by root tile
    std::vector<NodeId> intermediates;                     // by tile
    std::vector<NodeId> sources;                           // of my tile, in chain order
  };
  const AllToAllPlan::Level& level(std::uint8_t off) const {
    return off ? *inner_ : plan_.outer();
  }
  Tile& tile(std::uint8_t off) { return tiles_[off ? 1 : 0]; }
  std::uint8_t off_of(std::uint8_t kind) const { return kind >= kInnerLevel ? kInnerLevel : 0; }
  const Box& my_tile(std::uint8_t off) { return *tile(off).box; }
  // The intra-group step of a level is itself an all-to-all broadcast one level down when
  // the variant is recursive.
  bool intra_by_multicast(std::uint8_t off) const {
    return !(plan_.variant() == A2aVariant::recursive && off == 0);
  }

  const std::uint32_t* datum(NodeId src) const { return data_.data() + std::size_t{src} * words_; }
  void give(NodeId src, const std::uint32_t* w) {
    if (!have(src)) ++held_;
    have_[src] = true;
    std::copy(w, w + words_, data_.begin() + std::size_t{src} * words_);
    if (!plan_.hierarchical() || !plan_.is_source(src)) return;
    // The chains src is in: its tile's at the outer level and, recursive, at the inner one if
    // it is in my group; in the order they were created.
    Chain* in[2] = {started(tile(0).chains[fw_.outer_tile_[src]]), nullptr};
    std::size_t place[2] = {fw_.chain_order_[0].place[src], 0};
    if (inner_ && inner_->region.contains(src)) {
      in[1] = started(tile(kInnerLevel).chains[inner_->region.tile_of(inner_->tile, src)]);
      place[1] = fw_.chain_order_[1].place[src];
    }
    if (in[0] && in[1] && in[1]->created < in[0]->created) {
      std::swap(in[0], in[1]);
      std::swap(place[0], place[1]);
    }
    for (int i = 0; i < 2; ++i)
      if (in[i]) mark_datum(*in[i], place[i]);
  }
  static Chain* started(Chain& c) { return c.src ? &c : nullptr; }
  void give(NodeId src, const Words& w) {  // a datum as a message brought it
    if (w.size() == words_) return give(src, w.data());
    fw_.fail("core " + std::to_string(me_) + ": a datum of " + std::to_string(w.size()) +
             " words from source " + std::to_string(src) + ", expected " + std::to_string(words_));
    Words fitted(w);
    fitted.resize(words_);
    give(src, fitted.data());
  }
  bool have(NodeId src) const { return have_[src]; }

  void send(NodeId dst, std::uint8_t kind, std::uint32_t tag, const Words& w) {
    ml_.send(dst, w, options(kind, tag));
    const bool piece = plan_.scheme() == A2aScheme::combining &&
                       (kind % kInnerLevel == kStepInter || kind % kInnerLevel == kStepDeliver);
    if (!piece || (tag & ((1u << kItemBits) - 1)) == 0) ++fw_.unicasts_;
  }
  SendOptions options(std::uint8_t kind, std::uint32_t tag) const {
    SendOptions opt;
    opt.vc_class = static_cast<std::uint8_t>(step_vc_class(kind) % fw_.vc_classes_);
    opt.kind = kind;
    opt.tag = tag;
    return opt;
  }

  // Multicast roles. Positions: in a tile box (its local order) or among a level's tiles.
  std::vector<NodeId> children_in(const Box& box, unsigned root) const {
    std::vector<NodeId> out;
    for (unsigned c : plan_.children(box.size(), root, box.local(me_))) out.push_back(box.node(c));
    return out;
  }
  const std::vector<NodeId>& tile_children(std::uint8_t off, unsigned root) {
    Tile& t = tile(off);
    std::vector<NodeId>& out = t.children[root];
    if (out.empty()) out = children_in(*t.box, root);
    return out;  // (a leaf recomputes its empty list: no children, no cost)
  }
  const std::vector<NodeId>& inter_children(std::uint8_t off, unsigned root_tile) {
    Tile& t = tile(off);
    std::vector<NodeId>& out = t.inter_children[root_tile];
    if (!out.empty()) return out;
    const AllToAllPlan::Level& l = level(off);
    if (t.intermediates.empty())
      for (unsigned h = 0; h < t.tiles; ++h) t.intermediates.push_back(plan_.intermediate(l, h));
    for (unsigned c : plan_.children(t.tiles, root_tile, t.index))
      out.push_back(t.intermediates[c]);
    return out;
  }
  // Forwards a datum of `origin` in its broadcast (plain) or intra-group multicast.
  void forward(std::uint8_t kind, NodeId origin, const Words& w) {
    if (kind == kStepBroadcast) {
      const Box& whole = plan_.outer().region;
      for (NodeId c : children_in(whole, whole.local(origin))) send(c, kind, origin, w);
      return;
    }
    const std::uint8_t off = off_of(kind);
    for (NodeId c : tile_children(off, my_tile(off).local(origin))) send(c, kind, origin, w);
  }

  void start_level(std::uint8_t off) {
    const AllToAllPlan::Level& l = level(off);
    if (!plan_.is_source(me_)) return;
    const Words& mine_datum = fw_.datum(me_);
    if (intra_by_multicast(off)) forward(static_cast<std::uint8_t>(kStepIntra + off), me_, mine_datum);
    if (plan_.scheme() != A2aScheme::hierarchical_nc) return;
    // Step 6: my datum to the nodes of every other tile whose place matches my rank.
    const Box& mine = my_tile(off);
    const std::vector<NodeId> src = plan_.tile_sources(l, tile(off).index);
    const unsigned m = static_cast<unsigned>(src.size());
    const unsigned r = static_cast<unsigned>(std::find(src.begin(), src.end(), me_) - src.begin());
    const unsigned tiles = tile(off).tiles;
    for (unsigned h = 0; h < tiles; ++h) {
      const Box other = l.region.tile(l.tile, h);
      if (other.origin() == mine.origin()) continue;
      for (unsigned q = r; q < other.size(); q += m)
        send(other.node(q), static_cast<std::uint8_t>(kStepPartner + off), me_, mine_datum);
    }
  }

  void handle(const Message& m) {
    const std::uint8_t off = off_of(m.kind);
    const std::uint8_t step = static_cast<std::uint8_t>(m.kind - off);
    if (step == kStepBroadcast || step == kStepIntra) {
      const Box& box = step == kStepBroadcast ? plan_.outer().region : my_tile(off);
      fw_.record(m.kind, plan_.round(box.size(), box.local(m.tag), box.local(me_)), m);
      give(m.tag, m.words);
      forward(m.kind, m.tag, m.words);
      return;
    }
    if (step == kStepPartner) {
      fw_.record(m.kind, 0, m);
      give(m.tag, m.words);
      return;
    }
    const AllToAllPlan::Level& l = level(off);
    const unsigned from = m.tag >> kItemBits, item = m.tag & ((1u << kItemBits) - 1);
    const bool every_node = plan_.variant() == A2aVariant::every_node && off == 0;
    const bool first = plan_.scheme() != A2aScheme::combining || item == 0;  // of its unicast
    if (step == kStepInter) {
      fw_.record(m.kind, every_node ? 0 : plan_.round(tile(off).tiles, from, tile(off).index), m,
                 first);
      if (!every_node) {
        for (NodeId c : inter_children(off, from)) send(c, m.kind, m.tag, m.words);
        // step 5: I am my tile's intermediate
        for (NodeId c : tile_children(off, l.intermediate_local))
          send(c, static_cast<std::uint8_t>(kStepDeliver + off), m.tag, m.words);
      }
    } else {  // kStepDeliver
      const Box& box = my_tile(off);
      fw_.record(m.kind, plan_.round(box.size(), l.intermediate_local, box.local(me_)), m, first);
      for (NodeId c : tile_children(off, l.intermediate_local)) send(c, m.kind, m.tag, m.words);
    }
    take_item(l, off, from, item, m.words);
  }

  // A coded packet (or, combining, a group's data concatenated) of tile `t`.
  void take_item(const AllToAllPlan::Level& l, std::uint8_t off, unsigned t, unsigned item,
                 const Words& w) {
    if (plan_.scheme() == A2aScheme::combining) {  // piece `item` of the tile's data
      Train& tr = trains_[t];
      if (tr.words.empty()) {
        tr.src = plan_.tile_sources(l, t);
        tr.words.resize(tr.src.size() * words_);
      }
      std::copy(w.begin(), w.end(), tr.words.begin() + std::size_t{item} * fw_.piece_words_);
      if (++tr.pieces < fw_.pieces(static_cast<unsigned>(tr.src.size()))) return;
      for (std::size_t i = 0; i < tr.src.size(); ++i) give(tr.src[i], tr.words.data() + i * words_);
      trains_.erase(t);
      return;
    }
    Chain& c = tile(off).chains[t];
    if (!c.src) {
      // The inner level's tiles are listed group by group.
      const std::size_t key = off ? std::size_t{fw_.outer_tile_[me_]} * tile(off).tiles + t : t;
      const ChainOrder& order = fw_.chain_order_[off ? 1 : 0];
      c.created = chains_created_++;
      c.start(order.sources.data() + order.first[key], order.first[key + 1] - order.first[key],
              words_);
      if (fw_.tree_decoding_) {
        c.tree = std::make_unique<Segments>();
        c.tree->seg.resize(1);
        c.tree->busy.resize(1);
        for (unsigned k = 1; (std::size_t{1} << k) < c.length; ++k) {
          c.tree->seg.emplace_back((c.length - 1) >> k);
          c.tree->busy.emplace_back((c.length - 1) >> k, false);
        }
      }
    }
    std::copy_n(w.begin(), std::min<std::size_t>(w.size(), words_),
                c.items() + std::size_t{item} * words_);
    c.set_here(item);
    mark(c, item);
  }
  const std::uint32_t* item(const Chain& c, std::size_t j) const {
    return c.here(j) ? c.items() + j * words_ : nullptr;
  }
  // Chains where something arrived since decode() last looked.
  void mark(Chain& c) {
    if (!c.dirty) dirty_.push_back(&c);
    c.dirty = true;
  }
  void mark(Chain& c, std::size_t item) {
    c.check(item);
    mark(c);
  }
  // The datum at place `pos` of the chain became known: the items on either side of it.
  void mark_datum(Chain& c, std::size_t pos) {
    if (pos > 0) c.check(pos - 1);
    if (pos + 1 < c.length) c.check(pos);
    mark(c);
  }

  // Codes (or combines) once this core's tile is complete; decodes every tile it can.
  void progress() {
    if (plan_.scheme() == A2aScheme::plain) return;
    // The inner level first: what it decodes may complete the group the outer level codes.
    for (std::uint8_t off : {kInnerLevel, std::uint8_t{0}}) {
      if (off && !inner_) continue;
      Tile& t = tile(off);
      if (t.coder && !coded_[off ? 1 : 0]) {
        std::vector<NodeId>& src = t.sources;
        if (src.empty()) src = plan_.tile_sources(level(off), t.index);
        if (std::all_of(src.begin(), src.end(), [&](NodeId s) { return have(s); })) {
          coded_[off ? 1 : 0] = true;
          code(level(off), off, t.index, src,
               plan_.variant() == A2aVariant::every_node && off == 0);
        }
      }
    }
    if (plan_.scheme() == A2aScheme::hierarchical_nc) decode();
  }

  void code(const AllToAllPlan::Level& l, std::uint8_t off, unsigned my,
            const std::vector<NodeId>& src, bool every_node) {
    const auto kind = static_cast<std::uint8_t>(kStepInter + off);
    std::vector<NodeId> dsts;
    if (every_node) {  // my counterpart in every other tile
      const unsigned q = my_tile(off).local(me_);
      for (unsigned h = 0; h < tile(off).tiles; ++h)
        if (h != my) dsts.push_back(l.region.tile(l.tile, h).node(q));
    } else {
      dsts = inter_children(off, my);
    }
    if (plan_.scheme() == A2aScheme::combining) {
      if (src.empty()) return;
      Words all;
      for (NodeId s : src) all.insert(all.end(), datum(s), datum(s) + words_);
      // Piece by piece to every child, as a relay forwards them: each child starts forwarding
      // after one packet, not after the whole message.
      const unsigned n = fw_.pieces(static_cast<unsigned>(src.size()));
      for (unsigned i = 0; i < n; ++i) {
        const auto begin = all.begin() + std::size_t{i} * fw_.piece_words_;
        const Words piece(begin, std::min(begin + fw_.piece_words_, all.end()));
        for (NodeId d : dsts) send(d, kind, (my << kItemBits) | i, piece);
      }
      return;
    }
    for (std::size_t j = 0; j + 1 < src.size(); ++j) {
      scratch_a_.assign(datum(src[j]), datum(src[j]) + words_);
      scratch_b_.assign(datum(src[j + 1]), datum(src[j + 1]) + words_);
      ml_.send_coded(dsts, scratch_a_, scratch_b_,
                     options(kind, (my << kItemBits) | static_cast<std::uint32_t>(j)));
      fw_.unicasts_ += dsts.size();
      ++fw_.xor_codes_;
    }
  }

  // A datum follows from a coded packet c_j = d_j ^ d_j+1 and either neighbour, so decoding
  // starts as soon as one plain datum and one coded packet of a tile meet, and walks the chain
  // as packets arrive. The engine's results come back as messages (kDecoded, tag = whose
  // datum), so the core goes on receiving and forwarding meanwhile.
  void decode() {
    std::vector<Chain*> chains;
    chains.swap(dirty_);
    for (Chain* cp : chains) {
      Chain& c = *cp;
      c.dirty = false;
      const NodeId* src = c.src;
      const auto walk = [&](std::size_t j) {
        if (!c.here(j) || have(src[j]) == have(src[j + 1])) return;
        const bool up = have(src[j]);
        const NodeId target = up ? src[j + 1] : src[j];
        if (decoding_[target]) return;
        decode_into(target, item(c, j), datum(up ? src[j] : src[j + 1]));
      };
      // Only items whose neighbourhood changed can start a decoding: any other was looked at
      // when it last changed, and a decoding it started then still holds its target.
      std::uint32_t* check = c.store.data() + c.bit_words;
      if (c.check_all || fw_.tree_decoding_) {
        for (std::size_t j = 0; j + 1 < c.length; ++j) walk(j);
      } else {
        for (std::size_t w = 0; w < c.bit_words; ++w)  // in chain order, as the whole walk
          for (std::uint32_t bits = check[w]; bits; bits &= bits - 1)
            walk(w * 32 + static_cast<std::size_t>(__builtin_ctz(bits)));
      }
      std::fill_n(check, c.bit_words, 0u);
      c.check_all = false;
      if (fw_.tree_decoding_) decode_by_tree(c);
    }
    chains.clear();
    if (dirty_.empty()) dirty_.swap(chains);  // keeps the capacity: no allocation per message
  }

  // The walk above is serial: d_j+2 needs d_j+1 back from the engine first, L + 3 cycles a
  // link, and a node whose plain datum sits high in the chain can only start down once the coded
  // packet just below it arrives, among the last (they are coded and sent in chain order).
  // workload.decoding=tree adds segments of 2, 4, 8, ... links, each the XOR of its two halves
  // as soon as both are here. They are independent XORs, pipelined, so from one plain datum
  // every other is about 2 log2(M) engine round trips away, not up to M - 1. Only segments the
  // walk has not reached are built (none of their data known), so where the walk keeps up with
  // arrivals nothing extra is XORed.
  void decode_by_tree(Chain& c) {
    const NodeId* src = c.src;
    std::vector<std::vector<Words>>& seg = c.tree->seg;
    const auto known = [&](std::size_t pos) { return have(src[pos]) || decoding_[src[pos]]; };
    const auto rel = [&](unsigned k, std::size_t i) -> const std::uint32_t* {
      if (k == 0) return item(c, i);
      return seg[k][i].empty() ? nullptr : seg[k][i].data();
    };
    for (unsigned k = 1; k < seg.size(); ++k)
      for (std::size_t i = 0; i < seg[k].size(); ++i) {
        const std::size_t a = i << k, b = (i + 1) << k;
        const Words& s = seg[k][i];
        if (!s.empty()) {
          if (have(src[a]) && !known(b)) decode_into(src[b], s.data(), datum(src[a]));
          else if (have(src[b]) && !known(a)) decode_into(src[a], s.data(), datum(src[b]));
          continue;
        }
        if (c.tree->busy[k][i]) continue;
        bool ahead = true;  // no datum of the segment known yet: the walk has not got there
        for (std::size_t j = a; ahead && j <= b; ++j) ahead = !known(j);
        if (!ahead) continue;
        const std::uint32_t *lo = rel(k - 1, 2 * i), *hi = rel(k - 1, 2 * i + 1);
        if (!lo || !hi) continue;
        c.tree->busy[k][i] = true;
        segment_ops_[next_segment_op_] = SegmentOp{&c, k, i};
        SendOptions opt;
        opt.kind = kSegment;
        opt.tag = next_segment_op_++;
        xor_in_engine(lo, hi, opt);
        ++fw_.xor_decodes_;
      }
  }

  void decode_into(NodeId target, const std::uint32_t* a, const std::uint32_t* b) {
    decoding_[target] = true;
    SendOptions opt;
    opt.kind = kDecoded;
    opt.tag = target;
    xor_in_engine(a, b, opt);
    ++fw_.xor_decodes_;
  }
  void xor_in_engine(const std::uint32_t* a, const std::uint32_t* b, const SendOptions& opt) {
    scratch_a_.assign(a, a + words_);
    scratch_b_.assign(b, b + words_);
    ml_.xor_words(scratch_a_, scratch_b_, opt);
  }

  AllToAllBroadcast& fw_;
  const AllToAllPlan& plan_;
  MessageLayer& ml_;
  NodeId me_;
  unsigned words_;  // of one datum
  std::optional<AllToAllPlan::Level> inner_;
  std::vector<std::uint32_t> data_;  // source s's datum at word s * words_
  std::vector<bool> have_;           // by source
  std::vector<bool> decoding_ = std::vector<bool>(plan_.nodes(), false);  // in the XOR engine
  std::size_t held_ = 0;
  std::uint64_t received_ = 0;
  Tile tiles_[2];  // outer level, inner level (recursive)
  unsigned chains_created_ = 0;
  std::map<unsigned, Train> trains_;                            // combining, by tile
  std::map<std::uint32_t, SegmentOp> segment_ops_;              // tree decoding, in the engine
  std::uint32_t next_segment_op_ = 0;
  std::vector<Chain*> dirty_;
  bool coded_[2] = {false, false};
  Words scratch_a_, scratch_b_;  // a datum or a pair handed to the message layer
};

void AllToAllBroadcast::body(MessageLayer& ml) { Node(*this, ml).run(); }

// SPEC 3.2: the sum over sequential steps of each step's largest latency. A binomial tree's
// doubling rounds are sequential steps too. Steps 2 (or, recursive, the inner level's whole
// execution), 3 (coding: the XOR latency), 4 and 5 follow one another; step 6 runs beside them.
Cycle AllToAllBroadcast::execution_cycles() const {
  if (plan_.scheme() == A2aScheme::plain) return step_sum(kStepBroadcast);
  const Cycle coding = plan_.scheme() == A2aScheme::hierarchical_nc && xor_codes_
                           ? p_.all_to_all.xor_latency_cycles
                           : 0;
  auto level = [&](std::uint8_t off, Cycle intra) {
    const Cycle chain = intra + coding + step_sum(static_cast<std::uint8_t>(kStepInter + off)) +
                        step_sum(static_cast<std::uint8_t>(kStepDeliver + off));
    return std::max(chain, step_sum(static_cast<std::uint8_t>(kStepPartner + off)));
  };
  const Cycle intra = plan_.variant() == A2aVariant::recursive
                          ? level(kInnerLevel, step_sum(kStepIntra + kInnerLevel))
                          : step_sum(kStepIntra);
  return level(0, intra);
}

void AllToAllBroadcast::report_more(Report& out) const {
  out.set("collective.scheme", std::string(to_string(plan_.scheme())));
  out.set("collective.base", std::string(to_string(plan_.base())));
  if (plan_.hierarchical()) {
    out.set("collective.group_shape", shape_text(plan_.group_shape()));
    out.set("collective.group_size", plan_.group_size());
    out.set("collective.variant", std::string(to_string(plan_.variant())));
    if (plan_.variant() == A2aVariant::recursive)  // as resolved from workload.subgroup (auto)
      out.set("collective.subgroup_shape", shape_text(plan_.subgroup_shape()));
  }
  out.set("collective.sources", static_cast<std::uint64_t>(plan_.sources().size()));
  out.set("collective.unicasts", unicasts_);
  out.set("collective.planned_unicasts", planned_unicasts_);
  out.set("collective.aggregate_hops", hops_);
  out.set("collective.xor_operations", xor_codes_ + xor_decodes_);
  out.set("collective.xor_coding_operations", xor_codes_);
  std::uint64_t n = 0, sum = 0;
  for (const auto& [key, s] : steps_) {
    Report row;
    row.set("step", static_cast<std::uint64_t>(key.first % kInnerLevel));
    row.set("level", std::string(key.first >= kInnerLevel ? "inner" : "outer"));
    row.set("name", std::string(step_name(key.first)));
    row.set("round", static_cast<std::uint64_t>(key.second));
    row.set("unicasts", s.unicasts);
    row.set("packets", s.packets);
    if (key.first == kStepDecode) row.set("xor_operations", s.operations);
    row.set("max_latency_cycles", s.latency_max);
    row.set("mean_latency_cycles",
            static_cast<double>(s.latency_sum) / static_cast<double>(s.packets + s.operations));
    row.set("start_cycle", static_cast<std::uint64_t>(s.first_sent));
    row.set("end_cycle", static_cast<std::uint64_t>(s.last_arrival));
    out.append("collective.steps", std::move(row));
    if (key.first == kStepDecode) continue;  // the mean is over packets in the network
    n += s.packets;
    sum += s.latency_sum;
  }
  out.set("collective.mean_latency_cycles", n ? static_cast<double>(sum) / n : 0.0);
}

}  // namespace

std::unique_ptr<Firmware> make_all_to_all_broadcast(const FirmwareParams& p, const Topology& t) {
  return std::make_unique<AllToAllBroadcast>(p, t);
}

}  // namespace collnoc
