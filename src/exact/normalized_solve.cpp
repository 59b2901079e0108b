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
  std::string text = normalized->normalization.describe();
  for (const auto& warning : normalized->normalization.warnings) text += "\n" + warning;
  result.notes.emplace_back("normalized costs", text);
  result.extra.emplace_back("time_unit", static_cast<double>(normalized->timeUnit));
  if (result.schedule) result.schedule = toRawSchedule(*normalized, *result.schedule);
  // Bounds and optimality hold in normalized units only: keep them as extra figures and clear
  // them from the raw answer, whatever the status.
  if (result.bounds.lowerBound) {
    result.extra.emplace_back("normalized_lower_bound", *result.bounds.lowerBound);
  }
  result.extra.emplace_back("normalized_ii_proven", result.bounds.iiProvenOptimal ? 1.0 : 0.0);
  result.extra.emplace_back("normalized_latency_proven",
                            result.bounds.latencyProvenOptimal ? 1.0 : 0.0);
  result.bounds.iiProvenOptimal = false;
  result.bounds.latencyProvenOptimal = false;
  result.bounds.lowerBound.reset();
  if (result.status == ModelStatus::kOptimal) result.status = ModelStatus::kFeasible;
  return result;
}

}  // namespace gaus::exact::detail
