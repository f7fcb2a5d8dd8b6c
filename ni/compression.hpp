// Compression at the NI (SPEC 2.4): when to compress a packet (a policy, chosen by name) and how
// its size is counted.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ni/codec.hpp"
#include "noc/registry.hpp"
#include "noc/sim/delay_line.hpp"

namespace collnoc {

enum class CompressedSize : std::uint8_t {
  real,         // the packet's words go through the codec; its flits follow from the bits
  fixed_ratio,  // every compressed packet shrinks by `fixed_ratio` (a size model)
};

struct CompressionParams {
  std::string policy = "never";           // never | always | selective
  CompressedSize size_mode = CompressedSize::real;
  double fixed_ratio = 2.0;               // fixed_ratio mode; also C of the break-even model
  unsigned codec_latency_cycles = 100;    // D: compression + decompression, once per packet
  unsigned congestion_window_cycles = 1000;
  unsigned threshold_flits = 0;           // L_th; 0 = the break-even length of the model
  // Selective's congestion test: a short packet is compressed when N > n_threshold_flits or
  // Q > q_threshold_packets (0 and 0: SPEC 2.4's literal N > 0 or Q > 0).
  unsigned n_threshold_flits = 0;
  unsigned q_threshold_packets = 0;
  // true: encoder and decoder are pipelined, a packet may enter every cycle (D is latency
  // only). false: each NI has one encoder and one decoder, each busy D cycles per compressed
  // packet (initiation interval D), so packets queue behind them.
  bool codec_pipelined = true;
  CodecParams codec;                      // LSB-cut bits

  // L_th in force: threshold_flits, or the smallest L with L - L/C > D (compression pays in the
  // zero-load model T = T_link(H+1) + T_switch H + L/C + D).
  unsigned threshold() const;

  // C > 1: a "compression" that does not shrink has no break-even length.
  static constexpr RealRange fixed_ratio_range{1.0, 1e9, true};
  static constexpr UintRange codec_latency_cycles_range{0, kU32Max};
  static constexpr UintRange congestion_window_cycles_range{1, kU32Max};
  static constexpr UintRange threshold_flits_range{0, kU32Max};
  static constexpr UintRange n_threshold_flits_range{0, kU32Max};
  static constexpr UintRange q_threshold_packets_range{0, kU32Max};
};

// Throws ParamError naming the ni.* key at fault.
void validate(const CompressionParams& p);

// The smallest packet length L (flits) with L - L/ratio > codec_latency: where compression
// shortens a packet's zero-load latency. kNoBreakEven beyond 2^53 flits (no packet is that
// long). Needs ratio > 1.
constexpr std::uint64_t kNoBreakEven = ~std::uint64_t{0};
std::uint64_t break_even_flits(double codec_latency_cycles, double ratio);

// What a policy sees for the packet at the head of the source queue.
struct CompressionContext {
  unsigned packet_flits;                  // L, uncompressed
  std::uint64_t flits_received_in_window; // N: flits this NI received in the latest window
  std::size_t packets_waiting;            // Q: packets in the source queue besides this one
  unsigned threshold_flits;               // L_th
  unsigned n_threshold_flits;             // selective: N above this is congestion
  unsigned q_threshold_packets;           // ... and Q above this
};

class CompressionPolicy {
 public:
  virtual ~CompressionPolicy() = default;
  virtual bool compress(const CompressionContext& c) const = 0;
  // Whether the policy reads N (the NI then counts arrivals over the window).
  virtual bool needs_window() const { return false; }
};

using CompressionPolicyEntry = Registered<std::function<std::unique_ptr<CompressionPolicy>()>>;
const std::vector<CompressionPolicyEntry>& compression_policies();
std::unique_ptr<CompressionPolicy> make_compression_policy(const std::string& name);

// N of the selective policy: the cycles of the flits an NI received in the latest window. The
// ejection side records them (only when a policy reads N), the packetizer counts them.
class ArrivalWindow {
 public:
  void reset(Cycle window_cycles) {
    window_ = window_cycles;
    arrivals_.reset(window_cycles);
  }
  bool on() const { return arrivals_.capacity() > 0; }
  void record(Cycle now) {
    if (arrivals_.full()) arrivals_.pop();
    arrivals_.push(now);
  }
  std::uint64_t flits(Cycle now) {
    while (!arrivals_.empty() && arrivals_.front() + window_ <= now) arrivals_.pop();
    return arrivals_.size();
  }

 private:
  Cycle window_ = 0;
  Ring<Cycle> arrivals_;
};

// One codec half (the NI's encoder or decoder): when a compressed packet entering at `now` is
// through. Pipelined, a packet enters every cycle and leaves `latency` later; unpipelined, it
// waits until the previous packet is through and holds the unit `occupancy` cycles.
class CodecUnit {
 public:
  CodecUnit(bool pipelined, unsigned occupancy_cycles)
      : pipelined_(pipelined), occupancy_(occupancy_cycles) {}
  // The cycle the packet may start (now, or when the unit frees up), and the unit then held.
  Cycle start(Cycle now) {
    if (pipelined_) return now;
    const Cycle begin = std::max(now, free_);
    free_ = begin + occupancy_;
    wait_cycles_ += begin - now;
    return begin;
  }
  std::uint64_t wait_cycles() const { return wait_cycles_; }

 private:
  bool pipelined_;
  unsigned occupancy_;
  Cycle free_ = 0;
  std::uint64_t wait_cycles_ = 0;  // packets' cycles spent waiting for the unit
};

}  // namespace collnoc
