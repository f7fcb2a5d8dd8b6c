#include <catch2/catch.hpp>

#include "noc/delay_line.hpp"
#include "noc/random.hpp"
#include "noc/zero_load.hpp"

using namespace collnoc;

TEST_CASE("delay line: an entry written in cycle t is readable from t + latency", "[units]") {
  DelayLine<int> line(3, 4);
  line.push(7, 10);
  CHECK_FALSE(line.ready(12));
  CHECK(line.ready(13));
  CHECK(line.next_ready() == 13);
  line.push(8, 11);
  CHECK(line.front() == 7);
  line.pop();
  CHECK_FALSE(line.ready(13));
  CHECK(line.ready(14));
  CHECK(line.front() == 8);
}

TEST_CASE("ring buffer wraps around without losing order", "[units]") {
  Ring<int> ring(3);
  for (int round = 0; round < 5; ++round) {
    ring.push(round * 10);
    ring.push(round * 10 + 1);
    CHECK(ring.front() == round * 10);
    ring.pop();
    CHECK(ring.front() == round * 10 + 1);
    ring.pop();
    CHECK(ring.empty());
  }
}

TEST_CASE("random numbers are reproducible and geometric gaps have the Bernoulli mean", "[units]") {
  Rng a(42), b(42);
  for (int i = 0; i < 100; ++i) REQUIRE(a.next() == b.next());
  Rng r(1);
  const double p = 0.05;
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) sum += static_cast<double>(r.geometric(p));
  // Mean failures before a success: (1 - p) / p = 19.
  CHECK(sum / n == Approx(19.0).epsilon(0.02));
  CHECK(r.geometric(1.0) == 0);
}

TEST_CASE("zero-load closed form: worked examples", "[units]") {
  // 3 hops, 1 flit, 3-cycle hop, 1-cycle links: 1 + 3*3 + 2 + 1 + 0 = 13
  CHECK(zero_load_latency({3, 1, 3, 1, 1, 1, Switching::wormhole}) == 13);
  // 4 flits add 3 cycles of serialization
  CHECK(zero_load_latency({3, 4, 3, 1, 1, 1, Switching::virtual_cut_through}) == 16);
  // store-and-forward waits for the tail at each of the 4 routers: 1 + 4*(2+3) + 3 + 1 + 3 = 28
  CHECK(zero_load_latency({3, 4, 3, 1, 1, 1, Switching::store_and_forward}) == 28);
  // one flit: store-and-forward equals wormhole
  CHECK(zero_load_latency({5, 1, 2, 2, 1, 1, Switching::store_and_forward}) ==
        zero_load_latency({5, 1, 2, 2, 1, 1, Switching::wormhole}));
}
