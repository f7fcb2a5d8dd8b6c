#include "collectives/firmware.hpp"

#include <algorithm>
#include <sstream>

#include "collectives/all_to_all_broadcast.hpp"
#include "collectives/collective.hpp"
#include "collectives/message_protocol.hpp"
#include "noc/random.hpp"

namespace collnoc {

std::uint32_t pattern_word(std::uint64_t seed, NodeId src, NodeId dst, unsigned round, unsigned i) {
  return static_cast<std::uint32_t>(
      hash64(hash64(seed, (static_cast<std::uint64_t>(src) << 32) | dst),
             (static_cast<std::uint64_t>(round) << 32) | i));
}

Words pattern_message(std::uint64_t seed, NodeId src, NodeId dst, unsigned round, unsigned words) {
  Words w(words);
  for (unsigned i = 0; i < words; ++i) w[i] = pattern_word(seed, src, dst, round, i);
  return w;
}

namespace {

// Shared bookkeeping: the first mismatch seen, and per-core finish times.
class CheckedFirmware : public Firmware {
 public:
  CheckedFirmware(const FirmwareParams& p, unsigned cores) : p_(p), finish_(cores, 0) {}
  bool data_verified() const override { return failure_.empty(); }
  std::string failure() const override { return failure_; }

 protected:
  void check(const Words& got, NodeId src, NodeId dst, unsigned round) {
    const Words want = pattern_message(p_.seed, src, dst, round, p_.message_words);
    ++checked_;
    if (got == want || !failure_.empty()) return;
    std::ostringstream os;
    os << "core " << dst << " got a message from " << src << " (round " << round << ") of "
       << got.size() << " words that differs from the " << want.size() << " words sent";
    for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i)
      if (got[i] != want[i]) {
        os << "; first difference at word " << i;
        break;
      }
    failure_ = os.str();
  }
  void finished(MessageLayer& ml) { finish_[ml.rank()] = ml.now(); }
  void report_common(Report& out, const char* name) const {
    out.set("firmware.name", std::string(name));
    out.set("firmware.completion_cycles", *std::max_element(finish_.begin(), finish_.end()));
    out.set("firmware.messages_checked", checked_);
    out.set("firmware.data_verified", data_verified());
  }

  FirmwareParams p_;
  std::vector<Cycle> finish_;
  std::uint64_t checked_ = 0;
  std::string failure_;
};

// Core 0 and core `peer` bounce a message back and forth `iterations` times.
class PingPong : public CheckedFirmware {
 public:
  PingPong(const FirmwareParams& p, unsigned cores) : CheckedFirmware(p, cores) {
    if (p.peer == 0 || p.peer >= cores)
      throw ParamError("workload.peer", std::to_string(p.peer),
                       "must be in 1.." + std::to_string(cores - 1));
  }
  void run(MessageLayer& ml) override {
    const NodeId me = ml.rank(), peer = p_.peer;
    if (me == 0) {
      const Cycle start = ml.now();
      for (unsigned r = 0; r < p_.iterations; ++r) {
        ml.send(peer, pattern_message(p_.seed, 0, peer, r, p_.message_words));
        check(ml.recv(peer), peer, 0, r);
      }
      round_trip_total_ = ml.now() - start;
    } else if (me == peer) {
      for (unsigned r = 0; r < p_.iterations; ++r) {
        check(ml.recv(0), 0, peer, r);
        ml.send(0, pattern_message(p_.seed, peer, 0, r, p_.message_words));
      }
    }
    finished(ml);
  }
  void report(Report& out) const override {
    report_common(out, "ping_pong");
    out.set("firmware.round_trip_cycles_mean",
            p_.iterations ? static_cast<double>(round_trip_total_) / p_.iterations : 0.0);
  }

