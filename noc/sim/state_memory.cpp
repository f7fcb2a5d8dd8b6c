#include "noc/sim/state_memory.hpp"

#include <cstdint>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace collnoc {

namespace {
std::size_t whole_pages(std::size_t bytes) {
  return (bytes + HugePageResource::kPageBytes - 1) / HugePageResource::kPageBytes *
         HugePageResource::kPageBytes;
}
}  // namespace

#if defined(__linux__)
void* HugePageResource::do_allocate(std::size_t bytes, std::size_t alignment) {
  if (alignment > kPageBytes) throw std::bad_alloc();
  const std::size_t length = whole_pages(bytes);
  // Map one page more than asked and trim to a 2 MB boundary: a huge page must be aligned.
  const std::size_t mapped = length + kPageBytes;
  void* raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kPageBytes - 1) & ~std::uintptr_t{kPageBytes - 1};
  if (aligned > start) munmap(raw, aligned - start);
  const std::uintptr_t tail = aligned + length, mapped_end = start + mapped;
  if (mapped_end > tail) munmap(reinterpret_cast<void*>(tail), mapped_end - tail);
  void* p = reinterpret_cast<void*>(aligned);
  madvise(p, length, MADV_HUGEPAGE);  // (a kernel without them keeps plain pages)
  return p;
}

void HugePageResource::do_deallocate(void* p, std::size_t bytes, std::size_t) {
  munmap(p, whole_pages(bytes));
}
#else
void* HugePageResource::do_allocate(std::size_t bytes, std::size_t alignment) {
  return ::operator new(whole_pages(bytes),
                        std::align_val_t{kPageBytes > alignment ? kPageBytes : alignment});
}

void HugePageResource::do_deallocate(void* p, std::size_t, std::size_t alignment) {
  ::operator delete(p, std::align_val_t{kPageBytes > alignment ? kPageBytes : alignment});
}
#endif

SeparateBlocks::~SeparateBlocks() {
  for (const Block& b : live_) ::operator delete(b.p, std::align_val_t{b.alignment});
}

void* SeparateBlocks::do_allocate(std::size_t bytes, std::size_t alignment) {
  live_.reserve(live_.size() + 1);  // (so that recording it cannot throw)
  void* p = ::operator new(bytes, std::align_val_t{alignment});
  live_.push_back(Block{p, alignment});
  return p;
}

void SeparateBlocks::do_deallocate(void* p, std::size_t, std::size_t alignment) {
  for (std::size_t i = live_.size(); i-- > 0;)
    if (live_[i].p == p) {
      live_[i] = live_.back();
      live_.pop_back();
      break;
    }
  ::operator delete(p, std::align_val_t{alignment});
}

}  // namespace collnoc
