#include "normalized_solve.hpp"

namespace gaus::exact::detail {

Result solveWithNormalization(
    const Problem& problem, const NormalizationOptions& options,
    const std::function<Result(const Problem&, std::int64_t timeUnit)>& solve) {
  auto normalize = shouldNormalize(problem, options);
  if (!normalize) return errorResult(normalize.error());
  if (!*normalize) return solve(problem, 1);

  auto normalized = normalizeProblem(problem, options);
  if (!normalized) return errorResult(normalized.error());
  Result result = solve(normalized->problem, normalized->timeUnit);
  result.log.insert(result.log.begin(),
                    "normalized costs: " + normalized->normalization.describe());
  for (const auto& warning : normalized->normalization.warnings) result.log.push_back(warning);
  result.extra.emplace_back("time_unit", static_cast<double>(normalized->timeUnit));
  if (result.schedule) result.schedule = toRawSchedule(*normalized, *result.schedule);
  if (result.status == SolveStatus::kOptimal) {
    result.status = SolveStatus::kFeasible;
    result.bounds.iiProvenOptimal = false;
    result.bounds.latencyProvenOptimal = false;
    result.bounds.lowerBound.reset();
  }
  return result;
}

}  // namespace gaus::exact::detail
