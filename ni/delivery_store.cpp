#include "ni/delivery_store.hpp"

#include <algorithm>

namespace collnoc {

void DeliveryStore::push(NodeId src, Cycle available, ReceivedMessage&& m) {
  Handle h = free_;
  if (h != kNone) {
    free_ = record(h).next;
  } else {
    if ((records_ & (kBlockRecords - 1)) == 0)
      blocks_.push_back(std::make_unique<Record[]>(kBlockRecords));
    h = records_++;
  }
  Record& r = record(h);
  r.message.words = std::move(m.words);
  r.message.available = available;
  r.message.sent = m.sent;
  r.message.src = src;
  r.message.tag = m.tag;
  r.message.hops = m.hops;
  r.message.kind = m.kind;
  r.prev = order_.tail;
  r.next = kNone;
  (order_.tail == kNone ? order_.head : record(order_.tail).next) = h;
  order_.tail = h;
  if (indexed_) link_to_source(h);
  ++size_;
}

void DeliveryStore::link_to_source(Handle h) {
  Record& r = record(h);
  if (r.message.src >= by_source_.size()) by_source_.resize(r.message.src + std::size_t{1});
  Chain& c = by_source_[r.message.src];
  r.prev_from_src = c.tail;
  r.next_from_src = kNone;
  (c.tail == kNone ? c.head : record(c.tail).next_from_src) = h;
  c.tail = h;
}

void DeliveryStore::index_sources() {
  indexed_ = true;
  for (Handle h = order_.head; h != kNone; h = record(h).next) link_to_source(h);
}

DeliveryStore::Found DeliveryStore::find(NodeId peer, bool mpb_reply, Cycle issue) {
  const bool named = peer != kAnySource;
  if (named && !indexed_) index_sources();
  Handle last = kNone, h;
  Cycle next_match = kNever;
  const Resume& r = resume_;
  if (r.valid && r.peer == peer && r.mpb_reply == mpb_reply && issue < r.next_match) {
    last = r.last;
    next_match = r.next_match;
    h = last == kNone ? first(peer) : named ? record(last).next_from_src : record(last).next;
  } else {
    h = first(peer);
  }
  for (; h != kNone; last = h, h = named ? record(h).next_from_src : record(h).next) {
    const Delivered& m = record(h).message;
    if (!takes(peer, mpb_reply, m.src, m.kind)) continue;
    if (m.available > issue) {  // still being decompressed, or decoded
      next_match = std::min(next_match, m.available);
      continue;
    }
    resume_.valid = false;
    return Found{h, next_match};
  }
  resume_ = Resume{true, peer, mpb_reply, last, next_match};
  return Found{kNone, next_match};
}

DeliveryStore::Delivered DeliveryStore::take(Handle h) {
  Record& r = record(h);
  (r.prev == kNone ? order_.head : record(r.prev).next) = r.next;
  (r.next == kNone ? order_.tail : record(r.next).prev) = r.prev;
  if (indexed_) {
    Chain& c = by_source_[r.message.src];
    (r.prev_from_src == kNone ? c.head : record(r.prev_from_src).next_from_src) =
        r.next_from_src;
    (r.next_from_src == kNone ? c.tail : record(r.next_from_src).prev_from_src) =
        r.prev_from_src;
  }
  Delivered out = std::move(r.message);
  r.next = free_;
  free_ = h;
  --size_;
  resume_.valid = false;  // (its chain may have lost the record it stopped at)
  return out;
}

bool DeliveryStore::holds_from(NodeId src) const {
  if (src == kAnySource) return size_ > 0;
  if (indexed_) return first(src) != kNone;
  for (Handle h = order_.head; h != kNone; h = record(h).next)
    if (record(h).message.src == src) return true;
  return false;
}

}  // namespace collnoc
