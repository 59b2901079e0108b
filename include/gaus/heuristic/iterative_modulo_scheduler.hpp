// Iterative modulo scheduling (Rau, MICRO 1994).
#pragma once

#include <optional>
#include <string_view>

#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/methods/run_context.hpp>

namespace gaus::heuristic {

// Where one attempt looks for an op's slot.
enum class ImsPlacement {
  // The paper: the first free slot in [Estart, Estart + II - 1], Estart from the scheduled
  // predecessors; successors it then violates are evicted.
  kRau,
  // Also no later than its scheduled successors allow (Lstart); when no slot fits in
  // [Estart, min(Estart + II - 1, Lstart)] the op is forced in at Estart, evicting the ops it
  // conflicts with in the table rather than its successors. Better on tight recurrences (the
  // paper's rule lets a zero-slack recurrence circle the table forever when free slots repeat
  // every II), worse on some resource-bound loops.
  kSuccessorBounded,
  // kRau, then kSuccessorBounded at the same II when kRau fails: at least as good as either.
  kBoth,
};
inline constexpr auto kImsPlacementNames = makeEnumNames<ImsPlacement>({
    {ImsPlacement::kRau, "rau"},
    {ImsPlacement::kSuccessorBounded, "bounded"},
    {ImsPlacement::kBoth, "both"},
});
inline std::string_view toString(ImsPlacement placement) {
  return kImsPlacementNames.name(placement);
}

struct ImsOptions {
  std::optional<std::int32_t> ii;     // fixed II; unset: search from max(ResMII, RecMII)
  double budgetFactor = 6.0;          // scheduling steps per II attempt = factor * |V|
  std::optional<std::int32_t> maxIi;  // unset: a non-overlapped schedule's length
  ImsPlacement placement = ImsPlacement::kBoth;
  std::optional<double> timeLimitSeconds;  // wall clock for the whole search; unset: none
};

// Tries II = MII, MII + 1, ... up to the bound; returns the first II at which the budgeted
// search places every op. Status kFeasible with Bounds::iiProvenOptimal set when II = MII (the
// lower bound is met); Bounds::mii says what bounds II from below.
//
// The default bound is the II of the non-overlapped schedule: one iteration list-scheduled
// (latency L), the next one started once it has finished and its loop-carried edges allow,
// i.e. II_no = max(L, max over loop-carried edges u -> v of ceil((t(u) + delay - t(v)) /
// distance)) (core's nonOverlappedIi). That schedule is legal at every II >= II_no (one iteration's
// reservations lie in [0, L), so they never meet modulo II), so when the budget runs out at every
// II up to II_no the result is that schedule at II_no: the call always ends, and with a schedule.
// With a fixed II or a smaller max II the search may end without one (kTimeout, saying what to
// raise). A resource of capacity 0 that an op needs, or a distance-0 cycle, is kInfeasible at once.
//
// The time limit and `context`'s cancel flag are checked between steps; when either stops the
// search, the result is kTimeout with the non-overlapped schedule when it applies.
Result iterativeModuloSchedule(const Problem& problem, const ImsOptions& options = {},
                               const RunContext& context = {});

}  // namespace gaus::heuristic
