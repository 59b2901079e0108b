// The GS-Schedule problem on its random workloads (benchmarks/gs-schedule-icml24-rw/README.md):
// give each node a stage s in {0, ..., D-1} with s_u <= s_v on every edge ("same stage
// allowed"); objective = ratio x (largest summed node `parameter` of a stage) + the stage
// boundaries crossed by communication edges (sum of s_v - s_u over edges with parameter > 0,
// which the GML reader turns into comm = 1). With ratio 100 and D = 10 this is the README's
// problem (built by io::gsScheduleProblem). Here: the objective, the README's "greedy
// balanced" baseline and its lower bound LB_D.
#pragma once

#include <cstdint>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus::bench {

struct GsObjective {
  double peakStageWeight = 0;
  double crossings = 0;  // sum over comm edges of comm * (s_v - s_u)
  double value(double ratio) const { return ratio * peakStageWeight + crossings; }
};

// The objective of a schedule of gsScheduleProblem (stage = start time).
GsObjective evaluateGsSchedule(const Graph& graph, const Schedule& schedule, Cycle stages);

// max(ceil(sum of weights / D), largest weight): no D-stage schedule has a smaller peak.
double gsLowerBound(const Graph& graph, Cycle stages);

// The README's "greedy balanced" baseline: a topological order (Kahn's, smallest id first: the
// README does not say which order), cut into at most D contiguous chunks, opening the next
// stage when the load would exceed a capacity; the capacity is the smallest that fits in D
// chunks (binary search over integers, the weights being integers).
Schedule greedyBalancedStages(const Graph& graph, Cycle stages);

}  // namespace gaus::bench
