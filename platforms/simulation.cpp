#include "platforms/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <sstream>

namespace collnoc {

using namespace sc_core;

void validate(const RunParams& p) {
  check_range("sim.measure_cycles", p.measure_cycles, RunParams::measure_cycles_range);
  check_range("sim.max_cycles", p.max_cycles, RunParams::max_cycles_range);
  check_range("sim.watchdog_cycles", p.watchdog_cycles, RunParams::watchdog_cycles_range);
  // The window's end and the drain's are cycle numbers: their sums must be too.
  Cycle window_end = 0, drain_end = 0;
  if (__builtin_add_overflow(p.warmup_cycles, p.measure_cycles, &window_end) ||
      window_end == kNever)
    throw ParamError("sim.warmup_cycles", std::to_string(p.warmup_cycles),
                     "sim.warmup_cycles + sim.measure_cycles (" + std::to_string(p.measure_cycles) +
                         ") must be below 2^64 - 1");
  if (__builtin_add_overflow(window_end, p.max_drain_cycles, &drain_end) || drain_end == kNever)
    throw ParamError("sim.max_drain_cycles", std::to_string(p.max_drain_cycles),
                     "sim.warmup_cycles + sim.measure_cycles + sim.max_drain_cycles must be "
                     "below 2^64 - 1");
}

const char* to_string(RunStatus s) {
  switch (s) {
    case RunStatus::ok: return "ok";
    case RunStatus::deadlock: return "deadlock";
    case RunStatus::conservation_error: return "conservation_error";
    case RunStatus::data_error: return "data_error";
    case RunStatus::firmware_deadlock: return "firmware_deadlock";
    case RunStatus::firmware_fault: return "firmware_fault";
    case RunStatus::timeout: return "timeout";
    case RunStatus::stalled: return "stalled";
  }
  return "?";
}

Simulation::Simulation(NocSystem& system, const RunParams& params, Firmware* firmware)
    : sys_(system), params_(params), firmware_(firmware) {
  validate(params_);
  const Cycle begin = firmware_ ? 0 : params_.warmup_cycles;
  const Cycle end = firmware_ ? kNever : params_.warmup_cycles + params_.measure_cycles;
  for (std::size_t n = 0; n < sys_.num_nis(); ++n) sys_.ni(static_cast<NodeId>(n)).set_measurement_window(begin, end);
}

bool Simulation::finished(Cycle now) const {
  if (firmware_) {
    for (const auto& c : sys_.cores())
      if (!c->finished()) return false;
    return true;
  }
  if (now < params_.warmup_cycles + params_.measure_cycles) return false;
  std::uint64_t created = 0, delivered = 0;
  for (std::size_t n = 0; n < sys_.num_nis(); ++n) {
    created += sys_.ni(static_cast<NodeId>(n)).counters().measured_created;
    delivered += sys_.ni(static_cast<NodeId>(n)).counters().measured_delivered;
  }
  return delivered == created;
}

RunOutcome Simulation::run() {
  using Clk = std::chrono::steady_clock;
  RunOutcome out;
  const auto wall_start = Clk::now();
  auto next_progress = wall_start + std::chrono::seconds(3);
  const Cycle chunk = 256;
  const Cycle expected = firmware_ ? kNever
                                   : std::min(params_.max_cycles,
                                              params_.warmup_cycles + params_.measure_cycles);
  std::uint64_t last_moves = 0, last_core_events = 0;
  Cycle last_move_cycle = 0, last_core_cycle = 0;
  bool completed = false, interrupted = false;
  Clock& clock = sys_.clock();
  // The workload says when it is done (last core finished, last measured packet delivered):
  // pause the kernel on that very cycle.
  sys_.context().on_workload_done = [] { sc_pause(); };
  const Cycle window_end = params_.warmup_cycles + params_.measure_cycles;
  const Cycle stop = firmware_ ? params_.max_cycles
                               : std::min(params_.max_cycles, window_end + params_.max_drain_cycles);

  for (;;) {
    if (params_.interrupt && params_.interrupt->load() != 0) {
      interrupted = true;
      break;
    }
    const Cycle now0 = clock.now();
    Cycle target = std::min(now0 + chunk, stop);
    if (!firmware_ && now0 < window_end) target = std::min(target, window_end);
    // Before the window ends nothing stops a synthetic run early, so the clock may evaluate
    // up to this chunk's end in waves (Clock::set_wave_rows); after it, a delivery may end the
    // run on its cycle.
    clock.set_wave_end(!firmware_ && target <= window_end ? target : 0);
    if (target > now0) sc_start(clock.at(target) - sc_time_stamp());
    const Cycle now = clock.now();
    if (finished(now)) {
      completed = true;
      break;
    }
    if (firmware_) {
      const auto faulty = std::find_if(sys_.cores().begin(), sys_.cores().end(),
                                       [](const auto& c) { return !c->fault_reason().empty(); });
      if (faulty != sys_.cores().end()) {
        out.status = RunStatus::firmware_fault;
        out.diagnosis = "core " + std::to_string((*faulty)->rank()) + ": " + (*faulty)->fault_reason();
        break;
      }
    }
    if (now >= stop) {
      if (firmware_) {
        out.status = RunStatus::timeout;
        out.diagnosis = "the firmware did not finish within sim.max_cycles = " +
                        std::to_string(params_.max_cycles) + " cycles";
      }
      break;
    }

    // Forward-progress watchdog.
    const std::uint64_t moves = sys_.context().total_flit_moves();
    if (moves != last_moves) {
      last_moves = moves;
      last_move_cycle = now;
    } else if (now - last_move_cycle >= params_.watchdog_cycles && sys_.flits_in_network() > 0) {
      out.status = RunStatus::deadlock;
      std::ostringstream os;
      os << "no flit moved for " << now - last_move_cycle << " cycles (cycle " << now << ") with "
         << sys_.flits_in_network() << " flits in the network; blocked buffers:\n"
         << sys_.describe_blocked();
      out.diagnosis = os.str();
      break;
    }
    if (firmware_) {
      std::uint64_t events = 0;
      for (const auto& c : sys_.cores()) events += c->messages_sent() + c->messages_received();
      if (events != last_core_events) {
        last_core_events = events;
        last_core_cycle = now;
      } else if (now - last_core_cycle >= params_.watchdog_cycles && sys_.flits_in_network() == 0) {
        bool all_waiting = true;
        std::ostringstream os;
        for (const auto& c : sys_.cores()) {
          if (c->finished()) continue;
          if (!c->receiving()) all_waiting = false;
          else if (c->waiting_for() == kAnySource)
            os << "  core " << c->rank() << " waits for a message from any core\n";
          else os << "  core " << c->rank() << " waits for a message from core " << c->waiting_for() << "\n";
        }
        bool nis_idle = true;
        for (std::size_t n = 0; n < sys_.num_nis(); ++n) nis_idle = nis_idle && sys_.ni(static_cast<NodeId>(n)).idle();
        if (all_waiting && nis_idle) {
          out.status = RunStatus::firmware_deadlock;
          out.diagnosis = "every unfinished core waits for a message that is not on its way (cycle " +
                          std::to_string(now) + "):\n" + os.str();
          break;
        }
      }
    }
    if (params_.progress && Clk::now() >= next_progress) {
      const double secs = std::chrono::duration<double>(Clk::now() - wall_start).count();
      std::cerr << "[collnoc] cycle " << now;
      if (expected != kNever && now <= expected)
        std::cerr << " (" << now * 100 / expected << "% of " << expected << ")";
      else if (expected != kNever)
        std::cerr << " (draining measured packets)";
      std::cerr << ", " << static_cast<std::uint64_t>(now / secs) << " cycles/s\n";
      next_progress = Clk::now() + std::chrono::seconds(2);
    }
  }
  // The stall the run ends in, whatever ended it: a run that stops (sim.max_cycles, the end of
  // the drain) with flits that have not moved for a watchdog period is not a result.
  const Cycle end = clock.now();
  if (sys_.context().total_flit_moves() != last_moves) last_move_cycle = end;
  const Cycle stalled = sys_.flits_in_network() > 0 ? end - last_move_cycle : 0;
  if (out.status == RunStatus::ok && stalled >= params_.watchdog_cycles) {
    out.status = RunStatus::stalled;
    std::ostringstream os;
    os << "the run stopped at cycle " << end << " with " << sys_.flits_in_network()
       << " flits in the network, none of which moved in the last " << stalled
       << " cycles (sim.watchdog_cycles = " << params_.watchdog_cycles << "); blocked buffers:\n"
       << sys_.describe_blocked();
    out.diagnosis = os.str();
  }
  sys_.finish();
  const double wall = std::chrono::duration<double>(Clk::now() - wall_start).count();
  gather(out, wall, completed);
  out.report.set("sim.stalled_cycles", stalled);
  out.report.set("sim.interrupted", interrupted);
  return out;
}

namespace {

struct Summary {
  double mean = 0, p50 = 0, p99 = 0, max = 0;
};

Summary summarise(std::vector<std::uint32_t> v) {
  Summary s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (auto x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  // Nearest-rank percentiles.
  auto rank = [&](double q) {
    std::size_t i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
    return static_cast<double>(v[std::min(v.size() - 1, i > 0 ? i - 1 : 0)]);
  };
  s.p50 = rank(0.50);
  s.p99 = rank(0.99);
  s.max = v.back();
  return s;
}

void put(Report& r, const std::string& prefix, const Summary& s) {
  r.set(prefix + ".mean", s.mean);
  r.set(prefix + ".p50", s.p50);
  r.set(prefix + ".p99", s.p99);
  r.set(prefix + ".max", s.max);
}

}  // namespace

void Simulation::gather(RunOutcome& out, double wall_seconds, bool completed) const {
  Report& r = out.report;
  const Topology& topo = sys_.topology();
  const Cycle cycles = sys_.clock().now();
  const double nodes = static_cast<double>(sys_.num_nis());

  NiCounters total;
  std::vector<std::uint32_t> latency, net_latency;
  double queue_mean_sum = 0;
  for (std::size_t n = 0; n < sys_.num_nis(); ++n) {
    const NetworkInterface& ni = sys_.ni(static_cast<NodeId>(n));
    const NiCounters& c = ni.counters();
    total.packets_created += c.packets_created;
    total.packets_injected += c.packets_injected;
    total.packets_delivered += c.packets_delivered;
    total.flits_created += c.flits_created;
    total.flits_injected += c.flits_injected;
    total.flits_delivered += c.flits_delivered;
    total.messages_sent += c.messages_sent;
    total.messages_delivered += c.messages_delivered;
    total.window_flits_created += c.window_flits_created;
    total.window_flits_delivered += c.window_flits_delivered;
    total.measured_created += c.measured_created;
    total.measured_delivered += c.measured_delivered;
    total.measured_hops += c.measured_hops;
    total.payload_errors += c.payload_errors;
    total.window_app_flits_delivered += c.window_app_flits_delivered;
    total.packets_compressed += c.packets_compressed;
    total.compressed_original_bits += c.compressed_original_bits;
    total.compressed_wire_bits += c.compressed_wire_bits;
    total.codec_busy_cycles += c.codec_busy_cycles;
    total.xor_operations += c.xor_operations;
    total.xor_busy_cycles += c.xor_busy_cycles;
    total.max_relative_error = std::max(total.max_relative_error, c.max_relative_error);
    total.max_source_queue_packets = std::max(total.max_source_queue_packets, c.max_source_queue_packets);
    total.max_delivery_queue_messages =
        std::max(total.max_delivery_queue_messages, c.max_delivery_queue_messages);
    queue_mean_sum += cycles ? static_cast<double>(c.source_queue_packet_cycles) / cycles : 0.0;
    latency.insert(latency.end(), ni.latency_samples().begin(), ni.latency_samples().end());
    net_latency.insert(net_latency.end(), ni.network_latency_samples().begin(),
                       ni.network_latency_samples().end());
  }

  // Conservation: every flit that left an NI was delivered or is still in a buffer or on a link.
  const std::uint64_t present = sys_.flits_in_network();
  if (out.status == RunStatus::ok && total.flits_injected != total.flits_delivered + present) {
    out.status = RunStatus::conservation_error;
    out.diagnosis = "flit conservation violated: injected " + std::to_string(total.flits_injected) +
                    " != delivered " + std::to_string(total.flits_delivered) + " + in network " +
                    std::to_string(present);
  }
  if (out.status == RunStatus::ok && total.payload_errors > 0) {
    out.status = RunStatus::data_error;
    out.diagnosis = std::to_string(total.payload_errors) + " payload words arrived altered";
  }
  if (out.status == RunStatus::ok && firmware_ && !firmware_->data_verified()) {
    out.status = RunStatus::data_error;
    out.diagnosis = firmware_->failure();
  }

  std::uint64_t router_flits = 0, link_flits = 0, contention = 0, link_contention = 0;
  double occupancy_sum = 0;
  unsigned occupancy_max = 0;
  for (RouterId id = 0; id < sys_.num_routers(); ++id) {
    const Router& router = sys_.router(id);
    occupancy_sum += cycles ? static_cast<double>(router.occupancy_flit_cycles(cycles)) / cycles : 0.0;
    occupancy_max = std::max(occupancy_max, router.max_buffered_flits());
    for (unsigned p = 0; p < router.ports(); ++p) {
      if (!router.output_connected(p)) continue;
      const OutputCounters& c = router.output_counters(p);
      router_flits += c.flits;
      contention += c.contention_events;
      const bool local = topo.is_local_port(p);
      if (!local) link_flits += c.flits, link_contention += c.contention_events;
      Report link;
      link.set("router", static_cast<std::uint64_t>(id));
      link.set("port", topo.port_name(p));
      if (local) link.set("to_node", static_cast<std::uint64_t>(topo.endpoint_at(id, p - topo.network_ports())));
      else link.set("to_router", static_cast<std::uint64_t>(topo.peer(id, p).router));
      link.set("flits", c.flits);
      link.set("utilization", cycles ? static_cast<double>(c.flits) / cycles : 0.0);
      link.set("busy_cycles", c.busy_cycles);
      link.set("contention_events", c.contention_events);
      r.append("links", std::move(link));
    }
  }

  r.set("sim.status", std::string(to_string(out.status)));
  r.set("sim.completed", completed);
  r.set("sim.cycles", cycles);
  r.set("sim.wall_seconds", wall_seconds);
  r.set("sim.routers", static_cast<std::uint64_t>(sys_.num_routers()));
  r.set("sim.nodes", static_cast<std::uint64_t>(sys_.num_nis()));
  r.set("sim.topology", topo.describe());
  r.set("sim.router_cycles_per_second",
        wall_seconds > 0 ? sys_.num_routers() * static_cast<double>(cycles) / wall_seconds : 0.0);
  r.set("sim.flit_hops_per_second", wall_seconds > 0 ? router_flits / wall_seconds : 0.0);

  r.set("packets.created", total.packets_created);
  r.set("packets.injected", total.packets_injected);
  r.set("packets.delivered", total.packets_delivered);
  r.set("packets.in_flight", total.packets_injected - total.packets_delivered);
  r.set("packets.queued", total.packets_created - total.packets_injected);
  r.set("packets.measured", total.measured_created);
  r.set("packets.measured_delivered", total.measured_delivered);
  r.set("flits.created", total.flits_created);
  r.set("flits.injected", total.flits_injected);
  r.set("flits.delivered", total.flits_delivered);
  r.set("flits.in_flight", present);
  r.set("flits.router_traversals", router_flits);
  r.set("flits.link_traversals", link_flits);
  if (firmware_) {
    r.set("messages.sent", total.messages_sent);
    r.set("messages.delivered", total.messages_delivered);
  }

  put(r, "latency_cycles", summarise(latency));
  put(r, "network_latency_cycles", summarise(net_latency));
  r.set("hops.mean", total.measured_delivered
                         ? static_cast<double>(total.measured_hops) / total.measured_delivered
                         : 0.0);

  Cycle completion = 0;
  for (const auto& c : sys_.cores()) completion = std::max(completion, c->finish_cycle());
  // (The part of the measurement window the run reached: all of it unless it was interrupted or
  // stopped by sim.max_cycles inside it.)
  const Cycle window_reached =
      std::min(params_.measure_cycles, cycles > params_.warmup_cycles ? cycles - params_.warmup_cycles : 0);
  const double window = firmware_ ? static_cast<double>(completion ? completion : cycles)
                                  : static_cast<double>(window_reached);
  r.set("throughput.offered_flits_per_node_cycle",
        window > 0 ? total.window_flits_created / (nodes * window) : 0.0);
  // Accepted throughput counts packets at the size their cores offered (uncompressed); the
  // network figure counts the flits that crossed it.
  r.set("throughput.accepted_flits_per_node_cycle",
        window > 0 ? total.window_app_flits_delivered / (nodes * window) : 0.0);
  r.set("throughput.accepted_network_flits_per_node_cycle",
        window > 0 ? total.window_flits_delivered / (nodes * window) : 0.0);
  r.set("contention_events", contention);
  r.set("contention_events_links", link_contention);  // router-to-router links only
  r.set("contention_events_ejection", contention - link_contention);
  if (firmware_) {  // per round of the firmware (MessageLayer::mark_round), rounds with traffic
    const std::vector<RoundTally> rounds = sys_.interfaces().round_totals();
    for (std::size_t i = 0; i < rounds.size(); ++i) {
      const RoundTally& t = rounds[i];
      if (t.packets == 0 && t.contention_links == 0 && t.contention_ejection == 0) continue;
      Report round;
      round.set("round", static_cast<std::uint64_t>(i));
      round.set("packets", t.packets);
      round.set("contention_events_links", t.contention_links);
      round.set("contention_events_ejection", t.contention_ejection);
      r.append("contention_by_round", std::move(round));
    }
  }
  r.set("compression.policy", sys_.params().ni.compression.policy);
  r.set("compression.packets_compressed", total.packets_compressed);
  r.set("compression.share", total.packets_injected
                                 ? static_cast<double>(total.packets_compressed) / total.packets_injected
                                 : 0.0);
  r.set("compression.ratio", total.compressed_wire_bits
                                 ? static_cast<double>(total.compressed_original_bits) /
                                       static_cast<double>(total.compressed_wire_bits)
                                 : 1.0);
  r.set("compression.max_relative_error", total.max_relative_error);
  r.set("compression.codec_busy_cycles", total.codec_busy_cycles);
  r.set("nc.xor_operations", total.xor_operations);
  r.set("nc.xor_busy_cycles", total.xor_busy_cycles);
  r.set("ni.source_queue_max_packets", total.max_source_queue_packets);
  r.set("ni.source_queue_mean_packets", nodes > 0 ? queue_mean_sum / nodes : 0.0);
  r.set("ni.delivery_queue_max_messages", total.max_delivery_queue_messages);
  r.set("routers.buffer_occupancy_mean_flits",
        sys_.num_routers() ? occupancy_sum / sys_.num_routers() : 0.0);
  r.set("routers.buffer_occupancy_max_flits", static_cast<std::uint64_t>(occupancy_max));
  sys_.report(r);
  if (firmware_) firmware_->report(r);
  if (const Report::Value* v = r.find("collective.execution_cycles"))
    r.set("collective.execution_us", static_cast<double>(std::get<std::uint64_t>(*v)) *
                                         sys_.params().clock_period_ns / 1000.0);
}

}  // namespace collnoc
