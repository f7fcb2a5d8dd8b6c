// The machine's memory latency, as a large simulation meets it: nanoseconds per load when
// every load depends on the one before (a random cyclic chain of cache lines), for working sets
// from 256 KB to 64 MB, with the system's 4 KB pages and with 2 MB pages asked for
// (madvise(MADV_HUGEPAGE): granted only where transparent huge pages are on).
//
// A 32x32 mesh touches several MB of state per cycle, so its speed follows the latency at that
// size far more than the processor's clock: bench/run prints this table beside its figures, so
// that rates measured on different machines can be told apart.
//
// Usage: memory_latency [loads per size, default 2000000]
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

namespace {

struct alignas(64) Line {
  std::uint64_t next;
  std::uint64_t pad[7];
};

constexpr std::size_t kHugePage = std::size_t{2} << 20;

// Nanoseconds per dependent load over `bytes`, huge pages asked for or not.
double chase(std::size_t bytes, bool huge, std::size_t loads) {
  const std::size_t n = bytes / sizeof(Line);
  const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* mem = std::aligned_alloc(kHugePage, rounded);
  if (!mem) {
    std::perror("memory_latency: aligned_alloc");
    std::exit(1);
  }
  if (huge) madvise(mem, rounded, MADV_HUGEPAGE);
  Line* lines = static_cast<Line*>(mem);
  std::vector<std::uint64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(1));  // same chain every run
  for (std::size_t i = 0; i < n; ++i) lines[order[i]].next = order[(i + 1) % n];
  std::uint64_t at = order[0];
  for (std::size_t i = 0; i < n; ++i) at = lines[at].next;  // touch every line once
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < loads; ++i) at = lines[at].next;
  const double ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  if (at == n) std::puts("");  // keeps the chain from being optimised away (never true)
  std::free(mem);
  return ns / static_cast<double>(loads);
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t loads = 2000000;
  if (argc > 1) {
    char* end = nullptr;
    const long long v = std::strtoll(argv[1], &end, 10);
    if (*end != '\0' || v < 1000 || v > 1000000000) {
      std::fprintf(stderr, "memory_latency: loads per size '%s': allowed 1000..1000000000\n",
                   argv[1]);
      return 2;
    }
    loads = static_cast<std::size_t>(v);
  }
  std::printf("memory latency, ns per dependent load (random chain of cache lines)\n\n");
  std::printf("%-14s%14s%14s\n", "working set", "4 KB pages", "2 MB pages");
  for (std::size_t kb : {256, 1024, 2048, 4096, 8192, 16384, 65536}) {
    const std::size_t bytes = kb * 1024;
    const double small = chase(bytes, false, loads);
    const double huge = chase(bytes, true, loads);
    if (kb < 1024) std::printf("%10zu KB%14.1f%14.1f\n", kb, small, huge);
    else std::printf("%10zu MB%14.1f%14.1f\n", kb / 1024, small, huge);
  }
  return 0;
}
