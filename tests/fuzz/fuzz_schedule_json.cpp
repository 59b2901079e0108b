// libFuzzer harness of the schedule reader (gaus-schedule-0.1): the input is a schedule for the
// toy Flash-Attention graph of tests/data (three ops on a machine with warps, registers and a
// memory). What loads is verified as the problem kind its shape implies, and must write back
// and read again to the same schedule.

#include <gaus/core/verify.hpp>

#include "fuzz_pipeline.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gaus;
  const Instance& instance = fuzz::toyFlashAttention();
  const auto path = fuzz::writeScratchFile("input.schedule.json", fuzz::asText(data, size));
  const auto schedule = io::readSchedule(path, *instance.graph);
  if (!schedule) return 0;
  const ProblemKind kind = schedule->warps ? ProblemKind::kModuloWarp
                           : schedule->ii  ? ProblemKind::kModulo
                                           : ProblemKind::kLatency;
  (void)verify(instance.problem(kind), *schedule);
  fuzz::writeScratchFile("again.schedule.json", io::formatSchedule(*instance.graph, *schedule));
  const auto again =
      io::readSchedule(fuzz::scratchFolder() / "again.schedule.json", *instance.graph);
  fuzz::require(again.ok() && *again == *schedule, "a schedule reads back as it was written");
  return 0;
}
