// libFuzzer target: `collnoc analyze codec` on arbitrary files.
//   byte 0     bits 0-1: --codec and --type: fpc int32, lsb_cut double, lsb_cut complex, or
//              lsb_cut int32 (a codec that does not code the type: refused); bit 2: --json
//   byte 1     --lsb-bits, a signed byte (the command refuses what is outside 1..52)
//   the rest   the dump, written to a file of this process's own and given as FILE
// The command must succeed (exit 0) or refuse the input with InputError or ParamError (exit 2).
// Exit 1 is its own check failing: a size other than encoded_bits, a word fpc did not restore, a
// double lsb_cut moved out of its interval.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sc_main/cli.hpp"
#include "sc_main/config.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collnoc;
  using namespace collnoc::cli;
  if (size < 2) return 0;
  static const char* const kChoices[4][2] = {
      {"fpc", "int32"}, {"lsb_cut", "double"}, {"lsb_cut", "complex"}, {"lsb_cut", "int32"}};
  AnalyzeOptions o;
  o.command = AnalyzeOptions::Command::codec;
  o.codec = kChoices[data[0] & 3][0];
  o.element_type = kChoices[data[0] & 3][1];
  o.json = data[0] & 4;
  o.lsb_cut_bits = static_cast<std::int8_t>(data[1]);
  o.file = fuzz::scratch_file("dump.bin", data + 2, size - 2);
  int status = kExitBadInput;
  try {
    fuzz::DiscardStdout quiet;
    status = analyze_command(o);
  } catch (const InputError&) {
  } catch (const ParamError&) {
  }
  fuzz::expect(status != kExitFault, "analyze codec found a fault in its own round trip");
  return 0;
}
