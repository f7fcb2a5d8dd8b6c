#include "collectives/total_exchange.hpp"
#include "noc/topology/kary_ncube.hpp"

namespace collnoc {

namespace {

// Total exchange dimension by dimension on a torus (a hypercube when every k is 2).
class DimensionExchange : public PackedExchange {
 public:
  DimensionExchange(const FirmwareParams& p, const KaryNCube& t)
      : PackedExchange(p, t.num_endpoints()),
        rings_(make_rings(t.ks(), t.num_routers(),
                          [&](RouterId r) {
                            std::vector<unsigned> c(t.dimensions());
                            for (unsigned d = 0; d < t.dimensions(); ++d) c[d] = t.coord(r, d);
                            return c;
                          },
                          [&](const std::vector<unsigned>& c) { return t.router_at(c); })) {
    formula_cycles_ = ring_exchange_cycles(rings_.sizes, {},
                                           static_cast<double>(record_words()) * cores_,
                                           p.neighbour_cost);
  }

 protected:
  void body(MessageLayer& ml) override {
    Words held = initial_records(ml.rank());
    ring_exchange(ml, rings_, held, [](NodeId dst) { return dst; });
    check_delivery(ml.rank(), held);
  }

 private:
  RingProduct rings_;
};

}  // namespace

std::unique_ptr<Firmware> make_total_exchange_dimension_exchange(const FirmwareParams& p,
                                                                 const Topology& t) {
  const auto* cube = dynamic_cast<const KaryNCube*>(&t);
  if (!cube || !cube->torus())
    throw ParamError("workload.algorithm", "dimension_exchange",
                     "needs a torus (platform kary_ncube, topology.kind = torus; k = 2 is a "
                     "hypercube)");
  require_one_core_per_router(t, "dimension_exchange");
  return std::make_unique<DimensionExchange>(p, *cube);
}

}  // namespace collnoc
