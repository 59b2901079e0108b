// Internal to the exact engine: running a MILP method on the normalized problem when the
// normalization options ask for it (cost_normalization.hpp), shared by the latency and modulo
// methods.
#pragma once

#include <functional>

#include <gaus/core/result.hpp>
#include <gaus/exact/cost_normalization.hpp>

namespace gaus::exact::detail {

// Calls `solve(problem, timeUnit)` on the problem itself (timeUnit 1) or on its normalized
// restatement. The problem itself is solved when the options do not ask to normalize, and when
// the mapping shrinks no cost (costs that fit the sum bound map to themselves; a note says so).
// Otherwise the schedule is mapped back to raw cycles, the mapping and its warnings open the
// log, "time_unit" is added to the extra figures, a kOptimal answer becomes kFeasible and a
// kInfeasible one kUnknown (the normalized problem is the tighter one). Whatever the status, the
// lower bound and the optimality flags (which hold in normalized units only) move to the extra
// figures "normalized_lower_bound", "normalized_ii_proven" and "normalized_latency_proven" (1 or
// 0), and the attempts' II, L and bound move into their details, marked as normalized. The
// caller restates what else it reported in cycles (figures, a raw bound) and keeps a raw start
// that beats the mapped-back answer. `solve` receives the time unit to scale its own raw-cycle
// options.
Result solveWithNormalization(
    const Problem& problem, const NormalizationOptions& options,
    const std::function<Result(const Problem&, std::int64_t timeUnit)>& solve);

}  // namespace gaus::exact::detail
