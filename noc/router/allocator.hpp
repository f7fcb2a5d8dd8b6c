// VC and switch allocators: replaceable parts of a router, chosen by name.
#pragma once
#include <cstdint>
#include <memory>
#include <functional>
#include <new>
#include <string>
#include <vector>

#include "noc/sim/state_memory.hpp"
#include "noc/registry.hpp"
#include "noc/types.hpp"

namespace collnoc {

// One input VC asking for one of several output VCs of one output port. An input VC may file
// several requests (one per routing candidate); the earlier one has priority.
struct VcRequest {
  std::uint16_t input;      // input VC index = in_port * vcs + in_vc
  std::uint16_t out_port;
  std::uint32_t vc_mask;    // output VCs of out_port that are free and acceptable
};

struct VcGrant {
  std::uint16_t input;
  std::uint16_t out_port;
  std::uint8_t out_vc;
};

class VcAllocator {
 public:
  virtual ~VcAllocator() = default;
  // Requests arrive grouped by input VC, in ascending input order. At most one grant per input
  // VC and per output VC.
  virtual void allocate(const std::vector<VcRequest>& requests, std::vector<VcGrant>& grants) = 0;
  // Age-based allocators keep `created` (per input VC: the cycle the packet at its front was
  // created, which the router keeps up to date) and return true; the others ignore it.
  virtual bool use_ages(const Cycle* /*created*/) { return false; }
  // Whether a call that grants nothing changes the allocator's state (the routers then ask
  // for every ready head every cycle: Router's state waiting). Pointers that move only on a
  // grant do not.
  virtual bool moves_without_grants() const { return false; }

  // Output VCs granted over the run (energy estimates: one per unicast packet and hop). Kept
  // here, beside the table pointer a call loads anyway, so counting touches no other line.
  std::uint64_t grants = 0;
};

// One cycle's switch requests of a router: per input port, the VCs whose front flit is ready to
// cross the switch (with a credit downstream), and the output port each input VC holds.
struct SwitchRequests {
  std::uint64_t ports = 0;                // input ports with at least one request
  std::uint32_t vcs[kMaxRouterPorts];     // per input port in `ports`: its requesting VCs
  std::uint8_t out_port[kMaxRouterPorts * 32];  // per input VC (port * vcs + vc) that requests
};

// What the switch allocator granted: at most one flit per input port and per output port.
struct SwitchGrants {
  struct Winner {
    std::uint8_t in_port, in_vc, out_port;
  };
  std::uint64_t outputs = 0;  // output ports granted
  unsigned count = 0;
  Winner winners[kMaxRouterPorts];
};

class SwitchAllocator {
 public:
  virtual ~SwitchAllocator() = default;
  virtual void allocate(const SwitchRequests& requests, SwitchGrants& grants) = 0;
  virtual bool use_ages(const Cycle* /*created*/) { return false; }  // (as VcAllocator's)
};

struct AllocatorShape {
  unsigned ports;
  unsigned vcs;  // per port
  unsigned islip_iterations = 1;  // iSLIP: request-grant-accept rounds per cycle
};

// An allocator is one class and one registration line (allocators.cpp): its constructor takes
// the router's shape and the network's state memory, and takes the arrays it keeps from there
// (StateMemory::array), so that they lie beside its router's state (a large network's routers
// do not stay in cache between cycles, and an evaluation then touches a few neighbouring lines).
template <typename Allocator>
using AllocatorMaker =
    std::function<StateMemory::Owned<Allocator>(const AllocatorShape&, StateMemory&)>;
using VcAllocatorEntry = Registered<AllocatorMaker<VcAllocator>>;
using SwitchAllocatorEntry = Registered<AllocatorMaker<SwitchAllocator>>;

const std::vector<VcAllocatorEntry>& vc_allocators();
const std::vector<SwitchAllocatorEntry>& switch_allocators();
// The maker called `name`, or ParamError naming router.vc_allocator / router.switch_allocator.
const AllocatorMaker<VcAllocator>& vc_allocator_maker(const std::string& name);
const AllocatorMaker<SwitchAllocator>& switch_allocator_maker(const std::string& name);

// An allocator with state memory of its own (tests, and users driving one by hand).
template <typename Allocator>
class StandaloneAllocator {
 public:
  StandaloneAllocator(const AllocatorMaker<Allocator>& make, const AllocatorShape& shape)
      : memory_(std::make_unique<StateMemory>()), allocator_(make(shape, *memory_)) {}
  Allocator* operator->() const { return allocator_.get(); }
  Allocator& operator*() const { return *allocator_; }

 private:
  std::unique_ptr<StateMemory> memory_;  // (declared first: freed last)
  StateMemory::Owned<Allocator> allocator_;
};
StandaloneAllocator<VcAllocator> make_vc_allocator(const std::string& name, const AllocatorShape& s);
StandaloneAllocator<SwitchAllocator> make_switch_allocator(const std::string& name,
                                                          const AllocatorShape& s);

}  // namespace collnoc
