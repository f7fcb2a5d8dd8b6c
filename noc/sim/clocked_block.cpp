#include "noc/sim/clocked_block.hpp"

namespace collnoc {

using namespace sc_core;

void ClockedModule::set_prefetch_end(const void* end) {
  const char* base = reinterpret_cast<const char*>(static_cast<const ClockedBlock*>(this));
  // (prefetch_state fetches the first line, with the virtual table pointer, in any case)
  clock_.set_prefetch_span(index_, sizeof(ClockedBlock), static_cast<const char*>(end) - base);
}

void ClockedModule::set_prefetch_region(const void* begin, const void* end) {
  clock_.set_prefetch_region(index_, begin,
                             static_cast<const char*>(end) - static_cast<const char*>(begin));
}

ClockedModule::ClockedModule(sc_module_name name, Clock& clock)
    : sc_module(name), clock_(clock), index_(clock.attach(this)) {}

}  // namespace collnoc
