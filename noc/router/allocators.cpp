// The VC and switch allocators: separable (input-first, output-first; round-robin or
// oldest-first arbiters), iSLIP and wavefront. docs/router.md has each one's worked example.
#include <algorithm>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>

#include "noc/router/allocator.hpp"
#include "noc/types.hpp"

namespace collnoc {

namespace {

// Position of `i` after the round-robin pointer `ptr` in a ring of `n`: smaller wins.
inline unsigned rr_rank(unsigned i, unsigned ptr, unsigned n) { return i >= ptr ? i - ptr : i + n - ptr; }

// A round-robin arbiter over the bits of `mask` (not zero): the first at or after `ptr`, else
// the first.
inline unsigned rr_pick(std::uint32_t mask, unsigned ptr) {
  const std::uint32_t after = mask & (~std::uint32_t{0} << ptr);
  return static_cast<unsigned>(__builtin_ctz(after ? after : mask));
}
inline unsigned rr_pick(std::uint64_t mask, unsigned ptr) {
  const std::uint64_t after = mask & (~std::uint64_t{0} << ptr);
  return static_cast<unsigned>(__builtin_ctzll(after ? after : mask));
}

// An oldest-first arbiter over the bits of `mask` (not zero): the smallest age(i), ties to the
// first at or after `ptr` (round-robin).
template <typename Mask, typename Age>
inline unsigned oldest_pick(Mask mask, unsigned ptr, Age age) {
  const Mask after = mask & (~Mask{0} << ptr);
  unsigned best = 0;
  Cycle best_age = kNever;
  // The bits at or after the pointer, then the others: the first of equal ages wins.
  for (Mask part : {after, static_cast<Mask>(mask & ~after)})
    for (; part; part &= part - 1) {
      const unsigned i = static_cast<unsigned>(__builtin_ctzll(part));
      const Cycle a = age(i);
      if (a < best_age || best_age == kNever) best = i, best_age = a;
    }
  return best;
}

void check_ports(const AllocatorShape& s) {
  if (s.ports > kMaxRouterPorts)
    throw std::logic_error("allocator: " + std::to_string(s.ports) + " ports, at most " +
                           std::to_string(kMaxRouterPorts) + " (the topology checks it)");
}

// Per input port in `r`: the output ports its requesting VCs ask for (the port-level request
// matrix of the allocators that match ports first and pick the VC after).
inline void port_requests(const SwitchRequests& r, unsigned vcs, std::uint64_t* want) {
  for (std::uint64_t bits = r.ports; bits; bits &= bits - 1) {
    const unsigned p = static_cast<unsigned>(__builtin_ctzll(bits));
    std::uint64_t w = 0;
    for (std::uint32_t v = r.vcs[p]; v; v &= v - 1)
      w |= std::uint64_t{1} << r.out_port[p * vcs + static_cast<unsigned>(__builtin_ctz(v))];
    want[p] = w;
  }
}

// The VCs of input port `p` that ask for output `out`.
inline std::uint32_t vcs_for(const SwitchRequests& r, unsigned vcs, unsigned p, unsigned out) {
  std::uint32_t m = 0;
  for (std::uint32_t v = r.vcs[p]; v; v &= v - 1) {
    const unsigned vc = static_cast<unsigned>(__builtin_ctz(v));
    if (r.out_port[p * vcs + vc] == out) m |= std::uint32_t{1} << vc;
  }
  return m;
}

inline void add_winner(SwitchGrants& g, unsigned port, unsigned vc, unsigned out) {
  g.winners[g.count++] = SwitchGrants::Winner{static_cast<std::uint8_t>(port),
                                              static_cast<std::uint8_t>(vc),
                                              static_cast<std::uint8_t>(out)};
  g.outputs |= std::uint64_t{1} << out;
}

// Each allocator keeps its arbiters' state in narrow integers in one small array from the
// router's state memory rather than in several vectors: a router evaluation touches a line or
// two of it instead of one line per array (a large network's routers do not stay in cache
// between cycles).

// The arrays of the separable VC allocators (input-first and output-first): round-robin
// pointers, and the choice of each output VC this cycle.
// (alignas: the first of its router's state, on a cache line of its own start.)
class alignas(64) SeparableVcAllocator : public VcAllocator {
 protected:
  SeparableVcAllocator(const AllocatorShape& s, StateMemory& memory) : shape_(s) {
    const unsigned n = s.ports * s.vcs;
    port_ptr_ = memory.array<std::uint16_t>(s.ports + 3 * n);
    out_ptr_ = port_ptr_ + s.ports;
    best_ = out_ptr_ + n;
    touched_ = best_ + n;
    std::fill(best_, touched_, kNone);
  }

