// libFuzzer harness of the machine reader (configs/machines/*.yaml): what loads becomes the
// machine of the toy Flash-Attention graph of tests/data (its ops rebound by resource and
// memory name), which then goes through the shared pipeline and the modulo-warp input check.

#include "fuzz_pipeline.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gaus;
  const auto path = fuzz::writeScratchFile("machine.yaml", fuzz::asText(data, size));
  const auto machine = io::readMachine(path);
  if (!machine) return 0;
  const auto rebound = rebindMachine(fuzz::toyFlashAttention(), *machine);
  if (!rebound) return 0;
  (void)rebound->problem(ProblemKind::kModuloWarp).check();
  fuzz::exerciseInstance(*rebound);
  return 0;
}
