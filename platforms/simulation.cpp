#include "platforms/simulation.hpp"

#include <unistd.h>

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
  check_range("power.tile_pitch_mm", p.energy.tile_pitch_mm, EnergyParams::tile_pitch_mm_range);
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
  check_range("sim.steady_state_interval_cycles", p.steady_state_interval_cycles,
              RunParams::steady_state_interval_cycles_range);
  check_range("sim.steady_state_tolerance", p.steady_state_tolerance,
              RunParams::steady_state_tolerance_range);
  check_range("stats.series_interval_cycles", p.series_interval_cycles,
              RunParams::series_interval_cycles_range);
  if (!p.steady_warmup()) return;
  // (The window may open as late as the longest warm-up.)
  if (p.steady_state_max_warmup_cycles < p.warmup_cycles)
    throw ParamError("sim.steady_state_max_warmup_cycles",
                     std::to_string(p.steady_state_max_warmup_cycles),
                     "must be >= sim.warmup_cycles = " + std::to_string(p.warmup_cycles) +
                         " (the shortest warm-up)");
  if (__builtin_add_overflow(p.steady_state_max_warmup_cycles, p.measure_cycles, &window_end) ||
      __builtin_add_overflow(window_end, p.max_drain_cycles, &drain_end) || drain_end == kNever)
    throw ParamError("sim.steady_state_max_warmup_cycles",
                     std::to_string(p.steady_state_max_warmup_cycles),
                     "sim.steady_state_max_warmup_cycles + sim.measure_cycles + "
                     "sim.max_drain_cycles must be below 2^64 - 1");
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
    : sys_(system), params_(params), firmware_(firmware), trace_(system.trace_feed()) {
  validate(params_);
  if (params_.per_flow)
    for (std::size_t n = 0; n < sys_.num_nis(); ++n)
      sys_.ni(static_cast<NodeId>(n)).record_flows(static_cast<NodeId>(sys_.num_nis()));
  if (params_.per_vc)
    for (std::size_t r = 0; r < sys_.num_routers(); ++r) sys_.router(static_cast<RouterId>(r)).record_vc_usage();
  if (params_.per_round_links && firmware_) sys_.record_round_links();  // (check_buildable)
  if (firmware_ || trace_) {  // (everything is measured; a trace ends with its last message)
    window_begin_ = 0;
    for (std::size_t n = 0; n < sys_.num_nis(); ++n)
      sys_.ni(static_cast<NodeId>(n)).set_measurement_window(0, kNever);
  } else if (params_.steady_warmup()) {  // nothing measured until the warm-up ends
    for (std::size_t n = 0; n < sys_.num_nis(); ++n)
      sys_.ni(static_cast<NodeId>(n)).set_measurement_window(kNever, kNever);
  } else {
    open_window(params_.warmup_cycles);
  }
}

void Simulation::open_window(Cycle begin) {
  window_begin_ = begin;
  window_end_ = begin + params_.measure_cycles;
  for (std::size_t n = 0; n < sys_.num_nis(); ++n)
    sys_.ni(static_cast<NodeId>(n)).set_measurement_window(window_begin_, window_end_);
}

bool Simulation::steady(Cycle now) {
  std::uint64_t flits = 0;
  for (std::size_t n = 0; n < sys_.num_nis(); ++n)
    flits += sys_.ni(static_cast<NodeId>(n)).reassembler().counters().flits_delivered;
  const double throughput = static_cast<double>(flits - sampled_flits_) /
                            (static_cast<double>(sys_.num_nis()) *
                             static_cast<double>(params_.steady_state_interval_cycles));
  const bool settled = sampled_throughput_ >= 0.0 &&
                       std::fabs(throughput - sampled_throughput_) < params_.steady_state_tolerance;
  sampled_flits_ = flits;
  sampled_throughput_ = throughput;
  if (now < params_.warmup_cycles) return false;
  steady_reached_ = settled;
  return settled || now >= params_.steady_state_max_warmup_cycles;
}

