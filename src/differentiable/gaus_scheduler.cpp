// The GauS engine's entry point: resolves the formulation, finds a legal start, and runs the
// searches of GAUS.md "Formulations":
// - L: the horizon is searched from outside. Start at D = (the start's latency) - 1, solve the
//   feasibility problem at D, legalize; on success record the schedule and try (its latency) - 1,
//   on failure stop. The lower bound max(critical path, ResMII) ends the search as optimal.
// - C without a given II: the same search over II, from the iterative modulo scheduler's II
//   down to MinII = max(ResMII, RecMII). With a given II: one attempt at it, minimizing the
//   secondary objective (modulo memory or latency).
// - A and B: one attempt at the given horizon, minimizing the objective. A (also the stage
//   problem's formulation) starts from the better of list scheduling and the greedy balanced cut,
//   and refines every legalized schedule by moves and swaps between stages
//   (heuristic::refineStages); B refines every legalized schedule by single-op moves for peak
//   live memory (heuristic::refineLiveMemory; docs/gaus.md says why).
// The result is never worse than the start it was given (keep-best): the start is the first
// "best" and only strictly better verified schedules replace it.
#include <algorithm>
#include <cmath>
#include <random>

#include <ATen/Parallel.h>
#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/stage_objective.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/differentiable/gaus_scheduler.hpp>
#include <gaus/heuristic/balanced_stages.hpp>
#include <gaus/heuristic/iterative_modulo_scheduler.hpp>
#include <gaus/heuristic/list_scheduler.hpp>
#include <gaus/heuristic/memory_refinement.hpp>
#include <gaus/heuristic/stage_refinement.hpp>

#include "descending_search.hpp"
#include "formulation.hpp"
#include "initialization.hpp"
#include "legalization.hpp"
#include "optimization_rounds.hpp"
#include "progress_trace.hpp"
#include "tensor_support.hpp"
#include "window_distribution.hpp"

