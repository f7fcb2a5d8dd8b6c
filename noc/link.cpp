#include "noc/link.hpp"

#include <string>
#include <utility>

namespace collnoc {

void validate(const LinkParams& p, const std::string& key_prefix) {
  if (p.latency_cycles < 1)
    throw ParamError(key_prefix + ".latency_cycles", std::to_string(p.latency_cycles), "must be >= 1");
  if (p.credit_latency_cycles < 1)
    throw ParamError(key_prefix + ".credit_latency_cycles", std::to_string(p.credit_latency_cycles),
                     "must be >= 1");
}

Link::Link(std::string name, const LinkParams& params) : name_(std::move(name)), params_(params) {
  validate(params, "link");
  // One flit per cycle: `latency` of them can be in flight, plus one written this cycle.
  flits_.reset(params.latency_cycles, params.latency_cycles + 1);
}

}  // namespace collnoc
