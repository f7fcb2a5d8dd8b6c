#include <algorithm>

#include "collectives/mesh_collective.hpp"

namespace collnoc {

namespace {

// One-sided broadcast on the message-passing buffers (scc), in the manner of OC-Bcast: the
// message goes down a tree of ranks numbered from the root, workload.fanout children each (1: a
// pipelined chain), in chunks staged in each
// core's own buffer. A parent writes chunk i into slot i mod 2 of its buffer and puts a ready
// count into each child's buffer; the child gets the chunk from its parent's slot (a request
// and a reply over the network), writes it into its own slot for its children, and puts a done
// count into its parent's buffer. A parent refills a slot once every child is done with the
// chunk it held, so chunk i + 1 goes down while chunk i is read. Counts run on across
// repetitions, so flags never need clearing.
class OneSidedBroadcast : public MeshCollective {
 public:
  OneSidedBroadcast(const FirmwareParams& p, const Topology& t)
      : MeshCollective(p, t),
        fanout_(p.fanout), slot_words_((p.protocol.mpb_bytes - slots_offset_bytes()) / 2 / 4),
        chunks_done_(n_, 0) {
    if (fanout_ < 1 || fanout_ > 47)
      throw ParamError("workload.fanout", std::to_string(fanout_), "1 .. 47 children");
    if (p.protocol.mpb_bytes < slots_offset_bytes() + 64)
      throw ParamError("workload.algorithm", p.algorithm,
                       "broadcast onesided works on message-passing buffers (platform scc)");
  }
  bool owns_message_passing_buffers() const override { return true; }
  void run_rank(MessageLayer& ml, unsigned me) override {
    const unsigned v = (me + n_ - p_.root) % n_;
    const auto actual = [&](unsigned rel) { return (rel + p_.root) % n_; };
    std::vector<unsigned> children;
    for (unsigned c = fanout_ * v + 1; c <= fanout_ * v + fanout_ && c < n_; ++c)
      children.push_back(actual(c));
    const Words want = broadcast_data(p_);
    Words data = v == 0 ? want : Words(want.size(), 0);
    const std::size_t chunks = (data.size() + slot_words_ - 1) / slot_words_;
    const std::uint32_t base = chunks_done_[me];  // counts of the runs before this one
    ml.mark_round(2);  // down the tree
    for (std::size_t i = 0; i < chunks; ++i) {
      const std::uint32_t count = base + static_cast<std::uint32_t>(i) + 1;
      const std::uint32_t slot = slots_offset_bytes() + static_cast<std::uint32_t>(i % 2) * slot_words_ * 4;
      const std::size_t first = i * slot_words_, words = std::min<std::size_t>(slot_words_, data.size() - first);
      if (v != 0) {
        wait_flags(ml, [&](const Words& f) { return f[kReadyWord] >= count; });
        Words piece;
        {  // into the user's buffer (docs/software_model.md#copies)
          const CopyBuffersScope scope(ml, CopyBuffers::user(4ull * want.size()));
          piece = ml.get(comm_.core(actual((v - 1) / fanout_)), slot, words);
        }
        bytes_moved_ += 4ull * words;
        std::copy(piece.begin(), piece.end(), data.begin() + static_cast<std::ptrdiff_t>(first));
        ml.put(comm_.core(actual((v - 1) / fanout_)), 4 * (kDoneWord + (v - 1) % fanout_), Words{count});
      }
      if (children.empty()) continue;
      if (i >= 2)  // the slot held chunk i - 2: every child must have it
        wait_flags(ml, [&](const Words& f) {
          for (std::size_t c = 0; c < children.size(); ++c)
            if (f[kDoneWord + c] < count - 2) return false;
          return true;
        });
      ml.mpb_write(slot, Words(data.begin() + static_cast<std::ptrdiff_t>(first),
                               data.begin() + static_cast<std::ptrdiff_t>(first + words)));
      for (unsigned child : children) ml.put(comm_.core(child), 4 * kReadyWord, Words{count});
    }
    // Done when every child has the last chunk (the buffer is free for the next run).
    if (!children.empty())
      wait_flags(ml, [&](const Words& f) {
        for (std::size_t c = 0; c < children.size(); ++c)
          if (f[kDoneWord + c] < base + chunks) return false;
        return true;
      });
    chunks_done_[me] = base + static_cast<std::uint32_t>(chunks);
    check(data, want, "broadcast data at rank " + std::to_string(me));
  }

 private:
  // This core's buffer: word 0 the ready count its parent puts, then the done counts of its
  // children, then two slots from the next 32-byte line.
  static constexpr unsigned kReadyWord = 0, kDoneWord = 1;
  unsigned slots_offset_bytes() const { return (4 * (kDoneWord + fanout_) + 31) / 32 * 32; }
  // Polls the flag words: a local read, then a sleep until a put lands, until `ready`.
  template <typename Ready>
  void wait_flags(MessageLayer& ml, Ready ready) {
    for (Words f = ml.mpb_read(0, kDoneWord + fanout_); !ready(f); f = ml.mpb_read(0, kDoneWord + fanout_))
      ml.mpb_wait();
  }
  unsigned fanout_;
  unsigned slot_words_;
  std::vector<std::uint32_t> chunks_done_;  // per rank: chunks of all runs so far
};

}  // namespace

// The data is made inside the cores' threads: workload.message_bytes is checked here.
std::unique_ptr<Firmware> make_broadcast_onesided(const FirmwareParams& p, const Topology& t) {
  message_words(p);
  return std::make_unique<OneSidedBroadcast>(p, t);
}

}  // namespace collnoc
