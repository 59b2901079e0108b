#include "communication_term.hpp"

#include <cmath>

namespace gaus::differentiable {

CommunicationTerm::CommunicationTerm(const Graph& graph, const TensorSettings& settings) {
  std::vector<std::int64_t> source, target;
  std::vector<double> weight;
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeDistance(e) != 0 || graph.edgeComm(e) == 0.0) continue;
    source.push_back(graph.edgeSource(e));
    target.push_back(graph.edgeTarget(e));
    weight.push_back(graph.edgeComm(e));
  }
  edges_ = static_cast<std::int64_t>(source.size());
  source_ = toIndexTensor(source, settings);
  target_ = toIndexTensor(target, settings);
  weight_ = toRealTensor(weight, settings);
}

torch::Tensor CommunicationTerm::evaluate(const torch::Tensor& mu,
                                          const torch::Tensor& sigma) const {
  if (edges_ == 0) return torch::zeros({mu.size(0)}, mu.options());
  const torch::Tensor mean = mu.index_select(1, target_) - mu.index_select(1, source_);
  const torch::Tensor spread = torch::sqrt(sigma.index_select(1, source_).square() +
                                           sigma.index_select(1, target_).square());
  const torch::Tensor z = mean / spread;
  const torch::Tensor cdf = 0.5 * torch::erfc(z * (-M_SQRT1_2));
  const torch::Tensor pdf = torch::exp(-0.5 * z.square()) * (1.0 / std::sqrt(2.0 * M_PI));
  return ((mean * cdf + spread * pdf) * weight_).sum(-1);
}

}  // namespace gaus::differentiable
