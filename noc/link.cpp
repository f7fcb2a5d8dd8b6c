#include "noc/link.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace collnoc {

void validate(const LinkParams& p, const std::string& key_prefix) {
  check_range(key_prefix + ".latency_cycles", p.latency_cycles, LinkParams::latency_range);
  check_range(key_prefix + ".credit_latency_cycles", p.credit_latency_cycles,
              LinkParams::latency_range);
}

Link::Link(std::string name, const LinkParams& params) : name_(std::move(name)), params_(params) {
  validate(params, "link");
  // One flit per cycle: `latency` of them can be in flight, plus one written this cycle.
  arrivals_.reset(params.latency_cycles, params.latency_cycles + 1);
}

void Link::attach_receiver(ClockedModule* receiver, unsigned receiver_port, BufferSlot* buffer,
                           std::uint32_t* payload, unsigned payload_words, unsigned vcs,
                           unsigned depth) {
  if (depth < 1 || depth > 65535)
    throw std::logic_error("link " + name_ + ": a receiver's buffer holds 1..65535 slots per VC");
  if (payload_words < 1 || payload_words > kMaxFlitWords)
    throw std::logic_error("link " + name_ + ": a receiver's slot holds 1.." +
                           std::to_string(kMaxFlitWords) + " payload words");
  payload_ = payload;
  payload_words_ = static_cast<std::uint8_t>(payload_words);
  clock_ = &receiver->clock();
  receiver_block_ = receiver->block_index();
  receiver_mark_ = receiver->flit_mark(receiver_port);
  buffer_ = buffer;
  depth_ = static_cast<std::uint16_t>(depth);
  receiver_vcs_ = vcs;
  check_wiring();
}

void Link::attach_sender(ClockedModule* sender, unsigned sender_port, unsigned vcs,
                         unsigned credits_per_vc, unsigned payload_words) {
  sender_payload_words_ = payload_words;
  sender_mark_ = sender->credit_mark(sender_port);
  sender_vcs_ = vcs;
  sender_credits_per_vc_ = credits_per_vc;
  // Every credit on the line is a free slot the sender has not counted yet, so there are no
  // more of them than the buffer has slots.
  credits_.reset(params_.credit_latency_cycles, static_cast<std::size_t>(vcs) * credits_per_vc);
  check_wiring();
}

// Credits are the free slots of the receiver's buffer: a sender with more would overwrite flits.
// And the sender copies as many payload words as the receiver's slots hold.
void Link::check_wiring() const {
  if (!buffer_ || sender_vcs_ == 0) return;
  if (sender_payload_words_ < payload_words_)
    throw std::logic_error("link " + name_ + ": the sender holds " +
                           std::to_string(sender_payload_words_) +
                           " payload words per flit, the receiver's slots " +
                           std::to_string(payload_words_));
  if (sender_vcs_ > receiver_vcs_ || sender_credits_per_vc_ != depth_)
    throw std::logic_error("link " + name_ + ": the sender has " + std::to_string(sender_vcs_) +
                           " VCs of " + std::to_string(sender_credits_per_vc_) +
                           " credits, the receiver's buffer " + std::to_string(receiver_vcs_) +
                           " VCs of " + std::to_string(depth_) + " slots");
}

}  // namespace collnoc
