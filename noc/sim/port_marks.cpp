#include "noc/sim/port_marks.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace collnoc {

void PortMarks::resize(unsigned ports) {
  if (ports > 64) throw std::logic_error("PortMarks: more than 64 ports");
  groups_ = std::max(1u, (ports + 7) / 8);
  if (ports <= kInlinePorts) return;
  if (words_ != inline_) delete[] words_;
  words_ = new std::uint64_t[4 * groups_]();
}

std::uint8_t* PortMarks::byte(unsigned port, unsigned offset) {
  if (port >= 8 * groups_)
    throw std::logic_error("PortMarks: port " + std::to_string(port) +
                           " of a block with room for " + std::to_string(8 * groups_));
  return reinterpret_cast<std::uint8_t*>(words_ + 4 * (port / 8)) + offset + port % 8;
}

}  // namespace collnoc
