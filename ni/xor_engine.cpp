#include "ni/xor_engine.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace collnoc {

void validate(const XorEngineParams& params) {
  if (!XorEngineParams::xor_latency_cycles_range.contains(params.xor_latency_cycles))
    throw ParamError("nc.xor_latency_cycles", std::to_string(params.xor_latency_cycles),
                     "must be " + range_text(XorEngineParams::xor_latency_cycles_range) +
                         " (cycles from a packet pair to its XOR; 0 = combinational)");
}

namespace nc_detail {
CheckedXorParams::CheckedXorParams(const XorEngineParams& params) : params_(params) {
  validate(params_);
}
}  // namespace nc_detail

XorEngine::XorEngine(sc_core::sc_module_name name, const XorEngineParams& params)
    : CheckedXorParams(params), sc_module(name) {}

std::vector<std::uint32_t> XorEngine::xor_words(const std::vector<std::uint32_t>& a,
                                                const std::vector<std::uint32_t>& b) {
  if (a.size() != b.size())
    throw std::invalid_argument("XorEngine: packets of unequal length (" +
                                std::to_string(a.size()) + " and " + std::to_string(b.size()) +
                                " words); only equal-length packets can be XORed");
  std::vector<std::uint32_t> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = a[i] ^ b[i];
  return out;
}

void XorEngine::submit(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b,
                       Cycle now) {
  check_submit(a.empty() && b.empty(), now);
  start(xor_words(a, b), now);  // throws for unequal lengths
}

void XorEngine::submit(const std::uint32_t* a, const std::uint32_t* b, std::size_t words,
                       Cycle now) {
  check_submit(words == 0, now);
  std::vector<std::uint32_t> coded(words);
  for (std::size_t i = 0; i < words; ++i) coded[i] = a[i] ^ b[i];
  start(std::move(coded), now);
}

void XorEngine::check_submit(bool empty, Cycle now) const {
  if (empty)
    throw std::invalid_argument(std::string(name()) + ": empty packets");
  if (submitted_any_ && now < last_submit_)
    throw std::logic_error(std::string(name()) + ": submit in cycle " + std::to_string(now) +
                           " after one in cycle " + std::to_string(last_submit_));
  if (!can_accept(now))
    throw std::logic_error(std::string(name()) + ": a packet pair in cycle " +
                           std::to_string(now) + ", " + std::to_string(now - last_submit_) +
                           " after the last (the engine takes one every " +
                           std::to_string(issue_interval_cycles()) + ")");
}

void XorEngine::start(std::vector<std::uint32_t>&& coded, Cycle now) {
  const Cycle latency = latency_cycles();
  words_xored_ += coded.size();
  results_.push_back({now + latency, std::move(coded)});
  submitted_any_ = true;
  last_submit_ = now;
  ++xor_operations_;
  const Cycle end = now + std::max<Cycle>(latency, 1);
  busy_cycles_ += end - std::max(now, busy_until_);  // end > busy_until_: latency is fixed
  busy_until_ = end;
}

std::vector<std::uint32_t> XorEngine::take(Cycle now) {
  if (!ready(now))
    throw std::logic_error(std::string(name()) + ": take in cycle " + std::to_string(now) +
                           (results_.empty() ? std::string(" with nothing inside")
                                             : " before the result is ready (cycle " +
                                                   std::to_string(results_.front().ready_at) +
                                                   ")"));
  std::vector<std::uint32_t> words = std::move(results_.front().words);
  results_.pop_front();
  return words;
}

}  // namespace collnoc
