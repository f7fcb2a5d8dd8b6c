#include "ni/compression.hpp"

#include <algorithm>
#include <cmath>

namespace collnoc {

namespace {

class Never : public CompressionPolicy {
 public:
  bool compress(const CompressionContext&) const override { return false; }
};

class Always : public CompressionPolicy {
 public:
  bool compress(const CompressionContext&) const override { return true; }
};

// SPEC 2.4: long packets always (compression pays even in an idle network); shorter ones only
// when the NI sees congestion: flits arrived in the latest window, or packets waiting behind,
// above their thresholds (0 and 0 read SPEC 2.4 literally: any flit, any waiting packet).
class Selective : public CompressionPolicy {
 public:
  bool compress(const CompressionContext& c) const override {
    if (c.packet_flits >= c.threshold_flits) return true;
    return c.flits_received_in_window > c.n_threshold_flits ||
           c.packets_waiting > c.q_threshold_packets;
  }
  bool needs_window() const override { return true; }
};

}  // namespace

std::uint64_t break_even_flits(double codec_latency_cycles, double ratio) {
  // L (1 - 1/C) > D  <=>  L > D C / (C - 1); the floating-point estimate may be a flit off, so
  // it is settled with the inequality itself.
  const auto pays = [&](double l) { return l - l / ratio > codec_latency_cycles; };
  const double estimate = std::floor(codec_latency_cycles * ratio / (ratio - 1.0)) + 1;
  if (!(estimate < 9007199254740992.0)) return kNoBreakEven;
  auto l = static_cast<std::uint64_t>(std::max(1.0, estimate));
  while (l > 1 && pays(static_cast<double>(l - 1))) --l;
  while (!pays(static_cast<double>(l))) ++l;
  return l;
}

unsigned CompressionParams::threshold() const {
  if (threshold_flits) return threshold_flits;
  const std::uint64_t l = break_even_flits(codec_latency_cycles, fixed_ratio);
  return l > 65535 ? 65535u : static_cast<unsigned>(l);  // longer than any packet
}

void validate(const CompressionParams& p) {
  make_compression_policy(p.policy);
  check_range("ni.fixed_ratio", p.fixed_ratio, CompressionParams::fixed_ratio_range);
  check_range("ni.congestion_window_cycles", p.congestion_window_cycles,
              CompressionParams::congestion_window_cycles_range);
  validate(p.codec);
}

const std::vector<CompressionPolicyEntry>& compression_policies() {
  static const std::vector<CompressionPolicyEntry> table = {
      {"never", "no packet is compressed", [] { return std::make_unique<Never>(); }},
      {"always", "every packet whose type has a codec is compressed (ever-compression)",
       [] { return std::make_unique<Always>(); }},
      {"selective", "L >= L_th, or N (flits received in the window) > N_th, or Q (packets "
                    "waiting) > Q_th",
       [] { return std::make_unique<Selective>(); }},
  };
  return table;
}

std::unique_ptr<CompressionPolicy> make_compression_policy(const std::string& name) {
  return lookup(compression_policies(), name, "ni.compression.policy").make();
}

}  // namespace collnoc
