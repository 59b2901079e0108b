// Acyclic, resource-constrained latency minimization as a time-indexed MILP (TWILL.md
// section 2, last paragraph): the exact baseline for the HeuriGym operator-scheduling set.
#pragma once

#include <optional>

#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/exact/cost_normalization.hpp>
#include <gaus/milp/milp_call.hpp>

namespace gaus::exact {

struct LatencyMilpOptions {
  // The call (milp/milp_call.hpp): its deadline covers the list schedule, the refutation, the
  // cost normalization and the model building (none: no limit); its start, when it verifies for
  // the problem and is shorter than the list schedule, is the solver's first incumbent and bounds
  // L (otherwise it is ignored with a note in Result::notes); the cost normalization solves with
  // the same block.
  milp::MilpCall call;
  // Upper bound on the latency, which sets every op's latest start. Unset: the latency of a list
  // schedule (or the problem's horizon, when smaller).
  std::optional<Cycle> latencyBound;
  // Share of the time left (after the list schedule) for refuting L below the start on the
  // SAT model before the MILP (the destructive lower bound, src/exact/latency_sat.hpp); the
  // MILP gets the rest. 0: the MILP alone. Without a time limit the refutation runs until it
  // ends.
  double refutationShare = 0.3;
  bool breakSymmetry = true;  // order twin ops (symmetry.hpp)
  NormalizationOptions normalization;
};

// Minimizes max over ops of start + duration under resources (edges of distance > 0 ignored).
// Status kOptimal when the solver proves it; kTimeout with the best schedule when the time limit
// stops it (Bounds::lowerBound holds the solver's bound); kFeasible when the problem was normalized
// (optimal in normalized units, scaled back to raw cycles). Result::extra holds
// "list_latency", "variables", "rows" and, when normalized, "time_unit".
Result solveLatencyMilp(const Problem& problem, const LatencyMilpOptions& options = {});

}  // namespace gaus::exact