void Simulation::sample_series(Cycle now) {
  std::uint64_t flits = 0;
  for (std::size_t n = 0; n < sys_.num_nis(); ++n)
    flits += sys_.ni(static_cast<NodeId>(n)).reassembler().counters().flits_delivered;
  series_flits_.push_back(flits);
  series_last_cycle_ = now;
}

// The flows of highest mean latency first (ties: by source, then destination), the
// stats.per_flow_top of them.
void Simulation::report_flows(Report& r, double window_cycles) const {
  struct Flow {
    NodeId src, dst;
    const FlowStats* s;
    double mean;
  };
  std::vector<Flow> flows;
  for (std::size_t d = 0; d < sys_.num_nis(); ++d) {
    const auto& from = sys_.ni(static_cast<NodeId>(d)).reassembler().flows();
    for (std::size_t src = 0; src < from.size(); ++src)
      if (from[src].packets)
        flows.push_back({static_cast<NodeId>(src), static_cast<NodeId>(d), &from[src],
                         static_cast<double>(from[src].latency_sum) /
                             static_cast<double>(from[src].packets)});
  }
  const auto higher = [](const Flow& a, const Flow& b) {
    if (a.mean != b.mean) return a.mean > b.mean;
    return a.src != b.src ? a.src < b.src : a.dst < b.dst;
  };
  const std::size_t keep = params_.per_flow_top ? std::min<std::size_t>(params_.per_flow_top, flows.size())
                                                : flows.size();
  std::partial_sort(flows.begin(), flows.begin() + static_cast<std::ptrdiff_t>(keep), flows.end(), higher);
  r.set("flows.measured", static_cast<std::uint64_t>(flows.size()));
  for (std::size_t i = 0; i < keep; ++i) {
    const Flow& f = flows[i];
    Report row;
    row.set("src", static_cast<std::uint64_t>(f.src));
    row.set("dst", static_cast<std::uint64_t>(f.dst));
    row.set("packets", f.s->packets);
    row.set("flits", f.s->flits);
    row.set("latency_cycles_mean", f.mean);
    row.set("latency_cycles_max", static_cast<std::uint64_t>(f.s->latency_max));
    row.set("throughput_flits_per_cycle",
            window_cycles > 0 ? static_cast<double>(f.s->flits) / window_cycles : 0.0);
    r.append("flows", std::move(row));
  }
}

bool Simulation::finished(Cycle now) const {
  if (firmware_) {
    for (const auto& c : sys_.cores())
      if (!c->finished()) return false;
    return true;
  }
  if (trace_) return trace_->done() || trace_->error();
  if (now < window_end_) return false;
  std::uint64_t created = 0, delivered = 0;
  for (std::size_t n = 0; n < sys_.num_nis(); ++n) {
    const NetworkInterface& ni = sys_.ni(static_cast<NodeId>(n));
    created += ni.packetizer().counters().measured_created;
    delivered += ni.reassembler().counters().measured_delivered;
  }
  return delivered == created;
}

