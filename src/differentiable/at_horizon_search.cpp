// The attempt at a fixed horizon that formulations A and B share (at_horizon_search.hpp).
#include "at_horizon_search.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "search_support.hpp"
#include "window_distribution.hpp"

namespace gaus::differentiable {

void HorizonObjective::addStarts(const RunSetup&, Cycle,
                                 std::vector<std::pair<Schedule, std::string>>&) const {}

void HorizonObjective::reportWork(const RunSetup&, Result&) const {}

void HorizonObjective::reportBest(const RunSetup&, const Candidate&, Result&) const {}

namespace {

// The starts: list scheduling (or the given schedule) and the objective's own. The best of them
// is the first "best".
HorizonStarts gatherStarts(const RunSetup& setup, Cycle horizon, const HorizonObjective& objective,
                           Result& result) {
  HorizonStarts starts;
  starts.start = startSchedule(setup, result.attempts);
  if (starts.start) {
    starts.legal.emplace_back(*starts.start, setup.givenSchedule ? "given" : "list scheduling");
  }
  objective.addStarts(setup, horizon, starts.legal);
  for (const auto& [schedule, name] : starts.legal) {
    const double value = objectiveOf(setup, schedule);
    if (!starts.best || value < starts.best->objective) {
      starts.best = Candidate{schedule, value, nullptr};
      starts.bestName = name;
    }
  }
  // Without a legal start, the list schedule still gives the memory scale and, for init=list,
  // the means (squeezed into the horizon).
  if (!starts.start) {
    if (auto list = setup.listScheduler->schedule()) starts.start = std::move(list).value();
  }
  return starts;
}

// The optimizer's attempt at `horizon` from the first "best" (`first`, if any).
AttemptOutcome attemptAt(const RunSetup& setup, RunMachinery& machinery, Cycle horizon,
                         const std::vector<Cycle>& alap, const HorizonStarts& starts,
                         const std::optional<Candidate>& first, double scale) {
  const WindowGeometry geometry = makeWindowGeometry(horizon, setup.options);
  const FormulationModel model(setup.problem, setup.formulation, ModuloObjective::kNone,
                               setup.options, geometry, std::nullopt, scale, setup.settings,
                               setup.rows);
  AttemptSpec spec;
  spec.model = &model;
  spec.start = firstStartingPoint(setup, starts.start ? &*starts.start : nullptr, alap);
  if (setup.options.mixedStarts && first) {
    spec.alternateStart = scheduleStart(first->schedule, setup.asap, alap, setup.options);
  }
  spec.restartFrom = [&](const Candidate& candidate) {
    return scheduleStart(candidate.schedule, setup.asap, alap, setup.options);
  };
  if (first) spec.bestLegalSoFar = first->objective;
  return runAttempt(spec, setup.options, setup.settings, machinery.budget, machinery.worker,
                    machinery.trace, machinery.random);
}

}  // namespace

Result optimizeAtHorizon(const RunSetup& setup, RunMachinery& machinery,
                         const HorizonObjective& objective) {
  Result result;
  const Cycle horizon = *setup.problem.horizon;
  if (horizon < setup.criticalPath) {
    // A proven answer about a well-formed problem, not a failed call.
    result.status = ModelStatus::kInfeasible;
    result.message = fmt::format(
        "horizon D={} is shorter than the critical path ({} cycles): no schedule exists; "
        "raise --horizon",
        horizon, setup.criticalPath);
    return result;
  }
  const std::vector<Cycle> alap = alapAt(setup, horizon);
  HorizonStarts starts = gatherStarts(setup, horizon, objective, result);
  const double scale = objective.scaleAndBound(setup, horizon, alap, machinery, starts, result);
  std::optional<Candidate>& best = starts.best;
  // A schedule at the lower bound is optimal: the search ends there, and does not start when
  // a start is there already.
  const std::optional<double> bound = result.bounds.lowerBound;
  const auto atBound = [bound](const Candidate& candidate) {
    return bound && candidate.objective <= *bound + 1e-9 * std::max(1.0, std::abs(*bound));
  };
  // The worker's closures refer to `refine`: endAttempt() (in runAttempt, or below) comes first.
  const Refinement refine = [&objective, &setup, horizon](const Schedule& legal,
                                                          const StopRequest& stop) {
    return objective.refine(setup, legal, horizon, stop);
  };
  const Refinement* const refinement = setup.refine ? &refine : nullptr;
  AttemptRules rules;
  rules.legalize = [&setup, horizon, &alap, refinement](const std::vector<double>& mu,
                                                        const StopRequest& stop) {
    return legalizeAcyclicCandidate(setup, mu, horizon, &alap, stop, refinement);
  };
  if (best) rules.objectiveToBeat = best->objective;
  if (bound) rules.success = atBound;
  machinery.worker.beginAttempt(std::move(rules));
  // Each start is refined to its local optimum (or the time limit) before the first Adam step,
  // in both legalization modes, and the best refined one is the attempt's first "best": the
  // rule that GauS at a budget is never worse than its start + refinement (max_steps=0) at the
  // same budget (docs/gaus.md, "Never worse than its start"). It is also the alternate start of
  // the batch.
  const bool startsRefined = setup.refine && !(best && atBound(*best));
  if (startsRefined) {
    for (const auto& [schedule, name] : starts.legal) {
      machinery.worker.runFirst(
          [&refine, &schedule](const StopRequest& stop) { return refine(schedule, stop); });
    }
  }
  std::optional<Candidate> refinedStart = machinery.worker.best();
  std::string startName = starts.bestName;
  // No refined start better than the best start: that start is a local optimum already.
  if (refinedStart) {
    startName += ", refined";
  } else if (startsRefined && best) {
    startName += ", refined: a local optimum already";
  }
  const std::optional<Candidate>& first = refinedStart ? refinedStart : best;
  result.attempts.push_back(
      first ? startAttempt(ModelStatus::kFeasible, std::nullopt,
                           fmt::format("objective {:.10g} ({})", first->objective, startName))
            : startAttempt(ModelStatus::kUnknown, std::nullopt,
                           "list scheduling exceeds the horizon"));

  const double began = machinery.budget.elapsedSeconds();
  AttemptOutcome outcome;
  if (!first || !atBound(*first)) {
    outcome = attemptAt(setup, machinery, horizon, alap, starts, first, scale);
  } else {
    outcome.best = machinery.worker.endAttempt();
  }
  Attempt attempt = horizonAttempt(outcome, horizon, machinery.budget.elapsedSeconds() - began);
  const bool improved = outcome.best && (!first || outcome.best->objective < first->objective);
  attempt.status = outcome.best || best ? ModelStatus::kFeasible : ModelStatus::kUnknown;
  attempt.detail = fmt::format(
      "{} after {} updates in {} rounds",
      improved ? fmt::format("improved to {:.10g}", outcome.best->objective) : "no improvement",
      outcome.updates, outcome.rounds);
  result.attempts.push_back(std::move(attempt));
  if (outcome.best) best = std::move(outcome.best);
  objective.reportWork(setup, result);
  result.objectiveName = std::string(objective.name());
  if (!best) {
    result.status = ModelStatus::kTimeout;
    result.message = fmt::format(
        "no legal schedule at D={} found in {:.1f}s; raise "
        "time_limit or patience, or the horizon",
        horizon, machinery.budget.elapsedSeconds());
    return result;
  }
  result.schedule = best->schedule;
  result.objective = best->objective;
  result.status = atBound(*best) ? ModelStatus::kOptimal : ModelStatus::kFeasible;
  objective.reportBest(setup, *best, result);
  return result;
}

}  // namespace gaus::differentiable
