// The stage objective of latency-bounded problems (DESIGN.md "stage assignment", GS-Schedule:
// benchmarks/gs-schedule-icml24-rw/README.md): an op's stage is its start step; the weight of a
// stage is the summed `weight` of its ops; communication counts, per edge of distance 0, the
// stage boundaries its value crosses times the edge's `comm`. GS-Schedule minimizes
// ratio x peak stage weight + communication (ratio 100); GauS's formulation A minimizes the same
// divided by the ratio, peak + alpha x communication with alpha = 1 / ratio.
#pragma once

#include <gaus/core/graph.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus {

struct StageFigures {
  double peakStageWeight = 0.0;  // 0 when no op has a positive weight
  double communication = 0.0;    // sum over distance-0 edges of comm x (s_v - s_u), s_v >= s_u
};
StageFigures stageFigures(const Graph& graph, const Schedule& schedule);

// peak stage weight + alpha x communication
double stageObjective(const Graph& graph, const Schedule& schedule, double alpha);

// GS-Schedule's scale of the same objective: ratio x peak stage weight + communication, an
// integer when the weights and comm flags are (ratio x stageObjective(1 / ratio) would round).
double gsScheduleObjective(const StageFigures& figures, double ratio);

// No schedule of `stages` stages has a smaller peak stage weight: max(total weight / stages,
// largest weight), the first rounded up to an integer when every weight is one (every stage
// weight is then a sum of integers, so a peak of at least total / stages is at least its
// ceiling; with fractional weights the ceiling could exceed a reachable peak). The objective of
// any schedule is at least this bound.
double peakStageWeightLowerBound(const Graph& graph, Cycle stages);

}  // namespace gaus
