// Total exchange (all-to-all personalized, SPEC 4.3): every core has one message of
// workload.message_words words for every core (itself included) and ends with the p messages
// meant for it. Three algorithms, all one-port (a step is one send to a partner, then one
// receive), documented with their closed forms in docs/hdn.md, each in its own file
// (collectives/algorithms/total_exchange_<algorithm>.cpp):
//   hdn                the four-stage HDN algorithm (cross-edge swap, cluster exchange, cross-edge
//                      transfer, cluster exchange), recursive over levels; at level 0 the base's
//                      own exchange below; needs platform hdn
//   dimension_exchange dimension by dimension, a ring shift along each ring (a hypercube's K_2 or
//                      a ring of 2: one exchange of half the data); on a kary_ncube torus
//   pairwise           p - 1 steps, step i: send to rank + i, receive from rank - i; any platform
// Messages are combined: a packed message is a sequence of records, each a header word
// (source << 16 | destination; two words, source then destination, above 65,536 cores) followed
// by the message's words, so the receiver unpacks by walking records. Here: what the packing
// algorithms share (the rings of a network, PackedExchange) and the closed forms.
#pragma once
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "collectives/collective.hpp"

namespace collnoc {

class HdnTopology;

// A product of rings over the routers of a network: per factor its size, every router's
// coordinate and its neighbours at coordinate +1 and -1 (for a ring of 2 or a K_2 factor both
// are the other router). On an HDN the rings are those of each router's own base copy.
struct RingProduct {
  std::vector<unsigned> sizes;                     // a_f
  std::vector<std::vector<unsigned>> coord;        // [f][router]
  std::vector<std::vector<RouterId>> plus, minus;  // [f][router]
};

template <typename Coords, typename At>
RingProduct make_rings(std::vector<unsigned> sizes, unsigned routers, Coords coords_of, At at) {
  RingProduct r;
  const std::size_t factors = sizes.size();
  r.coord.assign(factors, std::vector<unsigned>(routers));
  r.plus.assign(factors, std::vector<RouterId>(routers));
  r.minus.assign(factors, std::vector<RouterId>(routers));
  for (RouterId x = 0; x < routers; ++x) {
    auto c = coords_of(x);
    for (std::size_t f = 0; f < factors; ++f) {
      const auto v = c[f];
      const decltype(v) a = sizes[f];
      r.coord[f][x] = static_cast<unsigned>(v);
      c[f] = (v + 1) % a;
      r.plus[f][x] = at(c);
      c[f] = (v + a - 1) % a;
      r.minus[f][x] = at(c);
      c[f] = v;
    }
  }
  r.sizes = std::move(sizes);
  return r;
}

// The sizes of an HDN's base rings (the factors of its base), in order.
std::vector<unsigned> base_ring_sizes(const HdnTopology& t);
// ParamError naming workload.algorithm = `algorithm` unless every router has one core.
void require_one_core_per_router(const Topology& t, const char* algorithm);

// What every packing algorithm shares: the records a core holds, steps of one send and one
// receive, and the final check that a core holds exactly its p messages.
class PackedExchange : public CollectiveFirmware {
 public:
  PackedExchange(const FirmwareParams& p, unsigned cores);

 protected:
  unsigned record_words() const { return header_words_ + p_.message_words; }
  NodeId source_of(const Words& w, std::size_t at) const {
    return header_words_ == 1 ? w[at] >> 16 : w[at];
  }
  NodeId destination_of(const Words& w, std::size_t at) const {
    return header_words_ == 1 ? w[at] & 0xffffu : w[at + 1];
  }

  // One record per destination, this core's own included.
  Words initial_records(NodeId me) const;

  // Moves the records whose destination `leaves` accepts from `held` into `out`.
  template <typename Leaves>
  void split(Words& held, Words& out, Leaves leaves) const {
    out.clear();
    const std::size_t stride = record_words();
    std::size_t kept = 0;
    for (std::size_t at = 0; at + stride <= held.size(); at += stride) {
      auto first = held.begin() + static_cast<std::ptrdiff_t>(at);
      if (leaves(destination_of(held, at))) {
        out.insert(out.end(), first, first + static_cast<std::ptrdiff_t>(stride));
      } else {
        if (kept != at) std::copy(first, first + static_cast<std::ptrdiff_t>(stride),
                                  held.begin() + static_cast<std::ptrdiff_t>(kept));
        kept += stride;
      }
    }
    held.resize(kept);
  }

  // One step of the one-port model: send `out` to `to`, then receive from `from` and unpack.
  void step(MessageLayer& ml, NodeId to, NodeId from, const Words& out, Words& held);

  // The end state: exactly one record from every core, addressed to `me`, bit-exact.
  void check_delivery(NodeId me, const Words& held);

  // Along each ring in turn, a-1 steps: send everything not for my coordinate to the +1
  // neighbour, receive from the -1 neighbour. `target` maps a record's destination to the
  // router of this network it must reach; rings marked `settled` are skipped (every record
  // already has the right coordinate there).
  template <typename Target>
  void ring_exchange(MessageLayer& ml, const RingProduct& rings, Words& held, Target target,
                     const std::vector<bool>& settled = {}) {
    const RouterId me = ml.rank();
    Words out;
    for (std::size_t f = 0; f < rings.sizes.size(); ++f) {
      if (f < settled.size() && settled[f]) continue;
      const unsigned mine = rings.coord[f][me];
      for (unsigned j = 1; j < rings.sizes[f]; ++j) {
        split(held, out, [&](NodeId dst) { return rings.coord[f][target(dst)] != mine; });
        step(ml, rings.plus[f][me], rings.minus[f][me], out, held);
      }
    }
  }

  void report_more(Report& out) const override;

  unsigned header_words_;
  double formula_cycles_ = 0;
};

// SPEC 4.3's cost model: a one-hop message of x words takes t_s + x t_w.
inline double message_cycles(const MessageCost& c, double words) {
  return c.startup_cycles + c.word_cycles * words;
}
// Closed forms, in cycles, for a node holding V words of (source, destination) records of
// `record_words` words each; docs/hdn.md derives them.
// Ring shift over rings of sizes a_f (those marked `settled` skipped):
//   T_0(V) = sum_f (a_f - 1) (t_s + t_w V / 2)
double ring_exchange_cycles(const std::vector<unsigned>& ring_sizes,
                            const std::vector<bool>& settled, double held_words,
                            const MessageCost& c);
// The HDN algorithm as run, with V = N_k w: E_0 = T_0 and, per level i,
//   E_i(V) = (t_s + t_w V / 2) + (t_s + t_w V) + E_{i-1}(V) + E'_{i-1}(V),
// E' = E except that at level 0 (stage 4 of level 1) the rings of SN_1 are settled.
double hdn_exchange_cycles(const HdnTopology& t, double record_words, const MessageCost& c);
// SPEC 4.3's T_k(m) as printed: (2^(k+1) - 2)(t_s + t_w m N_k / 2) + 2^k T_0(m N_k / 2), with
// T_0(m') for m' words per base destination.
double hdn_spec_formula_cycles(const HdnTopology& t, double record_words, const MessageCost& c);

}  // namespace collnoc
