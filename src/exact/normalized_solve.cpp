#include "normalized_solve.hpp"

#include <fmt/format.h>

#include <gaus/exact/exact_figures.hpp>

namespace gaus::exact::detail {

namespace {

// An attempt of the normalized solve in raw terms: its II, L and bound hold in normalized units
// only, so they move into its detail, marked as such, and its fields (which the attempt log and
// the results files read as cycles) are cleared.
void markNormalizedAttempt(Attempt& attempt, std::int64_t timeUnit) {
  std::string numbers;
  if (attempt.ii) numbers += fmt::format(" II'={}", *attempt.ii);
  if (attempt.latency) numbers += fmt::format(" L'={}", *attempt.latency);
  if (attempt.horizon) numbers += fmt::format(" D'={}", *attempt.horizon);
  if (attempt.bound) numbers += fmt::format(" bound'={}", *attempt.bound);
  std::string text = fmt::format("normalized units, 1 unit = {} cycles:{}", timeUnit, numbers);
  if (!attempt.detail.empty()) text += "; " + attempt.detail;
  attempt.detail = std::move(text);
  attempt.ii.reset();
  attempt.latency.reset();
  attempt.horizon.reset();
  attempt.bound.reset();
}

}  // namespace

Result solveWithNormalization(
    const Problem& problem, const NormalizationOptions& options,
    const std::function<Result(const Problem&, std::int64_t timeUnit)>& solve) {
  auto normalize = shouldNormalize(problem, options);
  if (!normalize) return errorResult(normalize.error());
  if (!*normalize) return solve(problem, 1);

  auto normalized = normalizeProblem(problem, options);
  if (!normalized) return errorResult(normalized.error());
  std::string text = normalized->normalization.describe();
  if (!normalized->normalization.shrinksSomeCost()) {
    // The costs already fit the sum bound: the mapping is the identity, and the raw problem is
    // solved (its answer, bound and proofs hold in cycles).
    Result result = solve(problem, 1);
    result.notes.emplace_back(
        "normalized costs",
        fmt::format("{}: the raw costs are kept (they fit the sum bound U={}; normalization "
                    "never scales a cost up)",
                    text, options.sumBound));
    return result;
  }
  const std::int64_t timeUnit = normalized->timeUnit;
  Result result = solve(normalized->problem, timeUnit);
  for (const auto& warning : normalized->normalization.warnings) text += "\n" + warning;
  result.notes.emplace_back("normalized costs", text);
  result.figures.set(figures::kTimeUnit, static_cast<double>(timeUnit));
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
  for (Attempt& attempt : result.attempts) markNormalizedAttempt(attempt, timeUnit);
  if (result.status == ModelStatus::kOptimal) result.status = ModelStatus::kFeasible;
  if (result.status == ModelStatus::kInfeasible) {
    // Normalized costs times the unit are at least the raw ones, so the normalized problem is
    // the tighter one: no schedule there proves nothing about raw cycles.
    result.status = ModelStatus::kUnknown;
    result.message = fmt::format(
        "no schedule in normalized units (1 unit = {} cycles), which "
        "proves nothing in raw cycles: {}",
        timeUnit, result.message);
  } else if (!result.message.empty()) {
    // The solve's message quotes its numbers in its own units.
    result.message =
        fmt::format("normalized units, 1 unit = {} cycles: {}", timeUnit, result.message);
  }
  return result;
}

}  // namespace gaus::exact::detail
