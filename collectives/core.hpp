// A processor core running firmware: one SC_THREAD that talks to its NI over TLM-2.0.
//
// The core runs ahead of simulated time (temporal decoupling: a local time offset passed as the
// b_transport annotation) while it only computes and sends: neither depends on the network's
// state. It synchronises (waits out its offset) before it receives, because what has arrived
// depends on everyone else, and whenever the offset exceeds its quantum. The quantum is per core,
// not SystemC's global one, so two systems in one process do not share it.
#pragma once
#include <functional>
#include <string>

#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "collectives/firmware.hpp"
#include "ni/ni_protocol.hpp"
#include "noc/sim/clocked_block.hpp"

namespace collnoc {

struct CoreParams {
  Cycle quantum_cycles = 1000;  // how far a core may run ahead of simulated time

  static constexpr UintRange quantum_cycles_range{1, kU32Max};
};

// Throws ParamError naming core.quantum_cycles.
void validate(const CoreParams& p);

class Core : public sc_core::sc_module, public MessageLayer {
 public:
  tlm_utils::simple_initiator_socket<Core> socket;
  // To the tile's static network port, on platforms that have one (tilepro).
  tlm_utils::simple_initiator_socket_optional<Core> sn_socket;

  Core(sc_core::sc_module_name name, Clock& clock, NodeId rank, unsigned cores, Firmware& program,
       const CoreParams& params = {});
  ~Core() override;

  // MessageLayer
  NodeId rank() const override { return rank_; }
  unsigned size() const override { return cores_; }
  void send(NodeId dst, const Words& data, const SendOptions& opt = {}) override;
  Words recv(NodeId src) override;
  Message recv_any() override;
  Message recv_message(NodeId src) override { return receive(src); }
  void send_coded(const std::vector<NodeId>& dsts, const Words& a, const Words& b,
                  const SendOptions& opt = {}) override;
  void xor_words(const Words& a, const Words& b, const SendOptions& opt) override;
  void multicast(const std::vector<NodeId>& dsts, const Words& data,
                 const SendOptions& opt = {}) override;
  MulticastShape multicast_shape() const override { return multicast_shape_; }
  // The system's HTA routers, as its NI cuts multicasts for them (ni/ni_params.hpp).
  void set_multicast_shape(const MulticastShape& shape) { multicast_shape_ = shape; }
  void compute(Cycle cycles) override;
  Cycle now() const override;
  void mark_round(unsigned round) override;
  // Records the round the firmware is in (`<name>.round`) to a VCD.
  void trace(sc_core::sc_trace_file* tf);
  bool has_static_network() const override { return sn_socket.size() > 0; }
  void sn_configure(unsigned input, std::uint64_t outputs) override;
  void sn_send(const Words& data) override;
  Words sn_recv(std::size_t words) override;
  void put(NodeId dst, std::uint32_t offset, const Words& data) override;
  Words get(NodeId src, std::uint32_t offset, std::size_t words) override;
  void mpb_write(std::uint32_t offset, const Words& data) override;
  Words mpb_read(std::uint32_t offset, std::size_t words) override;
  void mpb_wait() override;

  bool finished() const { return finished_; }
  void fault(const std::string& why) override;
  // Why the firmware stopped at fault (empty: it did not).
  const std::string& fault_reason() const { return fault_; }
  // Called once, when the firmware has returned on this core.
  void set_on_finish(std::function<void()> f) { on_finish_ = std::move(f); }
  Cycle finish_cycle() const { return finish_cycle_; }
  // Blocked in a receive; waiting_for() is the source (kAnySource: from anyone).
  // (From the cycle it issued the receive at: before it, it runs ahead of simulated time.)
  bool receiving() const { return receiving_ && clock_.now() >= receive_cycle_; }
  NodeId waiting_for() const { return waiting_for_; }
  std::uint64_t messages_sent() const { return sent_; }
  std::uint64_t messages_received() const { return received_; }

 private:
  void thread();
  void sync();
  // One TLM transaction of `words` words at `address`, to the NI (or the static network port,
  // `sn`) with cmd_ attached; false if the target refused it.
  bool transport(tlm::tlm_command command, std::uint64_t address, const std::uint32_t* data,
                 std::size_t words, tlm_utils::simple_initiator_socket_optional<Core>* sn = nullptr);
  void command(tlm::tlm_command c, std::uint64_t address, const Words* data,
               const SendOptions& opt);
  // Waits for the next message from `src` (kAnySource: anyone; a get's reply when `mpb_reply`).
  Message receive(NodeId src, bool mpb_reply = false);
  void xor_command(std::uint64_t address, const Words& a, const Words& b, const SendOptions& opt);
  // A write of `data` to the static network port at `address`.
  void sn_write(std::uint64_t address, const Words& data);
  Clock& clock_;
  NodeId rank_;
  unsigned cores_;
  Firmware& program_;
  CoreParams params_;
  // What a receive touches, together (from rank_ to round_: its resume lines).
  sc_core::sc_time offset_;  // how far this core runs ahead of sc_time_stamp()
  tlm::tlm_generic_payload gp_;
  NiCommand cmd_;
  Words pair_;  // a then b, as the XOR commands carry them
  bool finished_ = false;
  Cycle finish_cycle_ = 0;
  NodeId waiting_for_ = kAnySource;
  bool receiving_ = false;
  Cycle receive_cycle_ = 0;  // the cycle its receive was issued at
  std::uint64_t sent_ = 0, received_ = 0;
  std::uint64_t mpb_puts_seen_ = 0;  // remote puts in this core's buffer at its last mpb_read
  bool traced_ = false;
  unsigned round_ = 0;
  MulticastShape multicast_shape_;
  std::function<void()> on_finish_;
  std::string fault_;
  sc_core::sc_event halted_;
  // The stack a woken receive touches first: the kernel's switch below its frame, the
  // firmware's frames above it.
  static constexpr std::uint32_t kResumeStackBelow = 512, kResumeStackAbove = 1536;
};

}  // namespace collnoc
