// The outer search of formulations L and C (GAUS.md "Formulations"): the smallest horizon D
// (or II) at which an attempt succeeds, below a value known to succeed. Linear: try best - 1,
// and on success the value reached minus 1, until a failure. Bisection: try the middle of
// [lowest, best - 1]; a success lowers best to the value reached, a failure raises lowest past
// the value tried. Bisection suits wide gaps (a 10^5-op graph whose list schedule is thousands
// of cycles above the critical path), where one cycle per attempt would never get far.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <gaus/core/result.hpp>

namespace gaus::differentiable {

enum class SearchStrategy { kLinear, kBisect };

// One round of a descending search: what the attempt at one value gave.
template <typename State>
struct SearchRound {
  State next;                           // what the next round starts from
  Attempt attempt;                      // the round's record
  std::optional<std::int64_t> reached;  // on success: the value reached (<= the value tried)
};

// What a descending search ends with: the state its last round left, and the rounds' records.
template <typename State>
struct SearchEnd {
  State last;
  std::vector<Attempt> attempts;
};

// The rounds from `best` downwards, each `round(state, value)` given the state the previous
// round left (`start` for the first); stops early when `stop()` returns true. The state is all
// that passes from one round to the next.
template <typename State, typename Round, typename Stop>
SearchEnd<State> descendingSearch(std::int64_t lowest, std::int64_t best, SearchStrategy strategy,
                                  State start, const Round& round, const Stop& stop) {
  SearchEnd<State> end{std::move(start), {}};
  while (lowest < best && !stop()) {
    const std::int64_t value =
        strategy == SearchStrategy::kLinear ? best - 1 : lowest + (best - 1 - lowest) / 2;
    SearchRound<State> step = round(std::as_const(end.last), value);
    end.last = std::move(step.next);
    end.attempts.push_back(std::move(step.attempt));
    if (step.reached) {
      best = *step.reached;
    } else if (strategy == SearchStrategy::kLinear) {
      break;
    } else {
      lowest = value + 1;
    }
  }
  return end;
}

}  // namespace gaus::differentiable
