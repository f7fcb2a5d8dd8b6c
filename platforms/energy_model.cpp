#include "platforms/energy_model.hpp"

#include <map>
#include <stdexcept>
#include <utility>

#include "ni/codec.hpp"
#include "noc/topology/kary_ncube.hpp"

namespace collnoc {

const std::vector<PowerCoefficient>& power_coefficients() {
  using T = PowerTable;
  static const std::vector<PowerCoefficient> list{
      {"buffer_write", "pJ/bit", &T::buffer_write_pj_per_bit},
      {"buffer_read", "pJ/bit", &T::buffer_read_pj_per_bit},
      {"route_computation", "pJ", &T::route_computation_pj},
      {"vc_allocation", "pJ", &T::vc_allocation_pj},
      {"switch_allocation", "pJ", &T::switch_allocation_pj},
      {"crossbar", "pJ/bit", &T::crossbar_pj_per_bit},
      {"link", "pJ/bit/mm", &T::link_pj_per_bit_mm},
      {"ni_packetize", "pJ/bit", &T::ni_packetize_pj_per_bit},
      {"ni_eject", "pJ/bit", &T::ni_eject_pj_per_bit},
      {"xor", "pJ/bit", &T::xor_pj_per_bit},
      {"fpc_encode", "pJ/word", &T::fpc_encode_pj_per_word},
      {"fpc_decode", "pJ/word", &T::fpc_decode_pj_per_word},
      {"lsb_cut_encode", "pJ/word", &T::lsb_cut_encode_pj_per_word},
      {"lsb_cut_decode", "pJ/word", &T::lsb_cut_decode_pj_per_word},
      {"static_switch", "pJ/bit", &T::static_switch_pj_per_bit},
      {"mpb_read", "pJ/word", &T::mpb_read_pj_per_word},
      {"mpb_write", "pJ/word", &T::mpb_write_pj_per_word},
      {"deadlock_queue", "pJ/bit", &T::deadlock_queue_pj_per_bit},
      {"router_port_leakage", "mW", &T::router_port_leakage_mw},
      {"buffer_leakage", "nW/bit", &T::buffer_leakage_nw_per_bit},
  };
  return list;
}

const char* to_string(TorusLayout l) { return l == TorusLayout::folded ? "folded" : "flat"; }
const std::vector<TorusLayout>& torus_layouts() {
  static const std::vector<TorusLayout> all{TorusLayout::folded, TorusLayout::flat};
  return all;
}

unsigned link_span_tiles(const Topology& topo, RouterId r, unsigned port, TorusLayout layout) {
  const auto* cube = dynamic_cast<const KaryNCube*>(&topo);
  const PortPeer& q = topo.peer(r, port);
  if (!cube || !q.connected()) return 1;
  unsigned span = 0;
  for (unsigned d = 0; d < cube->dimensions(); ++d) {
    const unsigned a = cube->coord(r, d), b = cube->coord(q.router, d);
    if (a == b) continue;
    // Folded: every torus link of a ring longer than 2 skips one tile.
    if (cube->torus() && layout == TorusLayout::folded) span += cube->k(d) > 2 ? 2 : 1;
    else span += a > b ? a - b : b - a;
  }
  return span;
}

namespace {

// The codec coefficients (encode, decode per word) of the codec that serves `type`.
std::pair<double, double> codec_pj_per_word(const PowerTable& c, ElementType type) {
  const CodecEntry* entry = codec_entry_for(type);
  if (!entry) return {0.0, 0.0};
  const std::string name = entry->name;
  if (name == "fpc") return {c.fpc_encode_pj_per_word, c.fpc_decode_pj_per_word};
  if (name == "lsb_cut") return {c.lsb_cut_encode_pj_per_word, c.lsb_cut_decode_pj_per_word};
  throw std::logic_error("the power table has no coefficients for codec " + name);
}

}  // namespace

void report_energy(const NocSystem& sys, const EnergyParams& p, const Tally& t, Report& r) {
  const Topology& topo = sys.topology();
  const PowerTable& c = p.table;
  const SystemParams& sp = sys.params();
  const double bits = sp.ni.flit_width_bits;
  const double cycles = static_cast<double>(sys.clock().now());
  const double ns = cycles * sp.clock_period_ns;
  EnergyEvents e;
  // Components in the order of the results (energy.by_component.<name>_pj).
  double buffer = 0, route = 0, vc = 0, sw = 0, crossbar = 0, link = 0, ni = 0, xor_pj = 0;
  double codec = 0, static_switch = 0, mpb = 0, dq = 0, leakage = 0;

  const std::vector<RouterActivity> activity = sys.router_activity();
  std::vector<double> router_pj(activity.size(), 0.0);
  std::map<std::pair<RouterId, unsigned>, double> link_pj;  // (router, output port)
  for (RouterId id = 0; id < activity.size(); ++id) {
    const RouterActivity& a = activity[id];
    const RouterEvents& ev = a.events;
    const Router& router = sys.router(id);
    const double b = bits * (a.buffer_writes * c.buffer_write_pj_per_bit +
                             a.buffer_reads * c.buffer_read_pj_per_bit);
    const double rc = ev.route_computations * c.route_computation_pj;
    const double va = ev.vc_allocations * c.vc_allocation_pj;
    const double sa = ev.switch_allocations * c.switch_allocation_pj;
    const double xb = bits * ev.crossbar_traversals * c.crossbar_pj_per_bit;
    const double q = bits * ev.deadlock_queue_moves * c.deadlock_queue_pj_per_bit;
    // Leakage grows with the ports and the input buffers' bits (ports x VCs x depth x width).
    unsigned ports = 0, inputs = 0;
    for (unsigned port = 0; port < router.ports(); ++port) {
      ports += router.input_connected(port) || router.output_connected(port);
      inputs += router.input_connected(port);
    }
    const RouterParams& rp = router.params();
    const double buffer_bits = static_cast<double>(inputs) * rp.vcs * rp.buffer_flits * bits;
    const double leak_mw = ports * c.router_port_leakage_mw + buffer_bits * c.buffer_leakage_nw_per_bit * 1e-6;
    const double lk = leak_mw * ns;  // mW x ns = pJ
    buffer += b, route += rc, vc += va, sw += sa, crossbar += xb, dq += q, leakage += lk;
    router_pj[id] = b + rc + va + sw + xb + q + lk;
    e.buffer_writes += a.buffer_writes;
    e.buffer_reads += a.buffer_reads;
    e.route_computations += ev.route_computations;
    e.vc_allocations += ev.vc_allocations;
    e.switch_allocations += ev.switch_allocations;
    e.crossbar_traversals += ev.crossbar_traversals;
    e.deadlock_queue_moves += ev.deadlock_queue_moves;
    for (unsigned port = 0; port < topo.network_ports(); ++port) {
      if (!topo.peer(id, port).connected()) continue;
      const std::uint64_t flits = router.output_counters(port).flits;
      const double bit_mm = flits * bits * link_span_tiles(topo, id, port, p.torus_layout) * p.tile_pitch_mm;
      link_pj[{id, port}] = bit_mm * c.link_pj_per_bit_mm;
      link += bit_mm * c.link_pj_per_bit_mm;
      e.link_traversals += flits;
      e.link_bit_mm += bit_mm;
    }
  }
  e.router_cycles = static_cast<std::uint64_t>(activity.size()) * sys.clock().now();

  for (NodeId n = 0; n < sys.num_nis(); ++n) {
    const NetworkInterface& nif = sys.ni(n);
    const PacketizerCounters& pc = nif.packetizer().counters();
    e.ni_flits_packetized += pc.flits_injected;
    e.ni_flits_ejected += nif.reassembler().counters().flits_delivered;
    e.xor_words += nif.front_end().xor_engine().words_xored();
    e.mpb_words_read += nif.front_end().counters().mpb_words_read;
    e.mpb_words_written += nif.front_end().counters().mpb_words_written;
    const auto& codec_words = nif.packetizer().codec_words();
    for (std::size_t type = 0; type < codec_words.size(); ++type) {
      const CodecWords& w = codec_words[type];
      const auto [encode, decode] = codec_pj_per_word(c, static_cast<ElementType>(type));
      codec += w.encoded_in * encode + w.decoded_out * decode;
      e.codec_words_in += w.encoded_in;
      e.codec_words_out += w.encoded_out;
      e.codec_words_decoded += w.decoded_out;
    }
  }
  ni = bits * (e.ni_flits_packetized * c.ni_packetize_pj_per_bit +
               e.ni_flits_ejected * c.ni_eject_pj_per_bit);
  xor_pj = 32.0 * e.xor_words * c.xor_pj_per_bit;
  mpb = e.mpb_words_read * c.mpb_read_pj_per_word + e.mpb_words_written * c.mpb_write_pj_per_word;
  e.static_switch_hops = t.total("sn.flits_switched");
  static_switch = bits * e.static_switch_hops * c.static_switch_pj_per_bit;

  const double dynamic = buffer + route + vc + sw + crossbar + link + ni + xor_pj + codec +
                         static_switch + mpb + dq;
  const double total = dynamic + leakage;
  const std::uint64_t delivered = t.total("flits.delivered");
  r.set("energy.table", p.table_file);
  r.set("energy.total_pj", total);
  r.set("energy.dynamic_pj", dynamic);
  r.set("energy.leakage_pj", leakage);
  r.set("energy.per_flit_pj", delivered ? total / static_cast<double>(delivered) : 0.0);
  r.set("energy.average_power_mw", ns > 0 ? total / ns : 0.0);  // pJ / ns = mW
  const std::pair<const char*, double> components[] = {
      {"buffer", buffer}, {"route_computation", route}, {"vc_allocation", vc},
      {"switch_allocation", sw}, {"crossbar", crossbar}, {"link", link}, {"ni", ni},
      {"xor", xor_pj}, {"codec", codec}, {"static_switch", static_switch}, {"mpb", mpb},
      {"deadlock_queue", dq}, {"router_leakage", leakage}};
  for (const auto& [name, pj] : components)
    r.set(std::string("energy.by_component.") + name + "_pj", pj);
  const std::pair<const char*, std::uint64_t> counts[] = {
      {"buffer_writes", e.buffer_writes}, {"buffer_reads", e.buffer_reads},
      {"route_computations", e.route_computations}, {"vc_allocations", e.vc_allocations},
      {"switch_allocations", e.switch_allocations},
      {"crossbar_traversals", e.crossbar_traversals}, {"link_traversals", e.link_traversals},
      {"ni_flits_packetized", e.ni_flits_packetized}, {"ni_flits_ejected", e.ni_flits_ejected},
      {"xor_words", e.xor_words}, {"codec_words_in", e.codec_words_in},
      {"codec_words_out", e.codec_words_out}, {"codec_words_decoded", e.codec_words_decoded},
      {"static_switch_hops", e.static_switch_hops}, {"mpb_words_read", e.mpb_words_read},
      {"mpb_words_written", e.mpb_words_written},
      {"deadlock_queue_moves", e.deadlock_queue_moves}, {"router_cycles", e.router_cycles}};
  for (const auto& [name, n] : counts) r.set(std::string("energy.events.") + name, n);
  r.set("energy.events.link_bit_mm", e.link_bit_mm);

  // The arrays: a router's own energy (its leakage included), a link's traversals.
  if (std::vector<Report>* rows = r.list("router_buffers"))
    for (Report& row : *rows)
      if (const Report::Value* id = row.find("router"))
        row.set("energy_pj", router_pj.at(std::get<std::uint64_t>(*id)));
  if (std::vector<Report>* rows = r.list("links")) {
    std::map<std::string, unsigned> port_of;
    for (unsigned port = 0; port < topo.network_ports(); ++port) port_of[topo.port_name(port)] = port;
    for (Report& row : *rows) {
      const Report::Value* id = row.find("router");
      const Report::Value* name = row.find("port");
      double pj = 0;  // ejection channels: the NIs' share (energy.by_component.ni_pj)
      if (id && name && row.find("to_router")) {
        const auto it = port_of.find(std::get<std::string>(*name));
        if (it != port_of.end()) {
          const auto l = link_pj.find({static_cast<RouterId>(std::get<std::uint64_t>(*id)), it->second});
          if (l != link_pj.end()) pj = l->second;
        }
      }
      row.set("energy_pj", pj);
    }
  }
}

}  // namespace collnoc
