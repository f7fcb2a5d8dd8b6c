#include "collectives/software_model.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "collectives/collective.hpp"
#include "collectives/message_protocol.hpp"
#include "noc/random.hpp"

namespace collnoc {

const std::array<SoftwareCostKey, kSoftwareCostCount> kSoftwareCostKeys{{
    {"send_overhead_cycles", "cycles", "per message sent"},
    {"recv_overhead_cycles", "cycles", "per message received"},
    {"copy_cycles_per_byte_cached", "cycles/byte",
     "payload copy, each side, from or to a user buffer of at most cache_resident_bytes"},
    {"copy_cycles_per_byte_uncached", "cycles/byte",
     "payload copy, each side, from or to a larger user buffer"},
    {"cache_resident_bytes", "bytes",
     "user buffers (the message per rank or rank pair) up to this size are cache-resident"},
    {"poll_cycles", "cycles", "a polling receive checks this often; the check that finds costs it too"},
    {"interrupt_cycles", "cycles", "per message received: interrupt entry and exit"},
    {"channel_setup", "", "a channel per message: request, grant, data, teardown (true / false)"},
    {"channel_setup_cycles", "cycles", "per channel, at the sender"},
    {"reduce_cycles_per_element", "cycles", "folding one element of a reduction"},
    {"jitter_percent", "percent",
     "each charge takes up to this share longer, drawn per charge (seeded: seed, core, repetition)"},
}};

namespace {

// Field of SoftwareCosts for each numeric entry of kSoftwareCostKeys (kChannelSetup: none).
constexpr double SoftwareCosts::*kCostFields[kSoftwareCostCount] = {
    &SoftwareCosts::send_overhead_cycles,        &SoftwareCosts::recv_overhead_cycles,
    &SoftwareCosts::copy_cycles_per_byte_cached, &SoftwareCosts::copy_cycles_per_byte_uncached,
    &SoftwareCosts::cache_resident_bytes,        &SoftwareCosts::poll_cycles,
    &SoftwareCosts::interrupt_cycles,            nullptr,
    &SoftwareCosts::channel_setup_cycles,        &SoftwareCosts::reduce_cycles_per_element,
    &SoftwareCosts::jitter_percent,
};

std::string override_key(std::size_t i) {
  return std::string("core.software.") + kSoftwareCostKeys[i].name;
}

// An override's value: a number in cost_range (or true / false for the channel switch).
double parse_override(std::size_t i, const std::string& text) {
  if (i == kChannelSetup) {
    if (text == "true") return 1;
    if (text == "false") return 0;
    throw ParamError(override_key(i), text, "must be true or false, or empty for the model's value");
  }
  const RealRange r =
      i == kJitterPercent ? SoftwareCosts::jitter_percent_range : SoftwareCosts::cost_range;
  const std::string allowed = "must be a number " + range_text(r) + " " +
                              kSoftwareCostKeys[i].unit + ", or empty for the model's value";
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno != 0 || !std::isfinite(v) ||
      std::isspace(static_cast<unsigned char>(text[0])))
    throw ParamError(override_key(i), text, allowed);
  if (!r.contains(v)) throw ParamError(override_key(i), text, allowed);
  return v;
}

Cycle whole(double cycles) { return static_cast<Cycle>(std::ceil(cycles)); }

// ------------------------------------------------------------------ the layer

// Charges the model's costs around every message of the layer it wraps, in this core's time
// (compute), and counts them.
class SoftwareLayer final : public ProtocolLayer {
 public:
  SoftwareLayer(MessageLayer& inner, const SoftwareCosts& c, std::uint64_t seed)
      : ProtocolLayer(inner), c_(c), seed_(hash64(seed, 0x5067a7e)) {
    start_repetition(0);  // (a program without repetitions: one stream)
  }

  void flush() override {}
  Cycle charged() const { return charged_; }
  // Each repetition's jitter from its own stream, whatever the earlier ones drew.
  void start_repetition(unsigned rep) override {
    jitter_stream_ = hash64(seed_, (std::uint64_t{rep} << 32) | inner_.rank());
    draws_ = 0;
    inner_.start_repetition(rep);
  }

