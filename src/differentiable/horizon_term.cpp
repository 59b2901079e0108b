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
  // gather, not index_select: LibTorch 1.13's backward of index_select along dimension 1 cost
  // about 2.5 % of a step at 100,000 ops, gather's (a scatter-add of one value per op) far less.
  const torch::Tensor ops = opTensor_.unsqueeze(0).expand({mu.size(0), -1});
  const torch::Tensor selectedMu = mu.gather(1, ops);
  const torch::Tensor selectedSigma = sigma.gather(1, ops);
  const torch::Tensor selectedOffset = distribution.offset.index_select(1, rowTensor_);
  return 1 - windowedCdfAt(selectedMu, selectedSigma, selectedOffset, distribution.width,
                           latestStartTensor_.unsqueeze(0));
}

}  // namespace gaus::differentiable
