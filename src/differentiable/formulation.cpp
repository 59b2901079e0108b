#include "formulation.hpp"

#include "smooth_maximum.hpp"

namespace gaus::differentiable {

FormulationModel::FormulationModel(const Problem& problem, Formulation formulation,
                                   ModuloObjective objective, const GausOptions& options,
                                   const WindowGeometry& geometry, std::optional<std::int64_t> ii,
                                   double objectiveScale, const TensorSettings& settings,
                                   const RowOrder& rows)
    : geometry_(geometry),
      windowChunks_(settings.fused ? nullptr
                                   : std::make_shared<const WindowCdfChunks>(
                                         problem.graph->numOps(), geometry.width, settings, rows)),
      ii_(ii),
      scale_(objectiveScale > 0 ? objectiveScale : 1.0),
      tau_(options.tau),
      alpha_(options.alpha),
      settings_(settings),
      precedence_(*problem.graph, ii, settings, rows),
      horizon_(*problem.graph, geometry, settings, rows) {
  const Graph& graph = *problem.graph;
  if (!rows.identity()) opOfRow_ = toIndexTensor(rows.opOfRow(), settings);
  constraintNames_ = {"precedence", "horizon"};
  ResourceTerm resources(graph, *problem.machine, geometry, ii, settings, rows);
  if (resources.channels() > 0) {
    resources_.emplace(std::move(resources));
    constraintNames_.push_back("resources");
  }
  switch (formulation) {
    case Formulation::kStageWeight:
      stageWeight_.emplace(graph, geometry, settings, rows);
      communication_.emplace(graph, settings);
      break;
    case Formulation::kPeakMemory:
      memory_.emplace(graph, geometry, std::nullopt, settings, rows);
      break;
    case Formulation::kModulo:
      if (objective == ModuloObjective::kMemory) {
        memory_.emplace(graph, geometry, ii, settings, rows);
      }
      if (objective == ModuloObjective::kLatency) {
        std::vector<double> duration(graph.durations().begin(), graph.durations().end());
        duration_ = toRealTensor(duration, settings);
      }
      break;
    case Formulation::kLatency:
    case Formulation::kAuto:
      break;
  }
}

ModelEvaluation FormulationModel::evaluate(const torch::Tensor& mu, const torch::Tensor& sigma,
                                           StepBuffers* buffers) const {
  // mu and sigma stay in op order: the window reads them through the row order, so that their
  // gradients gather from the same terms in the same order as with rows in op order.
  const WindowedDistribution distribution = computeWindowedDistribution(
      mu, sigma, geometry_, settings_, windowChunks_.get(), buffers, opOfRow_);
  ModelEvaluation evaluation;
  evaluation.constraints.push_back(precedence_.evaluate(distribution));
  evaluation.constraints.push_back(horizon_.evaluate(mu, sigma, distribution));
  if (resources_) evaluation.constraints.push_back(resources_->evaluate(distribution));

  torch::Tensor objective = torch::zeros({mu.size(0)}, mu.options());
  if (stageWeight_ && !stageWeight_->empty()) {
    objective = objective + smoothMaximum(stageWeight_->stageWeights(distribution) / scale_, tau_);
  }
  if (communication_ && !communication_->empty()) {
    objective = objective + (alpha_ / scale_) * communication_->evaluate(mu, sigma);
  }
  if (memory_ && !memory_->empty()) {
    objective = objective + smoothMaximum(memory_->expectedLiveMemory(distribution) / scale_, tau_);
  }
  if (duration_.defined()) {
    // Latency of C: the smooth maximum of expected completion times, in units of D.
    objective = objective + smoothMaximum((mu + duration_) / scale_, tau_);
  }
  evaluation.objective = objective;
  return evaluation;
}

}  // namespace gaus::differentiable
