#include "stage_weight_term.hpp"

namespace gaus::differentiable {

namespace {

ScatterRows weightRows(const Graph& graph) {
  ScatterRows rows;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (graph.weight(op) != 0.0) rows.add(op, 0, 0, graph.weight(op));
  }
  return rows;
}

}  // namespace

StageWeightTerm::StageWeightTerm(const Graph& graph, const WindowGeometry& geometry,
                                 const TensorSettings& settings)
    : scatter_(weightRows(graph), graph.numOps(), 1, geometry.horizon, settings) {}

torch::Tensor StageWeightTerm::stageWeights(const WindowedDistribution& distribution) const {
  return scatter_.scatter(distribution.pmf, distribution.offset).select(1, 0);
}

}  // namespace gaus::differentiable
