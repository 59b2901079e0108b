#include "optimization_rounds.hpp"

#include <algorithm>
#include <limits>

#include "augmented_lagrangian.hpp"

namespace gaus::differentiable {

AttemptOutcome runAttempt(const AttemptSpec& spec, const GausOptions& options,
                          const TensorSettings& settings, RunBudget& budget,
                          LegalizationWorker& worker, ProgressTrace& trace,
                          std::mt19937_64& random) {
  AttemptOutcome outcome;
  const FormulationModel& model = *spec.model;
  const std::int64_t horizon = model.geometry().horizon;
  const StartingPoint* alternate = spec.alternateStart ? &*spec.alternateStart : nullptr;
  auto [mu, sigma] =
      batchedStart(spec.start, alternate, options.batch, horizon, options, random, settings);
  AugmentedLagrangian lagrangian(model, options, mu, sigma);
  std::int64_t roundsWithoutImprovement = 0;
  // Asynchronously the worker's success ends the steps at once; its status is a lock and three
  // words, no copy of a schedule and no device synchronization.
  const auto stop = [&budget, &worker] {
    return budget.exhausted() || (worker.asynchronous() && worker.status().succeeded);
  };
  const auto afterStep = [&worker, &lagrangian] {
    if (worker.wantsMeans()) worker.offer(lagrangian.meansSnapshot());
  };
  // Success needs no more work; otherwise the attempt's queued work is done before it is judged.
  const auto finished = [&](bool succeeded) {
    if (!succeeded) worker.finishAttempt();
    outcome.succeeded = worker.status().succeeded;
    outcome.best = worker.endAttempt();
    return outcome;
  };
  // The step budget may end a run between two checks of `stop`: steps are counted per update.
  while (!budget.exhausted()) {
    const std::int64_t improvementsBefore = worker.status().improvements;
    for (std::int64_t update = 0; update < options.updatesPerRound; ++update) {
      UpdateFigures figures;
      const double before = budget.elapsedSeconds();
      const std::int64_t steps = lagrangian.run(
          options.adamSteps, stop, figures,
          worker.asynchronous() ? std::function<void()>(afterStep) : std::function<void()>());
      budget.optimizationSeconds += budget.elapsedSeconds() - before;
      budget.addSteps(steps);
      ++outcome.updates;
      if (!worker.asynchronous()) worker.offer(lagrangian.meansSnapshot());
      const AttemptStatus status = worker.status();

      const auto bestRow = static_cast<std::size_t>(
          std::min_element(figures.violation.begin(), figures.violation.end()) -
          figures.violation.begin());
      ProgressRecord record;
      record.step = budget.steps();
      record.horizon = horizon;
      record.ii = model.ii();
      record.objective = figures.objective[bestRow];
      record.violation = figures.violation[bestRow];
      record.rho = figures.rho[bestRow];
      record.bestLegal = status.bestObjective ? status.bestObjective : spec.bestLegalSoFar;
      record.elapsedSeconds = budget.elapsedSeconds();
      trace.record(record);

      if (status.succeeded) return finished(true);
      if (options.target && status.bestObjective && *status.bestObjective <= *options.target) {
        return finished(false);
      }
      if (budget.exhausted()) return finished(false);
    }
    ++outcome.rounds;
    const bool improved = worker.status().improvements > improvementsBefore;
    roundsWithoutImprovement = improved ? 0 : roundsWithoutImprovement + 1;
    if (roundsWithoutImprovement >= options.patience) break;
    const std::optional<Candidate> best = worker.best();
    const StartingPoint restart = best && spec.restartFrom ? spec.restartFrom(*best) : spec.start;
    auto [restartMu, restartSigma] =
        batchedStart(restart, alternate, options.batch, horizon, options, random, settings);
    lagrangian.restart(restartMu, restartSigma);
  }
  // Patience (or the step budget) ended the attempt: the latest means are legalized before it is
  // judged (synchronously they were, at the last update).
  if (worker.asynchronous() && outcome.updates > 0 && !budget.outOfTime()) {
    worker.offer(lagrangian.meansSnapshot());
  }
  return finished(worker.status().succeeded);
}

}  // namespace gaus::differentiable
