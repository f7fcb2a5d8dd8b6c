#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <set>
#include <utility>
#include <vector>

#include "noc/sim/delay_line.hpp"
#include "noc/sim/fifo.hpp"
#include "noc/sim/state_memory.hpp"
#include "noc/flit.hpp"
#include "noc/random.hpp"
#include "noc/zero_load.hpp"

using namespace collnoc;

TEST_CASE("delay line: an entry written in cycle t is readable from t + latency", "[units]") {
  DelayLine<int> line(3, 4);  // (apart: nothing inside the line)
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

TEST_CASE("delay line: entries inside the line or apart keep order and timing across wraps",
          "[units]") {
  // Capacity 2 with a 1-cycle latency fits inside the line (two values, two stamps); a longer
  // latency or capacity goes apart; reset moves between the two (the sanitizer build checks
  // the allocations are freed).
  DelayLine<int, 2, 2> line(1, 2);
  for (auto [latency, capacity] : {std::pair{1u, 2u}, std::pair{2u, 3u}, std::pair{1u, 2u},
                                   std::pair{2u, 9u}, std::pair{1u, 5u}}) {
    line.reset(latency, capacity);
    const std::size_t room = capacity <= 2 ? 2 : capacity <= 4 ? 4 : capacity <= 8 ? 8 : 16;
    std::deque<std::pair<Cycle, int>> model;  // (ready, value)
    Cycle now = 100;
    int next_in = 0, taken = 0;
    for (int step = 0; step < 60; ++step, ++now) {
      // Write in bursts of three, so that the line fills and wraps.
      if (step % 4 != 3 && model.size() < room) {
        CHECK_FALSE(line.full());
        line.push(next_in, now);
        model.emplace_back(now + latency, next_in++);
      }
      CHECK(line.full() == (model.size() == room));
      if (!model.empty() && model.size() <= latency + 1)
        CHECK(line.next_ready() == model.front().first);
      if (line.ready(now)) {
        REQUIRE(model.front().first <= now);
        CHECK(line.front() == model.front().second);
        line.pop();
        model.pop_front();
        ++taken;
      } else {
        CHECK((model.empty() || model.front().first > now));
      }
      CHECK(line.size() == model.size());
    }
    CHECK(taken >= 30);  // the line kept moving
  }
}

// The line keeps the ready cycles of its newest entries only: an entry `latency` or more
// places behind the newest one is ready. A reader that comes back late (a sleeping sender
// collecting its credits) must still see exactly what is ready, on both threads' terms.
TEST_CASE("delay line: a reader that comes late takes exactly the entries that are ready",
          "[units]") {
  for (unsigned latency : {1u, 2u, 3u}) {
    DelayLine<std::uint8_t, 16, 2> line(latency, 16);  // latency 1 inside the line, else apart
    Rng rng(latency);
    std::deque<std::pair<Cycle, std::uint8_t>> model;
    Cycle now = 0;
    std::uint8_t next = 0;
    for (int step = 0; step < 4000; ++step, ++now) {
      // At most one entry per cycle, at random, while there is room.
      if (model.size() < 16 && rng.next() % 3 != 0) {
        line.push<true>(next, now);
        model.emplace_back(now + latency, next++);
      }
      // The reader looks only now and then: often after a long sleep, sometimes every cycle.
      if (rng.next() % 7 != 0) continue;
      while (!model.empty() && model.front().first <= now) {
        REQUIRE(line.ready<true>(now));
        REQUIRE(line.ready<false>(now));
        CHECK(line.front() == model.front().second);
        line.pop();
        model.pop_front();
      }
      CHECK_FALSE(line.ready<true>(now));
      CHECK_FALSE(line.ready<false>(now));
      CHECK(line.size<true>() == model.size());
    }
  }
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

TEST_CASE("packet pool: lanes hand out distinct records that never move, and rebalancing "
          "refills a lane that ran out", "[units]") {
  PacketPool pool;
  std::set<PacketHandle> handles;
  for (unsigned lane = 0; lane < 2; ++lane)
    for (unsigned i = 0; i < 10; ++i) {
      const PacketHandle h = pool.allocate(lane);
      REQUIRE(handles.insert(h).second);  // never handed out twice
      pool[h].packet_id = h + 1000;
    }
  CHECK(pool.live() == 20);
  const PacketHandle first = *handles.begin();
  const PacketHeader* where = &pool[first];
  // Many more records (new blocks) leave the old ones where they were.
  std::vector<PacketHandle> more;
  for (unsigned i = 0; i < 10000; ++i) more.push_back(pool.allocate(i % 2));
  CHECK(&pool[first] == where);
  CHECK(pool[first].packet_id == first + 1000);
  for (PacketHandle h : more) pool.release(h, 0);
  // Every one of the first twenty comes back through lane 1 (a receiving thread's).
  for (PacketHandle h : handles) pool.release(h, 1);
  CHECK(pool.live() == 0);
  // Lane 2 has none free; after rebalancing it reuses released records instead of new ones.
  pool.rebalance();
  std::set<PacketHandle> released(more.begin(), more.end());
  released.insert(handles.begin(), handles.end());
  for (unsigned i = 0; i < 100; ++i) CHECK(released.count(pool.allocate(2)) == 1);
  CHECK(pool.live() == 100);
}

TEST_CASE("state memory: aligned blocks on 2 MB boundaries, objects destroyed by their owners",
          "[units]") {
  static int alive = 0;
  struct Probe {
    explicit Probe(int v) : value(v) { ++alive; }
    ~Probe() { --alive; }
    alignas(64) int value;
  };
  {
    StateMemory memory;
    std::vector<char*> blocks;
    // 5 MB in blocks of 7 KB (a router's state): several of the resource's 2 MB blocks.
    for (int i = 0; i < 750; ++i) {
      auto* p = static_cast<char*>(memory.allocate(7000, 64));
      REQUIRE(reinterpret_cast<std::uintptr_t>(p) % 64 == 0);
      std::memset(p, i & 0xff, 7000);  // every byte is ours
      blocks.push_back(p);
    }
    for (int i = 0; i < 750; ++i) {  // and nobody else's
      CHECK(static_cast<unsigned char>(blocks[i][0]) == (i & 0xff));
      CHECK(static_cast<unsigned char>(blocks[i][6999]) == (i & 0xff));
    }
    {
      StateMemory::Owned<Probe> a = memory.make<Probe>(7), b = memory.make<Probe>(8);
      CHECK(alive == 2);
      CHECK(reinterpret_cast<std::uintptr_t>(a.get()) % 64 == 0);
      CHECK(a->value + b->value == 15);
    }
    CHECK(alive == 0);
  }
  HugePageResource pages;
  void* big = pages.allocate(3 << 20, 64);
  CHECK(reinterpret_cast<std::uintptr_t>(big) % HugePageResource::kPageBytes == 0);
  std::memset(big, 1, 3 << 20);
  pages.deallocate(big, 3 << 20, 64);
}

TEST_CASE("fifo: entries leave in the order kept, across reuse, compaction and release",
          "[units]") {
  // Against a std::deque doing the same: bursts long enough to be compacted and let go,
  // short ones that reuse the kept storage, and entries put before others.
  Fifo<std::vector<int>> fifo;
  std::deque<std::vector<int>> model;
  std::uint64_t x = 12345;
  const auto next = [&x](unsigned n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<unsigned>((x >> 33) % n);
  };
  for (int step = 0; step < 20000; ++step) {
    const unsigned burst = step % 2000 < 1000 ? 3 : 100;  // how long the queue gets
    if (model.empty() || (model.size() < burst && next(2) == 0)) {
      std::vector<int> v{step, -step};
      const unsigned before = model.empty() ? 0 : next(static_cast<unsigned>(model.size()) + 1);
      model.insert(model.begin() + before, v);
      fifo.insert(fifo.begin() + before, std::move(v));
    } else {
      REQUIRE(fifo.front() == model.front());
      fifo.pop_front();
      model.pop_front();
    }
    REQUIRE(fifo.size() == model.size());
    REQUIRE(fifo.empty() == model.empty());
    REQUIRE(std::equal(fifo.begin(), fifo.end(), model.begin(), model.end()));
  }
}
