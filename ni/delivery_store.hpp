// The NI's delivery queue: complete messages handed to the core's side and not yet taken, in
// delivery order.
//
// A receive takes the first message in delivery order that it takes (from its source, or from
// anyone; a get's reply or a message) and that is available by its issue cycle. Records live
// in a pool (a free list: no allocation per message once the pool has grown) and are linked
// twice: one chain in delivery order, for receives from anyone, and one chain per source, for
// receives that name it, so such a receive starts at its source's first message instead of
// scanning past the other sources' (all_pairs: hundreds of them), and taking a message out of
// the middle moves nothing. The per-source chains are built at the first receive that names a
// source (a firmware that only receives from anyone never pays for them).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "ni/ni_protocol.hpp"
#include "ni/reassembler.hpp"
#include "noc/types.hpp"

namespace collnoc {

class DeliveryStore {
 public:
  using Handle = std::uint32_t;
  static constexpr Handle kNone = ~Handle{0};

  struct Delivered {
    std::vector<std::uint32_t> words;
    Cycle available = 0;  // the first cycle the core may take it
    Cycle sent = 0;       // the sender handed it to its NI
    NodeId src = 0;
    std::uint32_t tag = 0;
    unsigned hops = 0;
    std::uint8_t kind = 0;
  };
  // What find() saw: the message the receive takes (kNone: none available by its issue
  // cycle), and otherwise the first cycle after it at which one it takes is available (kNever:
  // none queued).
  struct Found {
    Handle message = kNone;
    Cycle next_match = kNever;
  };

  // A receive of `peer` (kAnySource: from anyone) for a get's reply (`mpb_reply`) or a message
  // takes a message of `src` and `kind`.
  static bool takes(NodeId peer, bool mpb_reply, NodeId src, std::uint8_t kind) {
    return (peer == kAnySource || src == peer) && (kind == kMpbReplyKind) == mpb_reply;
  }

  // Appends a message of `src`, available from `available`.
  void push(NodeId src, Cycle available, ReceivedMessage&& m);
  // The first message in delivery order that the receive takes and that is available by
  // `issue`. A receive that found nothing leaves where it stopped: asked again (the same
  // peer, and none of the messages it passed by has become available), it looks only at what
  // was appended since.
  Found find(NodeId peer, bool mpb_reply, Cycle issue);
  const Delivered& at(Handle h) const { return record(h).message; }
  // Takes message `h` out (its record goes back to the pool).
  Delivered take(Handle h);

  std::size_t size() const { return size_; }
  // Holds a message from `src` (kAnySource: from anyone), available or not.
  bool holds_from(NodeId src) const;

 private:
  struct Record {
    Delivered message;
    Handle prev = kNone, next = kNone;  // delivery order (next: the free list's link)
    Handle prev_from_src = kNone, next_from_src = kNone;  // its source's messages, in order
  };
  struct Chain {
    Handle head = kNone, tail = kNone;
  };
  // Links the records into their sources' chains, in delivery order.
  void index_sources();
  void link_to_source(Handle h);
  Handle first(NodeId peer) const {
    if (peer == kAnySource) return order_.head;
    return peer < by_source_.size() ? by_source_[peer].head : kNone;
  }
  Record& record(Handle h) { return blocks_[h >> kBlockShift][h & (kBlockRecords - 1)]; }
  const Record& record(Handle h) const {
    return blocks_[h >> kBlockShift][h & (kBlockRecords - 1)];
  }

  // The pool grows by blocks (no record moves, and it holds at most a block more than the
  // queue's high-water mark: a vector doubling would hold up to twice it).
  static constexpr unsigned kBlockShift = 5;
  static constexpr Handle kBlockRecords = Handle{1} << kBlockShift;
  std::vector<std::unique_ptr<Record[]>> blocks_;
  Handle records_ = 0;  // records in the pool
  Handle free_ = kNone;
  std::size_t size_ = 0;
  Chain order_;
  bool indexed_ = false;           // by_source_ is kept (a receive named a source)
  std::vector<Chain> by_source_;  // by source; sized by the highest source seen
  // Where the last find stopped, if it found nothing: the messages of its chain up to `last`
  // (kNone: none) hold none it takes before `next_match`. Messages are only appended until one
  // is taken, which ends it.
  struct Resume {
    bool valid = false;
    NodeId peer = 0;
    bool mpb_reply = false;
    Handle last = kNone;
    Cycle next_match = kNever;
  };
  Resume resume_;
};

}  // namespace collnoc
