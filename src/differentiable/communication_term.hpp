// Expected communication (formulation A, GAUS.md): an edge u -> v with weight c costs
// c * (X_v - X_u)^+, the number of stage boundaries the value crosses. With independent
// Gaussians X_v - X_u ~ N(m, s^2), m = mu_v - mu_u, s = sqrt(sigma_u^2 + sigma_v^2), and
//   E[(X_v - X_u)^+] = m * Phi(m / s) + s * phi(m / s)
// in closed form (of the continuous start times: no window is involved).
#pragma once

#include <cstdint>
#include <vector>

#include <torch/torch.h>

#include <gaus/core/graph.hpp>

#include "tensor_support.hpp"

namespace gaus::differentiable {

class CommunicationTerm {
 public:
  // Edges of distance 0 with a nonzero `comm` weight.
  CommunicationTerm(const Graph& graph, const TensorSettings& settings);

  bool empty() const { return edges_ == 0; }
  // [B]: sum over edges of comm_e * E[(X_v - X_u)^+].
  torch::Tensor evaluate(const torch::Tensor& mu, const torch::Tensor& sigma) const;

 private:
  std::int64_t edges_ = 0;
  torch::Tensor source_, target_, weight_;
};

}  // namespace gaus::differentiable
