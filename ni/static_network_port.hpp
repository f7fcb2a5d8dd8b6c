// A tile's port onto the static network: between its core (TLM-2.0 target) and the local port
// of its StaticSwitch. The SN carries bare words, no headers: a send is cut into flits of
// words_per_flit words and injected one flit per cycle under credit flow control; arriving
// words queue for the core, which takes them by count. The core also writes its switch's route
// register through here (kSnConfigAddress).
#pragma once
#include <deque>

#include <tlm_utils/simple_target_socket.h>

#include "ni/ni_protocol.hpp"
#include "noc/static_switch.hpp"

namespace collnoc {

// Addresses of the static network port (NiCommand carries found/arrival for receives).
constexpr std::uint64_t kSnSendAddress = 0x2000;    // write: words to send
constexpr std::uint64_t kSnRecvAddress = 0x3000;    // read: data_length / 4 words, when there
constexpr std::uint64_t kSnConfigAddress = 0x4000;  // write: {input port, outputs lo, outputs hi}

class StaticNetworkPort : public Clocked<StaticNetworkPort> {
 public:
  tlm_utils::simple_target_socket_optional<StaticNetworkPort> socket;

  StaticNetworkPort(sc_core::sc_module_name name, Clock& clock, StaticSwitch& sw,
                    unsigned words_per_flit, NetworkContext& net);
  // to_switch: into the switch's local input; from_switch: out of its local output.
  void connect(Link& to_switch, Link& from_switch, unsigned switch_buffer_flits);

  std::uint64_t flits_sent() const { return flits_sent_; }
  std::uint64_t flits_received() const { return flits_received_; }
  bool idle() const { return tx_.empty(); }

 protected:
  friend class Clocked<StaticNetworkPort>;
  template <class At>
  void cycle(At at);
  Cycle next_work_cycle(Cycle now) const override;

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

  StaticSwitch& switch_;
  unsigned words_per_flit_;
  NetworkContext& net_;
  Link* to_switch_ = nullptr;
  Link* from_switch_ = nullptr;
  unsigned credits_ = 0;
  std::uint16_t tx_next_slot_ = 0;  // Link::send
  InputBuffer rx_buffer_;          // from the switch
  struct Chunk {  // one send: its words and the cycle the port has them
    std::vector<std::uint32_t> words;
    Cycle ready = 0;
    std::size_t next = 0;
  };
  std::deque<Chunk> tx_;
  std::deque<std::uint32_t> rx_;     // words received, oldest first
  std::deque<Cycle> rx_available_;   // per word: from which cycle the core may take it
  sc_core::sc_event arrived_;
  std::uint64_t flits_sent_ = 0, flits_received_ = 0;
};

}  // namespace collnoc
