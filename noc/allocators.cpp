// Separable allocators built from round-robin arbiters (input stage, then output stage).
#include <algorithm>
#include <string>

#include "noc/allocator.hpp"
#include "noc/types.hpp"

namespace collnoc {

namespace {

// Position of `i` after the round-robin pointer `ptr` in a ring of `n`: smaller wins.
inline unsigned rr_rank(unsigned i, unsigned ptr, unsigned n) { return i >= ptr ? i - ptr : i + n - ptr; }

// Input-first separable VC allocator: each input VC picks one output VC (its first request with
// a free VC, the VC after that output port's round-robin pointer), then each output VC grants
// the requesting input VC after its own pointer.
class SeparableRoundRobinVcAllocator : public VcAllocator {
 public:
  explicit SeparableRoundRobinVcAllocator(const AllocatorShape& s)
      : shape_(s), port_ptr_(s.ports, 0), out_ptr_(s.ports * s.vcs, 0),
        best_(s.ports * s.vcs, kNone) {}

  void allocate(const std::vector<VcRequest>& requests, std::vector<VcGrant>& grants) override {
    grants.clear();
    const unsigned n_inputs = shape_.ports * shape_.vcs;
    touched_.clear();
    // Stage 1: one choice per input VC.
    for (std::size_t i = 0; i < requests.size();) {
      const unsigned input = requests[i].input;
      std::size_t j = i;
      bool chosen = false;
      for (; j < requests.size() && requests[j].input == input; ++j) {
        if (chosen || requests[j].vc_mask == 0) continue;
        const VcRequest& r = requests[j];
        const unsigned ptr = port_ptr_[r.out_port];
        unsigned pick = 0, best_rank = ~0u;
        for (unsigned v = 0; v < shape_.vcs; ++v) {
          if (!(r.vc_mask >> v & 1u)) continue;
          const unsigned rank = rr_rank(v, ptr, shape_.vcs);
          if (rank < best_rank) best_rank = rank, pick = v;
        }
        const unsigned ovc = r.out_port * shape_.vcs + pick;
        // Stage 2 inline: the output VC keeps the input closest after its pointer.
        if (best_[ovc] == kNone) {
          touched_.push_back(ovc);
          best_[ovc] = input;
        } else if (rr_rank(input, out_ptr_[ovc], n_inputs) <
                   rr_rank(best_[ovc], out_ptr_[ovc], n_inputs)) {
          best_[ovc] = input;
        }
        chosen = true;
      }
      i = j;
    }
    std::sort(touched_.begin(), touched_.end());
    for (unsigned ovc : touched_) {
      const unsigned input = best_[ovc];
      best_[ovc] = kNone;
      const unsigned port = ovc / shape_.vcs, vc = ovc % shape_.vcs;
      grants.push_back(VcGrant{static_cast<std::uint16_t>(input), static_cast<std::uint16_t>(port),
                               static_cast<std::uint8_t>(vc)});
      out_ptr_[ovc] = (input + 1) % n_inputs;
      port_ptr_[port] = (vc + 1) % shape_.vcs;
    }
  }

 private:
  static constexpr unsigned kNone = ~0u;
  AllocatorShape shape_;
  std::vector<unsigned> port_ptr_;  // per output port: next VC to hand out
  std::vector<unsigned> out_ptr_;   // per output VC: next input VC to favour
  std::vector<unsigned> best_;
  std::vector<unsigned> touched_;
};

// Input-first separable switch allocator: each input port picks one of its requesting VCs
// (round-robin), then each output port picks one of the input ports that chose it (round-robin).
// Pointers advance only on a grant, so every requester is served within ports x vcs grants.
class SeparableRoundRobinSwitchAllocator : public SwitchAllocator {
 public:
  explicit SeparableRoundRobinSwitchAllocator(const AllocatorShape& s)
      : shape_(s), in_ptr_(s.ports, 0), out_ptr_(s.ports, 0), in_pick_(s.ports, kNone),
        out_pick_(s.ports, kNone) {}

  void allocate(const std::vector<SwitchRequest>& requests, std::vector<unsigned>& winners) override {
    winners.clear();
    for (unsigned i = 0; i < requests.size(); ++i) {
      const SwitchRequest& r = requests[i];
      unsigned& pick = in_pick_[r.in_port];
      if (pick == kNone ||
          rr_rank(r.in_vc, in_ptr_[r.in_port], shape_.vcs) <
              rr_rank(requests[pick].in_vc, in_ptr_[r.in_port], shape_.vcs))
        pick = i;
    }
    for (unsigned i = 0; i < requests.size(); ++i) {
      const SwitchRequest& r = requests[i];
      if (in_pick_[r.in_port] != i) continue;
      unsigned& pick = out_pick_[r.out_port];
      if (pick == kNone ||
          rr_rank(r.in_port, out_ptr_[r.out_port], shape_.ports) <
              rr_rank(requests[pick].in_port, out_ptr_[r.out_port], shape_.ports))
        pick = i;
    }
    for (unsigned i = 0; i < requests.size(); ++i) {
      const SwitchRequest& r = requests[i];
      if (out_pick_[r.out_port] == i) {
        winners.push_back(i);
        out_ptr_[r.out_port] = (r.in_port + 1) % shape_.ports;
        in_ptr_[r.in_port] = (r.in_vc + 1) % shape_.vcs;
      }
    }
    for (const SwitchRequest& r : requests) in_pick_[r.in_port] = out_pick_[r.out_port] = kNone;
  }

 private:
  static constexpr unsigned kNone = ~0u;
  AllocatorShape shape_;
  std::vector<unsigned> in_ptr_, out_ptr_, in_pick_, out_pick_;
};

}  // namespace

const std::vector<VcAllocatorEntry>& vc_allocators() {
  static const std::vector<VcAllocatorEntry> table = {
      {"round_robin", "separable input-first, round-robin arbiters at both stages",
       [](const AllocatorShape& s) { return std::make_unique<SeparableRoundRobinVcAllocator>(s); }},
  };
  return table;
}

const std::vector<SwitchAllocatorEntry>& switch_allocators() {
  static const std::vector<SwitchAllocatorEntry> table = {
      {"round_robin", "separable input-first, round-robin arbiters at both stages",
       [](const AllocatorShape& s) {
         return std::make_unique<SeparableRoundRobinSwitchAllocator>(s);
       }},
  };
  return table;
}

std::unique_ptr<VcAllocator> make_vc_allocator(const std::string& name, const AllocatorShape& s) {
  return lookup(vc_allocators(), name, "router.vc_allocator").make(s);
}

std::unique_ptr<SwitchAllocator> make_switch_allocator(const std::string& name,
                                                       const AllocatorShape& s) {
  return lookup(switch_allocators(), name, "router.switch_allocator").make(s);
}

}  // namespace collnoc
