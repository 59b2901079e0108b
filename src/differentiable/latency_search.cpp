// Formulation L (GAUS.md "Formulations"): the horizon searched from outside. It starts from list
// scheduling (or the given schedule) at D = its latency - 1, solves the feasibility problem at D
// and legalizes; on success it goes on below the latency reached, on failure it stops (or, with
// bisection, raises the lowest D tried; descending_search.hpp). The bound max(critical path,
// ResMII) ends the search as optimal. The objective of a schedule is its latency.
#include <algorithm>

#include <gaus/core/analysis.hpp>

#include "search_support.hpp"
#include "window_distribution.hpp"

namespace gaus::differentiable {

namespace {

// What the latency search carries from one horizon to the next.
struct LatencySearchState {
  Candidate best;             // the best legal schedule so far: the start, at first
  bool firstAttempt = false;  // the next attempt is the first: its means follow option init
};

// One attempt at `horizon` from `state`: success when it legalizes a schedule within D. A
// candidate between D and the best known is kept even when the attempt fails.
SearchRound<LatencySearchState> latencyRound(const RunSetup& setup, RunMachinery& machinery,
                                             const LatencySearchState& state,
                                             std::int64_t horizon) {
  const Candidate& best = state.best;
  const std::vector<Cycle> alap = alapAt(setup, horizon);
  const WindowGeometry geometry = makeWindowGeometry(horizon, setup.options);
  const FormulationModel model(setup.problem, Formulation::kLatency, ModuloObjective::kNone,
                               setup.options, geometry, std::nullopt, 1.0, setup.settings,
                               setup.rows);
  AttemptRules rules;
  rules.legalize = [&setup](const std::vector<double>& mu, const StopRequest& stop) {
    return legalizeAcyclicCandidate(setup, mu, std::nullopt, nullptr, stop, nullptr);
  };
  rules.objectiveToBeat = best.objective;
  rules.success = [horizon](const Candidate& c) { return c.objective <= horizon; };
  machinery.worker.beginAttempt(std::move(rules));
  AttemptSpec spec;
  spec.model = &model;
  spec.start = state.firstAttempt ? firstStartingPoint(setup, &best.schedule, alap)
                                  : scheduleStart(best.schedule, setup.asap, alap, setup.options);
  if (setup.options.mixedStarts) {
    spec.alternateStart = midpointStart(setup.asap, alap, setup.options);
  }
  spec.restartFrom = [&](const Candidate& candidate) {
    return scheduleStart(candidate.schedule, setup.asap, alap, setup.options);
  };
  spec.bestLegalSoFar = best.objective;
  const double began = machinery.budget.elapsedSeconds();
  AttemptOutcome outcome = runAttempt(spec, setup.options, setup.settings, machinery.budget,
                                      machinery.worker, machinery.trace, machinery.random);
  SearchRound<LatencySearchState> round{{best, false}, {}, std::nullopt};
  round.attempt = horizonAttempt(outcome, horizon, machinery.budget.elapsedSeconds() - began);
  if (outcome.succeeded) round.attempt.latency = static_cast<std::int64_t>(outcome.best->objective);
  if (outcome.best && outcome.best->objective < best.objective) round.next.best = *outcome.best;
  if (outcome.succeeded) round.reached = static_cast<std::int64_t>(round.next.best.objective);
  return round;
}

Result searchLatency(const RunSetup& setup, RunMachinery& machinery) {
  Result result;
  const double lowerBound =
      static_cast<double>(std::max<Cycle>(setup.criticalPath, setup.facts->resMii().value));
  result.bounds.lowerBound = lowerBound;
  std::optional<Schedule> start = startSchedule(setup, result.attempts);
  if (!start) return errorResult("list scheduling found no start schedule for the latency search");
  const Candidate first{*start, latencyOf(setup, *start), nullptr};
  result.attempts.push_back(startAttempt(ModelStatus::kFeasible, first.objective,
                                         setup.givenSchedule ? "given" : "list scheduling"));
  SearchEnd<LatencySearchState> search = descendingSearch(
      static_cast<std::int64_t>(lowerBound), static_cast<std::int64_t>(first.objective),
      searchStrategy(setup, first.objective - lowerBound), LatencySearchState{first, true},
      [&](const LatencySearchState& state, std::int64_t horizon) {
        return latencyRound(setup, machinery, state, horizon);
      },
      [&machinery] { return machinery.budget.exhausted(); });
  for (Attempt& attempt : search.attempts) result.attempts.push_back(std::move(attempt));
  const Candidate& best = search.last.best;
  result.schedule = best.schedule;
  result.objective = best.objective;
  result.objectiveName = toString(ProblemObjective::kLatency);
  result.bounds.latencyProvenOptimal = best.objective <= lowerBound;
  result.status =
      result.bounds.latencyProvenOptimal ? ModelStatus::kOptimal : ModelStatus::kFeasible;
  return result;
}

}  // namespace

const FormulationPart& latencyPart() {
  static const FormulationPart part{
      .objective = latencyOf, .boundedHorizon = false, .search = searchLatency};
  return part;
}

}  // namespace gaus::differentiable
