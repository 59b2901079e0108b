// Acyclic, resource-constrained latency minimization as a time-indexed MILP (TWILL.md
// section 2, last paragraph): the exact baseline for the HeuriGym operator-scheduling set.
#pragma once

#include <atomic>
#include <optional>
#include <string>

#include <gaus/core/memory_limit.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/exact/cost_normalization.hpp>
#include <gaus/exact/model_limits.hpp>

namespace gaus::exact {

struct LatencyMilpOptions {
  double timeLimitSeconds = 60.0;  // wall clock, list schedule and model building included
  // Refuse (status kError, saying what to change) a model above this many nonzeros.
  std::int64_t maxNonzeros = kDefaultMaxNonzeros;
  // Refuse a model whose estimated memory exceeds this (core/memory_limit.hpp).
  std::int64_t memoryLimitBytes = defaultMemoryLimitBytes();
  // Upper bound on the latency, which sets every op's latest start. Unset: the latency of a list
  // schedule (or the problem's horizon, when smaller).
  std::optional<Cycle> latencyBound;
  // Share of the time left (after the list schedule) for refuting L below the start on the
  // SAT model before the MILP (the destructive lower bound, src/exact/latency_sat.hpp); the
  // MILP gets the rest. 0: the MILP alone. Without a time limit the refutation runs until it
  // ends.
  double refutationShare = 0.3;
  bool useStart = true;       // hand CBC the list schedule as its first incumbent
  bool breakSymmetry = true;  // order twin ops (symmetry.hpp)
  NormalizationOptions normalization;
  // A start to improve on (`gaus schedule --init`; not owned). When it verifies for the problem,
  // the better of it and the list schedule is CBC's first incumbent and bounds L; otherwise it is
  // ignored with a note in Result::notes.
  const Schedule* initialSchedule = nullptr;
  std::string initialScheduleOrigin = "--init";  // where it came from, for the notes
  // The MILP solver (`-O solver`; ilp copies it into `normalization` too).
  milp::MilpSolver solver = milp::kDefaultMilpSolver;
  // Set from another thread to stop the MILP promptly (RunContext::cancel; not owned, may be
  // null): the result is then a timeout with the best schedule found.
  const std::atomic<bool>* cancel = nullptr;
};

// Minimizes max over ops of start + duration under resources (edges of distance > 0 ignored).
// Status kOptimal when CBC proves it; kTimeout with the best schedule when the time limit
// stops it (Bounds::lowerBound holds CBC's bound); kFeasible when the problem was normalized
// (optimal in normalized units, scaled back to raw cycles). Result::extra holds
// "list_latency", "variables", "rows" and, when normalized, "time_unit".
Result solveLatencyMilp(const Problem& problem, const LatencyMilpOptions& options = {});

}  // namespace gaus::exact
