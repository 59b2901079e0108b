// Acyclic latency minimization under resources: a time-indexed MILP (TWILL.md section 2, last
// paragraph; the model itself is in time_indexed.cpp). Windows: ASAP from the critical path,
// ALAP from an upper bound on the latency, which is the latency of a list schedule (also the
// solver's first incumbent). The lower bound on L is the larger of the critical path and, per resource,
// the busy cycles divided by the capacity.

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/deadline.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/exact/exact_figures.hpp>
#include <gaus/exact/latency_milp.hpp>
#include <gaus/milp/milp_model.hpp>

#include "latency_sat.hpp"
#include "normalized_solve.hpp"
#include "start_schedule.hpp"
#include "time_indexed.hpp"

namespace gaus::exact {

namespace {

// The initial schedule (--init) replaces the list schedule as the MIP start when its latency is
// lower; its latency and a note saying which start was taken go into the result.
void takeBetterInitial(const Graph& graph, const LatencyMilpOptions& options,
                       const Schedule& initial, Cycle listLatency, std::optional<Schedule>& start,
                       Cycle& startLatency, Result& result) {
  const Cycle initialLatency = scheduleLatency(graph, initial.start);
  result.figures.set(figures::kInitLatency, static_cast<double>(initialLatency));
  const bool initialIsBetter = initialLatency < listLatency;
  if (initialIsBetter) {
    start = initial;
    startLatency = initialLatency;
  }
  result.notes.emplace_back(
      "initial schedule",
      initialIsBetter
          ? fmt::format("the start came from {}: latency {} (list schedule {}) is the MIP "
                        "start and the upper bound on L",
                        options.call.initialScheduleOrigin, initialLatency, listLatency)
          : fmt::format("{} verified with latency {}, no better than the list schedule's "
                        "{}, which stays the MIP start",
                        options.call.initialScheduleOrigin, initialLatency, listLatency));
}

// The destructive lower bound first (latency_sat.hpp): L below the start refuted one at a
// time on the SAT model, each satisfiable check a better start. When it refutes the start's
// L - 1, the start is optimal and no MILP is built; otherwise the MILP starts from what it
// found, with its bound as L's lower end.
// Returns true when that settled the problem: `result` is then the answer.
bool refuteBelowStart(const Problem& problem, const LatencyMilpOptions& options,
                      const std::vector<Cycle>& asap, std::optional<Schedule>& start,
                      Cycle& startLatency, Cycle& lower, Cycle& upper, Result& result) {
  const Graph& graph = *problem.graph;
  detail::LatencyRefutation refutation = detail::refuteLatencies(
      problem, asap, std::min(startLatency - 1, upper), lower,
      options.call.deadline.share(options.refutationShare), options.call.memoryLimitBytes);
  for (Attempt& attempt : refutation.attempts) result.attempts.push_back(std::move(attempt));
  result.stats.solverCalls += static_cast<std::int64_t>(refutation.attempts.size());
  if (refutation.refuted) lower = std::max(lower, *refutation.refuted + 1);
  if (refutation.best) {
    start = std::move(refutation.best);
    startLatency = scheduleLatency(graph, start->start);
    upper = std::min(upper, startLatency);
  }
  if (lower > upper) {
    result.status = ModelStatus::kInfeasible;
    result.message = fmt::format("no schedule completes within {} cycles (refuted by SAT)", upper);
    result.bounds.lowerBound = static_cast<double>(lower);
    return true;
  }
  if (startLatency <= upper && lower >= startLatency) {
    result.schedule = *start;
    result.objective = static_cast<double>(startLatency);
    result.status = ModelStatus::kOptimal;
    result.bounds.lowerBound = static_cast<double>(startLatency);
    result.bounds.latencyProvenOptimal = true;
    return true;
  }
  return false;
}

// What the MILP's answer makes of the result: its schedule (optimal, or with the reason it is
// not proven), infeasibility, or without a schedule the start schedule when it fits.
void takeMilpAnswer(const milp::MilpSolution& solution, const detail::TimeIndexedModel& model,
                    const LatencyMilpOptions& options, const Graph& graph,
                    const std::optional<Schedule>& start, Cycle startLatency, bool startFits,
                    Cycle upper, Result& result) {
  if (solution.hasSolution()) {
    Schedule schedule;
    schedule.start = model.decode(solution);
    const Cycle latency = scheduleLatency(graph, schedule.start);
    result.schedule = std::move(schedule);
    result.objective = static_cast<double>(latency);
    result.status = solution.status;
    if (solution.status == ModelStatus::kOptimal) {
      result.bounds.lowerBound = static_cast<double>(latency);
      result.bounds.latencyProvenOptimal = true;
    } else {
      result.message =
          fmt::format("{}: latency {} not proven optimal (lower bound {}); raise milp_time_limit",
                      solution.status == ModelStatus::kTimeout
                          ? fmt::format("time limit reached after {:.3g}s",
                                        options.call.deadline.elapsedSeconds())
                          : fmt::format("{} stopped", milp::toString(options.call.solver)),
                      latency, *result.bounds.lowerBound);
    }
  } else if (solution.status == ModelStatus::kInfeasible) {
    result.status = ModelStatus::kInfeasible;
    result.message = fmt::format("no schedule completes within {} cycles", upper);
  } else {
    if (startFits) {
      result.schedule = *start;
      result.objective = static_cast<double>(startLatency);
    }
    result.status = ModelStatus::kTimeout;
    result.message = fmt::format("time limit reached after {:.3g}s before {} found a schedule{}",
                                 options.call.deadline.elapsedSeconds(),
                                 milp::toString(options.call.solver),
                                 startFits ? "; returning the start schedule" : "");
  }
}

// The lower bound on L: the critical path, and, since every cycle holds at most `capacity` units
// of a resource, ResMII, the resource's reserved unit-cycles over its capacity (0 when no
// resource is busy).
Cycle latencyLowerBound(const ProblemFacts& facts) {
  const ResMii& resourceBound = facts.resMii();
  return std::max(facts.criticalPath(), resourceBound.binding ? resourceBound.value : 0);
}

Result solveInUnits(const Problem& problem, const LatencyMilpOptions& options,
                    const std::optional<Schedule>& initial) {
  // The deadline covers the list schedule and building the model; the solver gets the rest.
  const Deadline& deadline = options.call.deadline;
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;
  const auto facts = problem.facts();
  if (!facts->order()) return errorResult(facts->order().error());
  const std::vector<Cycle>& asap = facts->asap();
  Cycle lower = latencyLowerBound(*facts);

  Result result;
  result.objectiveName = "latency";
  const auto list = detail::greedySchedule(problem, std::nullopt);
  if (!list) return errorResult("latency MILP: the list schedule failed (distance-0 cycle?)");
  const Cycle listLatency = scheduleLatency(graph, list->start);
  result.figures.set(figures::kListLatency, static_cast<double>(listLatency));
  // The MIP start is the better of the list schedule and the initial schedule (--init).
  std::optional<Schedule> start = *list;
  Cycle startLatency = listLatency;
  if (initial)
    takeBetterInitial(graph, options, *initial, listLatency, start, startLatency, result);
  Cycle upper = startLatency;
  if (options.latencyBound) upper = std::min(upper, *options.latencyBound);
  if (problem.horizon) upper = std::min(upper, *problem.horizon);
  if (upper < lower) {
    result.status = ModelStatus::kInfeasible;
    result.message = fmt::format(
        "no schedule completes within {} cycles: the critical path and resource bound is {}", upper,
        lower);
    return result;
  }

  if (options.refutationShare > 0 && lower < upper &&
      refuteBelowStart(problem, options, asap, start, startLatency, lower, upper, result)) {
    return result;
  }

  auto latest = detail::latestStarts(graph, *facts->order(), std::nullopt, upper, asap);
  if (!latest) {
    result.status = ModelStatus::kInfeasible;
    result.message = fmt::format("no schedule completes within {} cycles", upper);
    return result;
  }
  const auto symmetries = detail::findSymmetries(graph);
  const detail::SymmetryOrderings* breaking = options.breakSymmetry ? &symmetries : nullptr;
  if (auto refused = options.call.refusal(
          fmt::format("the latency MILP (L in [{}, {}])", lower, upper),
          detail::TimeIndexedModel::estimateSize(graph, machine, std::nullopt, {asap, *latest},
                                                 breaking))) {
    return errorResult(*refused);
  }
  detail::TimeIndexedModel model(graph, machine, std::nullopt, {asap, *latest}, lower, upper,
                                 breaking);
  const bool startFits = startLatency <= upper;
  if (options.call.useStart && startFits) {
    std::vector<Cycle> mipStart = start->start;
    if (options.breakSymmetry) detail::orderBySymmetries(symmetries, mipStart);
    model.model().setStart(model.encode(mipStart));
  }
  result.figures.set(figures::kVariables, static_cast<double>(model.shape().variables));
  result.figures.set(figures::kRows, static_cast<double>(model.shape().rows));
  milp::MilpSolution solution;
  solution.status = ModelStatus::kTimeout;
  if (!deadline.expired()) solution = options.call.solve(model.model());
  result.stats.solverCalls += 1;
  result.stats.iterations = solution.nodes;
  Attempt attempt;
  attempt.phase = "milp";
  attempt.seconds = solution.seconds;
  attempt.detail = fmt::format("L in [{}, {}], {} variables, {} rows, {} {}", lower, upper,
                               model.shape().variables, model.shape().rows,
                               milp::toString(options.call.solver), solution.statusWithNote());
  result.bounds.lowerBound = static_cast<double>(lower);
  if (solution.bound) {
    result.bounds.lowerBound = std::max<double>(lower, std::ceil(*solution.bound - 1e-6));
  }
  if (solution.call == CallStatus::kError) {
    return errorResult(fmt::format("latency MILP: {} failed ({})",
                                   milp::toString(options.call.solver), solution.note));
  }
  takeMilpAnswer(solution, model, options, graph, start, startLatency, startFits, upper, result);
  attempt.status = result.status;
  attempt.latency = result.objective
                        ? std::optional<std::int64_t>(static_cast<std::int64_t>(*result.objective))
                        : std::nullopt;
  attempt.bound = result.bounds.lowerBound;
  result.attempts.push_back(std::move(attempt));
  return result;
}

// The answer of a solve in normalized units restated in cycles (normalized_solve.hpp leaves
// this to the caller): the list and initial latencies of the raw schedules, the raw critical
// path and resource bound as the lower bound, and the better raw start (the list schedule, or
// the initial schedule when it verifies and is shorter) in place of a mapped-back schedule that
// is longer: ilp never answers worse than the start it would have in raw cycles.
void restateInCycles(const Problem& problem, const LatencyMilpOptions& options, Result& result) {
  const Graph& graph = *problem.graph;
  const auto facts = problem.facts();
  if (!facts->order()) return;
  const Cycle lower = latencyLowerBound(*facts);
  result.bounds.lowerBound = static_cast<double>(lower);

  std::optional<Schedule> start = detail::greedySchedule(problem, std::nullopt);
  std::string origin = "the list schedule";
  std::optional<Cycle> startLatency;
  if (start) {
    startLatency = scheduleLatency(graph, start->start);
    result.figures.set(figures::kListLatency, static_cast<double>(*startLatency));
  }
  const Schedule* given = options.call.initialSchedule;
  if (given != nullptr && verify(problem, *given).ok()) {
    const Cycle initialLatency = scheduleLatency(graph, given->start);
    result.figures.set(figures::kInitLatency, static_cast<double>(initialLatency));
    if (!startLatency || initialLatency < *startLatency) {
      start = *given;
      startLatency = initialLatency;
      origin = options.call.initialScheduleOrigin;
    }
  }
  if (start && problem.horizon && *startLatency > *problem.horizon) start.reset();
  const std::optional<Cycle> answerLatency =
      result.schedule ? std::optional<Cycle>(scheduleLatency(graph, result.schedule->start))
                      : std::nullopt;
  if (start && (!answerLatency || *startLatency < *answerLatency)) {
    result.message += fmt::format(
        "{}{} (latency {}) beats the answer in normalized units{} and is returned",
        result.message.empty() ? "" : "; ", origin, *startLatency,
        answerLatency ? fmt::format(" ({} in raw cycles)", *answerLatency) : std::string());
    result.schedule = std::move(start);
    if (result.status != ModelStatus::kTimeout) result.status = ModelStatus::kFeasible;
  }
  if (result.schedule && scheduleLatency(graph, result.schedule->start) == lower) {
    // The raw bound meets the answer: optimal in cycles, whatever the normalized solve proved.
    result.status = ModelStatus::kOptimal;
    result.bounds.latencyProvenOptimal = true;
  }
}

}  // namespace

Result solveLatencyMilp(const Problem& problem, const LatencyMilpOptions& options) {
  // The deadline covers the cost normalization too: it and the solve in units share one.
  NormalizationOptions normalization = options.normalization;
  normalization.call = options.call;
  std::string ignoredInitial;
  Result result = detail::solveWithNormalization(
      problem, normalization, [&](const Problem& solved, std::int64_t timeUnit) {
        LatencyMilpOptions inner = options;
        if (inner.latencyBound) inner.latencyBound = *inner.latencyBound / timeUnit;
        std::optional<Schedule> initial;
        if (options.call.initialSchedule != nullptr) {
          auto scaled = detail::initialInUnits(solved, *options.call.initialSchedule, timeUnit);
          if (scaled) {
            initial = std::move(scaled).value();
          } else {
            ignoredInitial = scaled.error();
          }
        }
        return solveInUnits(solved, inner, initial);
      });
  // Ignoring a start is never an error: the solve goes on from the list schedule alone.
  if (!ignoredInitial.empty()) {
    result.notes.emplace_back(
        "initial schedule",
        fmt::format("ignored ({}): {}", options.call.initialScheduleOrigin, ignoredInitial));
  }
  if (result.figures.get(figures::kTimeUnit)) restateInCycles(problem, options, result);
  if (result.schedule) {
    result.objective = static_cast<double>(scheduleLatency(*problem.graph, result.schedule->start));
  }
  return result;
}

}  // namespace gaus::exact
