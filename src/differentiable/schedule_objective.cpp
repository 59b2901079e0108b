#include "schedule_objective.hpp"

#include <algorithm>
#include <map>

namespace gaus::differentiable {

StageFigures stageFigures(const Graph& graph, const Schedule& schedule) {
  StageFigures figures;
  std::map<Cycle, double> weightOfStage;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (graph.weight(op) != 0.0) weightOfStage[schedule.start[op]] += graph.weight(op);
  }
  for (const auto& [stage, weight] : weightOfStage) {
    figures.peakStageWeight = std::max(figures.peakStageWeight, weight);
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeDistance(e) != 0 || graph.edgeComm(e) == 0.0) continue;
    const Cycle crossed = std::max<Cycle>(
        0, schedule.start[graph.edgeTarget(e)] - schedule.start[graph.edgeSource(e)]);
    figures.communication += graph.edgeComm(e) * static_cast<double>(crossed);
  }
  return figures;
}

double stageObjective(const Graph& graph, const Schedule& schedule, double alpha) {
  const StageFigures figures = stageFigures(graph, schedule);
  return figures.peakStageWeight + alpha * figures.communication;
}

}  // namespace gaus::differentiable
