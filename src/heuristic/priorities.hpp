// Internal to the heuristic module: the priority functions both schedulers rank ops by.
#pragma once

#include <optional>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>

namespace gaus::heuristic::detail {

// Longest path from each op to the end of the schedule, the op's own duration included:
// height(op) = max(duration(op), max over out-edges e of delay(e) - distance(e) * ii +
// height(target)).
// - Without `ii`: distance-0 edges only, one pass in reverse topological order. The ALAP start at
//   horizon D is then exactly D - height (core's alapTimes follows the same recurrence).
// - With `ii`: every edge (Rau's HeightR for iterative modulo scheduling), by passes in reverse
//   topological order until nothing changes; a pass that still changes after |V| passes means a
//   positive cycle, i.e. `ii` is below RecMII, which is reported as an error.
Expected<std::vector<Cycle>> heightsToEnd(const Graph& graph, const std::vector<OpId>& topoOrder,
                                          std::optional<std::int64_t> ii);

// The ops sorted by (primary, secondary, id), each key smaller-first: position k holds the op
// that goes k-th. Keys are doubles so that cycle counts and a caller's real-valued keys (GauS's
// rounded means) share one sort.
std::vector<OpId> orderByKeys(const std::vector<double>& primary,
                              const std::vector<double>& secondary);

}  // namespace gaus::heuristic::detail
