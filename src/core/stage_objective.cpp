#include <algorithm>
#include <cmath>
#include <map>

#include <gaus/core/stage_objective.hpp>

namespace gaus {

StageFigures stageFigures(const Graph& graph, const Schedule& schedule) {
  StageFigures figures;
  // Keyed by stage: a schedule may use any start, not only 0..D-1 (a candidate past its horizon).
  std::map<Cycle, double> weightOfStage;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (graph.weight(op) != 0.0) weightOfStage[schedule.start[op]] += graph.weight(op);
  }
  for (const auto& [stage, weight] : weightOfStage) {
    figures.peakStageWeight = std::max(figures.peakStageWeight, weight);
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeDistance(e) != 0 || graph.edgeComm(e) == 0.0) continue;
    // A legal schedule has s_v >= s_u on every distance-0 edge; an illegal one crosses nothing.
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

double gsScheduleObjective(const StageFigures& figures, double ratio) {
  return ratio * figures.peakStageWeight + figures.communication;
}

double peakStageWeightLowerBound(const Graph& graph, Cycle stages) {
  double total = 0.0;
  double largest = 0.0;
  bool integral = true;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    const double weight = graph.weight(op);
    total += weight;
    largest = std::max(largest, weight);
    integral = integral && weight == std::floor(weight);
  }
  const double share = total / static_cast<double>(std::max<Cycle>(stages, 1));
  return std::max(integral ? std::ceil(share) : share, largest);
}

Expected<Graph> stageGraph(const Graph& graph) {
  GraphBuilder builder(graph.name());
  builder.reserve(static_cast<std::size_t>(graph.numOps()),
                  static_cast<std::size_t>(graph.numEdges()));
  for (OpId op = 0; op < graph.numOps(); ++op) {
    const OpId copy = builder.addOp(graph.opName(op), 1);
    builder.setWeight(copy, graph.weight(op));
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const EdgeId copy =
        builder.addEdge(graph.edgeSource(e), graph.edgeTarget(e), 0, graph.edgeDistance(e));
    builder.setEdgeComm(copy, graph.edgeComm(e));
  }
  return std::move(builder).build();
}

void reportStageObjective(const Problem& problem, const Schedule& schedule, Result& result) {
  const StageFigures stage = stageFigures(*problem.graph, schedule);
  const double objective = gsScheduleObjective(stage, problem.stageRatio);
  const double bound =
      problem.stageRatio * peakStageWeightLowerBound(*problem.graph, problem.horizon.value_or(1));
  result.objectiveName = std::string(toString(ProblemObjective::kStageCost));
  result.objective = objective;
  result.bounds.lowerBound = bound;
  result.figures.set(figures::kPeakStageWeight, stage.peakStageWeight);
  result.figures.set(figures::kCommunication, stage.communication);
  result.status = objective <= bound ? ModelStatus::kOptimal : ModelStatus::kFeasible;
}

}  // namespace gaus