RunOutcome Simulation::run() {
  using Clk = std::chrono::steady_clock;
  RunOutcome out;
  const auto wall_start = Clk::now();
  // Progress on stderr: on a terminal one line, rewritten twice a second from the first second
  // on; in a log a line every 2 s from the third.
  const bool progress_tty = params_.progress && ::isatty(STDERR_FILENO) == 1;
  auto next_progress = wall_start + std::chrono::milliseconds(progress_tty ? 1000 : 3000);
  bool progress_shown = false;
  const Cycle chunk = 256;
  Cycle expected = firmware_ ? kNever : std::min(params_.max_cycles, window_end_);
  std::uint64_t last_moves = 0, last_core_events = 0;
  Cycle last_move_cycle = 0, last_core_cycle = 0;
  bool completed = false, interrupted = false;
  Clock& clock = sys_.clock();
  // The workload says when it is done (last core finished, last measured packet delivered):
  // pause the kernel on that very cycle.
  sys_.context().on_workload_done = [] { sc_pause(); };
  // (Steady state: until the warm-up ends, the window's end is kNever and the run stops at
  // each interval's end to sample the throughput.)
  auto stop_cycle = [&] {
    return firmware_ || window_end_ == kNever
               ? params_.max_cycles
               : std::min(params_.max_cycles, window_end_ + params_.max_drain_cycles);
  };
  Cycle stop = stop_cycle();
  Cycle next_sample = params_.steady_state_interval_cycles;
  const Cycle series = params_.series_interval_cycles;
  Cycle next_series = series ? series : kNever;

  for (;;) {
    if (params_.interrupt && params_.interrupt->load() != 0) {
      interrupted = true;
      break;
    }
    const Cycle now0 = clock.now();
    Cycle target = std::min(now0 + chunk, stop);
    const Cycle window_end = window_end_;
    if (!firmware_ && now0 < window_end) target = std::min(target, window_end);
    if (!firmware_ && window_begin_ == kNever) target = std::min(target, next_sample);
    // Before the window ends nothing stops a synthetic run early, so the clock may evaluate
    // up to this chunk's end in waves (Clock::set_wave_rows); after it, a delivery may end the
    // run on its cycle.
    // (In steps to each throughput-series sample within the chunk: the checks below keep their
    // cadence. The workload's end pauses the kernel, maybe on a step's last cycle: no step
    // after that.)
    for (Cycle at = now0; at < target;) {
      const Cycle step = std::min(target, next_series);
      clock.set_wave_end(!firmware_ && step <= window_end ? step : 0);
      sc_start(clock.at(step) - sc_time_stamp());
      at = clock.now();
      if (at == next_series) {
        sample_series(at);
        next_series += series;
      }
      if (at != step || (at < target && finished(at))) break;
    }
    const Cycle now = clock.now();
    if (window_begin_ == kNever && now == next_sample) {
      next_sample += params_.steady_state_interval_cycles;
      if (steady(now)) {
        open_window(now);
        stop = stop_cycle();
        expected = std::min(params_.max_cycles, window_end_);
      }
    }
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
      } else if (now - std::max(last_core_cycle, last_move_cycle) >= params_.watchdog_cycles &&
                 sys_.flits_in_network() == 0) {
        // (A long message moves flits between a core's send and the receive: progress too.)
        bool all_waiting = true;
        std::ostringstream os;
        for (const auto& c : sys_.cores()) {
          if (c->finished()) continue;
          if (!c->receiving()) all_waiting = false;
          // Delivered, available from a later cycle (or from this one, before the core's
          // thread has run): the core will take it.
          else if (sys_.ni(c->rank()).front_end().holds_message_from(c->waiting_for()))
            all_waiting = false;
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
      const double rate = static_cast<double>(now) / secs;
      std::ostringstream line;
      line << "[collnoc] cycle " << now;
      if (firmware_) {
        const auto done = std::count_if(sys_.cores().begin(), sys_.cores().end(),
                                        [](const auto& c) { return c->finished(); });
        std::uint64_t packets = 0;
        for (std::size_t n = 0; n < sys_.num_nis(); ++n)
          packets += sys_.ni(static_cast<NodeId>(n)).reassembler().counters().packets_delivered;
        line << " (cores done " << done << "/" << sys_.cores().size() << ", " << packets
             << " packets delivered)";
      } else if (expected != kNever && now <= expected) {
        line << " (" << now * 100 / expected << "% of " << expected << ")";
      } else if (expected != kNever) {
        line << " (draining measured packets)";
      }
      line << ", " << static_cast<std::uint64_t>(rate) << " cycles/s, elapsed "
           << static_cast<std::uint64_t>(secs) << " s";
      if (!firmware_ && expected != kNever && now <= expected && rate > 0)
        line << ", ETA " << static_cast<std::uint64_t>(static_cast<double>(expected - now) / rate)
             << " s";
      if (progress_tty) std::cerr << "\r" << line.str() << "\x1b[K" << std::flush;
      else std::cerr << line.str() << "\n";
      progress_shown = true;
      next_progress = Clk::now() + std::chrono::milliseconds(progress_tty ? 500 : 2000);
    }
  }
  if (progress_tty && progress_shown) std::cerr << "\r\x1b[K" << std::flush;  // (the line goes)
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

// The results document's order (docs/results.md; sweeps' CSV columns follow it): a key's place
// is its own entry's, else its group's; keys of other groups follow in the order they came.
const std::vector<std::string>& result_layout() {
  static const std::vector<std::string> layout{
      "sim",
      "packets.created", "packets.injected", "packets.delivered", "packets.in_flight",
      "packets.queued", "packets.measured", "packets.measured_delivered",
      "flits.created", "flits.injected", "flits.delivered", "flits.in_flight",
      "flits.router_traversals", "flits.link_traversals",
      "messages", "latency_cycles", "network_latency_cycles", "hops", "throughput",
      "contention_events", "contention_events_links", "contention_events_ejection",
      "contention_events_packets", "contention_events_links_packets",
      "contention_events_ejection_packets", "contention_events_cores",
      "compression", "nc", "ni", "routers", "energy"};
  return layout;
}

}  // namespace

