// Helpers for the engine's tests: float64 settings for both evaluation paths, parameters from
// plain vectors, brute-force enumeration over integer schedules, and central differences.
#pragma once

#include <cmath>
#include <functional>
#include <vector>

#include <torch/torch.h>

#include "tensor_support.hpp"
#include "window_distribution.hpp"

namespace gaus::differentiable::fixture {

inline TensorSettings float64Settings(bool fused) {
  TensorSettings settings;
  settings.dtype = torch::kFloat64;
  settings.fused = fused;
  return settings;
}

// [1, n] float64 tensor from a vector.
inline torch::Tensor row(const std::vector<double>& values) {
  return torch::tensor(values, torch::kFloat64).view({1, -1});
}

inline std::vector<double> toVector(const torch::Tensor& tensor) {
  const torch::Tensor flat = tensor.detach().to(torch::kFloat64).contiguous().view({-1});
  return {flat.data_ptr<double>(), flat.data_ptr<double>() + flat.numel()};
}

// P_i(t) of the windowed model for every op, as dense rows over 0..D-1 (for enumeration).
inline std::vector<std::vector<double>> denseProbabilities(const WindowedDistribution& model,
                                                           std::int64_t horizon) {
  const torch::Tensor pmf = model.pmf.detach().to(torch::kFloat64).contiguous();
  const torch::Tensor offset = model.offset.contiguous();
  std::vector<std::vector<double>> dense(static_cast<std::size_t>(pmf.size(1)),
                                         std::vector<double>(horizon, 0.0));
  for (std::int64_t i = 0; i < pmf.size(1); ++i) {
    const std::int64_t a = offset[0][i].item<std::int64_t>();
    for (std::int64_t j = 0; j < model.width; ++j) dense[i][a + j] = pmf[0][i][j].item<double>();
  }
  return dense;
}

// Calls visit(starts, probability) for every integer schedule in [0, D)^n with the product of
// the ops' probabilities (independence).
inline void enumerateSchedules(
    const std::vector<std::vector<double>>& probability,
    const std::function<void(const std::vector<std::int64_t>&, double)>& visit) {
  const std::size_t n = probability.size();
  const auto horizon = static_cast<std::int64_t>(probability.front().size());
  std::vector<std::int64_t> start(n, 0);
  for (;;) {
    double weight = 1.0;
    for (std::size_t i = 0; i < n && weight != 0.0; ++i) weight *= probability[i][start[i]];
    if (weight != 0.0) visit(start, weight);
    std::size_t i = 0;
    while (i < n && ++start[i] == horizon) start[i++] = 0;
    if (i == n) return;
  }
}

// Central differences of a scalar function of a [1, n] float64 parameter.
inline std::vector<double> centralDifferences(const std::function<double(const torch::Tensor&)>& f,
                                              const torch::Tensor& at, double step = 1e-6) {
  std::vector<double> gradient;
  for (std::int64_t i = 0; i < at.size(1); ++i) {
    torch::Tensor up = at.clone();
    torch::Tensor down = at.clone();
    up[0][i] += step;
    down[0][i] -= step;
    gradient.push_back((f(up) - f(down)) / (2 * step));
  }
  return gradient;
}

}  // namespace gaus::differentiable::fixture
