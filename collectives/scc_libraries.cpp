#include "collectives/scc_libraries.hpp"

#include <stdexcept>

namespace collnoc {

void require_library_transport(const FirmwareParams& p) {
  if (p.protocol.mpb_bytes == 0)
    throw ParamError("workload.algorithm", p.algorithm,
                     "runs on platform scc only (the SCC's library of that name, over its "
                     "message-passing buffers): another algorithm of " + p.collective + " here");
  if (p.protocol.name != "mpb")
    throw ParamError("msg.protocol", p.protocol.name,
                     "mpb for workload.algorithm = " + p.algorithm +
                         " (the library's messages go through the message-passing buffers)");
}

std::unique_ptr<Firmware> with_variant(std::unique_ptr<Firmware> program, std::string variant) {
  auto* collective = dynamic_cast<CollectiveFirmware*>(program.get());
  if (!collective) throw std::logic_error("with_variant: not a collective");
  collective->set_variant(std::move(variant));
  return program;
}

unsigned power_of_two_floor(unsigned n) {
  unsigned p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

}  // namespace collnoc
