// Memory for a network's hot state (its routers' buffers and VC state, its links) in blocks
// that the kernel may back with 2 MB pages. A large network's evaluation touches megabytes each
// cycle, spread over thousands of 4 KB pages: more than the processor's TLB holds, and every
// miss is a page walk (two-dimensional under a hypervisor). With transparent huge pages in
// `madvise` mode, as Debian ships, only memory that asks for them gets them.
#pragma once
#include <algorithm>
#include <cstddef>
#include <memory>
#include <memory_resource>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace collnoc {

// Blocks from the operating system, 2 MB-aligned and a multiple of 2 MB long, marked for
// transparent huge pages (on Linux; elsewhere, or where the kernel says no, plain pages).
// Meant as the upstream of a monotonic_buffer_resource: it hands out large blocks only.
class HugePageResource final : public std::pmr::memory_resource {
 public:
  static constexpr std::size_t kPageBytes = std::size_t{2} << 20;

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override;
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override;
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }
};

// Every allocation a heap block of its own, all freed with the resource: what StateMemory
// uses under AddressSanitizer, so that an overrun of one block is caught at the next.
class SeparateBlocks final : public std::pmr::memory_resource {
 public:
  SeparateBlocks() = default;
  SeparateBlocks(const SeparateBlocks&) = delete;
  SeparateBlocks& operator=(const SeparateBlocks&) = delete;
  ~SeparateBlocks() override;

 private:
  struct Block {
    void* p;
    std::size_t alignment;
  };
  void* do_allocate(std::size_t bytes, std::size_t alignment) override;
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override;
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }
  std::vector<Block> live_;
};

// A network's hot state: allocated as the network is built, freed with it (monotonic).
class StateMemory {
 public:
  std::pmr::memory_resource* resource() { return &blocks_; }
  void* allocate(std::size_t bytes, std::size_t alignment) {
    return blocks_.allocate(bytes, alignment);
  }
  // An object built here: destroyed by its owner, its memory freed with the network's.
  struct Destroy {
    template <typename T>
    void operator()(T* p) const { p->~T(); }
  };
  template <typename T>
  using Owned = std::unique_ptr<T, Destroy>;
  template <typename T, typename... Args>
  Owned<T> make(Args&&... args) {
    return Owned<T>(new (allocate(sizeof(T), alignof(T))) T(std::forward<Args>(args)...));
  }
  // `n` value-initialised Ts, right after what was allocated last (the state is handed out in
  // order: the arrays a block allocates one after another lie together, on few cache lines and
  // pages). Freed with the network, without destructors.
  template <typename T>
  T* array(std::size_t n, std::size_t alignment = alignof(T)) {
    static_assert(std::is_trivially_destructible_v<T>, "freed without destructors");
    T* p = static_cast<T*>(allocate(std::max<std::size_t>(n, 1) * sizeof(T), alignment));
    for (std::size_t i = 0; i < n; ++i) new (p + i) T{};
    return p;
  }

 private:
#if defined(__SANITIZE_ADDRESS__)
  SeparateBlocks blocks_;
#else
  HugePageResource pages_;
  std::pmr::monotonic_buffer_resource blocks_{HugePageResource::kPageBytes - 64, &pages_};
#endif
};

}  // namespace collnoc
