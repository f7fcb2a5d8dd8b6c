// SCC-like message-passing buffer (MPB): on-tile SRAM beside a core's NI that any core of the
// chip reads and writes one-sided, through the network (put / get), and its own core reads and
// writes directly. Word-addressed by byte offsets (multiples of 4).
#pragma once
#include <cstdint>
#include <vector>

namespace collnoc {

class MessagePassingBuffer {
 public:
  explicit MessagePassingBuffer(unsigned size_bytes = 0) : words_(size_bytes / 4, 0) {}
  unsigned size_bytes() const { return static_cast<unsigned>(words_.size() * 4); }
  // Whether `count` words from byte `offset` lie inside the buffer.
  bool holds(std::uint64_t offset, std::uint64_t count) const {
    return offset % 4 == 0 && offset / 4 + count <= words_.size();
  }
  void write(std::uint64_t offset, const std::uint32_t* data, std::size_t count) {
    std::copy(data, data + count, words_.begin() + static_cast<std::ptrdiff_t>(offset / 4));
  }
  void read(std::uint64_t offset, std::uint32_t* out, std::size_t count) const {
    const auto first = words_.begin() + static_cast<std::ptrdiff_t>(offset / 4);
    std::copy(first, first + static_cast<std::ptrdiff_t>(count), out);
  }

 private:
  std::vector<std::uint32_t> words_;
};

}  // namespace collnoc
