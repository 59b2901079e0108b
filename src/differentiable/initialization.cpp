#include "initialization.hpp"

#include <algorithm>

namespace gaus::differentiable {

StartingPoint midpointStart(const std::vector<Cycle>& asap, const std::vector<Cycle>& alap,
                            const GausOptions& options) {
  StartingPoint start;
  for (std::size_t i = 0; i < asap.size(); ++i) {
    const auto mobility = static_cast<double>(alap[i] - asap[i]);
    start.mu.push_back(0.5 * static_cast<double>(asap[i] + alap[i]));
    start.sigma.push_back(std::clamp(options.kappa * mobility, options.sigmaMin, options.sigmaMax));
  }
  return start;
}

StartingPoint scheduleStart(const Schedule& schedule, const std::vector<Cycle>& asap,
                            const std::vector<Cycle>& alap, const GausOptions& options) {
  StartingPoint start;
  const double sigma = std::clamp(options.sigmaRestart, options.sigmaMin, options.sigmaMax);
  for (std::size_t i = 0; i < schedule.start.size(); ++i) {
    Cycle t = schedule.start[i];
    if (!asap.empty()) t = std::clamp(t, asap[i], std::max(asap[i], alap[i]));
    start.mu.push_back(static_cast<double>(t));
    start.sigma.push_back(sigma);
  }
  return start;
}

std::pair<torch::Tensor, torch::Tensor> batchedStart(const StartingPoint& start,
                                                     const StartingPoint* alternate,
                                                     std::int64_t batch, std::int64_t horizon,
                                                     const GausOptions& options,
                                                     std::mt19937_64& random,
                                                     const TensorSettings& settings) {
  const auto ops = static_cast<std::int64_t>(start.mu.size());
  std::vector<double> mu, sigma;
  mu.reserve(static_cast<std::size_t>(batch * ops));
  sigma.reserve(static_cast<std::size_t>(batch * ops));
  std::normal_distribution<double> noise(0.0, options.restartNoise);
  const double upper = static_cast<double>(horizon - 1);
  const std::int64_t firstNoisyRow = alternate != nullptr ? 2 : 1;
  for (std::int64_t b = 0; b < batch; ++b) {
    const StartingPoint& row = b % 2 == 1 && alternate != nullptr ? *alternate : start;
    for (std::int64_t i = 0; i < ops; ++i) {
      const double shift = b < firstNoisyRow ? 0.0 : noise(random);
      mu.push_back(std::clamp(row.mu[i] + shift, 0.0, upper));
    }
    sigma.insert(sigma.end(), row.sigma.begin(), row.sigma.end());
  }
  return {toRealTensor(mu, settings).view({batch, ops}),
          toRealTensor(sigma, settings).view({batch, ops})};
}

}  // namespace gaus::differentiable
