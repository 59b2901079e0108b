#include "horizon_term.hpp"

namespace gaus::differentiable {

HorizonTerm::HorizonTerm(const Graph& graph, const WindowGeometry& geometry,
                         const TensorSettings& settings, const RowOrder& rows) {
  std::vector<std::int64_t> latestStart, rowOf;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    const std::int64_t latest = geometry.horizon - graph.duration(op);
    if (latest >= geometry.horizon - 1) continue;
    ops_.push_back(op);
    rowOf.push_back(rows.row(op));
    latestStart.push_back(latest);
  }
  opTensor_ = toIndexTensor(ops_, settings);
  rowTensor_ = toIndexTensor(rowOf, settings);
  latestStartTensor_ = toIndexTensor(latestStart, settings);
}

torch::Tensor HorizonTerm::evaluate(const torch::Tensor& mu, const torch::Tensor& sigma,
                                    const WindowedDistribution& distribution) const {
  const torch::Tensor selectedMu = mu.index_select(1, opTensor_);
  const torch::Tensor selectedSigma = sigma.index_select(1, opTensor_);
  const torch::Tensor selectedOffset = distribution.offset.index_select(1, rowTensor_);
  return 1 - windowedCdfAt(selectedMu, selectedSigma, selectedOffset, distribution.width,
                           latestStartTensor_.unsqueeze(0));
}

}  // namespace gaus::differentiable
