// Internal to the heuristic module: one attempt of iterative modulo scheduling at a fixed II, the
// paper's IterativeSchedule (iterative_modulo_scheduler.cpp says how the search over II uses it).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/heuristic/iterative_modulo_scheduler.hpp>

namespace gaus::heuristic::detail {

struct AttemptOutcome {
  bool scheduled = false;
  bool stopped = false;     // the deadline or the cancel flag ended it
  bool iiRuledOut = false;  // no placement rule can succeed at this II (an op overfills it alone)
  std::vector<Cycle> start;
  std::int64_t steps = 0;
  std::int64_t evictions = 0;
  std::string failure;  // why it did not schedule every op
};

// Places every op at `ii` with the placement rule `placement` (kRau or kSuccessorBounded) within
// `budget` placements; `shouldStop` is asked every 1024 placements. `topoOrder` is core's
// topological order of the graph.
AttemptOutcome scheduleAtIi(const Graph& graph, const Machine& machine,
                            const std::vector<OpId>& topoOrder, std::int32_t ii,
                            ImsPlacement placement, std::int64_t budget,
                            const std::function<bool()>& shouldStop);

}  // namespace gaus::heuristic::detail
