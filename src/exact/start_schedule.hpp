// Internal to the exact engine: a quick legal schedule to start the MILPs from and to bound
// their time windows, and the ASAP/ALAP windows themselves.
#pragma once

#include <optional>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus::exact::detail {

// Operation-driven list scheduling: ready ops in order of height (longest delay path to the end,
// larger first; smaller id on ties), each placed at the earliest cycle at or after its ready
// time where its whole reservation table fits.
// - Without `ii`: one iteration, edges of distance > 0 ignored. Always succeeds.
// - With `ii`: the reservation table is folded modulo ii and an op that fits at no residue of
//   [ready, ready + ii) fails the attempt; loop-carried edges are checked at the end, and a
//   violated one fails it too. A failure means only that this greedy order found nothing.
std::optional<Schedule> greedySchedule(const Graph& graph, const Machine& machine,
                                       std::optional<std::int32_t> ii);

// Latest starts such that every op completes by `horizon` and every edge (weight
// delay - distance * ii; distance-0 edges only when ii is unset) is met. Empty when some latest
// start is below `earliest` (no schedule within the horizon).
std::optional<std::vector<Cycle>> latestStarts(const Graph& graph, std::optional<std::int32_t> ii,
                                               Cycle horizon, const std::vector<Cycle>& earliest);

// Latency (max of start + duration) of a schedule.
Cycle scheduleLatency(const Graph& graph, const std::vector<Cycle>& start);

}  // namespace gaus::exact::detail
