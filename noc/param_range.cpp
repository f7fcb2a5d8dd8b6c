#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "noc/types.hpp"

namespace collnoc {

std::string plain_number(double x) {
  char buf[40];
  if (x == std::trunc(x) && std::fabs(x) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", x);
    return buf;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  return buf;
}

// Both bounds, even a 64-bit parameter's, so that a value too large to read is told the largest.
std::string range_text(UintRange r) {
  return "in " + std::to_string(r.min) + ".." + std::to_string(r.max);
}

std::string range_text(RealRange r) {
  return std::string("in ") + (r.min_open ? "(" : "[") + plain_number(r.min) + ", " +
         plain_number(r.max) + "]";
}

void check_range(const std::string& key, std::uint64_t value, UintRange r) {
  if (!r.contains(value)) throw ParamError(key, std::to_string(value), "must be " + range_text(r));
}

void check_range(const std::string& key, double value, RealRange r) {
  if (!r.contains(value)) throw ParamError(key, plain_number(value), "must be " + range_text(r));
}

}  // namespace collnoc
