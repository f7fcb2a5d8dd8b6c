#include "collectives/mesh_collective.hpp"

namespace collnoc {

namespace {

// How many ranks each of the root's multicasts goes to: `destinations` split into consecutive
// groups of nearly equal size (larger first). A multicast VC holds a packet's headers and its
// data, so a group of g ranks carries at most shape.data_flits(g) data flits per packet and the
// NI repeats all g headers in every packet. The split is the one at which the root injects the
// fewest flits (headers and data over all its multicasts); on a tie, the fewer multicasts.
std::vector<unsigned> multicast_groups(const MulticastShape& shape, unsigned destinations,
                                       std::size_t words) {
  const std::uint64_t data = std::max<std::uint64_t>(1, (words + shape.words_per_flit - 1) /
                                                            shape.words_per_flit);
  const auto cost = [&](unsigned g) {  // flits one multicast to g ranks injects
    const std::uint64_t per_packet = shape.data_flits(g);
    return per_packet ? (data + per_packet - 1) / per_packet * g + data : kU64Max;
  };
  std::uint64_t best = kU64Max;
  unsigned best_count = destinations;
  // (Each multicast injects the data once: more than best / data of them cannot do better.)
  for (unsigned m = 1; m <= destinations && m <= best / data; ++m) {
    const unsigned small = destinations / m, larger = destinations % m;
    const std::uint64_t large_cost = larger ? cost(small + 1) : 0;
    if (large_cost == kU64Max || cost(small) == kU64Max) continue;  // a group too large
    const std::uint64_t total = larger * large_cost + (m - larger) * cost(small);
    if (total < best) best = total, best_count = m;
  }
  std::vector<unsigned> groups(best_count, destinations / best_count);
  for (unsigned i = 0; i < destinations % best_count; ++i) ++groups[i];
  return groups;
}

// Hardware multicast (docs/hta.md, "Firmware"): the root multicasts the data to every other
// rank and the HTA routers replicate it along their own tree; every other rank receives it as a
// message from the root. When the headers of all ranks do not fit a multicast VC beside the
// data (or leave it room for a slice only, so that the NI cuts many packets that each repeat
// every header), the root sends several multicasts to consecutive ranks (multicast_groups).
class HtaBroadcast : public MeshCollective {
 public:
  using MeshCollective::MeshCollective;
  void run_rank(MessageLayer& ml, unsigned me) override {
    Words data;
    if (me == p_.root) {
      data = broadcast_data(p_);
      std::vector<NodeId> others;
      for (unsigned r = 0; r < n_; ++r)
        if (r != me) others.push_back(comm_.core(r));
      // (Without HTA routers the message layer refuses the first multicast.)
      const std::vector<unsigned> groups =
          others.empty() ? std::vector<unsigned>{}
          : ml.multicast_shape().available()
              ? multicast_groups(ml.multicast_shape(), static_cast<unsigned>(others.size()),
                                 data.size())
              : std::vector<unsigned>{static_cast<unsigned>(others.size())};
      auto first = others.begin();
      for (unsigned g : groups) {
        ml.multicast(std::vector<NodeId>(first, first + g), data);
        first += g;
        bytes_moved_ += 4ull * data.size();
      }
      multicasts_ = groups.size();
    } else {
      data = recv(ml, p_.root);
    }
    check(data, broadcast_data(p_), "broadcast data at rank " + std::to_string(me));
  }

 private:
  void report_more(Report& out) const override {
    MeshCollective::report_more(out);
    out.set("collective.multicasts", static_cast<std::uint64_t>(multicasts_));
  }
  std::size_t multicasts_ = 0;  // the root's, per run of the collective
};

}  // namespace

// The data is made inside the cores' threads: workload.message_bytes is checked here.
std::unique_ptr<Firmware> make_broadcast_hta(const FirmwareParams& p, const Topology& t) {
  message_words(p);
  return std::make_unique<HtaBroadcast>(p, t);
}

}  // namespace collnoc
