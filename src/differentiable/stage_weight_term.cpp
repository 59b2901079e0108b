#include "stage_weight_term.hpp"

namespace gaus::differentiable {

namespace {

ScatterRows weightRows(const Graph& graph, const RowOrder& order) {
  ScatterRows rows;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (graph.weight(op) != 0.0) rows.add(order.row(op), 0, 0, graph.weight(op));
  }
  return rows;
}

}  // namespace

StageWeightTerm::StageWeightTerm(const Graph& graph, const WindowGeometry& geometry,
                                 const TensorSettings& settings, const RowOrder& rows)
    : scatter_(weightRows(graph, rows), graph.numOps(), 1, geometry.horizon, settings) {}

torch::Tensor StageWeightTerm::stageWeights(const WindowedDistribution& distribution) const {
  return scatter_
      .scatter(distribution.pmf, distribution.offset, distribution.active, distribution.buffers)
      .select(1, 0);
}

}  // namespace gaus::differentiable
