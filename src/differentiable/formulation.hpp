// The four formulations of GAUS.md as one model: which terms form the objective and which form
// the constraints, at one horizon D (and II for C).
//   A: smooth peak stage weight + alpha * communication | precedence, horizon (, resources)
//   B: smooth peak live memory                           | precedence, horizon, resources
//   C: smooth peak modulo memory, or smooth latency, or none | precedence with distances,
//      modulo resources, horizon
//   L: none (feasibility at D; the horizon is searched from outside) | precedence, horizon,
//      resources
// Resources join every formulation whose machine limits some resource an op reserves: the
// verifier judges them for every problem kind. Objectives are divided by `objectiveScale` (a
// legal schedule's value, or a bound) so that lr, rho and tau need no per-instance tuning.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <torch/torch.h>

#include <gaus/core/problem.hpp>
#include <gaus/differentiable/gaus_options.hpp>

#include "communication_term.hpp"
#include "horizon_term.hpp"
#include "live_memory_term.hpp"
#include "precedence_term.hpp"
#include "resource_term.hpp"
#include "row_order.hpp"
#include "stage_weight_term.hpp"
#include "tensor_support.hpp"
#include "window_distribution.hpp"

namespace gaus::differentiable {

struct ModelEvaluation {
  torch::Tensor objective;                 // [B], normalized
  std::vector<torch::Tensor> constraints;  // one [B, n] tensor per family, nonnegative
};

class FormulationModel {
 public:
  // `formulation` is resolved (not kAuto); `objective` matters for C only. `rows`: the order
  // of the window tables' rows (row_order.hpp); mu and sigma stay in op order.
  FormulationModel(const Problem& problem, Formulation formulation, ModuloObjective objective,
                   const GausOptions& options, const WindowGeometry& geometry,
                   std::optional<std::int64_t> ii, double objectiveScale,
                   const TensorSettings& settings, const RowOrder& rows = RowOrder());

  const WindowGeometry& geometry() const { return geometry_; }
  std::optional<std::int64_t> ii() const { return ii_; }
  // Names of the constraint families, in the order of ModelEvaluation::constraints.
  const std::vector<std::string>& constraintNames() const { return constraintNames_; }

  // `buffers`: where the fused kernels take their outputs (step_buffers.hpp: the tensors of the
  // result are then valid until the next evaluation with the same buffers); null: fresh ones.
  ModelEvaluation evaluate(const torch::Tensor& mu, const torch::Tensor& sigma,
                           StepBuffers* buffers = nullptr) const;
  bool fused() const { return settings_.fused; }

 private:
  WindowGeometry geometry_;
  // The LibTorch path's window tables in chunks; shared with the autograd graphs, which refer
  // to it by address.
  std::shared_ptr<const WindowCdfChunks> windowChunks_;
  std::optional<std::int64_t> ii_;
  double scale_;
  double tau_;
  double alpha_;
  TensorSettings settings_;
  torch::Tensor opOfRow_;  // [V] int64; undefined: rows are op ids
  std::vector<std::string> constraintNames_;
  PrecedenceTerm precedence_;
  HorizonTerm horizon_;
  std::optional<ResourceTerm> resources_;
  std::optional<LiveMemoryTerm> memory_;
  std::optional<StageWeightTerm> stageWeight_;
  std::optional<CommunicationTerm> communication_;
  torch::Tensor duration_;  // [V], for the latency objective
};

}  // namespace gaus::differentiable
