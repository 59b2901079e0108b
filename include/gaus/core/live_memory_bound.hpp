// The min-cut lower bound on the peak live memory of every schedule within a horizon D
// (formulation B), which src/core/live_memory_bound.cpp derives; docs/exact.md "Bounds".
#pragma once

#include <atomic>
#include <functional>
#include <optional>

#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
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

// Whether some op's value has a size (mem != 0): on such a graph a latency-bounded problem's
// default objective is the peak live memory (formulation B).
bool hasLiveMemory(const Graph& graph);

// The seconds a method gives the bound: a tenth of its own limit, at least a quarter second;
// kPeakMemoryBoundSeconds without a limit (a method that has none, like list, is fast, and the
// cut search on a 100k-op graph settles most cycles well within it).
inline constexpr double kPeakMemoryBoundSeconds = 3.0;
double peakMemoryBoundSeconds(std::optional<double> methodTimeLimit);

// How every method reports formulation B's bound, in one place: the min-cut bound of
// problem.horizon within `seconds`, raised into result.bounds.lowerBound (the larger of it and
// a bound the method proved itself: a MILP's dual bound), a note saying what it cost ("bound"),
// and the status optimal when result.objective meets it. Returns the bound (nullopt when the
// problem has no horizon, or it is shorter than the critical path).
std::optional<double> reportPeakMemoryBound(const Problem& problem, Result& result,
                                            std::optional<double> seconds,
                                            const std::atomic<bool>* cancel = nullptr);

}  // namespace gaus
