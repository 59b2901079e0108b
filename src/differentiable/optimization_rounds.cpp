#include "optimization_rounds.hpp"

#include <algorithm>
#include <limits>

#include "augmented_lagrangian.hpp"

namespace gaus::differentiable {

RunState::RunState(const GausOptions& options, const RunContext& context)
    : context_(context), deadline_(options.timeLimitSeconds), maxSteps_(options.maxSteps) {}

bool RunState::exhausted() const {
  return deadline_.expired() || context_.cancelled() || (maxSteps_ && steps_ >= *maxSteps_);
}

namespace {

std::vector<double> rowOf(const torch::Tensor& hostMatrix, std::int64_t row) {
  const double* data = hostMatrix.data_ptr<double>() + row * hostMatrix.size(1);
  return {data, data + hostMatrix.size(1)};
}

}  // namespace

AttemptOutcome runAttempt(const AttemptSpec& spec, const GausOptions& options,
                          const TensorSettings& settings, RunState& state, ProgressTrace& trace,
                          std::mt19937_64& random) {
  AttemptOutcome outcome;
  const FormulationModel& model = *spec.model;
  const std::int64_t horizon = model.geometry().horizon;
  const StartingPoint* alternate = spec.alternateStart ? &*spec.alternateStart : nullptr;
  auto [mu, sigma] =
      batchedStart(spec.start, alternate, options.batch, horizon, options, random, settings);
  AugmentedLagrangian lagrangian(model, options, mu, sigma);
  std::optional<double> threshold = spec.objectiveToBeat;
  std::int64_t roundsWithoutImprovement = 0;
  const auto stop = [&state] { return state.exhausted(); };
  // The step budget may end a run between two checks of `stop`: steps are counted per update.
  while (!state.exhausted()) {
    bool improved = false;
    for (std::int64_t update = 0; update < options.updatesPerRound; ++update) {
      UpdateFigures figures;
      const double before = state.elapsedSeconds();
      const std::int64_t steps = lagrangian.run(options.adamSteps, stop, figures);
      state.optimizationSeconds += state.elapsedSeconds() - before;
      state.addSteps(steps);
      ++outcome.updates;

      const torch::Tensor means = lagrangian.mu().to(torch::kCPU, torch::kFloat64).contiguous();
      for (std::int64_t b = 0; b < means.size(0); ++b) {
        ++state.legalizations;
        const double legalizing = state.elapsedSeconds();
        std::optional<Candidate> candidate = spec.legalize(rowOf(means, b));
        state.legalizationSeconds += state.elapsedSeconds() - legalizing;
        if (!candidate) continue;
        state.noteLegal();
        const bool passes = spec.success && spec.success(*candidate);
        if ((!threshold || candidate->objective < *threshold) || (passes && !outcome.best)) {
          threshold = candidate->objective;
          outcome.best = std::move(*candidate);
          improved = true;
          if (passes) outcome.succeeded = true;
        }
      }

      const auto bestRow = static_cast<std::size_t>(
          std::min_element(figures.violation.begin(), figures.violation.end()) -
          figures.violation.begin());
      ProgressRecord record;
      record.step = state.steps();
      record.horizon = horizon;
      record.ii = model.ii();
      record.objective = figures.objective[bestRow];
      record.violation = figures.violation[bestRow];
      record.rho = figures.rho[bestRow];
      record.bestLegal =
          outcome.best ? std::optional<double>(outcome.best->objective) : spec.bestLegalSoFar;
      record.elapsedSeconds = state.elapsedSeconds();
      trace.record(record);

      if (outcome.succeeded) return outcome;
      if (options.target && outcome.best && outcome.best->objective <= *options.target) {
        return outcome;
      }
      if (state.exhausted()) return outcome;
    }
    ++outcome.rounds;
    roundsWithoutImprovement = improved ? 0 : roundsWithoutImprovement + 1;
    if (roundsWithoutImprovement >= options.patience) break;
    const StartingPoint restart =
        outcome.best && spec.restartFrom ? spec.restartFrom(*outcome.best) : spec.start;
    auto [restartMu, restartSigma] =
        batchedStart(restart, alternate, options.batch, horizon, options, random, settings);
    lagrangian.restart(restartMu, restartSigma);
  }
  return outcome;
}

}  // namespace gaus::differentiable
