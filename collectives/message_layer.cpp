#include "collectives/message_layer.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include <systemc>

namespace collnoc {

CopyBuffers CopyBuffers::user(std::uint64_t bytes, unsigned own_words) {
  return {own_words, {{std::numeric_limits<std::uint64_t>::max(), bytes}}};
}

CopyBuffers CopyBuffers::messages(const std::vector<std::uint64_t>& sizes, std::uint64_t first,
                                  std::uint64_t words, unsigned own_words) {
  CopyBuffers b{own_words, {}};
  std::uint64_t start = 0;
  for (const std::uint64_t size : sizes) {
    const std::uint64_t from = std::max(start, first), to = std::min(start + size, first + words);
    if (from < to) b.spans.push_back({to - from, 4 * size});
    start += size;
  }
  return b;
}

void MessageLayer::fault(const std::string& why) {
  SC_REPORT_ERROR("collnoc/message_layer", why.c_str());
}

Message MessageLayer::recv_message(NodeId src) {
  Message m;
  m.src = src;
  m.words = recv(src);
  m.arrival_cycle = now();
  return m;
}

void MessageLayer::missing(const char* what) { fault(std::string("this platform has no ") + what); }

// Cores without a static network, message-passing buffers or HTA routers: firmware that asks
// is at fault.
void MessageLayer::multicast(const std::vector<NodeId>&, const Words&, const SendOptions&) {
  missing("hardware multicast (HTA routers: workload.algorithm hta, or RouterParams::hta)");
}
void MessageLayer::sn_configure(unsigned, std::uint64_t) { missing("static network"); }
void MessageLayer::sn_send(const Words&) { missing("static network"); }
Words MessageLayer::sn_recv(std::size_t) {
  missing("static network");
  return {};
}
void MessageLayer::put(NodeId, std::uint32_t, const Words&) { missing("message-passing buffer"); }
Words MessageLayer::get(NodeId, std::uint32_t, std::size_t) {
  missing("message-passing buffer");
  return {};
}
void MessageLayer::mpb_write(std::uint32_t, const Words&) { missing("message-passing buffer"); }
Words MessageLayer::mpb_read(std::uint32_t, std::size_t) {
  missing("message-passing buffer");
  return {};
}
void MessageLayer::mpb_wait() { missing("message-passing buffer"); }

}  // namespace collnoc
