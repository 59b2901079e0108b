// The search over II of the modulo MILP (modulo_milp.hpp, searchModulo): II = MII (or 1), MII + 1,
// ... up to the serial non-overlapped II, the first II with a schedule at its minimal L, after
// Twill's Algorithm 1 (Soi et al., OSDI'26, arXiv 2512.18134) without its SMT phase. Costs are
// normalized first when they are large (normalized_solve.hpp); a fixed II is one attempt in raw
// cycles.

#include <algorithm>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/registry.hpp>
#include <gaus/exact/modulo_milp.hpp>

#include "normalized_solve.hpp"

namespace gaus::exact {

std::int32_t serialNonOverlappedIi(const Graph& graph) {
  // Serial schedule in a topological order of the distance-0 edges: each op starts when the
  // previous one has completed and its predecessors' delays have passed. It needs no heuristic,
  // and its reservations never overlap, whatever the machine.
  auto order = topologicalOrder(graph);
  if (!order) return 1;
  std::vector<Cycle> start(static_cast<std::size_t>(graph.numOps()), 0);
  Cycle previousEnd = 0;
  for (OpId op : *order) {
    Cycle t = previousEnd;
    for (EdgeId e : graph.inEdges(op)) {
      if (graph.edgeDistance(e) == 0) {
        t = std::max(t, start[graph.edgeSource(e)] + graph.edgeDelay(e));
      }
    }
    start[op] = t;
    previousEnd = t + graph.duration(op);
  }
  return static_cast<std::int32_t>(std::min<Cycle>(nonOverlappedIi(graph, start), kMaxInputValue));
}

namespace {

// The record of one MILP at a fixed II, in the one status model.
Attempt attemptRecord(const ModuloAttempt& milp) {
  Attempt attempt;
  attempt.phase = "milp";
  attempt.ii = milp.ii;
  attempt.latency = milp.latency;
  attempt.seconds = milp.seconds;
  if (milp.latencyLowerBound) attempt.bound = static_cast<double>(*milp.latencyLowerBound);
  switch (milp.verdict) {
    case AttemptVerdict::kOptimal:
      attempt.status = ModelStatus::kOptimal;
      break;
    case AttemptVerdict::kFeasible:
      attempt.status = ModelStatus::kFeasible;
      break;
    case AttemptVerdict::kInfeasible:
      attempt.status = ModelStatus::kInfeasible;
      break;
    case AttemptVerdict::kTimeout:
      attempt.status = ModelStatus::kTimeout;
      break;
    case AttemptVerdict::kError:
      attempt.call = CallStatus::kError;
      break;
  }
  attempt.detail = milp.formulation;
  if (milp.variables > 0) {
    attempt.detail += fmt::format(", {} variables, {} rows", milp.variables, milp.rows);
  }
  return attempt;
}

Result searchInUnits(const Problem& problem, const ModuloSearchOptions& options) {
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;
  Result result;
  result.objectiveName = "ii";
  const ResMii resMii = computeResMii(graph, machine);
  const RecMii recMii = computeRecMii(graph);
  if (resMii.infeasible) {
    result.status = ModelStatus::kInfeasible;
    result.message = *resMii.infeasible;
    return result;
  }
  if (recMii.infeasible) {
    result.status = ModelStatus::kInfeasible;
    result.message = *recMii.infeasible;
    return result;
  }
  const std::int64_t mii = std::max(resMii.value, recMii.value);
  result.extra.emplace_back("mii", static_cast<double>(mii));
  result.extra.emplace_back("res_mii", static_cast<double>(resMii.value));
  result.extra.emplace_back("rec_mii", static_cast<double>(recMii.value));
  result.bounds.lowerBound = static_cast<double>(mii);
  result.bounds.iiBoundReason =
      resMii.value >= recMii.value
          ? fmt::format("ResMII ({})", resMii.binding ? machine.resources[*resMii.binding].name
                                                      : std::string("no limited resource"))
          : fmt::format("RecMII (cycle through {})",
                        recMii.bindingCycle.empty() ? std::string("?")
                                                    : graph.opName(recMii.bindingCycle.front()));

  const std::int32_t first = options.startFromOne ? 1 : static_cast<std::int32_t>(mii);
  const std::int32_t last =
      options.maxIi ? *options.maxIi : std::max<std::int32_t>(first, serialNonOverlappedIi(graph));
  const Deadline deadline(options.totalTimeLimitSeconds);
  bool everySmallerProven = true;  // every II below the current one was proven infeasible
  for (std::int32_t ii = first; ii <= last; ++ii) {
    if (deadline.expired()) {
      result.status = ModelStatus::kTimeout;
      result.message = fmt::format("total time limit {}s reached at II={} (MII={})",
                                   *options.totalTimeLimitSeconds, ii, mii);
      return result;
    }
    ModuloMilpOptions milp = options.milp;
    milp.timeLimitSeconds = std::min(milp.timeLimitSeconds, deadline.remainingSeconds());
    const ModuloAttempt attempt = solveModuloAtIi(problem, ii, milp);
    ++result.stats.solverCalls;
    result.attempts.push_back(attemptRecord(attempt));
    if (options.progress) options.progress("ilp: " + result.attempts.back().describe());
    if (attempt.verdict == AttemptVerdict::kError) return errorResult(attempt.detail);
    if (!attempt.schedule) {
      if (attempt.verdict != AttemptVerdict::kInfeasible) everySmallerProven = false;
      // Every II up to this one is proven infeasible: the next one is a lower bound.
      if (everySmallerProven) result.bounds.lowerBound = static_cast<double>(ii) + 1.0;
      continue;
    }
    result.schedule = attempt.schedule;
    result.objective = ii;
    result.extra.emplace_back("latency", static_cast<double>(*attempt.latency));
    const bool iiProven = everySmallerProven || ii <= mii;
    result.bounds.iiProvenOptimal = iiProven;
    result.bounds.latencyProvenOptimal = attempt.verdict == AttemptVerdict::kOptimal;
    if (iiProven && attempt.verdict == AttemptVerdict::kOptimal) {
      result.status = ModelStatus::kOptimal;
    } else {
      result.status = ModelStatus::kFeasible;
      result.message =
          iiProven ? attempt.detail : "II not proven minimal: an attempt at a smaller II timed out";
    }
    return result;
  }
  result.status = everySmallerProven ? ModelStatus::kInfeasible : ModelStatus::kTimeout;
  result.message = fmt::format("no modulo schedule at II in [{}, {}]{}", first, last,
                               everySmallerProven ? "" : " (some attempts timed out)");
  return result;
}

}  // namespace

Result searchModulo(const Problem& problem, const ModuloSearchOptions& options) {
  if (problem.ii) {
    // A fixed II: one attempt.
    const ModuloAttempt attempt = solveModuloAtIi(problem, *problem.ii, options.milp);
    Result result;
    result.objectiveName = "latency";
    result.stats.solverCalls = 1;
    result.attempts.push_back(attemptRecord(attempt));
    if (options.progress) options.progress("ilp: " + result.attempts.back().describe());
    result.schedule = attempt.schedule;
    if (attempt.latency) result.objective = static_cast<double>(*attempt.latency);
    if (attempt.latencyLowerBound) {
      result.bounds.lowerBound = static_cast<double>(*attempt.latencyLowerBound);
    }
    result.bounds.latencyProvenOptimal = attempt.verdict == AttemptVerdict::kOptimal;
    switch (attempt.verdict) {
      case AttemptVerdict::kOptimal:
        result.status = ModelStatus::kOptimal;
        break;
      case AttemptVerdict::kFeasible:
        result.status = ModelStatus::kTimeout;
        break;
      case AttemptVerdict::kInfeasible:
        result.status = ModelStatus::kInfeasible;
        break;
      case AttemptVerdict::kTimeout:
        result.status = ModelStatus::kTimeout;
        break;
      case AttemptVerdict::kError:
        result.call = CallStatus::kError;
        break;
    }
    result.message = attempt.detail;
    return result;
  }
  Result result = detail::solveWithNormalization(
      problem, options.normalization, [&](const Problem& solved, std::int64_t timeUnit) {
        ModuloSearchOptions inner = options;
        if (inner.maxIi) {
          inner.maxIi =
              static_cast<std::int32_t>(std::max<std::int64_t>(1, *inner.maxIi / timeUnit));
        }
        Result inUnits = searchInUnits(solved, inner);
        if (timeUnit > 1 && inUnits.schedule) {
          inUnits.extra.emplace_back("normalized_ii", static_cast<double>(*inUnits.schedule->ii));
        }
        return inUnits;
      });
  if (result.schedule) {
    result.objective = *result.schedule->ii;
    for (auto& [name, value] : result.extra) {
      if (name == "latency") {
        value = static_cast<double>(scheduleLatency(*problem.graph, result.schedule->start));
      }
    }
  }
  if (!result.bounds.lowerBound) {
    // The MII of the normalized problem means nothing in raw cycles: report the raw one.
    result.bounds.lowerBound =
        static_cast<double>(std::max(computeResMii(*problem.graph, *problem.machine).value,
                                     computeRecMii(*problem.graph).value));
  }
  return result;
}

}  // namespace gaus::exact