  void send(NodeId dst, const Words& data, const SendOptions& opt) override {
    sending(copy(data.size()), opt.kind == kChannelRequestKind ? 1 : 0);
    inner_.send(dst, data, opt);
  }
  Words recv(NodeId src) override {
    const Cycle start = now();
    return received(inner_.recv_message(src), start).words;
  }
  Message recv_message(NodeId src) override {
    const Cycle start = now();
    return received(inner_.recv_message(src), start);
  }
  Message recv_any() override {
    const Cycle start = now();
    return received(inner_.recv_any(), start);
  }
  void send_coded(const std::vector<NodeId>& dsts, const Words& a, const Words& b,
                  const SendOptions& opt) override {
    sending(copy(a.size() + b.size()), 0);
    inner_.send_coded(dsts, a, b, opt);
  }
  void xor_words(const Words& a, const Words& b, const SendOptions& opt) override {
    sending(copy(a.size() + b.size()), 0);
    inner_.xor_words(a, b, opt);
  }
  void multicast(const std::vector<NodeId>& dsts, const Words& data,
                 const SendOptions& opt) override {
    sending(copy(data.size()), 0);
    inner_.multicast(dsts, data, opt);
  }
  MulticastShape multicast_shape() const override { return inner_.multicast_shape(); }
  // The static network is a stream to and from the switch: a send and a polled receive.
  void sn_send(const Words& data) override {
    sending(copy(data.size()), 0);
    inner_.sn_send(data);
  }
  Words sn_recv(std::size_t words) override {
    const Cycle start = now();
    Message m;
    m.words = inner_.sn_recv(words);
    m.arrival_cycle = now();
    return received(std::move(m), start).words;
  }
  // Message-passing buffers (scc): a put costs a send of its words, a get a send (of its
  // request: the layer's own two words) and a receive; a read of the own buffer (a poll of its
  // flags) a poll and the copy of its words.
  void put(NodeId dst, std::uint32_t offset, const Words& data) override {
    sending(copy(data.size()), 0);
    inner_.put(dst, offset, data);
  }
  Words get(NodeId src, std::uint32_t offset, std::size_t words) override {
    sending(copy_of(2, 8), 0);
    const Cycle start = now();
    Message m;
    m.words = inner_.get(src, offset, words);
    m.arrival_cycle = now();
    return received(std::move(m), start).words;
  }
  Words mpb_read(std::uint32_t offset, std::size_t words) override {
    charge(whole(c_.poll_cycles + copy(words)));
    return inner_.mpb_read(offset, words);
  }
  void reduced(std::uint64_t elements) override {
    charge(jittered(whole(c_.reduce_cycles_per_element * static_cast<double>(elements))));
  }
  void set_copy_buffers(const CopyBuffers& buffers) override {
    buffers_ = buffers;
    inner_.set_copy_buffers(buffers);
  }

