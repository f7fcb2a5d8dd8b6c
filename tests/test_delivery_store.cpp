// DeliveryStore (ni/delivery_store.hpp), the NI's delivery queue: a receive takes the first
// message in delivery order that it takes (its source or anyone; a get's reply or a message)
// and that is available by its issue cycle; otherwise it learns the first cycle at which one it
// takes is available. Checked on hand-made cases (sources out of order, any-source receives,
// availability, mpb replies, a receive asked again after more arrived) and against a plain
// scan of a list on random sequences of deliveries, receives and takes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "ni/delivery_store.hpp"

using namespace collnoc;

namespace {

// A message of `src` and `kind` whose one word is `id` (which message a receive got).
void push(DeliveryStore& s, NodeId src, Cycle available, std::uint32_t id,
          std::uint8_t kind = 0) {
  ReceivedMessage m;
  m.words = {id};
  m.kind = kind;
  m.tag = id * 3;
  m.sent = id;
  s.push(src, available, std::move(m));
}

// The id of the message a receive takes at `issue` (taken out), or -1.
long receive(DeliveryStore& s, NodeId peer, Cycle issue, bool mpb_reply = false) {
  const DeliveryStore::Found f = s.find(peer, mpb_reply, issue);
  if (f.message == DeliveryStore::kNone) return -1;
  return s.take(f.message).words.at(0);
}

}  // namespace

TEST_CASE("a receive naming its source takes that source's first message, past other sources'") {
  DeliveryStore s;
  push(s, 3, 1, 30);
  push(s, 5, 1, 50);
  push(s, 3, 1, 31);
  push(s, 7, 1, 70);
  push(s, 5, 1, 51);
  CHECK(s.size() == 5);
  CHECK(receive(s, 5, 10) == 50);
  CHECK(receive(s, 5, 10) == 51);
  CHECK(receive(s, 5, 10) == -1);
  CHECK(receive(s, 3, 10) == 30);
  CHECK(s.holds_from(7));
  CHECK_FALSE(s.holds_from(5));
  CHECK(receive(s, kAnySource, 10) == 31);  // the oldest left
  CHECK(receive(s, kAnySource, 10) == 70);
  CHECK(s.size() == 0);
  CHECK_FALSE(s.holds_from(kAnySource));
}

TEST_CASE("a delivered message is taken only from the cycle it is available") {
  DeliveryStore s;
  push(s, 2, 20, 1);
  push(s, 4, 8, 2);
  push(s, 2, 12, 3);  // (a later message of a source may be available first: XOR results)
  DeliveryStore::Found f = s.find(kAnySource, false, 5);
  CHECK(f.message == DeliveryStore::kNone);
  CHECK(f.next_match == 8);
  f = s.find(2, false, 5);
  CHECK(f.message == DeliveryStore::kNone);
  CHECK(f.next_match == 12);
  CHECK(receive(s, kAnySource, 8) == 2);
  CHECK(receive(s, 2, 15) == 3);  // the first available, not the first delivered
  f = s.find(2, false, 15);
  CHECK(f.message == DeliveryStore::kNone);
  CHECK(f.next_match == 20);
  CHECK(s.at(s.find(2, false, 20).message).available == 20);
  CHECK(s.find(9, false, 100).next_match == kNever);  // nothing from 9
}

TEST_CASE("a get's reply is taken only by a receive for replies, which takes nothing else") {
  DeliveryStore s;
  push(s, 6, 1, 1, kMpbReplyKind);
  push(s, 6, 1, 2);
  push(s, 1, 1, 3, kMpbReplyKind);
  CHECK(receive(s, 6, 5) == 2);
  CHECK(receive(s, kAnySource, 5) == -1);
  CHECK(receive(s, 6, 5, true) == 1);
  CHECK(receive(s, kAnySource, 5, true) == 3);
}

TEST_CASE("a receive asked again sees what arrived since and what has become available") {
  DeliveryStore s;
  push(s, 1, 10, 1);
  push(s, 2, 3, 2);
  DeliveryStore::Found f = s.find(1, false, 5);
  CHECK(f.message == DeliveryStore::kNone);
  CHECK(f.next_match == 10);
  push(s, 1, 7, 3);
  f = s.find(1, false, 8);  // only the new one is available
  REQUIRE(f.message != DeliveryStore::kNone);
  CHECK(s.at(f.message).words.at(0) == 3);
  CHECK(receive(s, 1, 11) == 1);  // by 11 the older one is, and it goes first
  CHECK(receive(s, 1, 11) == 3);
}

// The reference: the delivery queue as a list scanned from the front.
TEST_CASE("random deliveries, receives and takes: the same messages as a scan from the front") {
  struct Queued {
    NodeId src;
    Cycle available;
    std::uint8_t kind;
    std::uint32_t id;
  };
  std::mt19937 rng(29);
  for (int run = 0; run < 20; ++run) {
    DeliveryStore s;
    std::vector<Queued> reference;
    const NodeId sources = 1 + rng() % 12;
    Cycle now = 0;
    std::uint32_t next_id = 0;
    // A run that names sources from its start, and one that names them only later.
    const int first_named = run % 2 ? 0 : 300;
    for (int step = 0; step < 2000; ++step) {
      now += rng() % 3;
      if (rng() % 2) {
        const NodeId src = rng() % sources;
        const Cycle available = now + rng() % 20;
        const std::uint8_t kind = rng() % 8 == 0 ? kMpbReplyKind : 0;
        push(s, src, available, next_id, kind);
        reference.push_back({src, available, kind, next_id++});
      } else {
        const NodeId peer = step < first_named || rng() % 3 == 0 ? kAnySource : rng() % sources;
        const bool mpb_reply = rng() % 8 == 0;
        const bool take = rng() % 4 != 0;  // (else only asked: the core runs ahead)
        auto want = reference.end();
        Cycle next_match = kNever;
        for (auto it = reference.begin(); it != reference.end(); ++it) {
          if (!DeliveryStore::takes(peer, mpb_reply, it->src, it->kind)) continue;
          if (it->available > now) {
            next_match = std::min(next_match, it->available);
            continue;
          }
          want = it;
          break;
        }
        const DeliveryStore::Found f = s.find(peer, mpb_reply, now);
        if (want == reference.end()) {
          REQUIRE(f.message == DeliveryStore::kNone);
          REQUIRE(f.next_match == next_match);
        } else {
          REQUIRE(f.message != DeliveryStore::kNone);
          REQUIRE(s.at(f.message).words.at(0) == want->id);
          if (take) {
            const DeliveryStore::Delivered m = s.take(f.message);
            REQUIRE(m.src == want->src);
            REQUIRE(m.available == want->available);
            REQUIRE(m.kind == want->kind);
            REQUIRE(m.tag == want->id * 3);
            REQUIRE(m.sent == want->id);
            reference.erase(want);
          }
        }
      }
      REQUIRE(s.size() == reference.size());
      const NodeId asked = rng() % sources;
      REQUIRE(s.holds_from(asked) ==
              std::any_of(reference.begin(), reference.end(),
                          [&](const Queued& q) { return q.src == asked; }));
    }
  }
}
