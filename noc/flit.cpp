#include "noc/flit.hpp"

#include <stdexcept>
#include <string>

namespace collnoc {

void PacketPool::claim_block(LaneState& l) {
  const std::size_t block = blocks_claimed_.fetch_add(1, std::memory_order_relaxed);
  if (block >= kMaxBlocks)
    throw std::runtime_error("packet pool: more than " +
                             std::to_string(kMaxBlocks * kBlockRecords) + " packets in flight");
  // Published to other threads by the flits that carry these handles (see DelayLine).
  blocks_[block].reset(new PacketHeader[kBlockRecords]);
  l.next = static_cast<PacketHandle>(block * kBlockRecords);
  l.end = l.next + kBlockRecords;
}

}  // namespace collnoc
