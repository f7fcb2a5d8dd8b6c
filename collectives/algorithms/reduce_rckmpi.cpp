#include "collectives/scc_libraries.hpp"

namespace collnoc {

std::unique_ptr<Firmware> make_reduce_binomial(const FirmwareParams&, const Topology&);

// MPICH2's choice: binomial up to reduce_short_bytes or with fewer elements than p' (the
// largest power of two of ranks), Rabenseifner's (reduce-scatter, then a binomial gather to
// the root) above (collectives/algorithms/allreduce_rckmpi.cpp).
std::unique_ptr<Firmware> make_reduce_rckmpi(const FirmwareParams& p, const Topology& t) {
  require_library_transport(p);
  const unsigned n = GridCommunicator(t, p.grid).size();
  if (p.message_bytes <= MpichThresholds::reduce_short_bytes ||
      Reduction(p).elements() < power_of_two_floor(n))
    return with_variant(make_reduce_binomial(p, t), "binomial");
  return with_variant(make_rabenseifner(p, t, false), "rabenseifner");
}

}  // namespace collnoc