 private:
  // Copying `words` words from or to a buffer of `buffer_bytes`: at the cached rate when the
  // buffer is cache-resident, whatever part of it one call copies.
  double copy_of(std::uint64_t words, double buffer_bytes) const {
    return 4.0 * static_cast<double>(words) *
           (buffer_bytes <= c_.cache_resident_bytes ? c_.copy_cycles_per_byte_cached
                                                    : c_.copy_cycles_per_byte_uncached);
  }
  // A call's payload of `words` words, by the buffers the program set (set_copy_buffers): the
  // layer's own words and any beyond the spans as buffers of their own size, each span's by its
  // user buffer; with none set, the payload as a buffer of its own size.
  double copy(std::size_t words) const {
    const auto own = [&](std::uint64_t w) { return copy_of(w, 4.0 * static_cast<double>(w)); };
    if (buffers_.spans.empty()) return own(words);
    std::uint64_t left = words;
    const std::uint64_t header = std::min<std::uint64_t>(left, buffers_.own_words);
    double cycles = own(header);
    left -= header;
    for (const CopySpan& s : buffers_.spans) {
      const std::uint64_t w = std::min(left, s.words);
      cycles += copy_of(w, static_cast<double>(s.buffer_bytes));
      left -= w;
    }
    return cycles + own(left);
  }
  // A channel request (RTS of the channel layer above) first sets the channel up.
  void sending(double copy_cycles, unsigned setups) {
    charge(jittered(whole(c_.send_overhead_cycles + copy_cycles + setups * c_.channel_setup_cycles)));
  }
  // `m` was asked for at `start`: the receive's costs after it, and for a polling receive the
  // wait until the first check at or after its arrival plus that check (the wait is the
  // network's: not jittered).
  Message received(Message m, Cycle start) {
    Cycle cost =
        jittered(whole(c_.recv_overhead_cycles + c_.interrupt_cycles + copy(m.words.size())));
    if (c_.poll_cycles > 0) {
      const Cycle poll = whole(c_.poll_cycles), end = now();
      const Cycle waited = std::clamp(m.arrival_cycle, start, end) - start;
      cost += (waited + poll - 1) / poll * poll - waited + poll;
    }
    charge(cost);
    return m;
  }
  // `cycles` of work plus its jitter (c_.jitter_percent): one draw per charge.
  Cycle jittered(Cycle cycles) {
    if (c_.jitter_percent <= 0 || cycles == 0) return cycles;
    const Cycle most = static_cast<Cycle>(std::floor(static_cast<double>(cycles) * c_.jitter_percent / 100.0));
    if (most == 0) return cycles;
    return cycles + hash64(jitter_stream_, draws_++) % (most + 1);
  }
  void charge(Cycle cycles) {
    if (cycles == 0) return;
    charged_ += cycles;
    inner_.compute(cycles);
  }

  SoftwareCosts c_;
  CopyBuffers buffers_;  // of the program's current data calls
  Cycle charged_ = 0;
  std::uint64_t seed_;               // (seed, mixed)
  std::uint64_t jitter_stream_ = 0;  // this core's and repetition's
  std::uint64_t draws_ = 0;
};

// ------------------------------------------------------------------ the program under a model

class SoftwareFirmware final : public Firmware {
 public:
  SoftwareFirmware(std::unique_ptr<Firmware> program, std::string model,
                   const SoftwareCosts& costs, unsigned cores, unsigned collective_repetitions,
                   std::uint64_t seed)
      : program_(std::move(program)), model_(std::move(model)), costs_(costs),
        charged_(cores, 0), repetitions_(collective_repetitions), seed_(seed) {}

  void run(MessageLayer& ml) override {
    SoftwareLayer software(ml, costs_, seed_);
    std::unique_ptr<ProtocolLayer> channel;
    if (costs_.channel_setup) channel = make_channel_layer(software);
    program_->run(channel ? static_cast<MessageLayer&>(*channel) : software);
    if (channel) channel->flush();
    charged_[ml.rank()] = software.charged();
  }
  void report(Report& out) const override {
    program_->report(out);
    const Cycle most = *std::max_element(charged_.begin(), charged_.end());
    out.set("software.model", model_);
    out.set("software.cycles", most);
    if (repetitions_ > 0) out.set("collective.software_cycles", most / repetitions_);
  }
  bool data_verified() const override { return program_->data_verified(); }
  std::string failure() const override { return program_->failure(); }
  bool codes_in_network() const override { return program_->codes_in_network(); }
  bool owns_message_passing_buffers() const override {
    return program_->owns_message_passing_buffers();
  }

 private:
  std::unique_ptr<Firmware> program_;
  std::string model_;
  SoftwareCosts costs_;
  std::vector<Cycle> charged_;  // per core
  unsigned repetitions_;        // of a collective; 0 for other programs
  std::uint64_t seed_;          // seed: the jitter's
};

}  // namespace

