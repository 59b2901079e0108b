// Internal to the exact engine: running a MILP method on the normalized problem when the
// normalization options ask for it (cost_normalization.hpp), shared by the latency and modulo
// methods.
#pragma once

#include <functional>

#include <gaus/core/result.hpp>
#include <gaus/exact/cost_normalization.hpp>

namespace gaus::exact::detail {

// Calls `solve(problem, timeUnit)` on the problem itself (timeUnit 1) or on its normalized
// restatement. In the latter case the schedule is mapped back to raw cycles, the mapping and its
// warnings open the log, "time_unit" is added to the extra figures, and a kOptimal answer
// becomes kFeasible with its optimality flags and lower bound cleared (optimal only in
// normalized units). `solve` receives the time unit to scale its own raw-cycle options.
Result solveWithNormalization(
    const Problem& problem, const NormalizationOptions& options,
    const std::function<Result(const Problem&, std::int64_t timeUnit)>& solve);

}  // namespace gaus::exact::detail
