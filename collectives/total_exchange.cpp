#include "collectives/total_exchange.hpp"

#include <sstream>

#include "noc/topology/hdn.hpp"
#include "noc/topology/kary_ncube.hpp"

namespace collnoc {

std::vector<unsigned> base_ring_sizes(const HdnTopology& t) {
  std::vector<unsigned> sizes;
  for (const HdnFactor& f : t.spec().base.factors) sizes.push_back(f.size);
  return sizes;
}

void require_one_core_per_router(const Topology& t, const char* algorithm) {
  if (t.endpoints_per_router() != 1)
    throw ParamError("workload.algorithm", algorithm,
                     "needs one core per router (topology.endpoints_per_router = 1)");
}

// ---------------------------------------------------------------- PackedExchange

PackedExchange::PackedExchange(const FirmwareParams& p, unsigned cores)
    : CollectiveFirmware(p, cores), header_words_(cores > 65536 ? 2 : 1) {}

Words PackedExchange::initial_records(NodeId me) const {
  Words held;
  held.reserve(static_cast<std::size_t>(cores_) * record_words());
  for (NodeId d = 0; d < cores_; ++d) {
    if (header_words_ == 1) {
      held.push_back((me << 16) | d);
    } else {
      held.push_back(me);
      held.push_back(d);
    }
    const Words m = pattern_message(p_.seed, me, d, 0, p_.message_words);
    held.insert(held.end(), m.begin(), m.end());
  }
  return held;
}

void PackedExchange::step(MessageLayer& ml, NodeId to, NodeId from, const Words& out, Words& held) {
  ml.send(to, out);
  const Words in = ml.recv(from);
  if (in.size() % record_words() != 0) {
    std::ostringstream os;
    os << "core " << ml.rank() << " got a packed message of " << in.size() << " words from "
       << from << ", not a whole number of " << record_words() << "-word records";
    fail(os.str());
    return;
  }
  held.insert(held.end(), in.begin(), in.end());
}

void PackedExchange::check_delivery(NodeId me, const Words& held) {
  std::vector<bool> seen(cores_, false);
  const std::size_t stride = record_words();
  for (std::size_t at = 0; at + stride <= held.size(); at += stride) {
    const NodeId src = source_of(held, at), dst = destination_of(held, at);
    std::ostringstream what;
    what << "core " << me << ", message from " << src << " to " << dst;
    if (dst != me || src >= cores_ || seen[src]) {
      fail(what.str() + (dst != me ? ": delivered to the wrong core" : ": unexpected or repeated"));
      continue;
    }
    seen[src] = true;
    const auto data = held.begin() + static_cast<std::ptrdiff_t>(at + header_words_);
    check(Words(data, data + p_.message_words),
          pattern_message(p_.seed, src, me, 0, p_.message_words), what.str());
  }
  for (NodeId s = 0; s < cores_; ++s)
    if (!seen[s]) {
      fail("core " + std::to_string(me) + " is missing the message from core " +
           std::to_string(s));
      break;
    }
}

void PackedExchange::report_more(Report& out) const {
  out.set("collective.record_words", static_cast<std::uint64_t>(record_words()));
  out.set("collective.ts_cycles", p_.neighbour_cost.startup_cycles);
  out.set("collective.tw_cycles", p_.neighbour_cost.word_cycles);
  out.set("collective.formula_cycles", formula_cycles_);
}

// ---------------------------------------------------------------- closed forms

double ring_exchange_cycles(const std::vector<unsigned>& ring_sizes,
                            const std::vector<bool>& settled, double held_words,
                            const MessageCost& c) {
  // Step j of a ring of a sends (a - j)/a of what a node holds: (a - 1) V / 2 words in all.
  double cycles = 0;
  for (std::size_t f = 0; f < ring_sizes.size(); ++f)
    if (f >= settled.size() || !settled[f])
      cycles += (ring_sizes[f] - 1) * message_cycles(c, held_words / 2);
  return cycles;
}

namespace {

double hdn_level_cycles(const HdnTopology& t, unsigned level, double held_words,
                        const std::vector<bool>& settled, const MessageCost& c) {
  if (level == 0) return ring_exchange_cycles(base_ring_sizes(t), settled, held_words, c);
  std::vector<bool> sn1;
  if (level == 1) {
    sn1.assign(t.spec().base.size(), false);
    for (unsigned f : t.spec().supernodes[0].factors) sn1[f] = true;
  }
  // A node holds the same volume V throughout: swap V/2, exchange, send V, exchange.
  return message_cycles(c, held_words / 2) + message_cycles(c, held_words) +
         hdn_level_cycles(t, level - 1, held_words, {}, c) +
         hdn_level_cycles(t, level - 1, held_words, sn1, c);
}

}  // namespace

double hdn_exchange_cycles(const HdnTopology& t, double record_words, const MessageCost& c) {
  return hdn_level_cycles(t, t.levels(), record_words * static_cast<double>(t.N(t.levels())), {},
                          c);
}

double hdn_spec_formula_cycles(const HdnTopology& t, double record_words, const MessageCost& c) {
  const double k2 = static_cast<double>(std::uint64_t{1} << t.levels());
  const double half = record_words * static_cast<double>(t.N(t.levels())) / 2;
  // T_0(m') with m' words per destination: a node holds m' n_0.
  return (2 * k2 - 2) * message_cycles(c, half) +
         k2 * ring_exchange_cycles(base_ring_sizes(t), {},
                                   half * static_cast<double>(t.N(0)), c);
}

}  // namespace collnoc
