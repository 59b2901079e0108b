// What one of Twill's SMT models costs in wall time beyond its checks, measured, beside the
// estimate the search holds against the time left (docs/exact.md, "Time limits and model size"):
// building it, Z3's load of it at its first check, and tearing it down. `gaus-bench
// twill-model-cost` tabulates it; the estimate's rates (src/exact/twill/smt_size.cpp) come from
// that table.
#pragma once

#include <cstdint>

#include <gaus/core/expected.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>

namespace gaus::exact {

struct TwillModelCostSample {
  // The model's size as the estimate counts it.
  std::int64_t literals = 0;
  std::int64_t registerRowTermsSquared = 0;
  // The estimate, in seconds.
  double estimatedBuild = 0.0;
  double estimatedLoad = 0.0;
  double estimatedTeardown = 0.0;
  // The measured seconds. The load is a check with a timeout of 1 ms, which returns only once
  // Z3 has loaded the model: Z3 does not look at its timeout while it preprocesses and
  // internalizes the assertions.
  double buildSeconds = 0.0;
  double loadSeconds = 0.0;
  double teardownSeconds = 0.0;
  ModelStatus firstCheck = ModelStatus::kUnknown;  // what that 1 ms check answered

  double estimatedTotal() const { return estimatedBuild + estimatedLoad + estimatedTeardown; }
  double measuredTotal() const { return buildSeconds + loadSeconds + teardownSeconds; }
};

// Builds the model at (ii, latency) with no deadline, checks it once with a timeout of 1 ms and
// tears it down, timing each step; an error when the model cannot be built.
Expected<TwillModelCostSample> measureTwillModelCost(const Problem& problem, std::int32_t ii,
                                                     Cycle latency);

}  // namespace gaus::exact
