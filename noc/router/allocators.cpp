// Separable allocators built from round-robin arbiters (input stage, then output stage).
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "noc/router/allocator.hpp"
#include "noc/types.hpp"

namespace collnoc {

namespace {

// Position of `i` after the round-robin pointer `ptr` in a ring of `n`: smaller wins.
inline unsigned rr_rank(unsigned i, unsigned ptr, unsigned n) { return i >= ptr ? i - ptr : i + n - ptr; }

// Each allocator keeps its arbiters' state in narrow integers in one small array from the
// router's state memory rather than in several vectors: a router evaluation touches a line or
// two of it instead of one line per array (a large network's routers do not stay in cache
// between cycles).

// Input-first separable VC allocator: each input VC picks one output VC (its first request with
// a free VC, the VC after that output port's round-robin pointer), then each output VC grants
// the requesting input VC after its own pointer.
// (alignas: the first of its router's state, on a cache line of its own start.)
class alignas(64) SeparableRoundRobinVcAllocator : public VcAllocator {
 public:
  SeparableRoundRobinVcAllocator(const AllocatorShape& s, StateMemory& memory) : shape_(s) {
    const unsigned n = s.ports * s.vcs;
    port_ptr_ = memory.array<std::uint16_t>(s.ports + 3 * n);
    out_ptr_ = port_ptr_ + s.ports;
    best_ = out_ptr_ + n;
    touched_ = best_ + n;
    std::fill(best_, touched_, kNone);
  }

  void allocate(const std::vector<VcRequest>& requests, std::vector<VcGrant>& grants) override {
    grants.clear();
    const unsigned n_inputs = shape_.ports * shape_.vcs;
    unsigned touched = 0;
    // Stage 1: one choice per input VC.
    for (std::size_t i = 0; i < requests.size();) {
      const unsigned input = requests[i].input;
      std::size_t j = i;
      bool chosen = false;
      for (; j < requests.size() && requests[j].input == input; ++j) {
        if (chosen || requests[j].vc_mask == 0) continue;
        const VcRequest& r = requests[j];
        const std::uint32_t after = r.vc_mask & (~std::uint32_t{0} << port_ptr_[r.out_port]);
        const unsigned pick = static_cast<unsigned>(__builtin_ctz(after ? after : r.vc_mask));
        const unsigned ovc = r.out_port * shape_.vcs + pick;
        // Stage 2 inline: the output VC keeps the input closest after its pointer.
        if (best_[ovc] == kNone) {
          touched_[touched++] = static_cast<std::uint16_t>(ovc);
          best_[ovc] = static_cast<std::uint16_t>(input);
        } else if (rr_rank(input, out_ptr_[ovc], n_inputs) <
                   rr_rank(best_[ovc], out_ptr_[ovc], n_inputs)) {
          best_[ovc] = static_cast<std::uint16_t>(input);
        }
        chosen = true;
      }
      i = j;
    }
    std::sort(touched_, touched_ + touched);
    for (unsigned t = 0; t < touched; ++t) {
      const unsigned ovc = touched_[t];
      const unsigned input = best_[ovc];
      best_[ovc] = kNone;
      const unsigned port = ovc / shape_.vcs, vc = ovc % shape_.vcs;
      grants.push_back(VcGrant{static_cast<std::uint16_t>(input), static_cast<std::uint16_t>(port),
                               static_cast<std::uint8_t>(vc)});
      out_ptr_[ovc] = static_cast<std::uint16_t>(ring_next(input, n_inputs));
      port_ptr_[port] = static_cast<std::uint16_t>(ring_next(vc, shape_.vcs));
    }
  }

 private:
  static constexpr std::uint16_t kNone = 0xffff;  // (at most 64 ports x 32 VCs = 2048 inputs)
  AllocatorShape shape_;
  std::uint16_t* port_ptr_;  // per output port: next VC to hand out
  std::uint16_t* out_ptr_;   // per output VC: next input VC to favour
  std::uint16_t* best_;      // per output VC: the input VC it grants this cycle (kNone: none)
  std::uint16_t* touched_;   // output VCs asked for this cycle
};

// Input-first separable switch allocator: each input port picks one of its requesting VCs
// (round-robin), then each output port picks one of the input ports that chose it (round-robin).
// Pointers advance only on a grant, so every requester is served within ports x vcs grants.
// Requests and requesters are bit sets: a pick is a mask and a count of trailing zeros.
class alignas(64) SeparableRoundRobinSwitchAllocator : public SwitchAllocator {
 public:
  SeparableRoundRobinSwitchAllocator(const AllocatorShape& s, StateMemory& memory) : shape_(s) {
    if (s.ports > kMaxRouterPorts)
      throw std::logic_error("allocator: " + std::to_string(s.ports) + " ports, at most " +
                             std::to_string(kMaxRouterPorts) + " (the topology checks it)");
    // Per port: requesters (8 bytes), then three 1-byte fields.
    requesters_ = memory.array<std::uint64_t>(s.ports + (3 * s.ports + 7) / 8);
    in_choice_ = reinterpret_cast<std::uint8_t*>(requesters_ + s.ports);
    in_ptr_ = in_choice_ + s.ports;
    out_ptr_ = in_ptr_ + s.ports;
  }

