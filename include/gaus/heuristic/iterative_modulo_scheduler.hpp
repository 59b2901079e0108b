// Iterative modulo scheduling (Rau, MICRO 1994).
#pragma once

#include <optional>

#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>

namespace gaus::heuristic {

struct ImsOptions {
  std::optional<std::int32_t> ii;          // fixed II; unset: search from max(ResMII, RecMII)
  double budgetFactor = 6.0;               // scheduling steps per II attempt = factor * |V|
  std::optional<std::int32_t> maxIi;       // unset: a non-overlapped schedule's length
};

// Tries II = MII, MII + 1, ... up to the bound; returns the first II at which the budgeted
// search places every op. Status kFeasible with Bounds::iiProvenOptimal set when II = MII (the
// lower bound is met); Bounds::iiBoundReason says what bounds II from below.
Result iterativeModuloSchedule(const Problem& problem, const ImsOptions& options = {});

}  // namespace gaus::heuristic
