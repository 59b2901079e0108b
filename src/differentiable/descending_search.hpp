// The outer search of formulations L and C (GAUS.md "Formulations"): the smallest horizon D
// (or II) at which an attempt succeeds, below a value known to succeed. Linear: try best - 1,
// and on success the value reached minus 1, until a failure. Bisection: try the middle of
// [lowest, best - 1]; a success lowers best to the value reached, a failure raises lowest past
// the value tried. Bisection suits wide gaps (a 10^5-op graph whose list schedule is thousands
// of cycles above the critical path), where one cycle per attempt would never get far.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

namespace gaus::differentiable {

enum class SearchStrategy { kLinear, kBisect };

// `attempt(value)` returns the value reached (<= value) on success. Stops early when `stop`
// returns true. Returns the best value reached (`best` when nothing better was found).
inline std::int64_t descendingSearch(
    std::int64_t lowest, std::int64_t best, SearchStrategy strategy,
    const std::function<std::optional<std::int64_t>(std::int64_t)>& attempt,
    const std::function<bool()>& stop) {
  while (lowest < best && !stop()) {
    const std::int64_t value =
        strategy == SearchStrategy::kLinear ? best - 1 : lowest + (best - 1 - lowest) / 2;
    if (const std::optional<std::int64_t> reached = attempt(value)) {
      best = *reached;
    } else if (strategy == SearchStrategy::kLinear) {
      break;
    } else {
      lowest = value + 1;
    }
  }
  return best;
}

}  // namespace gaus::differentiable
