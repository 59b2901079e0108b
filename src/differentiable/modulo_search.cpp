// Formulation C (GAUS.md "Formulations"): modulo schedules. Without a given II, the search over
// II from the iterative modulo scheduler's II down to MinII = max(ResMII, RecMII), as L's search
// over the horizon (descending_search.hpp); with a given II, one attempt at it minimizing the
// secondary objective (option modulo_objective: peak live memory or latency), which is also the
// objective of a schedule here.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/differentiable/gaus_figures.hpp>

#include "legalization.hpp"
#include "search_support.hpp"
#include "window_distribution.hpp"

namespace gaus::differentiable {

namespace {

// The secondary objective of a legal modulo schedule at its II.
double moduloObjectiveOf(const RunSetup& setup, const Schedule& schedule) {
  if (setup.moduloObjective == ModuloObjective::kMemory) {
    return computeMetrics(setup.graph, *setup.problem.machine, schedule).peakLiveMemory;
  }
  return latencyOf(setup, schedule);
}

Cycle moduloHorizon(const RunSetup& setup, const Schedule& reference) {
  if (setup.problem.horizon) return *setup.problem.horizon;
  const double latency = latencyOf(setup, reference);
  return std::max<Cycle>(
      setup.criticalPath + 1,
      static_cast<Cycle>(std::ceil((1.0 + setup.options.horizonSlack) * latency)));
}

// One attempt at `ii`: candidates are modulo-legalized means scored by the secondary objective.
// `best`: the best legal schedule so far, if any.
AttemptOutcome attemptAtIi(const RunSetup& setup, RunMachinery& machinery, std::int32_t ii,
                           Cycle horizon, const Candidate* best, double scale,
                           bool stopAtFirstLegal) {
  const std::vector<Cycle> alap = alapAt(setup, horizon);
  const WindowGeometry geometry = makeWindowGeometry(horizon, setup.options);
  const FormulationModel model(setup.problem, Formulation::kModulo, setup.moduloObjective,
                               setup.options, geometry, ii, scale, setup.settings, setup.rows);
  Problem atIi = setup.problem;
  atIi.ii = ii;
  AttemptRules rules;
  rules.legalize = [&](const std::vector<double>& mu,
                       const StopRequest&) -> std::optional<Candidate> {
    auto schedule = legalizeModulo(atIi, ii, roundedStarts(mu), alap, useReleaseTimes(setup));
    if (!schedule) return std::nullopt;
    return scoredCandidate(setup, atIi, std::move(schedule).value());
  };
  if (stopAtFirstLegal) {
    rules.success = [](const Candidate&) { return true; };
  } else if (best) {
    rules.objectiveToBeat = best->objective;
  }
  machinery.worker.beginAttempt(std::move(rules));
  AttemptSpec spec;
  spec.model = &model;
  spec.start = !best              ? midpointStart(setup.asap, alap, setup.options)
               : stopAtFirstLegal ? scheduleStart(best->schedule, setup.asap, alap, setup.options)
                                  : firstStartingPoint(setup, &best->schedule, alap);
  if (setup.options.mixedStarts && best) {
    spec.alternateStart = midpointStart(setup.asap, alap, setup.options);
  }
  spec.restartFrom = [&](const Candidate& candidate) {
    return scheduleStart(candidate.schedule, setup.asap, alap, setup.options);
  };
  if (!stopAtFirstLegal && best) spec.bestLegalSoFar = best->objective;
  return runAttempt(spec, setup.options, setup.settings, machinery.budget, machinery.worker,
                    machinery.trace, machinery.random);
}

// One attempt at `ii` below the II of `best`, the best legal schedule so far (what the search
// over II carries from one II to the next): success when it legalizes a schedule at that II.
SearchRound<Candidate> moduloRound(const RunSetup& setup, RunMachinery& machinery,
                                   const Candidate& best, std::int64_t ii) {
  const Cycle horizon = moduloHorizon(setup, best.schedule);
  const double scale = setup.moduloObjective == ModuloObjective::kLatency
                           ? static_cast<double>(horizon)
                           : std::max(objectiveOf(setup, best.schedule), 1e-9);
  const double began = machinery.budget.elapsedSeconds();
  AttemptOutcome outcome =
      attemptAtIi(setup, machinery, static_cast<std::int32_t>(ii), horizon, &best, scale, true);
  Attempt attempt = horizonAttempt(outcome, horizon, machinery.budget.elapsedSeconds() - began);
  attempt.ii = ii;
  if (!outcome.succeeded) return {best, std::move(attempt), std::nullopt};
  const std::int64_t reached = *outcome.best->schedule.ii;
  return {std::move(outcome.best).value(), std::move(attempt), reached};
}

Result searchModulo(const RunSetup& setup, RunMachinery& machinery) {
  const Problem& problem = setup.problem;
  Result result;
  const ResMii& resMii = setup.facts->resMii();
  const RecMii& recMii = setup.facts->recMii();
  if (resMii.infeasible || recMii.infeasible) {
    result = errorResult(resMii.infeasible ? *resMii.infeasible : *recMii.infeasible);
    result.status = ModelStatus::kInfeasible;
    return result;
  }
  const std::int64_t minIi = std::max<std::int64_t>(1, setup.facts->mii().value);
  result.bounds.mii = setup.facts->mii();
  std::optional<Schedule> start = startSchedule(setup, result.attempts);
  std::optional<Candidate> best;
  if (start) best = Candidate{*start, objectiveOf(setup, *start), nullptr};
  if (best) {
    Attempt attempt = startAttempt(
        ModelStatus::kFeasible, std::nullopt,
        fmt::format("objective {:.10g} (iterative modulo scheduling)", best->objective));
    attempt.ii = *best->schedule.ii;
    result.attempts.push_back(std::move(attempt));
  } else {
    result.attempts.push_back(
        startAttempt(ModelStatus::kUnknown, std::nullopt, "no legal modulo schedule"));
  }

  const double startScale = best ? objectiveOf(setup, best->schedule) : 1.0;
  if (problem.ii) {
    // A fixed II: minimize the secondary objective.
    const Cycle horizon = best ? moduloHorizon(setup, best->schedule)
                               : problem.horizon.value_or(2 * setup.criticalPath + *problem.ii);
    const double scale = setup.moduloObjective == ModuloObjective::kLatency
                             ? static_cast<double>(horizon)
                             : std::max(startScale, 1e-9);
    const double began = machinery.budget.elapsedSeconds();
    AttemptOutcome outcome =
        attemptAtIi(setup, machinery, *problem.ii, horizon, best ? &*best : nullptr, scale, false);
    Attempt attempt = horizonAttempt(outcome, horizon, machinery.budget.elapsedSeconds() - began);
    attempt.ii = *problem.ii;
    attempt.status = outcome.best || best ? ModelStatus::kFeasible : ModelStatus::kUnknown;
    attempt.detail = fmt::format(
        "{} after {} updates",
        outcome.best ? fmt::format("objective {:.10g}", outcome.best->objective) : "no improvement",
        outcome.updates);
    result.attempts.push_back(std::move(attempt));
    if (outcome.best) best = std::move(outcome.best);
    result.objectiveName =
        toString(setup.moduloObjective == ModuloObjective::kMemory ? ProblemObjective::kPeakMemory
                                                                   : ProblemObjective::kLatency);
  } else {
    // Search II downwards from the start's.
    result.bounds.lowerBound = static_cast<double>(minIi);
    if (best) {
      SearchEnd<Candidate> search = descendingSearch(
          minIi, *best->schedule.ii,
          searchStrategy(setup, static_cast<double>(*best->schedule.ii - minIi)), *best,
          [&](const Candidate& state, std::int64_t ii) {
            return moduloRound(setup, machinery, state, ii);
          },
          [&machinery] { return machinery.budget.exhausted(); });
      for (Attempt& attempt : search.attempts) result.attempts.push_back(std::move(attempt));
      best = std::move(search.last);
    }
    result.objectiveName = toString(ProblemObjective::kIi);
  }
  if (!best) {
    result.status = ModelStatus::kTimeout;
    result.message = "no legal modulo schedule found; raise time_limit or patience";
    return result;
  }
  result.schedule = best->schedule;
  const std::int32_t ii = *best->schedule.ii;
  result.bounds.iiProvenOptimal = ii <= minIi;
  if (problem.ii) {
    result.objective = best->objective;
    result.status = ModelStatus::kFeasible;
  } else {
    result.objective = ii;
    result.status = ii <= minIi ? ModelStatus::kOptimal : ModelStatus::kFeasible;
  }
  result.figures.set(figures::kIi, ii);
  result.figures.set(figures::kLatency, latencyOf(setup, best->schedule));
  result.figures.set(figures::kMinIi, static_cast<double>(minIi));
  return result;
}

}  // namespace

const FormulationPart& moduloPart() {
  static const FormulationPart part{
      .objective = moduloObjectiveOf, .boundedHorizon = false, .search = searchModulo};
  return part;
}

}  // namespace gaus::differentiable
