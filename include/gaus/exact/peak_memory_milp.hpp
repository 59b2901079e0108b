// Peak live memory under a horizon (formulation B of GauS) solved exactly: the latency-bounded
// problems of method ilp with the objective peak_memory. The model is milp's
// live_memory::PeakMemoryModel with every op moving; src/exact/peak_memory_milp.cpp says how it is
// started and bounded.
#pragma once

#include <atomic>
#include <string>

#include <gaus/core/memory_limit.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/exact/model_limits.hpp>
#include <gaus/milp/milp_model.hpp>

namespace gaus::exact {

struct PeakMemoryMilpOptions {
  double timeLimitSeconds = 60.0;  // wall clock, the start and model building included
  std::int64_t maxNonzeros = kDefaultMaxNonzeros;
  std::int64_t memoryLimitBytes = defaultMemoryLimitBytes();
  bool useStart = true;  // hand the solver the best start as its first incumbent
  // A start to improve on (--init or init=; not owned), used when it verifies.
  const Schedule* initialSchedule = nullptr;
  std::string initialScheduleOrigin = "--init";
  milp::MilpSolver solver = milp::kDefaultMilpSolver;  // `-O solver`
  // Set from another thread to stop promptly (RunContext::cancel; not owned, may be null).
  const std::atomic<bool>* cancel = nullptr;
};

// Minimizes the peak live memory (core's computeMetrics: a value is live from its op's start
// until its last distance-0 reader starts) of a latency-bounded problem. The result's objective
// is "peak_memory"; its lower bound is the MILP's, never below the mandatory lifetimes'
// (live_memory::mandatoryLifetimeBound). A model too large for the limits is not solved: the
// result then holds the start schedule and the combinatorial bound, with the refusal as its
// message.
Result solvePeakMemoryMilp(const Problem& problem, const PeakMemoryMilpOptions& options);

}  // namespace gaus::exact
