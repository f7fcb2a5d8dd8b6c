// Basic types shared by every model: cycles, ids, and the error raised for bad parameters.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace collnoc {

using Cycle = std::uint64_t;     // one period of the network clock
using NodeId = std::uint32_t;    // endpoint (NI) index
using RouterId = std::uint32_t;  // router index
using PacketId = std::uint64_t;

constexpr Cycle kNever = ~Cycle{0};

// The position after `i` in a ring of `n` (round-robin pointers, buffer rings), without a
// branch: which way it goes changes from one use to the next, and a mispredicted branch costs
// more than the arithmetic.
inline unsigned ring_next(unsigned i, unsigned n) {
  const unsigned j = i + 1;
  return j & (0u - static_cast<unsigned>(j != n));
}

// Most ports a router (or static switch) has: network ports plus local ports. Requests, grants
// and port masks are 64-bit sets of ports.
constexpr unsigned kMaxRouterPorts = 64;

// Most threads a clock evaluates the blocks of one cycle on (sim.threads).
constexpr unsigned kMaxThreads = 4;

// A value as messages show it: an empty one reads "(empty)", so that "key = : ..." never looks
// like a value went missing.
inline std::string shown_value(std::string value) { return value.empty() ? "(empty)" : value; }

// Raised while building a model from parameters that cannot describe hardware.
// The CLI turns it into exit status 2; `key` names the parameter the user set.
class ParamError : public std::runtime_error {
 public:
  ParamError(std::string key, std::string value, const std::string& allowed)
      : std::runtime_error(key + " = " + shown_value(value) + ": " + allowed),
        key_(std::move(key)), value_(shown_value(std::move(value))) {}
  const std::string& key() const { return key_; }
  const std::string& value() const { return value_; }

 private:
  std::string key_;
  std::string value_;
};

// The allowed values of a numeric parameter, declared once beside its field (a `static
// constexpr` of its parameter struct): the struct's validate() checks them and the `collnoc`
// configuration schema shows and enforces the same ones.
struct UintRange {
  std::uint64_t min, max;
  constexpr bool contains(std::uint64_t v) const { return v >= min && v <= max; }
};
struct RealRange {
  double min, max;
  bool min_open = false;  // (min, max] rather than [min, max]
  constexpr bool contains(double v) const { return (min_open ? v > min : v >= min) && v <= max; }
};
inline constexpr std::uint64_t kU32Max = UINT32_MAX;
inline constexpr std::uint64_t kU64Max = UINT64_MAX;

// Shortest text that reads back as the same double; whole numbers without exponent or ".0".
std::string plain_number(double x);
// "in 1..32", "in (1, 1000000000]": the text messages and the schema give for a range.
std::string range_text(UintRange r);
std::string range_text(RealRange r);
// ParamError(key, value, "must be in ...") unless `r` contains `value`.
void check_range(const std::string& key, std::uint64_t value, UintRange r);
void check_range(const std::string& key, double value, RealRange r);

// Switching mode of a router (and of an NI's injection channel).
enum class Switching : std::uint8_t {
  wormhole,           // a flit advances when the next buffer has one free slot
  virtual_cut_through,// a head advances only into a VC that can hold the whole packet
  store_and_forward,  // a packet is forwarded only after it is wholly buffered (and fits downstream)
};

inline const char* to_string(Switching s) {
  switch (s) {
    case Switching::wormhole: return "wormhole";
    case Switching::virtual_cut_through: return "vct";
    case Switching::store_and_forward: return "saf";
  }
  return "?";
}

}  // namespace collnoc
