// Energy and power estimates (docs/energy.md): the blocks count what they did (RouterActivity,
// the NIs' counters); this turns the counts into energy with a table of per-event coefficients
// (configs/power/*.yaml, read by the program into a PowerTable). Nothing here runs during the
// simulation.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "noc/report.hpp"
#include "platforms/noc_system.hpp"

namespace collnoc {

// Coefficients, units in the names. Dynamic ones are per event (per bit of the flit, or per
// 32-bit word, where the event's energy grows with its width); leakage is power.
struct PowerTable {
  double buffer_write_pj_per_bit = 0;      // a flit written into a router's input buffer
  double buffer_read_pj_per_bit = 0;       // ... and read out of it
  double route_computation_pj = 0;         // a head (or multicast header) routed
  double vc_allocation_pj = 0;             // an output VC granted
  double switch_allocation_pj = 0;         // a switch grant (a flit and an output)
  double crossbar_pj_per_bit = 0;          // a flit across the crossbar
  double link_pj_per_bit_mm = 0;           // a flit over a router-to-router link, per mm
  double ni_packetize_pj_per_bit = 0;      // a flit made and sent by an NI
  double ni_eject_pj_per_bit = 0;          // a flit taken and reassembled by an NI
  double xor_pj_per_bit = 0;               // a payload bit through an XOR engine
  double fpc_encode_pj_per_word = 0;       // a word into an FPC encoder
  double fpc_decode_pj_per_word = 0;       // a word restored by an FPC decoder
  double lsb_cut_encode_pj_per_word = 0;   // the same for LSB-cut
  double lsb_cut_decode_pj_per_word = 0;
  double static_switch_pj_per_bit = 0;     // a flit through a static switch output
  double mpb_read_pj_per_word = 0;         // a message-passing buffer word read
  double mpb_write_pj_per_word = 0;        // ... and written
  double deadlock_queue_pj_per_bit = 0;    // a flit into or out of an HTA deadlock queue
  double router_port_leakage_mw = 0;       // per connected router port (crossbar, allocators)
  double buffer_leakage_nw_per_bit = 0;    // per bit of input buffer
};

// A table entry: its name in the YAML table, the one unit it must be given in, its field.
struct PowerCoefficient {
  const char* name;
  const char* unit;
  double PowerTable::*field;
};
const std::vector<PowerCoefficient>& power_coefficients();

// How long a mesh or torus link is drawn: folded (a torus's rows interleaved, every link two
// tiles long) or flat (neighbours one tile apart, the wrap-around link across the row).
enum class TorusLayout : std::uint8_t { folded, flat };
const char* to_string(TorusLayout l);
const std::vector<TorusLayout>& torus_layouts();

struct EnergyParams {
  std::string table_file;  // power.table; empty: no energy estimate
  PowerTable table;        // read from table_file by the program
  double tile_pitch_mm = 1.0;  // power.tile_pitch_mm: one tile's side, a one-tile link
  TorusLayout torus_layout = TorusLayout::folded;  // power.torus_layout

  bool enabled() const { return !table_file.empty(); }

  static constexpr RealRange tile_pitch_mm_range{0.0, 1e6, true};
};

// Tiles a router-to-router link spans: a mesh's 1, a torus's by `layout`; 1 for any other
// topology (its links drawn one tile long).
unsigned link_span_tiles(const Topology& topo, RouterId r, unsigned port, TorusLayout layout);

// What the estimate counts over the whole system (energy.events.* in the results).
struct EnergyEvents {
  std::uint64_t buffer_writes = 0, buffer_reads = 0, route_computations = 0;
  std::uint64_t vc_allocations = 0, switch_allocations = 0, crossbar_traversals = 0;
  std::uint64_t link_traversals = 0;  // flits over router-to-router links
  double link_bit_mm = 0;             // their bits times the links' lengths
  std::uint64_t ni_flits_packetized = 0, ni_flits_ejected = 0, xor_words = 0;
  std::uint64_t codec_words_in = 0, codec_words_out = 0, codec_words_decoded = 0;
  std::uint64_t static_switch_hops = 0, mpb_words_read = 0, mpb_words_written = 0;
  std::uint64_t deadlock_queue_moves = 0;
  std::uint64_t router_cycles = 0;
};

// Adds energy.* to `r` (after the blocks' counters are in it: `t` is their tally) and an
// energy_pj column to its `links` and `router_buffers` rows.
void report_energy(const NocSystem& sys, const EnergyParams& p, const Tally& t, Report& r);

}  // namespace collnoc
