// Total exchange (all-to-all personalized, SPEC 4.3): every core has one message of
// workload.message_words words for every core (itself included) and ends with the p messages
// meant for it. Three algorithms, all one-port (a step is one send to a partner, then one
// receive), documented with their closed forms in docs/hdn.md:
//   hdn                the four-stage HDN algorithm (cross-edge swap, cluster exchange, cross-edge
//                      transfer, cluster exchange), recursive over levels; at level 0 the base's
//                      own exchange below; needs platform hdn
//   dimension_exchange dimension by dimension, a ring shift along each ring (a hypercube's K_2 or
//                      a ring of 2: one exchange of half the data); on a kary_ncube torus
//   pairwise           p - 1 steps, step i: send to rank + i, receive from rank - i; any platform
// Messages are combined: a packed message is a sequence of records, each a header word
// (source << 16 | destination; two words, source then destination, above 65,536 cores) followed
// by the message's words, so the receiver unpacks by walking records.
#pragma once
#include <memory>
#include <vector>

#include "collectives/collective.hpp"

namespace collnoc {

class HdnTopology;

std::unique_ptr<Firmware> make_hdn_total_exchange(const FirmwareParams& p, const Topology& t);
std::unique_ptr<Firmware> make_dimension_exchange(const FirmwareParams& p, const Topology& t);
std::unique_ptr<Firmware> make_pairwise_exchange(const FirmwareParams& p, const Topology& t);

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
