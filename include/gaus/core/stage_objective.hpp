// The stage objective of latency-bounded problems (DESIGN.md "stage assignment", GS-Schedule:
// benchmarks/gs-schedule-icml24-rw/README.md): an op's stage is its start step; the weight of a
// stage is the summed `weight` of its ops; communication counts, per edge of distance 0, the
// stage boundaries its value crosses times the edge's `comm`. GS-Schedule minimizes
// ratio x peak stage weight + communication (ratio 100); GauS's formulation A minimizes the same
// divided by the ratio, peak + alpha x communication with alpha = 1 / ratio.
#pragma once

#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
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

// The graph of a stage problem (ProblemKind::kStages) built from a graph as read: every op of
// latency 1 (its start is its stage, and start + 1 <= D), every edge of delay 0 ("same stage
// allowed"), names, weights, comm flags and distances kept, reservations dropped. GS-Schedule's
// GML files are read with the format's general meaning (delay-1 edges), so the stage problem is
// built from them here. Fails when the graph cannot be rebuilt.
Expected<Graph> stageGraph(const Graph& graph);

// The figures of a stage schedule, reported by every method that solves the stage problem.
namespace figures {
inline constexpr Figure kPeakStageWeight{"peak_stage_weight", FigureUnit::kValue,
                                         "the largest sum of op weights in one stage"};
inline constexpr Figure kCommunication{
    "communication", FigureUnit::kValue,
    "sum over distance-0 edges of comm x the stages between their ends"};
}  // namespace figures

// A stage schedule's figures in `result`, on GS-Schedule's scale: objective = stageRatio x peak
// stage weight + communication (the objective stage_cost, with figures::kPeakStageWeight and
// kCommunication), lower bound = stageRatio x peakStageWeightLowerBound (100 x LB10 on
// the GS-Schedule graphs), status optimal at the bound, else feasible.
void reportStageObjective(const Problem& problem, const Schedule& schedule, Result& result);

}  // namespace gaus
