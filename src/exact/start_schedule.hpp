// Internal to the exact engine: a quick legal schedule to start the MILPs from and to bound
// their time windows, and the ASAP/ALAP windows themselves.
#pragma once

#include <optional>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/exact/modulo_milp.hpp>

namespace gaus::exact::detail {

// The heuristic module's list schedulers (over the problem's facts) with the priority height (longest delay path to the
// end over the distance-0 edges, larger first; smaller id on ties):
// - Without `ii`: one iteration (listSchedule), edges of distance > 0 ignored.
// - With `ii`: moduloListSchedule on a reservation table folded modulo ii. Nullopt when it finds
//   no schedule, which means only that this greedy order found nothing.
std::optional<Schedule> greedySchedule(const Problem& problem, std::optional<std::int32_t> ii);

// The start schedule at `ii` with the smallest latency among the heuristics asked for: the
// greedy placement above and iterative modulo scheduling (heuristic module). A heuristic
// schedule is checked with the verifier before it is used as an incumbent.
std::optional<std::vector<Cycle>> moduloStartSchedule(const Problem& problem, std::int32_t ii,
                                                      StartHeuristic heuristic);

// Latest starts such that every op completes by `horizon` and every edge (weight
// delay - distance * ii; distance-0 edges only when ii is unset) is met: horizon - height (core's
// heightsToEnd over `order`, the graph's topological order, which the problem's facts give).
// Empty when some latest start is below `earliest` (no schedule within the horizon) or ii is
// below RecMII.
std::optional<std::vector<Cycle>> latestStarts(const Graph& graph, const std::vector<OpId>& order,
                                               std::optional<std::int32_t> ii, Cycle horizon,
                                               const std::vector<Cycle>& earliest);

// An initial schedule (`gaus schedule --init`, raw cycles) in the solved problem's time unit,
// when it verifies there; otherwise the reason to ignore it. Normalization divides every cost by
// the unit, so only a schedule whose starts (and II) are multiples of it maps onto the normalized
// problem.
Expected<Schedule> initialInUnits(const Problem& solved, const Schedule& initial,
                                  std::int64_t timeUnit);

}  // namespace gaus::exact::detail
