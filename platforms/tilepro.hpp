// TilePro-like chip: an 8x8 mesh of tiles, each with a router of the dynamic network (UDN, the
// NocSystem's routers and NIs) and a StaticSwitch of the static network (SN) with a port its core
// reaches. The two networks share nothing but the clock.
#pragma once
#include "ni/static_network_port.hpp"
#include "platforms/noc_system.hpp"

namespace collnoc {

class TileProSystem : public NocSystem {
 public:
  TileProSystem(sc_core::sc_module_name name, std::unique_ptr<Topology> topology,
                const SystemParams& params, const StaticSwitchParams& sn);
  ~TileProSystem() override;

  StaticSwitch& static_switch(RouterId r) { return *switches_[r]; }
  const StaticSwitch& static_switch(RouterId r) const { return *switches_[r]; }
  void report_more(Tally& t) const override;

 protected:
  void on_cores_attached() override;
  void trace_node(sc_core::sc_trace_file* tf, RouterId r, std::ostream& gtkw) const override;

 private:
  std::vector<std::unique_ptr<StaticSwitch>> switches_;
  std::vector<std::unique_ptr<StaticNetworkPort>> sn_ports_;
  std::deque<Link> sn_links_;
};

}  // namespace collnoc
