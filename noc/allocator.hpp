// VC and switch allocators: replaceable parts of a router, chosen by name.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "noc/registry.hpp"

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
};

// One input VC whose front flit wants to cross the switch to `out_port` this cycle.
struct SwitchRequest {
  std::uint16_t in_port;
  std::uint8_t in_vc;
  std::uint16_t out_port;
};

class SwitchAllocator {
 public:
  virtual ~SwitchAllocator() = default;
  // Requests arrive grouped by input port, VCs ascending. Writes indices into `requests` of
  // the winners: at most one per input port and per output port.
  virtual void allocate(const std::vector<SwitchRequest>& requests,
                        std::vector<unsigned>& winners) = 0;
};

struct AllocatorShape {
  unsigned ports;
  unsigned vcs;  // per port
};

using VcAllocatorEntry =
    Registered<std::function<std::unique_ptr<VcAllocator>(const AllocatorShape&)>>;
using SwitchAllocatorEntry =
    Registered<std::function<std::unique_ptr<SwitchAllocator>(const AllocatorShape&)>>;

const std::vector<VcAllocatorEntry>& vc_allocators();
const std::vector<SwitchAllocatorEntry>& switch_allocators();
std::unique_ptr<VcAllocator> make_vc_allocator(const std::string& name, const AllocatorShape& s);
std::unique_ptr<SwitchAllocator> make_switch_allocator(const std::string& name,
                                                       const AllocatorShape& s);

}  // namespace collnoc
