// `collnoc analyze`: offline studies of the NI's compression, no simulation.
//   analyze codec      runs a user's binary dump through a codec for real (encode, decode, check)
//                      and reports the sizes, the ratio, the error and FPC's pattern histogram;
//   analyze zero-load  tabulates the SPEC 2.4 zero-load model and its break-even packet length.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "ni/codec.hpp"
#include "ni/compression.hpp"
#include "ni/fpc_codec.hpp"
#include "ni/lsb_cut_codec.hpp"
#include "noc/input_file.hpp"
#include "sc_main/cli.hpp"
#include "sc_main/config.hpp"

namespace collnoc::cli {

namespace fs = std::filesystem;

namespace {

// The library names its keys (ni.lsb_cut_bits); the user typed an option: say both.
[[noreturn]] void rethrow_for_option(const ParamError& e, const std::string& option,
                                     const std::string& typed) {
  const std::string what = e.what();
  const std::string head = e.key() + " = " + e.value() + ": ";
  const std::string allowed = what.rfind(head, 0) == 0 ? what.substr(head.size()) : what;
  throw InputError(option + " = " + typed + ": " + allowed + " (" + e.key() + ")");
}

// Whole numbers as integers, others with 2 decimals (cycles of the zero-load table); option values
// (the ratio) as typed, up to 12 digits.
std::string format_cycles(double v) {
  std::ostringstream os;
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    os << static_cast<long long>(v);
  else
    os << std::fixed << std::setprecision(2) << v;
  return os.str();
}

std::string format_number(double v) {
  std::ostringstream os;
  os << std::setprecision(12) << v;
  return os.str();
}

// ------------------------------------------------------------------------------ analyze codec

// The file's bytes as little-endian 32-bit words (a double is then its low word, high word).
std::vector<std::uint32_t> read_dump(const std::string& path, unsigned element_bytes,
                                     const char* element_name) {
  if (const auto problem = input_file_problem(path)) throw InputError(*problem);
  std::error_code ec;
  const std::uintmax_t bytes = fs::file_size(path, ec);
  if (ec) throw InputError(path + ": cannot read its size: " + ec.message());
  if (bytes == 0) throw InputError(path + ": empty, nothing to compress");
  if (bytes % element_bytes != 0)
    throw InputError(path + ": " + std::to_string(bytes) + " bytes is not a multiple of " +
                     std::to_string(element_bytes) + " (the size of one " + element_name + ")");
  std::ifstream in(path, std::ios::binary);
  std::vector<unsigned char> raw(static_cast<std::size_t>(bytes));
  if (!in.read(reinterpret_cast<char*>(raw.data()), static_cast<std::streamsize>(bytes)))
    throw InputError(path + ": cannot read");
  std::vector<std::uint32_t> words(raw.size() / 4);
  for (std::size_t i = 0; i < words.size(); ++i)
    words[i] = std::uint32_t{raw[4 * i]} | std::uint32_t{raw[4 * i + 1]} << 8 |
               std::uint32_t{raw[4 * i + 2]} << 16 | std::uint32_t{raw[4 * i + 3]} << 24;
  return words;
}

// Which element types each codec codes, for the mismatch message.
std::string codec_coverage() {
  std::string s;
  for (const CodecEntry& e : codecs()) {
    s += s.empty() ? "" : "; ";
    s += std::string(e.name) + ":";
    for (ElementType t : e.serves) s += std::string(" ") + to_string(t);
  }
  return s;
}

int analyze_codec(const AnalyzeOptions& o) {
  const ElementType type = element_type_from_string(o.element_type, "--type");
  CodecParams params;
  // A value outside 0..64 reaches validate() as 0, so that its message is used for any value.
  const bool representable = o.lsb_cut_bits >= 0 && o.lsb_cut_bits <= 64;
  params.lsb_cut_bits = representable ? static_cast<unsigned>(o.lsb_cut_bits) : 0;
  try {
    validate(params);
  } catch (const ParamError& e) {
    rethrow_for_option(e, "--lsb-bits", std::to_string(o.lsb_cut_bits));
  }
  std::unique_ptr<Codec> codec;
  try {
    codec = make_codec(o.codec, params);
  } catch (const ParamError& e) {
    rethrow_for_option(e, "--codec", o.codec);
  }
  if (!lookup(codecs(), o.codec, "--codec").serves_type(type))
    throw InputError("--codec = " + o.codec + ": does not code --type " + o.element_type + " (" +
                     codec_coverage() + ")");

  const unsigned element_words = words_per_element(type);
  const std::vector<std::uint32_t> words =
      read_dump(o.file, 4 * element_words,
                type == ElementType::int32       ? "int32"
                : type == ElementType::complex64 ? "complex of two doubles"
                                                 : "double");

  // The real thing: encode, check the size the NI would compute, decode.
  BitWriter stream;
  stream.reserve_bits(std::uint64_t{words.size()} * 36);
  codec->encode(words.data(), words.size(), stream);
  const std::uint64_t predicted_bits = codec->encoded_bits(words.data(), words.size());
  if (predicted_bits != stream.bit_count()) {
    std::cerr << "collnoc: fault: " << codec->name() << " predicted " << predicted_bits
              << " bits but wrote " << stream.bit_count() << "\n";
    return kExitFault;
  }
  std::vector<std::uint32_t> decoded(words.size());
  BitReader reader(stream);
  codec->decode(reader, decoded.size(), decoded.data());
  if (reader.position() != stream.bit_count()) {
    std::cerr << "collnoc: fault: " << codec->name() << " decoded " << reader.position()
              << " of " << stream.bit_count() << " bits\n";
    return kExitFault;
  }

  const std::uint64_t original_bits = std::uint64_t{words.size()} * 32;
  const std::uint64_t compressed_bits = stream.bit_count();
  nlohmann::json j;
  j["file"] = o.file;
  j["codec"] = codec->name();
  j["type"] = to_string(type);
  j["elements"] = words.size() / element_words;
  j["original_bits"] = original_bits;
  j["compressed_bits"] = compressed_bits;
  j["ratio"] = static_cast<double>(original_bits) / static_cast<double>(compressed_bits);

  std::optional<DoubleErrorStats> err;
  FpcPatternHistogram histogram{};
  if (codec->lossless()) {
    for (std::size_t i = 0; i < words.size(); ++i)
      if (decoded[i] != words[i]) {
        std::cerr << "collnoc: fault: " << codec->name() << " restored word " << i << " as 0x"
                  << std::hex << decoded[i] << " instead of 0x" << words[i] << std::dec << "\n";
        return kExitFault;
      }
    j["max_relative_error"] = 0.0;
    j["restored_exactly"] = true;
  } else {
    // LSB-cut: every decoded double must lie in its original's cut interval.
    const unsigned cut = params.lsb_cut_bits;
    for (std::size_t i = 0; i < words.size(); i += 2) {
      const std::uint64_t a = (std::uint64_t{words[i + 1]} << 32) | words[i];
      const std::uint64_t d = (std::uint64_t{decoded[i + 1]} << 32) | decoded[i];
      if ((a >> cut) != (d >> cut)) {
        std::cerr << "collnoc: fault: lsb_cut changed the kept bits of double " << i / 2 << "\n";
        return kExitFault;
      }
    }
    err = double_error_stats(words.data(), decoded.data(), words.size());
    if (err->non_finite_decoded_from_finite != 0) {
      std::cerr << "collnoc: fault: lsb_cut decoded a finite double as infinity or NaN\n";
      return kExitFault;
    }
    j["lsb_cut_bits"] = cut;
    j["max_relative_error"] = err->max_relative_error;
    j["max_relative_error_normal"] = err->max_relative_error_normal;
    j["relative_error_bound_normal"] = lsb_cut_relative_error_bound(cut);
    j["restored_exactly"] = err->exact == err->values;
    j["doubles"] = err->values;
    j["zeros"] = err->zeros;
    j["subnormals"] = err->subnormals;
    j["non_finite"] = err->non_finite;
    j["max_abs_error_of_zeros"] = err->max_abs_error_of_zeros;
  }
  if (dynamic_cast<const FpcCodec*>(codec.get())) {
    histogram = fpc_pattern_histogram(words.data(), words.size());
    nlohmann::json h = nlohmann::json::object();
    for (std::uint32_t p = 0; p < 8; ++p)
      if (p != FpcCodec::kPrefixUnused) h[fpc_prefix_string(p)] = histogram[p];
    j["fpc_patterns"] = h;
  }

  if (o.json) {
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }
  std::ostream& os = std::cout;
  os << "file                " << o.file << " (" << j["elements"].get<std::uint64_t>() << " "
     << to_string(type) << ")\n"
     << "codec               " << codec->name() << (codec->lossless() ? " (lossless)" : "");
  if (err) os << " (lossy, " << params.lsb_cut_bits << " bits cut per double)";
  os << "\n"
     << "original_bits       " << original_bits << "\n"
     << "compressed_bits     " << compressed_bits << "\n"
     << "ratio               " << std::fixed << std::setprecision(3) << j["ratio"].get<double>()
     << std::defaultfloat << std::setprecision(6) << "\n"
     << "max_relative_error  " << j["max_relative_error"].get<double>() << "\n";
  if (err) {
    os << "  over normals      " << err->max_relative_error_normal << " (bound 2^("
       << params.lsb_cut_bits << "-53) = " << lsb_cut_relative_error_bound(params.lsb_cut_bits)
       << ")\n"
       << "zeros               " << err->zeros;
    if (err->zeros) os << " (decoded as +/-" << err->max_abs_error_of_zeros << ")";
    os << "\nsubnormals          " << err->subnormals;
    if (err->subnormals) os << " (in max_relative_error, not bounded)";
    os << "\ninf_and_nan         " << err->non_finite;
    if (err->non_finite) os << " (decoded as NaN)";
    os << "\n";
  }
  os << "restored_exactly    " << (j["restored_exactly"].get<bool>() ? "yes" : "no") << "\n";
  if (j.contains("fpc_patterns")) {
    os << "fpc_patterns:\n  prefix  bits  pattern                 words       share\n";
    for (std::uint32_t p : {0b101u, 0b100u, 0b011u, 0b010u, 0b001u, 0b000u, 0b111u}) {  // priority
      os << "  " << fpc_prefix_string(p) << "     " << std::setw(4) << std::left
         << FpcCodec::kPrefixBits + FpcCodec::data_bits(p) << "  " << std::setw(22)
         << fpc_pattern_description(p) << std::right << std::setw(7) << histogram[p] << "  "
         << std::fixed << std::setprecision(1) << std::setw(9)
         << 100.0 * static_cast<double>(histogram[p]) / static_cast<double>(words.size()) << " %"
         << std::defaultfloat << std::setprecision(6) << "\n";
    }
  }
  return kExitOk;
}

// ------------------------------------------------------------------------------ analyze zero-load

struct ZeroLoadModel {
  double hops, switch_cycles, link_cycles, codec_latency_cycles, ratio;

