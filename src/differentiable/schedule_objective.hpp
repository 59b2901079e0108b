// Objectives of a legal integer schedule, as each formulation scores candidates (smaller is
// better). Formulation A follows GS-Schedule: the stage of an op is its start step; the weight of
// a stage is the summed `weight` of its ops; communication counts, per edge of distance 0, the
// stage boundaries its value crosses times the edge's `comm`.
#pragma once

#include <gaus/core/graph.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus::differentiable {

struct StageFigures {
  double peakStageWeight = 0.0;
  double communication = 0.0;
};
StageFigures stageFigures(const Graph& graph, const Schedule& schedule);

// peak stage weight + alpha * communication
double stageObjective(const Graph& graph, const Schedule& schedule, double alpha);

}  // namespace gaus::differentiable
