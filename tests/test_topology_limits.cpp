// Topologies at the limits the configuration accepts, found by fuzzing (docs/fuzzing.md): the
// random graph generator and the port table must scale with the network, not with a heap node
// per edge or a vector per router. Labelled `long` (run by `make test`, not under the
// sanitizers, whose allocator keeps its own books).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <malloc.h>
#include <new>

#include "noc/topology/kary_ncube.hpp"
#include "noc/topology/random_regular.hpp"
#include "noc/topology/topology.hpp"

// Every operator new of this test process is counted (the scalar forms suffice: containers
// allocate through them).
namespace {
std::size_t g_allocations = 0;
}
void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

using namespace collnoc;

// FNV-1a over every port's peer: a graph's fingerprint.
std::uint64_t digest(const Topology& t) {
  std::uint64_t h = 1469598103934665603ull;
  for (RouterId r = 0; r < t.num_routers(); ++r)
    for (unsigned p = 0; p < t.network_ports(); ++p) {
      h = (h ^ t.peer(r, p).router) * 1099511628211ull;
      h = (h ^ t.peer(r, p).port) * 1099511628211ull;
    }
  return h;
}

}  // namespace

TEST_CASE("random graphs are the ones earlier versions drew for the same seed", "[long]") {
  // Fingerprints from the generator before its edge set became neighbour lists (87ffa6c):
  // same configuration and seed, same network.
  struct Known {
    unsigned nodes, degree;
    std::uint64_t seed, digest;
  };
  for (const Known& k : {Known{16, 3, 1, 0xd584b283476e547full}, Known{64, 4, 7, 0x38a4471c8215d2cbull},
                         Known{100, 7, 3, 0xe2648fb52f0b26dfull}, Known{6, 5, 9, 0xbf208a41c88481ceull},
                         Known{4096, 63, 1, 0xf372c4bd80fed59bull}}) {
    INFO(k.nodes << " nodes, degree " << k.degree << ", seed " << k.seed);
    CHECK(digest(RandomRegularGraph(k.nodes, k.degree, k.seed)) == k.digest);
  }
}

TEST_CASE("a random graph is drawn with a few allocations per router", "[long]") {
  // The degree-preserving swaps kept the edges in a std::set: a heap node per edge and per
  // swap, 145 s for a graph of 65536 routers of degree 64. Its routers' neighbour lists
  // grow a few times each.
  const std::size_t before = g_allocations;
  const RandomRegularGraph g(16384, 16, 1);
  const std::size_t allocations = g_allocations - before;
  INFO(allocations << " allocations");
  CHECK(allocations <= 16 * std::size_t{g.num_routers()});  // 174 a router before
  CHECK(g.peer(16383, 15).connected());
}

TEST_CASE("the largest mesh takes 8 bytes a port", "[long]") {
  // 1.2 GB for 16M routers when every router had a vector of its own (64 M ports).
  const auto heap = [] {
    const struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
  };
  const std::size_t before = heap();
  const KaryNCube mesh({4096, 4096}, false);
  const std::size_t used = heap() - before;
  const std::size_t ports = std::size_t{mesh.num_routers()} * mesh.network_ports();
  INFO(used << " bytes for " << ports << " ports");
  CHECK(used <= ports * sizeof(PortPeer) + (1u << 20));
  CHECK(mesh.peer(mesh.num_routers() - 1, mesh.minus_port(1)).router ==
        mesh.num_routers() - 1 - 4096);
}
