// What synthetic packets carry: payload generators chosen by name (traffic.payload), so that the
// words a compressing NI sees look like an application's data. A generator is a pure function of
// (packet id, word index): the destination regenerates the words and checks what arrived.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ni/codec.hpp"
#include "noc/registry.hpp"
#include "noc/types.hpp"

namespace collnoc {

class PayloadGenerator {
 public:
  virtual ~PayloadGenerator() = default;
  virtual ElementType element_type() const = 0;
  // Word `index` of packet `packet`'s payload (doubles: low word at even, high at odd index).
  virtual std::uint32_t word(PacketId packet, std::uint32_t index) const = 0;
  // Words [first, first + count) into `out`: one call per packet instead of one per word.
  virtual void fill(PacketId packet, std::uint32_t first, std::uint32_t count,
                    std::uint32_t* out) const {
    for (std::uint32_t i = 0; i < count; ++i) out[i] = word(packet, first + i);
  }
};

using PayloadEntry = Registered<std::function<std::unique_ptr<PayloadGenerator>()>>;
const std::vector<PayloadEntry>& payload_generators();

// A registered name, or "file:PATH:int32" / "file:PATH:double" (a little-endian binary dump,
// read once; packets take consecutive runs of it, wrapping around). ParamError("traffic.payload",
// ...) for an unknown name, a missing or unreadable file, or a size that is not a multiple of
// the element size.
std::unique_ptr<PayloadGenerator> make_payload_generator(const std::string& spec);

}  // namespace collnoc
