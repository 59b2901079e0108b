// GS-Schedule's "greedy balanced" baseline (benchmarks/gs-schedule-icml24-rw/README.md): stages
// for a latency-bounded problem with D stages and delay-0 edges (io::gsScheduleProblem).
#pragma once

#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus::heuristic {

// A topological order (Kahn's, smallest id first among the ready ops: the README does not say
// which order), cut into at most `stages` contiguous chunks, opening the next stage when the load
// would exceed a capacity; the capacity is the smallest that fits in `stages` chunks (binary
// search over integers from core's peakStageWeightLowerBound, weights rounded to integers as
// GS-Schedule's are). An op's start is its stage. Fails on a cycle of distance-0 edges.
Expected<Schedule> greedyBalancedStages(const Graph& graph, Cycle stages);

}  // namespace gaus::heuristic
