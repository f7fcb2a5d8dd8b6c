#include "noc/sim/clocked_block.hpp"

namespace collnoc {

using namespace sc_core;

void ClockedModule::set_prefetch_end(const void* end) {
  const char* base = reinterpret_cast<const char*>(static_cast<const ClockedBlock*>(this));
  // (prefetch_state fetches the first line, with the virtual table pointer, in any case)
  clock_.set_prefetch_span(index_, sizeof(ClockedBlock), static_cast<const char*>(end) - base);
}

void ClockedModule::set_prefetch_region(const void* begin, const void* end) {
  // A block's state in a network's StateMemory may straddle two of its blocks, which the
  // system places anywhere: then there is no one region to fetch (and it must not be read as
  // the gigabytes between them).
  const auto first = reinterpret_cast<std::uintptr_t>(begin);
  const auto last = reinterpret_cast<std::uintptr_t>(end);
  if (last <= first || last - first > kMaxPrefetchRegionBytes) return;
  clock_.set_prefetch_region(index_, begin, last - first);
}

ClockedModule::ClockedModule(sc_module_name name, Clock& clock)
    : sc_module(name), clock_(clock), index_(clock.attach(this)) {}

}  // namespace collnoc
