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
  // The headers made, the owner's bytes zeroed (the owner makes its part: emplace_owned).
  std::byte* bytes = new (std::align_val_t{64}) std::byte[kBlockRecords * record_bytes_]();
  blocks_[block].reset(bytes);
  for (PacketHandle i = 0; i < kBlockRecords; ++i) new (bytes + i * record_bytes_) PacketHeader{};
  l.next = static_cast<PacketHandle>(block * kBlockRecords);
  l.end = l.next + kBlockRecords;
}

}  // namespace collnoc
