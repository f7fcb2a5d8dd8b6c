// A user's own sc_main: a 4x4 mesh wired by hand from the library's modules, running a
// ping-pong between two corner cores. Build against the installed package with
//   find_package(collnoc) ... target_link_libraries(app collnoc::collnoc)
#include <iostream>
#include <memory>
#include <vector>

#include "collectives/core.hpp"
#include "collectives/firmware.hpp"
#include "ni/network_interface.hpp"
#include "noc/router/router.hpp"
#include "noc/topology/kary_ncube.hpp"

using namespace collnoc;

// Firmware: core 0 sends 32 words to core 15 and waits for them to come back; core 15 echoes.
class Echo : public Firmware {
 public:
  void run(MessageLayer& ml) override {
    Words data(32);
    for (unsigned i = 0; i < data.size(); ++i) data[i] = 0xC0FFEE00u + i;
    if (ml.rank() == 0) {
      for (int round = 0; round < 4; ++round) {
        const Cycle start = ml.now();
        ml.send(15, data);
        ok_ = ok_ && ml.recv(15) == data;
        std::cout << "round " << round << ": " << ml.now() - start << " cycles\n";
      }
    } else if (ml.rank() == 15) {
      for (int round = 0; round < 4; ++round) ml.send(0, ml.recv(0));
    }
  }
  void report(Report&) const override {}
  bool data_verified() const override { return ok_; }

 private:
  bool ok_ = true;
};

int sc_main(int, char**) {
  Clock clock("clock", sc_core::sc_time(1, sc_core::SC_NS));
  KaryNCube mesh({4, 4}, /*torus=*/false);
  RouterParams rp;  // 4 VCs x 4 flits, 3-cycle hop, wormhole
  NetworkInterfaceParams nip;
  auto routing = make_routing("dor", mesh, rp.vcs_per_class());
  // What the blocks of the network share (packet headers in flight, with room beside each for
  // the NIs' message fields; the progress count), and what the NIs share beyond it.
  NetworkContext net(sizeof(MessageFields));
  InterfaceContext interfaces(net);
  Echo firmware;

  std::vector<std::unique_ptr<Router>> routers;
  std::vector<std::unique_ptr<Link>> links;
  std::vector<std::unique_ptr<NetworkInterface>> nis;
  std::vector<std::unique_ptr<Core>> cores;
  auto new_link = [&](const std::string& name) {
    links.push_back(std::make_unique<Link>(name, LinkParams{}));
    return links.back().get();
  };

  for (RouterId r = 0; r < 16; ++r)
    routers.push_back(std::make_unique<Router>(("router" + std::to_string(r)).c_str(), clock, r,
                                               mesh.radix(), rp, *routing, net));
  // Neighbour links: east/west along x, north/south along y.
  for (RouterId r = 0; r < 16; ++r)
    for (unsigned port = 0; port < mesh.network_ports(); ++port) {
      const PortPeer& peer = mesh.peer(r, port);
      if (!peer.connected()) continue;
      Link* link = new_link("link" + std::to_string(r) + mesh.port_name(port));
      routers[r]->connect_output(port, *link, rp.buffer_flits, /*to_router=*/true);
      routers[peer.router]->connect_input(peer.port, *link);
    }
  // An NI and a core on each router's local port.
  for (NodeId n = 0; n < 16; ++n) {
    const unsigned local = mesh.local_port_of(n);
    nis.push_back(std::make_unique<NetworkInterface>(("ni" + std::to_string(n)).c_str(), clock, n,
                                                     nip, rp, net, interfaces));
    Link* inject = new_link("inject" + std::to_string(n));
    Link* eject = new_link("eject" + std::to_string(n));
    routers[n]->connect_input(local, *inject);
    routers[n]->connect_output(local, *eject, nip.ejection_buffer(rp), /*to_router=*/false);
    nis[n]->connect(*inject, *eject);
    cores.push_back(std::make_unique<Core>(("core" + std::to_string(n)).c_str(), clock, n, 16,
                                           firmware));
    cores[n]->socket.bind(nis[n]->socket);
  }

  sc_core::sc_start(clock.delay(5000));
  const bool done = cores[0]->finished() && cores[15]->finished();
  std::cout << (done && firmware.data_verified() ? "ping-pong ok" : "ping-pong FAILED") << "\n";
  return done && firmware.data_verified() ? 0 : 1;
}
