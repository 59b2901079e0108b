// Internal to the heuristic module: the time-constrained force-directed search over a
// ForceModel (force_directed.cpp says what it implements, its source and where it departs from
// it): which op to fix next, at which step, until every frame is a single step.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>

#include "force_model.hpp"

namespace gaus::heuristic::detail {

struct ForceSearchOptions {
  bool memory = true;  // the memory distribution graph, else the resource graphs
  // The op to fix comes from a heap of each op's least force, an entry recomputed when it
  // reaches the top with stale inputs; false recomputes every stale force after each fix.
  bool lazy = true;
  // Lazy: after this many recomputations without a fix, the least of their forces is fixed
  // (none: no such bound).
  std::optional<std::int64_t> maxRecomputations;
  ForceSums sums = ForceSums::kPrefix;
};

struct ForceRun {
  std::vector<Cycle> start;
  std::int64_t evaluations = 0;
  std::int64_t unforced = 0;      // ops placed without forces after the time limit
  std::int64_t boundedPicks = 0;  // fixes made when maxRecomputations ran out
};

// The time-constrained FDS: frames [asap, alap] in (consistent over the edges), starts out.
// `stop` is asked every few picks; `report(fixed, total)` then too.
ForceRun timeConstrainedForces(const Graph& graph, const Machine& machine,
                               const ForceSearchOptions& options, std::vector<Cycle> asap,
                               std::vector<Cycle> alap, const std::function<bool()>& stop,
                               const std::function<void(OpId, OpId)>& report);

}  // namespace gaus::heuristic::detail
