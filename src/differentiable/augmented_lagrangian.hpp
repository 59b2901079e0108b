// The augmented-Lagrangian loop of GAUS.md with Adam:
//   L(mu, s) = objective + sum_c lambda_c V_c + (rho / 2) sum_c V_c^2 + harden * sum_i sigma_i,
// one multiplier per constraint element (per edge, per op horizon, per resource and step), all
// nonnegative. K Adam steps (torch::optim::Adam on mu and the raw widths), then
// lambda_c <- lambda_c + rho V_c, and rho <- min(gamma rho, rho_max) when the total violation
// fell by less than the factor eta. Every batch row is an independent start: rho and the
// multipliers are kept per row and the loss is a sum over rows, so row b's trajectory does not
// depend on the others (Adam is elementwise).
// Departure from the spec: after each Adam step mu is clamped to [0, D - 1] (outside, the
// window tables stop changing and the gradient vanishes); and the hardening term
// harden * sum(sigma) of GAUS.md "What to expect" is part of the loss.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <torch/torch.h>

#include <gaus/differentiable/gaus_options.hpp>

#include "formulation.hpp"

namespace gaus::differentiable {

// Figures of one multiplier update, per batch row.
struct UpdateFigures {
  std::vector<double> objective;  // normalized objective at the update
  std::vector<double> violation;  // total expected violation
  std::vector<double> rho;
};

class AugmentedLagrangian {
 public:
  // mu and sigma: [B, V] starting points (copied). `reuseBuffers` false: every step makes its
  // tensors afresh (the tests compare the two).
  AugmentedLagrangian(const FormulationModel& model, const GausOptions& options,
                      const torch::Tensor& mu, const torch::Tensor& sigma,
                      bool reuseBuffers = true);

  // Restarts the means and widths (and Adam's moments); multipliers and rho are kept.
  void restart(const torch::Tensor& mu, const torch::Tensor& sigma);

  // Up to `steps` Adam steps (stops early when `stop` returns true; checked every step), then
  // one multiplier update. `afterStep`, when set, is called after every step (the legalization
  // worker's offer). Returns how many steps ran and the figures after them, which are the only
  // values it reads back from the device: once per update, not per step.
  std::int64_t run(std::int64_t steps, const std::function<bool()>& stop, UpdateFigures& figures,
                   const std::function<void()>& afterStep = {});

  torch::Tensor mu() const { return mu_.detach(); }
  // A float64 copy of the means on their device, which later steps leave alone: what the
  // legalization worker takes. On a GPU it is queued behind the steps, not waited for.
  torch::Tensor meansSnapshot() const;
  torch::Tensor sigma() const;

 private:
  torch::Tensor loss(const ModelEvaluation& evaluation, const torch::Tensor& sigma) const;

  const FormulationModel& model_;
  GausOptions options_;
  torch::Tensor mu_, rawSigma_;
  std::unique_ptr<torch::optim::Adam> optimizer_;
  // The fused kernels' outputs, kept from one step to the next (step_buffers.hpp): every
  // evaluation here ends (backward pass and step, or the multiplier update) before the next.
  StepBuffers buffers_;
  StepBuffers* stepBuffers_ = nullptr;      // &buffers_, or null
  std::vector<torch::Tensor> multipliers_;  // per family [B, n]
  torch::Tensor rho_;                       // [B]
  torch::Tensor previousViolation_;         // [B]
};

}  // namespace gaus::differentiable