  static constexpr std::uint16_t kNone = 0xffff;  // (at most 64 ports x 32 VCs = 2048 inputs)
  AllocatorShape shape_;
  std::uint16_t* port_ptr_;  // per output port: next VC to hand out (first to accept)
  std::uint16_t* out_ptr_;   // per output VC: next input VC to favour
  std::uint16_t* best_;      // per output VC: the input VC it grants this cycle (kNone: none)
  std::uint16_t* touched_;   // output VCs asked for this cycle
};

// Input-first separable VC allocator: each input VC picks one output VC (its first request with
// a free VC, the VC after that output port's round-robin pointer), then each output VC grants
// the requesting input VC after its own pointer (round_robin) or the oldest, ties to the one
// after the pointer (age).
template <bool kOldestFirst>
class SeparableInputFirstVcAllocator : public SeparableVcAllocator {
 public:
  SeparableInputFirstVcAllocator(const AllocatorShape& s, StateMemory& memory)
      : SeparableVcAllocator(s, memory) {}

  bool use_ages(const Cycle* created) override {
    if (!kOldestFirst) return false;
    created_ = created;
    return true;
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
        const unsigned pick = rr_pick(r.vc_mask, port_ptr_[r.out_port]);
        const unsigned ovc = r.out_port * shape_.vcs + pick;
        // Stage 2 inline: the output VC keeps the oldest input (age), then the one closest
        // after its pointer.
        if (best_[ovc] == kNone) {
          touched_[touched++] = static_cast<std::uint16_t>(ovc);
          best_[ovc] = static_cast<std::uint16_t>(input);
        } else if (kOldestFirst && created_[input] != created_[best_[ovc]]) {
          if (created_[input] < created_[best_[ovc]]) best_[ovc] = static_cast<std::uint16_t>(input);
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
  const Cycle* created_ = nullptr;  // age: per input VC, its front packet's creation cycle
};

// Output-first separable VC allocator: each output VC grants one of the input VCs that ask for
// it (round-robin, pointer per output VC), then each input VC accepts one of the output VCs that
// granted it: of its earliest request with a grant, the VC after that port's pointer. The
// arbiters decide in parallel; a pointer moves past its choice only when that makes a grant.
class SeparableOutputFirstVcAllocator : public SeparableVcAllocator {
 public:
  SeparableOutputFirstVcAllocator(const AllocatorShape& s, StateMemory& memory)
      : SeparableVcAllocator(s, memory) {}

  void allocate(const std::vector<VcRequest>& requests, std::vector<VcGrant>& grants) override {
    grants.clear();
    const unsigned n_inputs = shape_.ports * shape_.vcs;
    unsigned touched = 0;
    // Stage 1: every output VC asked for picks the requesting input VC after its pointer.
    for (const VcRequest& r : requests)
      for (std::uint32_t m = r.vc_mask; m; m &= m - 1) {
        const unsigned ovc = r.out_port * shape_.vcs + static_cast<unsigned>(__builtin_ctz(m));
        if (best_[ovc] == kNone) {
          touched_[touched++] = static_cast<std::uint16_t>(ovc);
          best_[ovc] = r.input;
        } else if (rr_rank(r.input, out_ptr_[ovc], n_inputs) <
                   rr_rank(best_[ovc], out_ptr_[ovc], n_inputs)) {
          best_[ovc] = r.input;
        }
      }
    // Stage 2: each input VC accepts one grant (requests are grouped by input, earliest first).
    for (std::size_t i = 0; i < requests.size();) {
      const unsigned input = requests[i].input;
      bool accepted = false;
      for (; i < requests.size() && requests[i].input == input; ++i) {
        if (accepted) continue;
        const VcRequest& r = requests[i];
        std::uint32_t granted = 0;
        for (std::uint32_t m = r.vc_mask; m; m &= m - 1) {
          const unsigned v = static_cast<unsigned>(__builtin_ctz(m));
          if (best_[r.out_port * shape_.vcs + v] == input) granted |= std::uint32_t{1} << v;
        }
        if (!granted) continue;
        const unsigned vc = rr_pick(granted, port_ptr_[r.out_port]);
        grants.push_back(VcGrant{r.input, r.out_port, static_cast<std::uint8_t>(vc)});
        accepted = true;
      }
    }
    for (unsigned t = 0; t < touched; ++t) best_[touched_[t]] = kNone;
    for (const VcGrant& g : grants) {  // (after the choices: the arbiters decide in parallel)
      out_ptr_[g.out_port * shape_.vcs + g.out_vc] = static_cast<std::uint16_t>(ring_next(g.input, n_inputs));
      port_ptr_[g.out_port] = static_cast<std::uint16_t>(ring_next(g.out_vc, shape_.vcs));
    }
  }
};

// iSLIP (McKeown 1999) on the input VC x output VC request matrix: per iteration, every
// unmatched output VC grants the unmatched requesting input VC at or after its grant pointer;
// every input VC with grants accepts the output VC at or after its accept pointer. Pointers move
// one past the matched partner only for grants accepted in the first iteration. Request order
// (routing candidates) is no priority here: the accept arbiter is round-robin.
class alignas(64) IslipVcAllocator : public VcAllocator {
 public:
  IslipVcAllocator(const AllocatorShape& s, StateMemory& memory)
      : shape_(s), iterations_(std::max(1u, s.islip_iterations)) {
    const unsigned n = s.ports * s.vcs, words = (n + 63) / 64;
    matched_in_ = memory.array<std::uint64_t>(2 * words + (6 * n + 3) / 4);
    matched_out_ = matched_in_ + words;
    grant_ptr_ = reinterpret_cast<std::uint16_t*>(matched_out_ + words);
    accept_ptr_ = grant_ptr_ + n;
    best_ = accept_ptr_ + n;
    accept_ = best_ + n;
    touched_ = accept_ + n;
    inputs_ = touched_ + n;
    std::fill(best_, touched_, kNone);  // best_ and accept_
  }

  void allocate(const std::vector<VcRequest>& requests, std::vector<VcGrant>& grants) override {
    grants.clear();
    const unsigned n = shape_.ports * shape_.vcs;
    for (unsigned it = 0; it < iterations_; ++it) {
      // Request and grant: each unmatched output VC keeps the input closest after its pointer.
      unsigned touched = 0;
      for (const VcRequest& r : requests) {
        if (bit(matched_in_, r.input)) continue;
        for (std::uint32_t m = r.vc_mask; m; m &= m - 1) {
          const unsigned ovc = r.out_port * shape_.vcs + static_cast<unsigned>(__builtin_ctz(m));
          if (bit(matched_out_, ovc)) continue;
          if (best_[ovc] == kNone) {
            touched_[touched++] = static_cast<std::uint16_t>(ovc);
            best_[ovc] = r.input;
          } else if (rr_rank(r.input, grant_ptr_[ovc], n) < rr_rank(best_[ovc], grant_ptr_[ovc], n)) {
            best_[ovc] = r.input;
          }
        }
      }
      if (touched == 0) break;
      // Accept: each input VC granted keeps the output VC closest after its pointer.
      unsigned inputs = 0;
      for (unsigned t = 0; t < touched; ++t) {
        const unsigned ovc = touched_[t], input = best_[ovc];
        best_[ovc] = kNone;
        if (accept_[input] == kNone) {
          inputs_[inputs++] = static_cast<std::uint16_t>(input);
          accept_[input] = static_cast<std::uint16_t>(ovc);
        } else if (rr_rank(ovc, accept_ptr_[input], n) < rr_rank(accept_[input], accept_ptr_[input], n)) {
          accept_[input] = static_cast<std::uint16_t>(ovc);
        }
      }
      for (unsigned k = 0; k < inputs; ++k) {
        const unsigned input = inputs_[k], ovc = accept_[input];
        accept_[input] = kNone;
        set(matched_in_, input);
        set(matched_out_, ovc);
        grants.push_back(VcGrant{static_cast<std::uint16_t>(input),
                                 static_cast<std::uint16_t>(ovc / shape_.vcs),
                                 static_cast<std::uint8_t>(ovc % shape_.vcs)});
        if (it == 0) {
          grant_ptr_[ovc] = static_cast<std::uint16_t>(ring_next(input, n));
          accept_ptr_[input] = static_cast<std::uint16_t>(ring_next(ovc, n));
        }
      }
    }
    for (const VcGrant& g : grants) {
      clear(matched_in_, g.input);
      clear(matched_out_, g.out_port * shape_.vcs + g.out_vc);
    }
  }

 private:
  static constexpr std::uint16_t kNone = 0xffff;
  static bool bit(const std::uint64_t* b, unsigned i) { return (b[i >> 6] >> (i & 63)) & 1u; }
  static void set(std::uint64_t* b, unsigned i) { b[i >> 6] |= std::uint64_t{1} << (i & 63); }
  static void clear(std::uint64_t* b, unsigned i) { b[i >> 6] &= ~(std::uint64_t{1} << (i & 63)); }
  AllocatorShape shape_;
  unsigned iterations_;
  std::uint64_t* matched_in_;   // input VCs matched this cycle (bits; zero between cycles)
  std::uint64_t* matched_out_;  // output VCs matched this cycle
  std::uint16_t* grant_ptr_;    // per output VC: the input VC it grants first
  std::uint16_t* accept_ptr_;   // per input VC: the output VC it accepts first
  std::uint16_t* best_;         // per output VC: its grant this iteration (kNone: none)
  std::uint16_t* accept_;       // per input VC: the grant it accepts this iteration
  std::uint16_t* touched_;      // output VCs granting this iteration
  std::uint16_t* inputs_;       // input VCs granted this iteration
};

// Wavefront allocator (Tamir & Chi 1993) on the input VC x output VC matrix (n x n): the cells
// (i, j) with (i + j) mod n = d form diagonal d, whose cells share no row or column. Diagonal
// p (the priority diagonal) grants all its requests, then p + 1 those whose row and column are
// still free, and so on round the array; p moves on by one every allocation. A sparse version:
// the requested cells sorted by their diagonal's distance from p give the same grants.
class alignas(64) WavefrontVcAllocator : public VcAllocator {
 public:
  WavefrontVcAllocator(const AllocatorShape& s, StateMemory& memory) : shape_(s) {
    const unsigned n = s.ports * s.vcs, words = (n + 63) / 64;
    taken_in_ = memory.array<std::uint64_t>(2 * words);
    taken_out_ = taken_in_ + words;
    cells_.reserve(64);
  }
  bool moves_without_grants() const override { return true; }  // (the priority diagonal)

  void allocate(const std::vector<VcRequest>& requests, std::vector<VcGrant>& grants) override {
    grants.clear();
    const unsigned n = shape_.ports * shape_.vcs;
    cells_.clear();
    for (const VcRequest& r : requests)
      for (std::uint32_t m = r.vc_mask; m; m &= m - 1) {
        const unsigned ovc = r.out_port * shape_.vcs + static_cast<unsigned>(__builtin_ctz(m));
        const unsigned d = (r.input + ovc) % n;  // the cell's diagonal; its distance from p:
        const unsigned wave = d >= priority_ ? d - priority_ : d + n - priority_;
        cells_.push_back(std::uint64_t{wave} << 32 | std::uint64_t{r.input} << 16 | ovc);
      }
    std::sort(cells_.begin(), cells_.end());
    for (std::uint64_t c : cells_) {
      const unsigned input = static_cast<unsigned>(c >> 16) & 0xffff, ovc = c & 0xffff;
      if (bit(taken_in_, input) || bit(taken_out_, ovc)) continue;
      set(taken_in_, input);
      set(taken_out_, ovc);
      grants.push_back(VcGrant{static_cast<std::uint16_t>(input),
                               static_cast<std::uint16_t>(ovc / shape_.vcs),
                               static_cast<std::uint8_t>(ovc % shape_.vcs)});
    }
    for (const VcGrant& g : grants) {
      clear(taken_in_, g.input);
      clear(taken_out_, g.out_port * shape_.vcs + g.out_vc);
    }
    priority_ = ring_next(priority_, n);
  }

 private:
  static bool bit(const std::uint64_t* b, unsigned i) { return (b[i >> 6] >> (i & 63)) & 1u; }
  static void set(std::uint64_t* b, unsigned i) { b[i >> 6] |= std::uint64_t{1} << (i & 63); }
  static void clear(std::uint64_t* b, unsigned i) { b[i >> 6] &= ~(std::uint64_t{1} << (i & 63)); }
  AllocatorShape shape_;
  unsigned priority_ = 0;         // the priority diagonal
  std::uint64_t* taken_in_;       // rows granted this cycle (bits; zero between cycles)
  std::uint64_t* taken_out_;      // columns granted this cycle
  std::vector<std::uint64_t> cells_;  // this cycle's requests: wave << 32 | input << 16 | output VC
};

// Input-first separable switch allocator: each input port picks one of its requesting VCs, then
// each output port picks one of the input ports that chose it; round-robin at both stages
// (round_robin), or the oldest packet first with round-robin among equal ages (age). Pointers
// advance only on a grant, so under round-robin every requester is served within ports x vcs
// grants. Requests and requesters are bit sets: a pick is a mask and a count of trailing zeros.
template <bool kOldestFirst>
class alignas(64) SeparableInputFirstSwitchAllocator : public SwitchAllocator {
 public:
  SeparableInputFirstSwitchAllocator(const AllocatorShape& s, StateMemory& memory) : shape_(s) {
    check_ports(s);
    // Per port: requesters (8 bytes), then three 1-byte fields.
    requesters_ = memory.array<std::uint64_t>(s.ports + (3 * s.ports + 7) / 8);
    in_choice_ = reinterpret_cast<std::uint8_t*>(requesters_ + s.ports);
    in_ptr_ = in_choice_ + s.ports;
    out_ptr_ = in_ptr_ + s.ports;
  }

  bool use_ages(const Cycle* created) override {
    if (!kOldestFirst) return false;
    created_ = created;
    return true;
  }

  void allocate(const SwitchRequests& r, SwitchGrants& g) override {
    // Stage 1: each input port takes its first VC at or after its pointer, else its first.
    std::uint64_t outputs = 0;
    for (std::uint64_t bits = r.ports; bits; bits &= bits - 1) {
      const unsigned port = static_cast<unsigned>(__builtin_ctzll(bits));
      const std::uint32_t vcs = r.vcs[port];
      unsigned vc;
      if constexpr (kOldestFirst)
        vc = oldest_pick(vcs, in_ptr_[port],
                         [&](unsigned v) { return created_[port * shape_.vcs + v]; });
      else
        vc = rr_pick(vcs, in_ptr_[port]);
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
      unsigned port;
      if constexpr (kOldestFirst)
        port = oldest_pick(mask, out_ptr_[out], [&](unsigned p) {
          return created_[p * shape_.vcs + in_choice_[p]];
        });
      else
        port = rr_pick(mask, out_ptr_[out]);
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
  const Cycle* created_ = nullptr;  // age: per input VC, its front packet's creation cycle
};

// Output-first separable switch allocator: each output port grants one of the input ports with
// a VC asking for it (round-robin), then each input port granted accepts one of its VCs whose
// output granted it (round-robin over its VCs). A pointer moves past its choice only when that
// makes a grant.
class alignas(64) SeparableOutputFirstSwitchAllocator : public SwitchAllocator {
 public:
  SeparableOutputFirstSwitchAllocator(const AllocatorShape& s, StateMemory& memory) : shape_(s) {
    check_ports(s);
    requesters_ = memory.array<std::uint64_t>(2 * s.ports + (2 * s.ports + 7) / 8);
    granted_ = requesters_ + s.ports;
    in_ptr_ = reinterpret_cast<std::uint8_t*>(granted_ + s.ports);
    out_ptr_ = in_ptr_ + s.ports;
  }

  void allocate(const SwitchRequests& r, SwitchGrants& g) override {
    std::uint64_t outputs = 0;
    for (std::uint64_t bits = r.ports; bits; bits &= bits - 1) {
      const unsigned p = static_cast<unsigned>(__builtin_ctzll(bits));
      for (std::uint32_t v = r.vcs[p]; v; v &= v - 1) {
        const unsigned out = r.out_port[p * shape_.vcs + static_cast<unsigned>(__builtin_ctz(v))];
        requesters_[out] |= std::uint64_t{1} << p;
        outputs |= std::uint64_t{1} << out;
      }
    }
    // Stage 1: each output asked for grants the input port at or after its pointer.
    std::uint64_t inputs = 0;
    for (std::uint64_t bits = outputs; bits; bits &= bits - 1) {
      const unsigned out = static_cast<unsigned>(__builtin_ctzll(bits));
      const unsigned p = rr_pick(requesters_[out], out_ptr_[out]);
      requesters_[out] = 0;
      granted_[p] |= std::uint64_t{1} << out;
      inputs |= std::uint64_t{1} << p;
    }
    // Stage 2: each input port granted sends one of the VCs whose output granted it.
    g.outputs = 0;
    g.count = 0;
    for (std::uint64_t bits = inputs; bits; bits &= bits - 1) {
      const unsigned p = static_cast<unsigned>(__builtin_ctzll(bits));
      std::uint32_t vcs = 0;
      for (std::uint32_t v = r.vcs[p]; v; v &= v - 1) {
        const unsigned vc = static_cast<unsigned>(__builtin_ctz(v));
        if ((granted_[p] >> r.out_port[p * shape_.vcs + vc]) & 1u) vcs |= std::uint32_t{1} << vc;
      }
      granted_[p] = 0;
      const unsigned vc = rr_pick(vcs, in_ptr_[p]);
      const unsigned out = r.out_port[p * shape_.vcs + vc];
      add_winner(g, p, vc, out);
      out_ptr_[out] = static_cast<std::uint8_t>(ring_next(p, shape_.ports));
      in_ptr_[p] = static_cast<std::uint8_t>(ring_next(vc, shape_.vcs));
    }
  }

 private:
  AllocatorShape shape_;
  std::uint64_t* requesters_;  // per output: input ports asking for it (zero between cycles)
  std::uint64_t* granted_;     // per input port: outputs granting it (zero between cycles)
  std::uint8_t* in_ptr_;       // per input port: next VC to favour
  std::uint8_t* out_ptr_;      // per output port: next input port to favour
};

// iSLIP (McKeown 1999) on the input port x output port matrix (an input asks for every output
// one of its VCs wants): per iteration, each unmatched output grants the unmatched requesting
// input at or after its grant pointer, each input granted accepts the output at or after its
// accept pointer; pointers move one past the partner only for first-iteration accepts. A
// matched input then sends the VC for that output after its VC pointer (round-robin).
class alignas(64) IslipSwitchAllocator : public SwitchAllocator {
 public:
  IslipSwitchAllocator(const AllocatorShape& s, StateMemory& memory)
      : shape_(s), iterations_(std::max(1u, s.islip_iterations)) {
    check_ports(s);
    want_ = memory.array<std::uint64_t>(3 * s.ports + (3 * s.ports + 7) / 8);
    requesters_ = want_ + s.ports;
    granted_ = requesters_ + s.ports;
    grant_ptr_ = reinterpret_cast<std::uint8_t*>(granted_ + s.ports);
    accept_ptr_ = grant_ptr_ + s.ports;
    vc_ptr_ = accept_ptr_ + s.ports;
  }

  void allocate(const SwitchRequests& r, SwitchGrants& g) override {
    port_requests(r, shape_.vcs, want_);
    g.outputs = 0;
    g.count = 0;
    std::uint64_t free_in = r.ports, free_out = ~std::uint64_t{0};
    for (unsigned it = 0; it < iterations_ && free_in; ++it) {
      // Request: each unmatched input asks for every unmatched output it wants.
      std::uint64_t asked = 0;
      for (std::uint64_t bits = free_in; bits; bits &= bits - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctzll(bits));
        const std::uint64_t w = want_[p] & free_out;
        for (std::uint64_t o = w; o; o &= o - 1) requesters_[__builtin_ctzll(o)] |= std::uint64_t{1} << p;
        asked |= w;
      }
      if (!asked) break;
      // Grant.
      std::uint64_t granted_inputs = 0;
      for (std::uint64_t bits = asked; bits; bits &= bits - 1) {
        const unsigned out = static_cast<unsigned>(__builtin_ctzll(bits));
        const unsigned p = rr_pick(requesters_[out], grant_ptr_[out]);
        requesters_[out] = 0;
        granted_[p] |= std::uint64_t{1} << out;
        granted_inputs |= std::uint64_t{1} << p;
      }
      // Accept.
      for (std::uint64_t bits = granted_inputs; bits; bits &= bits - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctzll(bits));
        const unsigned out = rr_pick(granted_[p], accept_ptr_[p]);
        granted_[p] = 0;
        free_in &= ~(std::uint64_t{1} << p);
        free_out &= ~(std::uint64_t{1} << out);
        if (it == 0) {
          grant_ptr_[out] = static_cast<std::uint8_t>(ring_next(p, shape_.ports));
          accept_ptr_[p] = static_cast<std::uint8_t>(ring_next(out, shape_.ports));
        }
        const unsigned vc = rr_pick(vcs_for(r, shape_.vcs, p, out), vc_ptr_[p]);
        vc_ptr_[p] = static_cast<std::uint8_t>(ring_next(vc, shape_.vcs));
        add_winner(g, p, vc, out);
      }
    }
  }

 private:
  AllocatorShape shape_;
  unsigned iterations_;
  std::uint64_t* want_;        // per input port: outputs it asks for this cycle
  std::uint64_t* requesters_;  // per output: inputs asking for it (zero between iterations)
  std::uint64_t* granted_;     // per input: outputs granting it (zero between iterations)
  std::uint8_t* grant_ptr_;    // per output: the input it grants first
  std::uint8_t* accept_ptr_;   // per input: the output it accepts first
  std::uint8_t* vc_ptr_;       // per input: the VC it sends first
};

// Wavefront allocator (Tamir & Chi 1993) on the input port x output port matrix (n = ports):
// diagonal d holds the cells (i, j) with (i + j) mod n = d, which share no row or column. The
// priority diagonal p grants all its requests, then p + 1 those whose row and column are still
// free, and so on round the array; p moves on by one every allocation. A matched input sends
// the VC for that output after its VC pointer (round-robin).
class alignas(64) WavefrontSwitchAllocator : public SwitchAllocator {
 public:
  WavefrontSwitchAllocator(const AllocatorShape& s, StateMemory& memory) : shape_(s) {
    check_ports(s);
    want_ = memory.array<std::uint64_t>(s.ports + (s.ports + 7) / 8);
    vc_ptr_ = reinterpret_cast<std::uint8_t*>(want_ + s.ports);
  }

  void allocate(const SwitchRequests& r, SwitchGrants& g) override {
    const unsigned n = shape_.ports;
    port_requests(r, shape_.vcs, want_);
    g.outputs = 0;
    g.count = 0;
    std::uint64_t free_in = r.ports, free_out = ~std::uint64_t{0};
    for (unsigned wave = 0, d = priority_; wave < n && free_in; ++wave, d = ring_next(d, n)) {
      // (The cells of one diagonal share no row or column: any order within it.)
      for (std::uint64_t bits = free_in; bits; bits &= bits - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctzll(bits));
        const unsigned out = d >= p ? d - p : d + n - p;
        if (!((want_[p] & free_out) >> out & 1u)) continue;
        free_in &= ~(std::uint64_t{1} << p);
        free_out &= ~(std::uint64_t{1} << out);
        const unsigned vc = rr_pick(vcs_for(r, shape_.vcs, p, out), vc_ptr_[p]);
        vc_ptr_[p] = static_cast<std::uint8_t>(ring_next(vc, shape_.vcs));
        add_winner(g, p, vc, out);
      }
    }
    priority_ = ring_next(priority_, n);
  }

 private:
  AllocatorShape shape_;
  unsigned priority_ = 0;   // the priority diagonal
  std::uint64_t* want_;     // per input port: outputs it asks for this cycle
  std::uint8_t* vc_ptr_;    // per input port: the VC it sends first
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
       maker<VcAllocator, SeparableInputFirstVcAllocator<false>>()},
      {"output_first", "separable output-first, round-robin arbiters at both stages",
       maker<VcAllocator, SeparableOutputFirstVcAllocator>()},
      {"islip", "iSLIP over input VCs x output VCs (router.islip_iterations)",
       maker<VcAllocator, IslipVcAllocator>()},
      {"wavefront", "wavefront over input VCs x output VCs, rotating priority diagonal",
       maker<VcAllocator, WavefrontVcAllocator>()},
      {"age", "separable input-first, oldest packet first (ties round-robin)",
       maker<VcAllocator, SeparableInputFirstVcAllocator<true>>()},
  };
  return table;
}

const std::vector<SwitchAllocatorEntry>& switch_allocators() {
  static const std::vector<SwitchAllocatorEntry> table = {
      {"round_robin", "separable input-first, round-robin arbiters at both stages",
       maker<SwitchAllocator, SeparableInputFirstSwitchAllocator<false>>()},
      {"output_first", "separable output-first, round-robin arbiters at both stages",
       maker<SwitchAllocator, SeparableOutputFirstSwitchAllocator>()},
      {"islip", "iSLIP over input x output ports (router.islip_iterations)",
       maker<SwitchAllocator, IslipSwitchAllocator>()},
      {"wavefront", "wavefront over input x output ports, rotating priority diagonal",
       maker<SwitchAllocator, WavefrontSwitchAllocator>()},
      {"age", "separable input-first, oldest packet first (ties round-robin)",
       maker<SwitchAllocator, SeparableInputFirstSwitchAllocator<true>>()},
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
