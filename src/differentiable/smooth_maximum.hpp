// The smooth maximum used by every "peak" objective: tau * logsumexp(x / tau) over the last
// axis, which exceeds max(x) by at most tau * log(n) and has gradients on every near-maximal
// entry instead of only on the argmax.
#pragma once

#include <torch/torch.h>

namespace gaus::differentiable {

inline torch::Tensor smoothMaximum(const torch::Tensor& values, double tau) {
  return tau * torch::logsumexp(values / tau, -1);
}

}  // namespace gaus::differentiable
