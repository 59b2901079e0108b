#include "normalized_solve.hpp"

#include <gaus/exact/exact_figures.hpp>

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
  result.figures.set(figures::kTimeUnit, static_cast<double>(normalized->timeUnit));
  if (result.schedule) result.schedule = toRawSchedule(*normalized, *result.schedule);
  // Bounds and optimality hold in normalized units only: keep them as figures and clear
  // them from the raw answer, whatever the status.
  if (result.bounds.lowerBound) {
    result.figures.set(figures::kNormalizedLowerBound, *result.bounds.lowerBound);
  }
  result.figures.set(figures::kNormalizedIiProven, result.bounds.iiProvenOptimal ? 1.0 : 0.0);
  result.figures.set(figures::kNormalizedLatencyProven,
                     result.bounds.latencyProvenOptimal ? 1.0 : 0.0);
  result.bounds.iiProvenOptimal = false;
  result.bounds.latencyProvenOptimal = false;
  result.bounds.lowerBound.reset();
  if (result.status == ModelStatus::kOptimal) result.status = ModelStatus::kFeasible;
  return result;
}

}  // namespace gaus::exact::detail
