// Expected stage weight (formulation A, after GS-Schedule's "stage memory"): the weight of
// stage t is the summed `weight` of the ops starting at t, E[S(t)] = sum_i weight_i * P_i(t).
#pragma once

#include <torch/torch.h>

#include <gaus/core/graph.hpp>

#include "row_order.hpp"
#include "tensor_support.hpp"
#include "window_distribution.hpp"
#include "window_scatter.hpp"

namespace gaus::differentiable {

class StageWeightTerm {
 public:
  StageWeightTerm(const Graph& graph, const WindowGeometry& geometry,
                  const TensorSettings& settings, const RowOrder& rows = RowOrder());

  bool empty() const { return scatter_.empty(); }
  // [B, D]: expected weight per stage.
  torch::Tensor stageWeights(const WindowedDistribution& distribution) const;

 private:
  WindowScatter scatter_;
};

}  // namespace gaus::differentiable