namespace gaus::differentiable {

namespace {

// Everything one run shares.
struct Run {
  const Problem& problem;
  const Graph& graph;
  GausOptions options;
  TensorSettings settings;
  Formulation formulation = Formulation::kLatency;
  ModuloObjective moduloObjective = ModuloObjective::kNone;
  const Schedule* givenSchedule = nullptr;
  std::vector<Cycle> asap;
  Cycle criticalPath = 0;
  RunState state;
  ProgressTrace trace;
  std::mt19937_64 random;
  Result result;
  // A and B: legalized schedules are refined (option refine, no limited resource reserved).
  bool refine = false;
};

Expected<Formulation> resolveFormulation(const Problem& problem, Formulation requested) {
  const Graph& graph = *problem.graph;
  Formulation formulation = requested;
  if (formulation == Formulation::kAuto) {
    switch (problem.kind) {
      case ProblemKind::kLatency:
        formulation = Formulation::kLatency;
        break;
      case ProblemKind::kLatencyBounded: {
        bool hasMem = false;
        for (OpId op = 0; op < graph.numOps() && !hasMem; ++op) hasMem = graph.mem(op) != 0.0;
        formulation = hasMem ? Formulation::kPeakMemory : Formulation::kStageWeight;
        break;
      }
      case ProblemKind::kModulo:
        formulation = Formulation::kModulo;
        break;
      case ProblemKind::kModuloWarp:
        return Error{"gaus does not solve modulo-warp problems; use method twill"};
      case ProblemKind::kStages:
        formulation = Formulation::kStageWeight;
        break;
    }
  }
  const bool fits =
      (formulation == Formulation::kLatency && problem.kind == ProblemKind::kLatency) ||
      ((formulation == Formulation::kStageWeight || formulation == Formulation::kPeakMemory) &&
       problem.kind == ProblemKind::kLatencyBounded) ||
      (formulation == Formulation::kStageWeight && problem.kind == ProblemKind::kStages) ||
      (formulation == Formulation::kModulo && problem.kind == ProblemKind::kModulo);
  if (!fits) {
    return Error{
        fmt::format("formulation {} does not fit a {} problem (L: latency, A and B: "
                    "latency-bounded with --horizon, A: stages too, C: modulo)",
                    toString(formulation), toString(problem.kind))};
  }
  return formulation;
}

bool useReleaseTimes(const Run& run) {
  if (run.options.releaseTimes == "on") return true;
  if (run.options.releaseTimes == "off") return false;
  return run.formulation == Formulation::kStageWeight ||
         run.formulation == Formulation::kPeakMemory;
}

// Option horizon_search: "auto" bisects gaps wider than 32 cycles (or II steps).
SearchStrategy searchStrategy(const Run& run, double gap) {
  if (run.options.horizonSearch == "linear") return SearchStrategy::kLinear;
  if (run.options.horizonSearch == "bisect") return SearchStrategy::kBisect;
  return gap > 32 ? SearchStrategy::kBisect : SearchStrategy::kLinear;
}

bool verified(const Problem& problem, const Schedule& schedule) {
  VerifyOptions options;
  options.maxMessages = 0;
  return verify(problem, schedule, options).ok();
}

std::vector<Cycle> alapAt(const Run& run, const std::vector<OpId>& order, Cycle horizon) {
  auto alap = alapTimes(run.graph, order, horizon);
  return alap ? std::move(alap).value() : run.asap;
}

// The record of where a run starts: its latency when known, and from what.
Attempt startAttempt(ModelStatus status, std::optional<double> latency, std::string detail) {
  Attempt attempt;
  attempt.phase = "start";
  attempt.status = status;
  if (latency) attempt.latency = static_cast<std::int64_t>(*latency);
  attempt.detail = std::move(detail);
  return attempt;
}

// The record of one attempt at horizon D: feasible when it legalized a schedule within D. A
// failure proves nothing (the optimizer stopped, the problem may still be feasible).
Attempt horizonAttempt(const AttemptOutcome& outcome, Cycle horizon, double seconds) {
  Attempt attempt;
  attempt.phase = "horizon";
  attempt.horizon = horizon;
  attempt.status = outcome.succeeded ? ModelStatus::kFeasible : ModelStatus::kUnknown;
  attempt.seconds = seconds;
  attempt.detail =
      fmt::format("{} after {} updates", outcome.succeeded ? "legal" : "no legal schedule within D",
                  outcome.updates);
  return attempt;
}

// The legal schedule a run starts from: the caller's when it verifies, else the heuristic's when
// it verifies (list scheduling may overrun a horizon), else none.
std::optional<Schedule> startSchedule(Run& run) {
  if (run.givenSchedule != nullptr) {
    if (verified(run.problem, *run.givenSchedule)) return *run.givenSchedule;
    run.result.attempts.push_back(
        startAttempt(ModelStatus::kUnknown, std::nullopt,
                     "the given schedule does not verify: used as mu only"));
  }
  if (run.problem.isModulo()) {
    heuristic::ImsOptions ims;
    ims.ii = run.problem.ii;
    Result imsResult = heuristic::iterativeModuloSchedule(run.problem, ims);
    if (imsResult.schedule && verified(run.problem, *imsResult.schedule)) {
      return std::move(imsResult.schedule);
    }
    run.result.attempts.push_back(startAttempt(
        ModelStatus::kUnknown, std::nullopt,
        fmt::format("iterative modulo scheduling gave no legal start ({})", imsResult.message)));
    return std::nullopt;
  }
  auto list = heuristic::listSchedule(run.problem);
  if (list && verified(run.problem, *list)) return std::move(list).value();
  return std::nullopt;
}

double latencyOf(const Run& run, const Schedule& schedule) {
  return static_cast<double>(computeMetrics(run.graph, *run.problem.machine, schedule).latency);
}

// The formulation's objective of a legal schedule (C: the secondary objective at its II).
double objectiveOf(const Run& run, const Schedule& schedule) {
  switch (run.formulation) {
    case Formulation::kStageWeight:
      return stageObjective(run.graph, schedule, run.options.alpha);
    case Formulation::kPeakMemory:
      return computeMetrics(run.graph, *run.problem.machine, schedule).peakLiveMemory;
    case Formulation::kModulo:
      if (run.moduloObjective == ModuloObjective::kMemory) {
        return computeMetrics(run.graph, *run.problem.machine, schedule).peakLiveMemory;
      }
      return latencyOf(run, schedule);
    default:
      return latencyOf(run, schedule);
  }
}

// Means for the first attempt (option init): the given schedule, the start schedule (squeezed
// into the horizon) or the ASAP/ALAP midpoint. "auto" is the given schedule if any, else the
// midpoint for A and B (GAUS.md) and the start schedule for L and C (list or iterative modulo
// scheduling; "What to expect").
StartingPoint firstStartingPoint(const Run& run, const Schedule* start,
                                 const std::vector<Cycle>& alap) {
  Initialization init = run.options.initialization;
  if (init == Initialization::kAuto) {
    const bool boundedHorizon =
        run.formulation == Formulation::kStageWeight || run.formulation == Formulation::kPeakMemory;
    init = run.givenSchedule != nullptr ? Initialization::kGiven
           : boundedHorizon             ? Initialization::kAsapAlap
                                        : Initialization::kList;
  }
  if (init == Initialization::kGiven && run.givenSchedule != nullptr) {
    return scheduleStart(*run.givenSchedule, run.asap, alap, run.options);
  }
  if (init == Initialization::kList && start != nullptr) {
    return scheduleStart(*start, run.asap, alap, run.options);
  }
  return midpointStart(run.asap, alap, run.options);
}

// The refinement of a legal schedule for the formulation's objective. A: peak + alpha x
// communication, i.e. the stage refinement's ratio x peak + communication with ratio = 1 / alpha.
// B: peak live memory.
Schedule refined(const Run& run, const Schedule& legal, Cycle horizon) {
  const auto stop = [&run] { return run.state.exhausted(); };
  if (run.formulation == Formulation::kPeakMemory) {
    heuristic::MemoryRefinementOptions refinement;
    refinement.stop = stop;
    return heuristic::refineLiveMemory(run.graph, horizon, legal, refinement).schedule;
  }
  heuristic::StageRefinementOptions refinement;
  refinement.ratio = run.options.alpha > 0.0 ? 1.0 / run.options.alpha : 1.0e12;
  refinement.stop = stop;
  return heuristic::refineStages(run.graph, horizon, legal, refinement).schedule;
}

// Refinement ignores reservations: it applies where no op reserves a limited resource.
bool reservesLimitedResource(const Problem& problem) {
  for (OpId op = 0; op < problem.graph->numOps(); ++op) {
    for (const auto& block : problem.graph->reservation(op)) {
      if (problem.machine->resources[block.resource].limited()) return true;
    }
  }
  return false;
}

std::optional<Candidate> legalizeAcyclicCandidate(const Run& run, const std::vector<double>& mu,
                                                  std::optional<Cycle> horizon) {
  const std::vector<Cycle> rounded = roundedStarts(mu);
  const std::vector<double> priority(rounded.begin(), rounded.end());
  const bool release = useReleaseTimes(run);
  auto schedule = legalizeAcyclic(run.problem, priority, release ? &rounded : nullptr);
  if (!schedule) return std::nullopt;
  // With release times the schedule may overrun the horizon where plain priority would not.
  if (horizon && release && latencyOf(run, *schedule) > static_cast<double>(*horizon)) {
    schedule = legalizeAcyclic(run.problem, priority, nullptr);
    if (!schedule) return std::nullopt;
  }
  if (horizon && latencyOf(run, *schedule) > static_cast<double>(*horizon)) return std::nullopt;
  if (!verified(run.problem, *schedule)) return std::nullopt;
  if (run.refine && horizon) {
    schedule = refined(run, *schedule, *horizon);
    if (!verified(run.problem, *schedule)) return std::nullopt;
  }
  Candidate candidate{std::move(schedule).value(), 0.0};
  candidate.objective = objectiveOf(run, candidate.schedule);
  return candidate;
}

// ---------------------------------------------------------------- L: search over the horizon
void searchLatency(Run& run, const std::vector<OpId>& order) {
  const Problem& problem = run.problem;
  const ResMii resMii = computeResMii(run.graph, *problem.machine);
  const double lowerBound = static_cast<double>(std::max<Cycle>(run.criticalPath, resMii.value));
  run.result.bounds.lowerBound = lowerBound;
  std::optional<Schedule> start = startSchedule(run);
  if (!start) {
    run.result = errorResult("list scheduling found no start schedule for the latency search");
    return;
  }
  Candidate best{*start, latencyOf(run, *start)};
  run.result.attempts.push_back(startAttempt(ModelStatus::kFeasible, best.objective,
                                             run.givenSchedule ? "given" : "list scheduling"));
  bool firstAttempt = true;
  const auto attemptAt = [&](std::int64_t horizon) -> std::optional<std::int64_t> {
    const std::vector<Cycle> alap = alapAt(run, order, horizon);
    const WindowGeometry geometry = makeWindowGeometry(horizon, run.options);
    const FormulationModel model(problem, Formulation::kLatency, ModuloObjective::kNone,
                                 run.options, geometry, std::nullopt, 1.0, run.settings);
    AttemptSpec spec;
    spec.model = &model;
    spec.start = firstAttempt ? firstStartingPoint(run, &best.schedule, alap)
                              : scheduleStart(best.schedule, run.asap, alap, run.options);
    if (run.options.mixedStarts) spec.alternateStart = midpointStart(run.asap, alap, run.options);
    spec.legalize = [&](const std::vector<double>& mu) {
      return legalizeAcyclicCandidate(run, mu, std::nullopt);
    };
    spec.restartFrom = [&](const Candidate& candidate) {
      return scheduleStart(candidate.schedule, run.asap, alap, run.options);
    };
    spec.objectiveToBeat = best.objective;
    spec.success = [horizon](const Candidate& c) { return c.objective <= horizon; };
    spec.bestLegalSoFar = best.objective;
    const double began = run.state.elapsedSeconds();
    AttemptOutcome outcome =
        runAttempt(spec, run.options, run.settings, run.state, run.trace, run.random);
    firstAttempt = false;
    Attempt attempt = horizonAttempt(outcome, horizon, run.state.elapsedSeconds() - began);
    if (outcome.succeeded) attempt.latency = static_cast<std::int64_t>(outcome.best->objective);
    run.result.attempts.push_back(std::move(attempt));
    // A candidate between D and the best known is kept even when the attempt failed.
    if (outcome.best && outcome.best->objective < best.objective) best = *outcome.best;
    if (!outcome.succeeded) return std::nullopt;
    return static_cast<std::int64_t>(best.objective);
  };
  descendingSearch(static_cast<std::int64_t>(lowerBound), static_cast<std::int64_t>(best.objective),
                   searchStrategy(run, best.objective - lowerBound), attemptAt,
                   [&run] { return run.state.exhausted(); });
  run.result.schedule = best.schedule;
  run.result.objective = best.objective;
  run.result.objectiveName = "latency";
  run.result.bounds.latencyProvenOptimal = best.objective <= lowerBound;
  run.result.status =
      run.result.bounds.latencyProvenOptimal ? ModelStatus::kOptimal : ModelStatus::kFeasible;
}

// ------------------------------------------------------------ A and B: one attempt at horizon D
void optimizeAtHorizon(Run& run, const std::vector<OpId>& order) {
  const Problem& problem = run.problem;
  const Cycle horizon = *problem.horizon;
  if (horizon < run.criticalPath) {
    // A proven answer about a well-formed problem, not a failed call.
    run.result.status = ModelStatus::kInfeasible;
    run.result.message = fmt::format(
        "horizon D={} is shorter than the critical path ({} cycles): no schedule exists; "
        "raise --horizon",
        horizon, run.criticalPath);
    return;
  }
  const std::vector<Cycle> alap = alapAt(run, order, horizon);
  std::optional<Schedule> start = startSchedule(run);
  std::optional<Candidate> best;
  std::string startName;
  // Each start is refined where refinement applies (A), and the best refined one is the first
  // "best", so the result is never worse than any of them refined.
  const auto consider = [&](const Schedule& schedule, const std::string& name) {
    Schedule candidate = run.refine ? refined(run, schedule, horizon) : schedule;
    const double objective = objectiveOf(run, candidate);
    if (!best || objective < best->objective) {
      best = Candidate{std::move(candidate), objective};
      startName = run.refine ? name + ", refined" : name;
    }
  };
  if (start) consider(*start, run.givenSchedule ? "given" : "list scheduling");
  // A: GS-Schedule's greedy balanced cut is a start too (a stage schedule wherever the edges'
  // delays are 0 and the ops' durations 1; elsewhere it may not verify and is left out).
  if (run.formulation == Formulation::kStageWeight && run.givenSchedule == nullptr) {
    if (const auto cut = heuristic::greedyBalancedStages(run.graph, horizon);
        cut && verified(problem, *cut)) {
      consider(*cut, "greedy balanced cut");
    }
  }
  run.result.attempts.push_back(
      best ? startAttempt(ModelStatus::kFeasible, std::nullopt,
                          fmt::format("objective {:.10g} ({})", best->objective, startName))
           : startAttempt(ModelStatus::kUnknown, std::nullopt,
                          "list scheduling exceeds the horizon"));
  // Without a legal start, the list schedule still gives the memory scale and, for init=list,
  // the means (squeezed into the horizon).
  if (!start) {
    if (auto list = heuristic::listSchedule(problem)) start = std::move(list).value();
  }

  double scale = 1.0;
  if (run.formulation == Formulation::kStageWeight) {
    const double bound = peakStageWeightLowerBound(run.graph, horizon);
    if (problem.kind != ProblemKind::kStages) run.result.bounds.lowerBound = bound;
    scale = bound > 0 ? bound : 1.0;
  } else if (start) {
    const double peak = computeMetrics(run.graph, *problem.machine, *start).peakLiveMemory;
    scale = peak > 0 ? peak : 1.0;
  }
  if (run.formulation == Formulation::kPeakMemory) {
    if (auto bound = peakLiveMemoryLowerBound(run.graph, horizon)) {
      run.result.bounds.lowerBound = *bound;
    }
  }
  const WindowGeometry geometry = makeWindowGeometry(horizon, run.options);
  const FormulationModel model(problem, run.formulation, ModuloObjective::kNone, run.options,
                               geometry, std::nullopt, scale, run.settings);
  AttemptSpec spec;
  spec.model = &model;
  spec.start = firstStartingPoint(run, start ? &*start : nullptr, alap);
  if (run.options.mixedStarts && best) {
    spec.alternateStart = scheduleStart(best->schedule, run.asap, alap, run.options);
  }
  spec.legalize = [&](const std::vector<double>& mu) {
    return legalizeAcyclicCandidate(run, mu, horizon);
  };
  spec.restartFrom = [&](const Candidate& candidate) {
    return scheduleStart(candidate.schedule, run.asap, alap, run.options);
  };
  if (best) {
    spec.objectiveToBeat = best->objective;
    spec.bestLegalSoFar = best->objective;
  }
  // A schedule at the lower bound is optimal: the search ends there, and does not start when
  // the (refined) start is there already.
  const std::optional<double> bound = run.result.bounds.lowerBound;
  const auto atBound = [bound](const Candidate& candidate) {
    return bound && candidate.objective <= *bound + 1e-9 * std::max(1.0, std::abs(*bound));
  };
  if (bound) spec.success = atBound;
  const double began = run.state.elapsedSeconds();
  AttemptOutcome outcome;
  if (!best || !atBound(*best)) {
    outcome = runAttempt(spec, run.options, run.settings, run.state, run.trace, run.random);
  }
  Attempt attempt = horizonAttempt(outcome, horizon, run.state.elapsedSeconds() - began);
  attempt.status = outcome.best || best ? ModelStatus::kFeasible : ModelStatus::kUnknown;
  attempt.detail = fmt::format(
      "{} after {} updates in {} rounds",
      outcome.best ? fmt::format("improved to {:.10g}", outcome.best->objective) : "no improvement",
      outcome.updates, outcome.rounds);
  run.result.attempts.push_back(std::move(attempt));
  if (outcome.best) best = std::move(outcome.best);
  run.result.objectiveName =
      run.formulation == Formulation::kStageWeight ? "stage_objective" : "peak_memory";
  if (!best) {
    run.result.status = ModelStatus::kTimeout;
    run.result.message = fmt::format(
        "no legal schedule at D={} found in {:.1f}s; raise "
        "time_limit or patience, or the horizon",
        horizon, run.state.elapsedSeconds());
    return;
  }
  run.result.schedule = best->schedule;
  if (problem.kind == ProblemKind::kStages) {
    // GS-Schedule's scale: ratio x peak + communication, bound ratio x LB.
    reportStageObjective(problem, best->schedule, run.result);
    return;
  }
  run.result.objective = best->objective;
  if (run.formulation == Formulation::kStageWeight) {
    const StageFigures figures = stageFigures(run.graph, best->schedule);
    run.result.extra.emplace_back("peak_stage_weight", figures.peakStageWeight);
    run.result.extra.emplace_back("communication", figures.communication);
  }
  run.result.status = atBound(*best) ? ModelStatus::kOptimal : ModelStatus::kFeasible;
}

// ------------------------------------------------------------------------ C: modulo schedules
Cycle moduloHorizon(const Run& run, const Schedule& reference) {
  if (run.problem.horizon) return *run.problem.horizon;
  const double latency = latencyOf(run, reference);
  return std::max<Cycle>(run.criticalPath + 1,
                         static_cast<Cycle>(std::ceil((1.0 + run.options.horizonSlack) * latency)));
}

// One attempt at `ii`: candidates are modulo-legalized means scored by the secondary objective.
AttemptOutcome attemptAtIi(Run& run, const std::vector<OpId>& order, std::int32_t ii, Cycle horizon,
                           const std::optional<Candidate>& best, double scale,
                           bool stopAtFirstLegal) {
  const std::vector<Cycle> alap = alapAt(run, order, horizon);
  const WindowGeometry geometry = makeWindowGeometry(horizon, run.options);
  const FormulationModel model(run.problem, Formulation::kModulo, run.moduloObjective, run.options,
                               geometry, ii, scale, run.settings);
  Problem atIi = run.problem;
  atIi.ii = ii;
  AttemptSpec spec;
  spec.model = &model;
  spec.start = !best              ? midpointStart(run.asap, alap, run.options)
               : stopAtFirstLegal ? scheduleStart(best->schedule, run.asap, alap, run.options)
                                  : firstStartingPoint(run, &best->schedule, alap);
  if (run.options.mixedStarts && best) {
    spec.alternateStart = midpointStart(run.asap, alap, run.options);
  }
  spec.legalize = [&](const std::vector<double>& mu) -> std::optional<Candidate> {
    auto schedule = legalizeModulo(atIi, ii, roundedStarts(mu), alap, useReleaseTimes(run));
    if (!schedule || !verified(atIi, *schedule)) return std::nullopt;
    Candidate candidate{std::move(schedule).value(), 0.0};
    candidate.objective = objectiveOf(run, candidate.schedule);
    return candidate;
  };
  spec.restartFrom = [&](const Candidate& candidate) {
    return scheduleStart(candidate.schedule, run.asap, alap, run.options);
  };
  if (stopAtFirstLegal) {
    spec.success = [](const Candidate&) { return true; };
  } else if (best) {
    spec.objectiveToBeat = best->objective;
    spec.bestLegalSoFar = best->objective;
  }
  return runAttempt(spec, run.options, run.settings, run.state, run.trace, run.random);
}

void searchModulo(Run& run, const std::vector<OpId>& order) {
  const Problem& problem = run.problem;
  const ResMii resMii = computeResMii(run.graph, *problem.machine);
  const RecMii recMii = computeRecMii(run.graph);
  if (resMii.infeasible || recMii.infeasible) {
    run.result = errorResult(resMii.infeasible ? *resMii.infeasible : *recMii.infeasible);
    run.result.status = ModelStatus::kInfeasible;
    return;
  }
  const std::int64_t minIi = std::max<std::int64_t>({1, resMii.value, recMii.value});
  run.result.bounds.iiBoundReason = describeIiBound(run.graph, *problem.machine, resMii, recMii);
  std::optional<Schedule> start = startSchedule(run);
  std::optional<Candidate> best;
  if (start) best = Candidate{*start, objectiveOf(run, *start)};
  if (best) {
    Attempt attempt = startAttempt(
        ModelStatus::kFeasible, std::nullopt,
        fmt::format("objective {:.10g} (iterative modulo scheduling)", best->objective));
    attempt.ii = *best->schedule.ii;
    run.result.attempts.push_back(std::move(attempt));
  } else {
    run.result.attempts.push_back(
        startAttempt(ModelStatus::kUnknown, std::nullopt, "no legal modulo schedule"));
  }

  const double startScale = best ? objectiveOf(run, best->schedule) : 1.0;
  if (problem.ii) {
    // A fixed II: minimize the secondary objective.
    const Cycle horizon = best ? moduloHorizon(run, best->schedule)
                               : problem.horizon.value_or(2 * run.criticalPath + *problem.ii);
    const double scale = run.moduloObjective == ModuloObjective::kLatency
                             ? static_cast<double>(horizon)
                             : std::max(startScale, 1e-9);
    const double began = run.state.elapsedSeconds();
    AttemptOutcome outcome = attemptAtIi(run, order, *problem.ii, horizon, best, scale, false);
    Attempt attempt = horizonAttempt(outcome, horizon, run.state.elapsedSeconds() - began);
    attempt.ii = *problem.ii;
    attempt.status = outcome.best || best ? ModelStatus::kFeasible : ModelStatus::kUnknown;
    attempt.detail = fmt::format(
        "{} after {} updates",
        outcome.best ? fmt::format("objective {:.10g}", outcome.best->objective) : "no improvement",
        outcome.updates);
    run.result.attempts.push_back(std::move(attempt));
    if (outcome.best) best = std::move(outcome.best);
    run.result.objectiveName =
        run.moduloObjective == ModuloObjective::kMemory ? "peak_memory" : "latency";
  } else {
    // Search II downwards from the start's.
    run.result.bounds.lowerBound = static_cast<double>(minIi);
    const auto attemptAt = [&](std::int64_t ii) -> std::optional<std::int64_t> {
      const Cycle horizon = moduloHorizon(run, best->schedule);
      const double scale = run.moduloObjective == ModuloObjective::kLatency
                               ? static_cast<double>(horizon)
                               : std::max(objectiveOf(run, best->schedule), 1e-9);
      const double began = run.state.elapsedSeconds();
      AttemptOutcome outcome =
          attemptAtIi(run, order, static_cast<std::int32_t>(ii), horizon, best, scale, true);
      Attempt attempt = horizonAttempt(outcome, horizon, run.state.elapsedSeconds() - began);
      attempt.ii = ii;
      run.result.attempts.push_back(std::move(attempt));
      if (!outcome.succeeded) return std::nullopt;
      best = std::move(outcome.best);
      return *best->schedule.ii;
    };
    if (best) {
      descendingSearch(minIi, *best->schedule.ii,
                       searchStrategy(run, static_cast<double>(*best->schedule.ii - minIi)),
                       attemptAt, [&run] { return run.state.exhausted(); });
    }
    run.result.objectiveName = "ii";
  }
  if (!best) {
    run.result.status = ModelStatus::kTimeout;
    run.result.message = "no legal modulo schedule found; raise time_limit or patience";
    return;
  }
  run.result.schedule = best->schedule;
  const std::int32_t ii = *best->schedule.ii;
  run.result.bounds.iiProvenOptimal = ii <= minIi;
  if (problem.ii) {
    run.result.objective = best->objective;
    run.result.status = ModelStatus::kFeasible;
  } else {
    run.result.objective = ii;
    run.result.status = ii <= minIi ? ModelStatus::kOptimal : ModelStatus::kFeasible;
  }
  run.result.extra.emplace_back("ii", ii);
  run.result.extra.emplace_back("latency", latencyOf(run, best->schedule));
  run.result.extra.emplace_back("min_ii", static_cast<double>(minIi));
}

// ------------------------------------------------------------------ memory limit, before tensors
// Tensors live at once per window element, estimated from gaus-bench gaus-scale
// (docs/benchmarks.md): 100,000 ops and 299,764 edges at W = 65, batch 1, float32 peaked at
// 0.43 GB RSS, about 0.35 GB above the process without a model, i.e. 3.4 tensors of
// (|V| + |E|) x W elements; rounded up.
constexpr double kTensorCopies = 4.0;

// The longest horizon any attempt may use: the problem's, else a serial schedule's length (ops
// one at a time, each waiting its longest delay), which no start's latency exceeds.
std::int64_t largestHorizon(const Problem& problem) {
  if (problem.horizon) return *problem.horizon;
  const Graph& graph = *problem.graph;
  std::int64_t serial = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    Cycle longest = graph.duration(op);
    for (EdgeId e : graph.outEdges(op)) longest = std::max<Cycle>(longest, graph.edgeDelay(e));
    serial += std::max<Cycle>(longest, 1);
  }
  return std::max<std::int64_t>(serial, 1);
}

// Bytes the run's tensors may take, before any is allocated: per batch row, the windows of ops
// and edges ((|V| + |E|) x W: probabilities, CDF gathers and their gradients) and the resource
// tables (|R| x D), kTensorCopies of each (GAUS.md, "Windows, not |V| x D tensors").
std::int64_t estimatedTensorBytes(const Problem& problem, const GausOptions& options,
                                  const WindowGeometry& geometry) {
  const Graph& graph = *problem.graph;
  const double elementBytes = options.dtype == "float64" ? 8.0 : 4.0;
  const double elements =
      static_cast<double>(graph.numOps() + graph.numEdges()) * static_cast<double>(geometry.width) +
      static_cast<double>(problem.machine->numResources()) * static_cast<double>(geometry.horizon);
  return static_cast<std::int64_t>(std::min(
      kTensorCopies * static_cast<double>(options.batch) * elementBytes * elements, 9.0e18));
}

}  // namespace

