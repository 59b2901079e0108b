// Shrinking a problem on which a disagreement holds, so the reproducer the cross-method check
// writes is small enough to reason about by hand: drop ops, drop edges, lower latencies, delays,
// distances and reservations, clear annotations, one step at a time, keeping a step only while
// the disagreement still holds (greedy delta debugging, as in C-Reduce or Hypothesis).
#pragma once

#include <functional>

#include <gaus/core/problem.hpp>

namespace gaus::crosscheck {

// True when the disagreement still holds on the candidate.
using StillDisagrees = std::function<bool(const Problem&)>;

struct ShrinkOptions {
  std::int32_t maxTrials = 200;  // candidates tested (each reruns every method)
};

struct ShrinkOutcome {
  Problem problem;  // the smallest problem found on which the disagreement holds
  std::int32_t trials = 0;
  std::int32_t steps = 0;  // candidates kept
};

// Every candidate passes Problem::check() before it is tested; `problem` must satisfy
// `stillDisagrees` (it is returned unchanged otherwise).
ShrinkOutcome shrinkProblem(const Problem& problem, const StillDisagrees& stillDisagrees,
                            const ShrinkOptions& options = {});

}  // namespace gaus::crosscheck
