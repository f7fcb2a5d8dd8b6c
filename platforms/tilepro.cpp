#include "platforms/tilepro.hpp"

namespace collnoc {

TileProSystem::TileProSystem(sc_core::sc_module_name name, std::unique_ptr<Topology> topology,
                             const SystemParams& params, const StaticSwitchParams& sn)
    : NocSystem(name, std::move(topology), params) {
  const Topology& topo = this->topology();
  const LinkParams hop;  // 1 cycle per hop, credits back in 1
  for (RouterId r = 0; r < topo.num_routers(); ++r)
    switches_.push_back(std::make_unique<StaticSwitch>(("sn_switch" + std::to_string(r)).c_str(),
                                                       clock(), topo.radix(), sn, context()));
  for (RouterId r = 0; r < topo.num_routers(); ++r)
    for (unsigned p = 0; p < topo.network_ports(); ++p) {
      const PortPeer& q = topo.peer(r, p);
      if (!q.connected()) continue;
      Link& link = sn_links_.emplace_back("sn_r" + std::to_string(r) + "_" + topo.port_name(p), hop);
      switches_[r]->connect_output(p, link, sn.buffer_flits);
      switches_[q.router]->connect_input(q.port, link);
    }
  for (NodeId n = 0; n < topo.num_endpoints(); ++n) {
    const RouterId r = topo.router_of(n);
    const unsigned port = topo.local_port_of(n);
    sn_ports_.push_back(std::make_unique<StaticNetworkPort>(
        ("sn_port" + std::to_string(n)).c_str(), clock(), *switches_[r],
        params.ni.words_per_flit(), context()));
    Link& in = sn_links_.emplace_back("sn_inject" + std::to_string(n), hop);
    Link& out = sn_links_.emplace_back("sn_eject" + std::to_string(n), hop);
    switches_[r]->connect_input(port, in);
    switches_[r]->connect_output(port, out, sn.buffer_flits);
    sn_ports_.back()->connect(in, out, sn.buffer_flits);
  }
  for (auto& s : switches_) s->set_always_on(!params.activity_driven);
  for (auto& s : sn_ports_) s->set_always_on(!params.activity_driven);
}

TileProSystem::~TileProSystem() = default;

void TileProSystem::on_cores_attached() {
  for (std::size_t n = 0; n < cores().size(); ++n) cores()[n]->sn_socket.bind(sn_ports_[n]->socket);
}

void TileProSystem::trace_node(sc_core::sc_trace_file* tf, RouterId r, std::ostream& gtkw) const {
  StaticSwitch& sw = *switches_[r];
  sw.trace(tf, topology());
  const std::string base = std::string("SystemC.") + sw.name();
  gtkw << "@200\n-" << sw.basename() << " (static network)\n";
  for (unsigned p = 0; p < sw.ports(); ++p)
    if (sw.output_connected(p)) gtkw << "@28\n" << base << ".out_valid_" << topology().port_name(p) << "\n";
  gtkw << "@24\n" << base << ".route_input[7:0]\n";
}

void TileProSystem::report_more(Tally& t) const {
  for (const auto& s : switches_) s->report(t);
}

}  // namespace collnoc