  double network_cycles() const { return link_cycles * (hops + 1) + switch_cycles * hops; }
  double uncompressed_cycles(double flits) const { return network_cycles() + flits; }
  double compressed_cycles(double flits) const {
    return network_cycles() + flits / ratio + codec_latency_cycles;
  }
  // SPEC 2.4: compression pays when the flits it saves outweigh the codec latency.
  bool compression_pays(double flits) const { return flits - flits / ratio > codec_latency_cycles; }

  // The smallest whole packet length for which compression pays (the NI's selective policy
  // uses the same function for its default threshold).
  std::optional<std::uint64_t> break_even_flits() const {
    const std::uint64_t l = collnoc::break_even_flits(codec_latency_cycles, ratio);
    if (l == kNoBreakEven) return std::nullopt;
    return l;
  }
};

void require_at_least(const char* option, long long value, long long min, const char* why) {
  if (value < min)
    throw InputError(std::string(option) + " = " + std::to_string(value) + ": must be >= " +
                     std::to_string(min) + " (" + why + ")");
}

int analyze_zero_load(const AnalyzeOptions& o) {
  require_at_least("--hops", o.hops, 1, "switches on the path");
  require_at_least("--t-switch", o.switch_cycles, 0, "cycles per switch");
  require_at_least("--t-link", o.link_cycles, 0, "cycles per link");
  require_at_least("--codec-latency", o.codec_latency_cycles, 0,
                   "cycles of compression plus decompression");
  if (!(o.ratio > 1) || !std::isfinite(o.ratio))
    throw InputError("--ratio = " + format_number(o.ratio) +
                     ": must be > 1 and finite (original size / compressed size)");

  const ZeroLoadModel m{static_cast<double>(o.hops), static_cast<double>(o.switch_cycles),
                        static_cast<double>(o.link_cycles),
                        static_cast<double>(o.codec_latency_cycles), o.ratio};
  const std::optional<std::uint64_t> break_even = m.break_even_flits();

  std::vector<std::uint64_t> lengths;
  for (std::uint64_t l = 1; l <= 512; l *= 2) lengths.push_back(l);
  if (break_even) {
    if (*break_even > 1) lengths.push_back(*break_even - 1);
    lengths.push_back(*break_even);
  }
  std::sort(lengths.begin(), lengths.end());
  lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());