// Costs in SoftwareCosts' field order: send, recv, copy cached, copy uncached (per byte),
// cache-resident bytes, poll, interrupt, channel setup, its cycles, reduce per element, jitter
// percent (polling libraries little, interrupt-driven ones more: docs/software_model.md,
// "Timing jitter and variance").
// Cycles of each platform's clock: tilepro's cores run at its 700 MHz; scc's cores at 533 MHz,
// half its 1066 MHz mesh clock, so a core cycle is 2 of these. Where each value comes from:
// docs/software_model.md, "Presets and where their values come from".
const std::vector<SoftwarePreset>& software_presets() {
  static const std::vector<SoftwarePreset> table = {
      {"nocmsg",
       "user-level messages on the UDN: polling receive, no channel setup (tilepro cycles)",
       SoftwareCosts{20, 20, 0.25, 1.5, 65536, 10, 0, false, 0, 2, 5}},
      {"ilib_mpi",
       "an MPI layer over iLib (tilepro): interrupts, a channel set up per message",
       SoftwareCosts{400, 400, 0.5, 2.0, 65536, 0, 300, true, 500, 2, 25}},
      {"rcce", "RCCE (scc): flags polled in the message-passing buffers (mesh cycles)",
       SoftwareCosts{400, 400, 1.0, 3.0, 262144, 100, 0, false, 0, 4, 10}},
      {"rckmpi", "RCKMPI (scc): an MPI layer over the message-passing buffers (mesh cycles)",
       SoftwareCosts{1200, 1200, 1.5, 3.5, 262144, 100, 0, false, 0, 4, 10}},
  };
  return table;
}

std::vector<std::string> software_model_names() {
  std::vector<std::string> names{"auto", "none"};
  for (const SoftwarePreset& p : software_presets()) names.emplace_back(p.name);
  return names;
}

void validate(const SoftwareModelParams& p) {
  const std::vector<std::string> names = software_model_names();
  if (std::find(names.begin(), names.end(), p.model) == names.end()) {
    std::string allowed = "must be one of:";
    for (const std::string& n : names) allowed += " " + n;
    throw ParamError("core.software_model", p.model, allowed);
  }
  for (std::size_t i = 0; i < kSoftwareCostCount; ++i)
    if (!p.overrides[i].empty()) parse_override(i, p.overrides[i]);
}

std::string resolve_software_model(const std::string& workload_kind, const FirmwareParams& p) {
  if (p.software.model != "auto") return p.software.model;
  if (workload_kind != "collective" || p.software.platform_preset.empty()) return "none";
  switch (lookup_collective(p).library) {
    case CollectiveLibrary::nocmsg: return "nocmsg";
    case CollectiveLibrary::mpi: return p.software.platform_preset;
    case CollectiveLibrary::rcce: return "rcce";
    case CollectiveLibrary::rckmpi: return "rckmpi";
    case CollectiveLibrary::none: break;
  }
  return "none";
}

SoftwareCosts software_costs(const std::string& model, const SoftwareModelParams& p) {
  SoftwareCosts c = lookup(software_presets(), model, "core.software_model").make;
  if (p.platform_cache_resident_bytes > 0) c.cache_resident_bytes = p.platform_cache_resident_bytes;
  for (std::size_t i = 0; i < kSoftwareCostCount; ++i) {
    if (p.overrides[i].empty()) continue;
    const double v = parse_override(i, p.overrides[i]);
    if (i == kChannelSetup) c.channel_setup = v != 0;
    else c.*kCostFields[i] = v;
  }
  return c;
}

std::unique_ptr<Firmware> with_software_model(std::unique_ptr<Firmware> program,
                                              const std::string& workload_kind,
                                              const FirmwareParams& p, unsigned cores) {
  const std::string model = resolve_software_model(workload_kind, p);
  if (model == "none") return program;
  const SoftwareCosts costs = software_costs(model, p.software);
  if (costs.channel_setup && (program->codes_in_network() || needs_hta_routers(workload_kind, p)))
    throw ParamError("core.software_model", model,
                     "a model without channel setup (core.software.channel_setup = false) for a "
                     "program that codes packets in the NI or multicasts in hardware");
  const unsigned repetitions = workload_kind == "collective" ? p.repetitions : 0;
  return std::make_unique<SoftwareFirmware>(std::move(program), model, costs, cores, repetitions,
                                            p.seed);
}

}  // namespace collnoc