// The blocks report their own counters (NocSystem::report); the run adds what is its own: the
// status, the size and speed of the run, what is in the network at its end, and the window.
void Simulation::gather(RunOutcome& out, double wall_seconds, bool completed) const {
  Tally t;
  sys_.report(t);
  const Cycle cycles = sys_.clock().now();
  const double nodes = static_cast<double>(sys_.num_nis());

  // Conservation: every flit that left an NI was delivered or is still in a buffer or on a link.
  // (Multicast: the routers' copies add flits, headers consumed at their destinations end.)
  const std::uint64_t present = sys_.flits_in_network();
  const std::uint64_t injected = t.total("flits.injected") + sys_.flits_replicated();
  const std::uint64_t delivered = t.total("flits.delivered") + sys_.headers_consumed();
  if (out.status == RunStatus::ok && injected != delivered + present) {
    out.status = RunStatus::conservation_error;
    out.diagnosis = "flit conservation violated: injected " + std::to_string(injected) +
                    " (with copies) != delivered " + std::to_string(delivered) +
                    " (with consumed headers) + in network " + std::to_string(present);
  }
  const std::uint64_t payload_errors = sys_.payload_errors();
  if (out.status == RunStatus::ok && payload_errors > 0) {
    out.status = RunStatus::data_error;
    out.diagnosis = std::to_string(payload_errors) + " payload words arrived altered";
  }
  if (out.status == RunStatus::ok && firmware_ && !firmware_->data_verified()) {
    out.status = RunStatus::data_error;
    out.diagnosis = firmware_->failure();
  }

  Report& r = out.report;
  r.set("sim.status", std::string(to_string(out.status)));
  r.set("sim.completed", completed);
  r.set("sim.cycles", cycles);
  r.set("sim.wall_seconds", wall_seconds);
  r.set("sim.routers", static_cast<std::uint64_t>(sys_.num_routers()));
  r.set("sim.nodes", static_cast<std::uint64_t>(sys_.num_nis()));
  r.set("sim.topology", sys_.topology().describe());
  r.set("sim.router_cycles_per_second",
        wall_seconds > 0 ? sys_.num_routers() * static_cast<double>(cycles) / wall_seconds : 0.0);
  r.set("sim.flit_hops_per_second",
        wall_seconds > 0 ? t.total("flits.router_traversals") / wall_seconds : 0.0);
  if (params_.steady_warmup() && !firmware_ && !trace_) {
    r.set("sim.steady_state_reached", steady_reached_);
    r.set("sim.warmup_end_cycle", window_begin_ == kNever ? cycles : window_begin_);
  }
  r.set("packets.in_flight", t.total("packets.injected") - t.total("packets.delivered"));
  r.set("flits.in_flight", present);

  Cycle completion = 0;
  for (const auto& c : sys_.cores()) completion = std::max(completion, c->finish_cycle());
  // (The part of the measurement window the run reached: all of it unless it was interrupted or
  // stopped by sim.max_cycles inside it.)
  const Cycle window_reached =
      window_begin_ == kNever ? 0
                              : std::min(params_.measure_cycles,
                                         cycles > window_begin_ ? cycles - window_begin_ : 0);
  const double window = firmware_ || trace_ ? static_cast<double>(completion ? completion : cycles)
                                  : static_cast<double>(window_reached);
  t.write(r, window > 0 ? nodes * window : 0.0);
  if (const Cycle interval = params_.series_interval_cycles) {
    // Flits delivered per node and cycle in each interval; the last one as far as the run went.
    std::uint64_t delivered_now = 0;
    for (std::size_t n = 0; n < sys_.num_nis(); ++n)
      delivered_now += sys_.ni(static_cast<NodeId>(n)).reassembler().counters().flits_delivered;
    std::vector<double> series;
    std::uint64_t before = 0;
    for (std::uint64_t f : series_flits_) {
      series.push_back(static_cast<double>(f - before) / (nodes * static_cast<double>(interval)));
      before = f;
    }
    if (cycles > series_last_cycle_)
      series.push_back(static_cast<double>(delivered_now - before) /
                       (nodes * static_cast<double>(cycles - series_last_cycle_)));
    r.set("throughput.series_interval_cycles", interval);
    r.set("throughput.series_flits_per_node_cycle", std::move(series));
  }
  if (params_.per_flow) report_flows(r, window);
  if (trace_) trace_->report(r);

  if (firmware_) {  // per round of the firmware (MessageLayer::mark_round), rounds with traffic
    const std::vector<RoundTally> rounds = sys_.interfaces().round_totals();
    for (std::size_t i = 0; i < rounds.size(); ++i) {
      const RoundTally& c = rounds[i];
      if (c.packets == 0 && c.contention_links_packets == 0 && c.contention_ejection_packets == 0)
        continue;
      Report round;
      round.set("round", static_cast<std::uint64_t>(i));
      round.set("packets", c.packets);
      round.set("contention_events_links", c.contention_links);
      round.set("contention_events_ejection", c.contention_ejection);
      round.set("contention_events_links_packets", c.contention_links_packets);
      round.set("contention_events_ejection_packets", c.contention_ejection_packets);
      r.append("contention_by_round", std::move(round));
    }
    if (params_.per_round_links) report_round_links(r);
    firmware_->report(r);
  }
  if (const Report::Value* v = r.find("collective.execution_cycles"))
    r.set("collective.execution_us", static_cast<double>(std::get<std::uint64_t>(*v)) *
                                         sys_.params().clock_period_ns / 1000.0);
  if (params_.energy.enabled()) report_energy(sys_, params_.energy, t, r);
  r.arrange(result_layout());
}

void Simulation::report_round_links(Report& r) const {
  const Topology& topo = sys_.topology();
  const LinksByRound rounds = sys_.interfaces().links_by_round();
  for (std::size_t round = 0; round < rounds.size(); ++round)
    for (const auto& [index, t] : rounds[round]) {
      const RouterId router = index / kMaxRouterPorts;
      const unsigned port = index % kMaxRouterPorts;
      if (topo.is_local_port(port)) continue;  // ejection: not a link
      Report row;
      row.set("round", static_cast<std::uint64_t>(round));
      row.set("router", static_cast<std::uint64_t>(router));
      row.set("port", topo.port_name(port));
      row.set("to_router", static_cast<std::uint64_t>(topo.peer(router, port).router));
      row.set("flits", t.flits);
      row.set("contention_events", t.contention_events);
      row.set("contention_events_packets", t.contention_events_packets);
      r.append("links_by_round", std::move(row));
    }
}

}  // namespace collnoc