  nlohmann::json j;
  j["hops"] = o.hops;
  j["t_switch"] = o.switch_cycles;
  j["t_link"] = o.link_cycles;
  j["codec_latency"] = o.codec_latency_cycles;
  j["ratio"] = o.ratio;
  j["break_even_flits"] = break_even ? nlohmann::json(*break_even) : nlohmann::json(nullptr);
  j["table"] = nlohmann::json::array();
  for (std::uint64_t l : lengths) {
    const double f = static_cast<double>(l);
    j["table"].push_back({{"packet_flits", l},
                          {"uncompressed_cycles", m.uncompressed_cycles(f)},
                          {"compressed_cycles", m.compressed_cycles(f)},
                          {"compression_pays", m.compression_pays(f)}});
  }
  if (o.json) {
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }

  std::ostream& os = std::cout;
  os << "zero-load latency (SPEC 2.4), in cycles:\n"
     << "  uncompressed  T = T_link*(H+1) + T_switch*H + L\n"
     << "  compressed    T = T_link*(H+1) + T_switch*H + L/C + D\n"
     << "  H = " << o.hops << " switches, T_switch = " << o.switch_cycles
     << ", T_link = " << o.link_cycles << ", D = " << o.codec_latency_cycles
     << ", C = " << format_number(o.ratio) << "\n\n"
     << "  packet_flits  uncompressed_cycles  compressed_cycles  better\n";
  for (const auto& row : j["table"]) {
    const bool pays = row["compression_pays"].get<bool>();
    const bool tie = !pays && row["compressed_cycles"].get<double>() ==
                                  row["uncompressed_cycles"].get<double>();
    os << "  " << std::setw(12) << row["packet_flits"].get<std::uint64_t>() << "  " << std::setw(19)
       << format_cycles(row["uncompressed_cycles"].get<double>()) << "  " << std::setw(17)
       << format_cycles(row["compressed_cycles"].get<double>()) << "  "
       << (pays ? "compressed" : tie ? "equal" : "uncompressed") << "\n";
  }
  os << "\n";
  if (break_even)
    os << "break_even_flits = " << *break_even << ": compression pays from " << *break_even
       << " flits (L - L/C > D)\n";
  else
    os << "break_even_flits: none below 2^53 flits (no packet is that long)\n";
  return kExitOk;
}

}  // namespace

