#include "augmented_lagrangian.hpp"

namespace gaus::differentiable {

AugmentedLagrangian::AugmentedLagrangian(const FormulationModel& model, const GausOptions& options,
                                         const torch::Tensor& mu, const torch::Tensor& sigma,
                                         bool reuseBuffers)
    : model_(model), options_(options), stepBuffers_(reuseBuffers ? &buffers_ : nullptr) {
  restart(mu, sigma);
  const std::int64_t batch = mu.size(0);
  rho_ = torch::full({batch}, options.rho0, mu.options());
  previousViolation_ = torch::full({batch}, std::numeric_limits<double>::infinity(), mu.options());
}

void AugmentedLagrangian::restart(const torch::Tensor& mu, const torch::Tensor& sigma) {
  torch::NoGradGuard noGrad;
  mu_ = mu.detach().clone().requires_grad_(true);
  rawSigma_ = rawFromSigma(sigma.detach(), options_.sigmaMin, options_.sigmaMax)
                  .clone()
                  .requires_grad_(true);
  optimizer_ = std::make_unique<torch::optim::Adam>(
      std::vector<torch::Tensor>{mu_, rawSigma_}, torch::optim::AdamOptions(options_.learningRate));
}

torch::Tensor AugmentedLagrangian::sigma() const {
  torch::NoGradGuard noGrad;
  return sigmaFromRaw(rawSigma_.detach(), options_.sigmaMin, options_.sigmaMax);
}

torch::Tensor AugmentedLagrangian::loss(const ModelEvaluation& evaluation,
                                        const torch::Tensor& sigma) const {
  torch::Tensor total = evaluation.objective.sum() + options_.harden * sigma.sum();
  for (std::size_t k = 0; k < evaluation.constraints.size(); ++k) {
    const torch::Tensor& violation = evaluation.constraints[k];
    if (violation.size(1) == 0) continue;
    total = total + (multipliers_[k] * violation).sum() +
            (0.5 * rho_.unsqueeze(1) * violation.square()).sum();
  }
  return total;
}

torch::Tensor AugmentedLagrangian::meansSnapshot() const {
  torch::NoGradGuard noGrad;
  return mu_.detach().to(torch::kFloat64, /*non_blocking=*/false, /*copy=*/true);
}

std::int64_t AugmentedLagrangian::run(std::int64_t steps, const std::function<bool()>& stop,
                                      UpdateFigures& figures,
                                      const std::function<void()>& afterStep) {
  const double upper = static_cast<double>(model_.geometry().horizon - 1);
  std::int64_t done = 0;
  for (; done < steps; ++done) {
    if (stop && stop()) break;
    optimizer_->zero_grad();
    const torch::Tensor sigma = sigmaFromRaw(rawSigma_, options_.sigmaMin, options_.sigmaMax);
    const ModelEvaluation evaluation = model_.evaluate(mu_, sigma, stepBuffers_);
    if (multipliers_.empty()) {
      for (const auto& violation : evaluation.constraints) {
        multipliers_.push_back(torch::zeros_like(violation.detach()));
      }
    }
    loss(evaluation, sigma).backward();
    optimizer_->step();
    {
      torch::NoGradGuard noGrad;
      mu_.clamp_(0.0, upper);
    }
    if (afterStep) afterStep();
  }

  // The multiplier update, from the violations at the current point.
  torch::NoGradGuard noGrad;
  const torch::Tensor sigma = sigmaFromRaw(rawSigma_, options_.sigmaMin, options_.sigmaMax);
  const ModelEvaluation evaluation = model_.evaluate(mu_, sigma, stepBuffers_);
  if (multipliers_.empty()) {
    for (const auto& violation : evaluation.constraints) {
      multipliers_.push_back(torch::zeros_like(violation));
    }
  }
  torch::Tensor total = torch::zeros_like(rho_);
  for (std::size_t k = 0; k < evaluation.constraints.size(); ++k) {
    const torch::Tensor& violation = evaluation.constraints[k];
    if (violation.size(1) == 0) continue;
    multipliers_[k] += rho_.unsqueeze(1) * violation;
    total += violation.sum(1);
  }
  const torch::Tensor grow = total > options_.eta * previousViolation_;
  rho_ = torch::where(grow, (rho_ * options_.gamma).clamp_max(options_.rhoMax), rho_);
  previousViolation_ = total;

  const auto toVector = [](const torch::Tensor& tensor) {
    const torch::Tensor host = tensor.to(torch::kCPU, torch::kFloat64).contiguous();
    return std::vector<double>(host.data_ptr<double>(), host.data_ptr<double>() + host.numel());
  };
  figures.objective = toVector(evaluation.objective);
  figures.violation = toVector(total);
  figures.rho = toVector(rho_);
  return done;
}

}  // namespace gaus::differentiable