 private:
  Cycle round_trip_total_ = 0;
};

// Every core sends one message to every other core, then receives one from every other core;
// `iterations` rounds. Destinations are visited rank+1, rank+2, ... so the load spreads.
class AllPairsExchange : public CheckedFirmware {
 public:
  using CheckedFirmware::CheckedFirmware;
  void run(MessageLayer& ml) override {
    const NodeId me = ml.rank();
    const unsigned n = ml.size();
    for (unsigned r = 0; r < p_.iterations; ++r) {
      for (unsigned i = 1; i < n; ++i) {
        const NodeId dst = (me + i) % n;
        ml.send(dst, pattern_message(p_.seed, me, dst, r, p_.message_words));
      }
      for (unsigned i = 1; i < n; ++i) {
        const NodeId src = (me + n - i) % n;
        check(ml.recv(src), src, me, r);
      }
    }
    finished(ml);
  }
  void report(Report& out) const override { report_common(out, "all_pairs"); }
};

}  // namespace

const std::vector<FirmwareEntry>& firmware_programs() {
  static const std::vector<FirmwareEntry> table = {
      {"ping_pong", "core 0 and core workload.peer exchange a message workload.iterations times",
       [](const FirmwareParams& p, const Topology& t) {
         return std::make_unique<PingPong>(p, t.num_endpoints());
       }},
      {"all_pairs", "every core sends a message to every other core and receives from all",
       [](const FirmwareParams& p, const Topology& t) {
         return std::make_unique<AllPairsExchange>(p, t.num_endpoints());
       }},
      {"all_to_all_broadcast",
       "every source's datum to every node: plain, hierarchical network-coded or combining "
       "(workload.scheme)",
       make_all_to_all_broadcast},
      {"collective", "the collective workload.collective by workload.algorithm",
       [](const FirmwareParams& p, const Topology& t) {
         const CollectiveEntry& e = lookup_collective(p);
         FirmwareParams resolved = p;
         resolved.algorithm = e.algorithm;
         resolved.schedule = resolve_schedule(e, p);
         return e.make(resolved, t);
       }},
  };
  return table;
}

namespace {

template <typename Names>
void check_name(const char* key, const std::string& value, const Names& names) {
  std::string allowed;
  for (const auto& n : names) {
    if (value == n) return;
    allowed += std::string(allowed.empty() ? "" : ", ") + n;
  }
  throw ParamError(key, value, "must be one of: " + allowed);
}

}  // namespace

void validate(const FirmwareParams& p) {
  using P = FirmwareParams;
  check_range("workload.message_words", p.message_words, P::message_words_range);
  check_range("workload.iterations", p.iterations, P::iterations_range);
  check_range("workload.peer", p.peer, P::rank_range);
  check_range("workload.message_bytes", p.message_bytes, P::message_bytes_range);
  check_range("workload.root", p.root, P::rank_range);
  check_range("workload.fanout", p.fanout, P::fanout_range);
  check_range("workload.repetitions", p.repetitions, P::repetitions_range);
  check_range("workload.start_skew_cycles", p.start_skew_cycles, P::start_skew_cycles_range);
  check_range("workload.sources", p.all_to_all.sources, P::sources_range);
  if (!p.collective.empty()) check_name("workload.collective", p.collective, collective_names());
  check_name("workload.scheme", p.all_to_all.scheme, names_of(kA2aSchemes));
  check_name("workload.base", p.all_to_all.base, names_of(kA2aBases));
  check_name("workload.variant", p.all_to_all.variant, names_of(kA2aVariants));
  check_name("workload.intermediate", p.all_to_all.intermediate, kA2aIntermediates);
  check_name("workload.decoding", p.all_to_all.decoding, kA2aDecodings);
  check_name("workload.reduce_op", p.reduce_op, kReduceOps);
  check_name("workload.element_type", p.element_type, kElementTypes);
  std::vector<std::string> protocols;
  for (const auto& e : message_protocols()) protocols.emplace_back(e.name);
  check_name("msg.protocol", p.protocol.name, protocols);
  validate(p.software);
}

std::unique_ptr<Firmware> make_firmware(const std::string& name, const FirmwareParams& p,
                                        const Topology& topology) {
  const unsigned cores = topology.num_endpoints();
  return with_message_protocol(
      with_software_model(
          lookup(firmware_programs(), name, "workload.kind", "synthetic or one of:").make(p, topology),
          name, p, cores),
      p, cores);
}

}  // namespace collnoc
