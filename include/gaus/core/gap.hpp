// A result's value, bound and gap as a user reads them: "peak memory 39, bound 36 (gap 7.7 %)",
// or "proven optimal" where the value meets the bound. The CLI, the --json result and the
// report's per-problem table all say it through these two functions.
#pragma once

#include <optional>

#include <gaus/core/result.hpp>

namespace gaus {

// Value and bound equal up to the rounding of floating-point solvers: proven optimal.
bool meetsBound(double value, double bound);

// The relative gap between a value and a lower bound on it, as MILP solvers report it:
// (value - bound) / |value|, 0 where the bound meets the value; none without either, or when
// the value is 0 and the bound below it (no finite ratio).
std::optional<double> relativeGap(std::optional<double> value, std::optional<double> bound);

// The objective's gap to the result's own bound.
inline std::optional<double> resultGap(const Result& result) {
  return relativeGap(result.objective, result.bounds.lowerBound);
}

}  // namespace gaus