Result scheduleWithGaus(const Problem& problem, const GausOptions& options,
                        const RunContext& context) {
  auto settings = resolveTensorSettings(options.device, options.dtype, options.kernels);
  if (!settings) return errorResult("method gaus: " + settings.error());
  auto formulation = resolveFormulation(problem, options.formulation);
  if (!formulation) return errorResult("method gaus: " + formulation.error());
  if (options.initialization == Initialization::kGiven && context.initialSchedule == nullptr) {
    return errorResult(
        "method gaus: init=given needs an initial schedule (RunContext::initialSchedule)");
  }
  auto trace = ProgressTrace::open(context, options.tracePath, options.progressIntervalSeconds);
  if (!trace) return errorResult("method gaus: " + trace.error());
  auto order = topologicalOrder(*problem.graph);
  if (!order) return errorResult(order.error());
  if (options.threads > 0) at::set_num_threads(static_cast<int>(options.threads));
  GausOptions resolved = options;
  // The stage problem carries its objective: alpha is 1 / its ratio.
  if (problem.kind == ProblemKind::kStages) resolved.alpha = 1.0 / problem.stageRatio;
  if (resolved.batch == 0) {
    const std::int64_t ops = std::max<std::int64_t>(problem.graph->numOps(), 1);
    resolved.batch = std::clamp<std::int64_t>(10000 / ops, 1, 8);
  }
  const WindowGeometry largest = makeWindowGeometry(largestHorizon(problem), resolved);
  if (auto refused = refuseAboveMemoryLimit(
          fmt::format("method gaus: the tensors of {} ops and {} edges (window W = {}, horizon up "
                      "to {}, batch {}, {})",
                      problem.graph->numOps(), problem.graph->numEdges(), largest.width,
                      largest.horizon, resolved.batch, resolved.dtype),
          estimatedTensorBytes(problem, resolved, largest), resolved.memoryLimitBytes,
          resolved.dense ? "leave the dense model (-O dense=false), lower -O batch"
                         : "lower -O batch, or -O sigma_max or -O window_k (W = 2 ceil(k "
                           "sigma_max) + 1), or use float32",
          "list, ims or balanced")) {
    return errorResult(*refused);
  }

  Run run{problem,
          *problem.graph,
          resolved,
          *settings,
          *formulation,
          ModuloObjective::kNone,
          context.initialSchedule,
          asapTimes(*problem.graph, *order),
          0,
          RunState(resolved, context),
          std::move(trace).value(),
          std::mt19937_64(options.seed),
          Result{}};
  run.criticalPath = criticalPathLength(run.graph, run.asap);
  run.refine = resolved.refine &&
               (run.formulation == Formulation::kStageWeight ||
                run.formulation == Formulation::kPeakMemory) &&
               !reservesLimitedResource(problem);
  if (run.formulation == Formulation::kModulo) {
    run.moduloObjective = options.moduloObjective;
    if (run.moduloObjective == ModuloObjective::kAuto) {
      bool hasMem = false;
      for (OpId op = 0; op < run.graph.numOps() && !hasMem; ++op) hasMem = run.graph.mem(op) != 0;
      run.moduloObjective = hasMem ? ModuloObjective::kMemory : ModuloObjective::kLatency;
    }
  }

  if (run.graph.numOps() == 0) {
    run.result.status = ModelStatus::kOptimal;
    run.result.schedule = Schedule{};
    if (problem.isModulo()) run.result.schedule->ii = problem.ii.value_or(1);
  } else if (run.formulation == Formulation::kLatency) {
    searchLatency(run, *order);
  } else if (run.formulation == Formulation::kModulo) {
    searchModulo(run, *order);
  } else {
    optimizeAtHorizon(run, *order);
  }
  Result result = std::move(run.result);
  if (!result.failed() && run.state.exhausted() && result.status != ModelStatus::kOptimal) {
    result.status = ModelStatus::kTimeout;
    if (result.message.empty()) {
      result.message = fmt::format(
          "budget reached after {:.1f}s and {} Adam steps; the best "
          "schedule found is returned",
          run.state.elapsedSeconds(), run.state.steps());
    }
  }
  // What "auto" resolved to; the options themselves are echoed by the method's table.
  result.notes.emplace_back("formulation used", std::string(toString(run.formulation)));
  result.notes.emplace_back("device used", run.settings.device.str());
  result.notes.emplace_back("kernels used", run.settings.fused ? "fused" : "torch");
  result.extra.emplace_back("batch_used", static_cast<double>(resolved.batch));
  result.stats.iterations = run.state.steps();
  result.stats.solverCalls = run.state.legalizations;
  result.extra.emplace_back("adam_steps", static_cast<double>(run.state.steps()));
  result.extra.emplace_back("optimization_seconds", run.state.optimizationSeconds);
  result.extra.emplace_back("legalization_seconds", run.state.legalizationSeconds);
  if (run.state.steps() > 0) {
    result.extra.emplace_back(
        "seconds_per_step", run.state.optimizationSeconds / static_cast<double>(run.state.steps()));
  }
  if (run.state.firstLegalSeconds()) {
    result.extra.emplace_back("first_legal_seconds", *run.state.firstLegalSeconds());
  }
  return result;
}

}  // namespace gaus::differentiable