  void allocate(const SwitchRequests& r, SwitchGrants& g) override {
    // Stage 1: each input port takes its first VC at or after its pointer, else its first.
    std::uint64_t outputs = 0;
    for (std::uint64_t bits = r.ports; bits; bits &= bits - 1) {
      const unsigned port = static_cast<unsigned>(__builtin_ctzll(bits));
      const std::uint32_t vcs = r.vcs[port];
      const std::uint32_t after = vcs & (~std::uint32_t{0} << in_ptr_[port]);
      const unsigned vc = static_cast<unsigned>(__builtin_ctz(after ? after : vcs));
      in_choice_[port] = static_cast<std::uint8_t>(vc);
      const unsigned out = r.out_port[port * shape_.vcs + vc];
      requesters_[out] |= std::uint64_t{1} << port;
      outputs |= std::uint64_t{1} << out;
    }
    // Stage 2: each output asked for takes the requesting input port at or after its pointer.
    g.outputs = outputs;
    g.count = 0;
    for (std::uint64_t bits = outputs; bits; bits &= bits - 1) {
      const unsigned out = static_cast<unsigned>(__builtin_ctzll(bits));
      const std::uint64_t mask = requesters_[out];
      requesters_[out] = 0;
      const std::uint64_t after = mask & (~std::uint64_t{0} << out_ptr_[out]);
      const unsigned port = static_cast<unsigned>(__builtin_ctzll(after ? after : mask));
      const unsigned vc = in_choice_[port];
      g.winners[g.count++] = SwitchGrants::Winner{static_cast<std::uint8_t>(port),
                                                  static_cast<std::uint8_t>(vc),
                                                  static_cast<std::uint8_t>(out)};
      out_ptr_[out] = static_cast<std::uint8_t>(ring_next(port, shape_.ports));
      in_ptr_[port] = static_cast<std::uint8_t>(ring_next(vc, shape_.vcs));
    }
  }

 private:
  AllocatorShape shape_;
  std::uint64_t* requesters_;  // per output: input ports asking for it (zero between cycles)
  std::uint8_t* in_choice_;    // per input port: the VC it chose this cycle
  std::uint8_t* in_ptr_;       // per input port: next VC to favour
  std::uint8_t* out_ptr_;      // per output port: next input port to favour
};

}  // namespace

// The registration of allocator class A.
template <typename Base, typename A>
AllocatorMaker<Base> maker() {
  return [](const AllocatorShape& shape, StateMemory& memory) -> StateMemory::Owned<Base> {
    StateMemory::Owned<A> a = memory.make<A>(shape, memory);
    return StateMemory::Owned<Base>(a.release());
  };
}

const std::vector<VcAllocatorEntry>& vc_allocators() {
  static const std::vector<VcAllocatorEntry> table = {
      {"round_robin", "separable input-first, round-robin arbiters at both stages",
       maker<VcAllocator, SeparableRoundRobinVcAllocator>()},
  };
  return table;
}

const std::vector<SwitchAllocatorEntry>& switch_allocators() {
  static const std::vector<SwitchAllocatorEntry> table = {
      {"round_robin", "separable input-first, round-robin arbiters at both stages",
       maker<SwitchAllocator, SeparableRoundRobinSwitchAllocator>()},
  };
  return table;
}

const AllocatorMaker<VcAllocator>& vc_allocator_maker(const std::string& name) {
  return lookup(vc_allocators(), name, "router.vc_allocator").make;
}

const AllocatorMaker<SwitchAllocator>& switch_allocator_maker(const std::string& name) {
  return lookup(switch_allocators(), name, "router.switch_allocator").make;
}

StandaloneAllocator<VcAllocator> make_vc_allocator(const std::string& name, const AllocatorShape& s) {
  return StandaloneAllocator<VcAllocator>(vc_allocator_maker(name), s);
}

StandaloneAllocator<SwitchAllocator> make_switch_allocator(const std::string& name,
                                                          const AllocatorShape& s) {
  return StandaloneAllocator<SwitchAllocator>(switch_allocator_maker(name), s);
}

}  // namespace collnoc