CLI::Option* add_integer_option(CLI::App& app, const std::string& name, long long& value,
                                const std::string& description) {
  const CLI::Validator whole_number(
      [](std::string& text) -> std::string {
        std::int64_t v = 0;
        if (!parse_int(text, v))
          return text + ": must be a whole number in -9223372036854775808..9223372036854775807";
        text = std::to_string(v);  // what CLI11 then reads: no octal, no leading zeros
        return {};
      },
      "INT");
  return app.add_option(name, value, description)->check(whole_number)->capture_default_str();
}

CLI::App* add_analyze_command(CLI::App& app, AnalyzeOptions& o) {
  CLI::App* analyze = app.add_subcommand(
      "analyze",
      "offline studies, no simulation: codec, zero-load (NI compression), hdn (topology)");
  analyze->require_subcommand(1);

  CLI::App* codec = analyze->add_subcommand(
      "codec", "run a binary dump (little-endian int32 or IEEE-754 doubles) through a codec: "
               "sizes, ratio, error, FPC patterns");
  codec->add_option("--codec", o.codec, "fpc (int32) or lsb_cut (double, complex)")->required();
  add_integer_option(*codec, "--lsb-bits", o.lsb_cut_bits,
                     "lsb_cut: low bits cut from each double, 1..52");
  codec->add_option("--type", o.element_type,
                    "element type of the dump: int32, double (float64) or complex (complex64)")
      ->required();
  codec->add_option("file", o.file, "the binary dump")->required();
  codec->add_flag("--json", o.json, "print one JSON object");
  codec->callback([&o] { o.command = AnalyzeOptions::Command::codec; });

  CLI::App* zero_load = analyze->add_subcommand(
      "zero-load", "the SPEC 2.4 zero-load model: latency with and without compression per "
                   "packet length, and the break-even length");
  add_integer_option(*zero_load, "--hops", o.hops, "H: switches on the path");
  add_integer_option(*zero_load, "--t-switch", o.switch_cycles, "T_switch: cycles per switch");
  add_integer_option(*zero_load, "--t-link", o.link_cycles, "T_link: cycles per link");
  add_integer_option(*zero_load, "--codec-latency", o.codec_latency_cycles,
                     "D: compression plus decompression, cycles");
  zero_load->add_option("--ratio", o.ratio, "C: compression ratio, > 1")->capture_default_str();
  zero_load->add_flag("--json", o.json, "print one JSON object");
  zero_load->callback([&o] { o.command = AnalyzeOptions::Command::zero_load; });
  add_analyze_hdn_command(*analyze, o);
  add_analyze_nc_command(*analyze, o);
  return analyze;
}

int analyze_command(const AnalyzeOptions& options) {
  switch (options.command) {
    case AnalyzeOptions::Command::codec: return analyze_codec(options);
    case AnalyzeOptions::Command::zero_load: return analyze_zero_load(options);
    case AnalyzeOptions::Command::hdn: return analyze_hdn(options);
    case AnalyzeOptions::Command::nc: return analyze_nc(options);
    case AnalyzeOptions::Command::none: break;
  }
  return kExitBadInput;
}

}  // namespace collnoc::cli
