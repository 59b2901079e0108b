// The min-cut lower bound on the peak live memory of every schedule within a horizon D
// (formulation B), which src/core/live_memory_bound.cpp derives; docs/exact.md "Bounds".
#pragma once

#include <functional>
#include <optional>

#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/types.hpp>

namespace gaus {

struct LiveMemoryCutBound {
  // No schedule within the horizon has a smaller peak live memory: the largest min cut over the
  // cycles examined, never below `mandatory`. Rounded up to an integer when every mem is one.
  double value = 0.0;
  // The mandatory-lifetimes bound (peakLiveMemoryLowerBound), where the cuts start from.
  double mandatory = 0.0;
  std::optional<Cycle> peakCycle;  // a cycle whose cut attains `value`, when a cut raised it
  Cycle cyclesCut = 0;             // cycles whose min cut was computed
  Cycle cyclesSkipped = 0;  // cycles settled without a cut: their cheap upper bound is <= value
  bool complete = true;     // false when `stop` ended the search before every cycle was settled
};

// The bound above. `stop` is asked between cuts and between the phases of one max-flow; when it
// answers true the best bound so far is returned (a max over fewer cycles, or a flow short of
// the min cut, is still a lower bound) with `complete` false. Fails as alapTimes does (horizon
// shorter than the critical path) or on a cycle of distance-0 edges.
Expected<LiveMemoryCutBound> liveMemoryCutBound(const Graph& graph, Cycle horizon,
                                                const std::function<bool()>& stop = {});

}  // namespace gaus
