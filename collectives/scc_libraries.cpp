#include "collectives/scc_libraries.hpp"

namespace collnoc {

void require_library_transport(const FirmwareParams& p) {
  if (p.protocol.mpb_bytes == 0)
    throw ParamError("workload.algorithm", p.algorithm,
                     "runs on platform scc only (the SCC's library of that name, over its "
                     "message-passing buffers): another algorithm of " + p.collective + " here");
  if (p.protocol.name != "mpb")
    throw ParamError("msg.protocol", p.protocol.name,
                     "mpb for workload.algorithm = " + p.algorithm +
                         " (the library's messages go through the message-passing buffers)");
}

namespace {

class VariantFirmware final : public Firmware {
 public:
  VariantFirmware(std::unique_ptr<Firmware> program, std::string variant)
      : program_(std::move(program)), variant_(std::move(variant)) {}
  void run(MessageLayer& ml) override { program_->run(ml); }
  void report(Report& out) const override {
    program_->report(out);
    out.set("collective.variant", variant_);
  }
  bool data_verified() const override { return program_->data_verified(); }
  std::string failure() const override { return program_->failure(); }
  bool codes_in_network() const override { return program_->codes_in_network(); }
  bool owns_message_passing_buffers() const override {
    return program_->owns_message_passing_buffers();
  }

 private:
  std::unique_ptr<Firmware> program_;
  std::string variant_;
};

}  // namespace

std::unique_ptr<Firmware> with_variant(std::unique_ptr<Firmware> program, std::string variant) {
  return std::make_unique<VariantFirmware>(std::move(program), std::move(variant));
}

unsigned power_of_two_floor(unsigned n) {
  unsigned p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

}  // namespace collnoc
