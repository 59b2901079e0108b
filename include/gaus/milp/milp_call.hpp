// What a method call hands every MILP it solves, beside the model: the deadline, the solver, the
// size limits, the start and the cancel flag. One block, composed into every MILP's options
// (exact's latency, peak-memory, stage and modulo MILPs and its cost normalization, formulation
// B's whole-graph solve), so that a method fills it in once and hands it on whole, and every
// model reads it the same way (refusal, solve).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <gaus/core/deadline.hpp>
#include <gaus/core/memory_limit.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/milp/milp_model.hpp>

namespace gaus::milp {

// Models above this many nonzeros are refused before they are built, with a message saying how
// large they would be and what to change (option max_nonzeros raises it). Memory grows with the
// nonzeros: Triton's FA dump in raw cycles at II 1325 (6.8 M nonzeros) peaks at 3.2 GB in CBC's
// root LP. The default admits every raw-cycle Triton model at its MII (the largest, addmm's
// second loop at II 1856, has 5.1 M) and keeps a solve under about 4 GB.
inline constexpr std::int64_t kDefaultMaxNonzeros = 8'000'000;

struct MilpCall {
  // The whole solve, the start schedule and the model's building included; none: no limit. A
  // phase of the call takes its part with Deadline::share.
  Deadline deadline;
  MilpSolver solver = kDefaultMilpSolver;  // `-O solver`
  // A model estimated above either is refused before it is built (refusal()).
  std::int64_t maxNonzeros = kDefaultMaxNonzeros;
  std::int64_t memoryLimitBytes = defaultMemoryLimitBytes();
  bool useStart = true;  // hand the solver the start schedule as its first incumbent
  // A schedule to improve on (`gaus schedule --init`, ilp's init=...; not owned, like its
  // origin's text): taken where it verifies for the problem, otherwise ignored with a note that
  // names its origin.
  const Schedule* initialSchedule = nullptr;
  std::string_view initialScheduleOrigin = "--init";
  // Set from another thread to stop the solve promptly (RunContext::cancel; not owned, may be
  // null): the solve then ends as a timeout with its incumbent.
  const std::atomic<bool>* cancel = nullptr;

  // Why a model of `size` is refused under this call's limits (refuseLargeModel), or nothing.
  std::optional<std::string> refusal(std::string_view what, ModelSize size,
                                     std::string_view remedy = {}) const;
  // Solves `model` with this call's solver and cancel flag in what is left of the deadline (at
  // least 10 ms, so that a solve given no time still reports its start; none: no limit).
  MilpSolution solve(MilpModel& model) const;
};

}  // namespace gaus::milp
