// Peak live memory under a horizon (formulation B of GauS) solved exactly: the latency-bounded
// problems of method ilp with the objective peak_memory. The model is
// live_memory::PeakMemoryModel with every op moving; src/exact/peak_memory_milp.cpp says how it is
// started and bounded.
#pragma once

#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/milp/milp_call.hpp>

namespace gaus::exact {

struct PeakMemoryMilpOptions {
  // The call (milp/milp_call.hpp): its deadline covers the bound, the start and the model
  // building (none: no limit); its start (--init or init=) is taken when it verifies.
  milp::MilpCall call;
};

// Minimizes the peak live memory (core's computeMetrics: a value is live from its op's start
// until its last distance-0 reader starts) of a latency-bounded problem. The result's objective
// is "peak_memory"; its lower bound is the MILP's, never below the mandatory lifetimes'
// (live_memory::mandatoryLifetimeBound). A model too large for the limits is not solved: the
// result then holds the start schedule and the combinatorial bound, with the refusal as its
// message.
Result solvePeakMemoryMilp(const Problem& problem, const PeakMemoryMilpOptions& options);

}  // namespace gaus::exact
