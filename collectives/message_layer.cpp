#include "collectives/message_layer.hpp"

#include <systemc>

namespace collnoc {

// Cores without a static network: firmware that asks for one is at fault.
void MessageLayer::sn_configure(unsigned, std::uint64_t) {
  SC_REPORT_ERROR("collnoc/message_layer", "this platform has no static network");
}
void MessageLayer::sn_send(const Words&) {
  SC_REPORT_ERROR("collnoc/message_layer", "this platform has no static network");
}
Words MessageLayer::sn_recv(std::size_t) {
  SC_REPORT_ERROR("collnoc/message_layer", "this platform has no static network");
  return {};
}

}  // namespace collnoc
