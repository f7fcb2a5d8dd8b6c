// All-to-all broadcast (SPEC 3.2) as firmware: workload.kind = all_to_all_broadcast, with the
// plan of collectives/all_to_all_plan.hpp. Every node ends holding every source's datum, bit-exact.
#pragma once
#include <memory>

#include "collectives/firmware.hpp"

namespace collnoc {

std::unique_ptr<Firmware> make_all_to_all_broadcast(const FirmwareParams& p, const Topology& t);

}  // namespace collnoc
