#include "rtl_models/stream_block.hpp"

#include <algorithm>

namespace collnoc {

StreamBlock::StreamBlock(const sc_core::sc_module_name& name, unsigned depth)
    : sc_module(name), depth_(depth), valid_(std::make_unique<bool[]>(depth > 1 ? depth - 1 : 0)) {
  sc_assert(depth >= 1 && depth <= kMaxDepth);
  trace_also(clk, rst, in_valid, in_ready, out_valid, out_ready);
  SC_HAS_PROCESS(StreamBlock);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
  SC_METHOD(update_in_ready);
  sensitive << rst << full_ << out_ready;
}

void StreamBlock::on_clock() {
  if (rst.read()) {
    std::fill(valid_.get(), valid_.get() + depth_ - 1, false);
    out_valid.write(false);
    full_.write(false);
    occupancy_.write(0);
    clear();
    return;
  }
  // From the output back to the input: a stage loads when it is empty or its word moves on at
  // this edge, and it loads what its predecessor held before the edge (not yet updated).
  bool moves = !out_valid.read() || out_ready.read();  // the output register loads
  bool out_v = out_valid.read();
  if (moves) {
    out_v = depth_ > 1 ? valid_[depth_ - 2] : in_valid.read();
    out_valid.write(out_v);
    if (out_v) load(depth_);
  }
  unsigned count = out_v ? 1u : 0u;
  for (unsigned stage = depth_ - 1; stage >= 1; --stage) {
    bool& valid = valid_[stage - 1];
    moves = !valid || moves;
    if (moves) {
      valid = stage > 1 ? valid_[stage - 2] : in_valid.read();
      if (valid) load(stage);
    }
    count += valid ? 1u : 0u;
  }
  occupancy_.write(count);
  full_.write(count == depth_);
}

void StreamBlock::update_in_ready() {
  in_ready.write(!rst.read() && (!full_.read() || out_ready.read()));
}

void StreamBlock::trace_also(const bool& reg, const char* name) {
  const std::string full_name = std::string(this->name()) + "." + name;
  traced_.emplace_back([&reg, full_name](sc_core::sc_trace_file* tf) {
    sc_core::sc_trace(tf, reg, full_name);
  });
}

void StreamBlock::trace(sc_core::sc_trace_file* tf) const {
  for (const auto& add : traced_) add(tf);
}

}  // namespace collnoc
