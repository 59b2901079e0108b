// The search over II of the modulo MILP (modulo_milp.hpp, searchModulo): II = MII (or 1), MII + 1,
// ... up to the serial non-overlapped II, the first II with a schedule at its minimal L, after
// Twill's Algorithm 1 (Soi et al., OSDI'26, arXiv 2512.18134) without its SMT phase. Costs are
// normalized first when they are large (normalized_solve.hpp); a fixed II is one attempt in raw
// cycles.

#include <algorithm>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/deadline.hpp>
#include <gaus/exact/exact_figures.hpp>
#include <gaus/exact/modulo_milp.hpp>
#include <gaus/heuristic/iterative_modulo_scheduler.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/milp/milp_call.hpp>

#include "normalized_solve.hpp"
#include "start_schedule.hpp"

namespace gaus::exact {

std::int32_t serialNonOverlappedIi(const Problem& problem) {
  // Serial schedule in a topological order of the distance-0 edges: each op starts when the
  // previous one has completed and its predecessors' delays have passed. It needs no heuristic,
  // and its reservations never overlap, whatever the machine.
  const Graph& graph = *problem.graph;
  const auto facts = problem.facts();
  const auto& order = facts->order();
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

// A search that ends without a schedule of its own still answers with the verified initial
// schedule (status timeout: nothing proven about smaller IIs).
void keepInitial(Result& result, const std::optional<Schedule>& initial, const Graph& graph) {
  if (!initial || result.schedule) return;
  result.schedule = initial;
  result.objective = static_cast<double>(*initial->ii);
  result.figures.set(figures::kLatency,
                     static_cast<double>(scheduleLatency(graph, initial->start)));
  result.message += fmt::format("; the answer is the initial schedule at II {}", *initial->ii);
}

// A search that ends on its time limit without a schedule still returns one when a heuristic
// finds it at once: iterative modulo scheduling over the whole II range (it always ends with a
// schedule, at worst the non-overlapped one), given a quarter of the allowance past the limit
// (max(1 s, 10 %) of it; the solve's grace is half, milp/milp_model.hpp). The II is then not
// proven minimal and the status stays timeout.
void fallBackToHeuristic(const Problem& problem, double timeLimitSeconds, Result& result) {
  if (result.schedule || result.status != ModelStatus::kTimeout) return;
  heuristic::ImsOptions ims;
  ims.timeLimitSeconds = 0.25 * std::max(1.0, 0.1 * timeLimitSeconds);
  Problem modulo = problem;
  modulo.ii.reset();
  const Result found = heuristic::iterativeModuloSchedule(modulo, ims);
  if (!found.schedule) return;
  result.schedule = found.schedule;
  result.objective = *found.schedule->ii;
  result.figures.set(figures::kLatency,
                     static_cast<double>(scheduleLatency(*problem.graph, found.schedule->start)));
  result.message += fmt::format(
      "; returning iterative modulo scheduling's II={} (not proven minimal)", *found.schedule->ii);
}

// The search over II in the units solved; `limitSeconds` is the search's whole time limit (none:
// no limit), which sizes the heuristic's fallback.
Result searchInUnits(const Problem& problem, const ModuloSearchOptions& options,
                     const std::optional<Schedule>& initial, std::optional<double> limitSeconds) {
  const Graph& graph = *problem.graph;
  Result result;
  result.objectiveName = "ii";
  const auto facts = problem.facts();
  const ResMii& resMii = facts->resMii();
  const RecMii& recMii = facts->recMii();
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
  const std::int64_t mii = facts->mii().value;
  result.bounds.mii = facts->mii();
  result.bounds.lowerBound = static_cast<double>(mii);

  const std::int32_t first = options.startFromOne ? 1 : static_cast<std::int32_t>(mii);
  std::int32_t last = options.maxIi ? *options.maxIi
                                    : std::max<std::int32_t>(first, serialNonOverlappedIi(problem));
  if (initial) {
    // A verified schedule at its II: no larger II is ever needed, and at that II it is a start.
    last = std::min(last, *initial->ii);
    result.notes.emplace_back(
        "initial schedule",
        fmt::format("the start came from {}: II {} (latency {}) caps the search and is a MIP "
                    "start at that II",
                    options.milp.call.initialScheduleOrigin, *initial->ii,
                    scheduleLatency(graph, initial->start)));
  }
  const Deadline& deadline = options.milp.call.deadline;
  bool everySmallerProven = true;  // every II below the current one was proven infeasible
  for (std::int32_t ii = first; ii <= last; ++ii) {
    if (deadline.expired()) {
      result.status = ModelStatus::kTimeout;
      result.message = fmt::format("total time limit {:.3g}s reached at II={} (MII={})",
                                   limitSeconds.value_or(0.0), ii, mii);
      keepInitial(result, initial, graph);
      fallBackToHeuristic(problem, limitSeconds.value_or(0.0), result);
      return result;
    }
    ModuloMilpOptions milp = options.milp;
    if (initial && ii == *initial->ii) milp.initialStart = initial->start;
    const ModuloAttempt attempt = solveModuloAtIi(problem, ii, milp);
    ++result.stats.solverCalls;
    result.attempts.push_back(attempt.record());
    if (options.progress) options.progress("ilp: " + result.attempts.back().describe());
    if (attempt.call == CallStatus::kError) return errorResult(attempt.detail);
    if (!attempt.schedule) {
      if (attempt.status != ModelStatus::kInfeasible) everySmallerProven = false;
      // Every II up to this one is proven infeasible: the next one is a lower bound.
      if (everySmallerProven) result.bounds.lowerBound = static_cast<double>(ii) + 1.0;
      continue;
    }
    result.schedule = attempt.schedule;
    result.objective = ii;
    result.figures.set(figures::kLatency, static_cast<double>(*attempt.latency));
    const bool iiProven = everySmallerProven || ii <= mii;
    result.bounds.iiProvenOptimal = iiProven;
    result.bounds.latencyProvenOptimal = attempt.status == ModelStatus::kOptimal;
    if (iiProven && attempt.status == ModelStatus::kOptimal) {
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
  // The initial schedule verified at `last`, so the attempts there cannot all be infeasible
  // proofs; what ran out of time still has it as its answer.
  if (!everySmallerProven) keepInitial(result, initial, graph);
  if (limitSeconds) fallBackToHeuristic(problem, *limitSeconds, result);
  return result;
}

}  // namespace

Result searchModulo(const Problem& problem, const ModuloSearchOptions& options) {
  // The deadline covers every phase: the cost normalization, each II's MILP and a fixed II's one
  // MILP (which ran to milp_time_limit alone before: 8.7 s for a 0.2 s limit, docs/exact.md).
  const milp::MilpCall& call = options.milp.call;
  const std::optional<double> limitSeconds = call.deadline.remainingLimit();
  if (problem.ii) {
    // A fixed II: one attempt, from the initial schedule when it verifies at that II.
    Result result;
    ModuloMilpOptions milp = options.milp;
    if (call.initialSchedule != nullptr) {
      auto initial = detail::initialInUnits(problem, *call.initialSchedule, 1);
      if (initial) {
        milp.initialStart = initial->start;
        result.notes.emplace_back("initial schedule",
                                  "the start came from --init: a MIP start at the fixed II");
      } else {
        result.notes.emplace_back(
            "initial schedule",
            fmt::format("ignored ({}): {}", call.initialScheduleOrigin, initial.error()));
      }
    }
    const ModuloAttempt attempt = solveModuloAtIi(problem, *problem.ii, milp);
    result.objectiveName = "latency";
    result.stats.solverCalls = 1;
    result.attempts.push_back(attempt.record());
    if (options.progress) options.progress("ilp: " + result.attempts.back().describe());
    result.schedule = attempt.schedule;
    if (attempt.latency) result.objective = static_cast<double>(*attempt.latency);
    if (attempt.latencyLowerBound) {
      result.bounds.lowerBound = static_cast<double>(*attempt.latencyLowerBound);
    }
    result.bounds.latencyProvenOptimal = attempt.status == ModelStatus::kOptimal;
    result.call = attempt.call;
    result.status = attempt.status;
    result.message = attempt.detail;
    return result;
  }
  std::string ignoredInitial;
  NormalizationOptions normalization = options.normalization;
  normalization.call = call;
  Result result = detail::solveWithNormalization(
      problem, normalization, [&](const Problem& solved, std::int64_t timeUnit) {
        ModuloSearchOptions inner = options;
        std::optional<Schedule> initial;
        if (call.initialSchedule != nullptr) {
          auto scaled = detail::initialInUnits(solved, *call.initialSchedule, timeUnit);
          if (scaled && scaled->ii) {
            initial = std::move(scaled).value();
          } else {
            ignoredInitial = scaled ? std::string("it has no II") : scaled.error();
          }
        }
        if (inner.maxIi) {
          inner.maxIi =
              static_cast<std::int32_t>(std::max<std::int64_t>(1, *inner.maxIi / timeUnit));
        }
        Result inUnits = searchInUnits(solved, inner, initial, limitSeconds);
        if (timeUnit > 1 && inUnits.schedule) {
          inUnits.figures.set(figures::kNormalizedIi, static_cast<double>(*inUnits.schedule->ii));
        }
        return inUnits;
      });
  // Ignoring a start is never an error: the search goes on from the heuristics' starts.
  if (!ignoredInitial.empty()) {
    result.notes.emplace_back(
        "initial schedule",
        fmt::format("ignored ({}): {}", call.initialScheduleOrigin, ignoredInitial));
  }
  if (result.schedule) {
    result.objective = *result.schedule->ii;
    // The latency in raw cycles, where the search reported one in the units it solved.
    if (result.figures.get(figures::kLatency)) {
      result.figures.set(figures::kLatency, static_cast<double>(scheduleLatency(
                                                *problem.graph, result.schedule->start)));
    }
  }
  // The bounds in raw cycles: the problem's MII. With normalized costs the MII of the normalized
  // problem means nothing in raw cycles: it stays as the normalized figure.
  const auto facts = problem.facts();
  if (result.figures.get(figures::kTimeUnit)) {
    if (result.bounds.mii) {
      result.figures.set(figures::kNormalizedMii, static_cast<double>(result.bounds.mii->value));
    }
    result.bounds.mii = facts->mii();
    result.bounds.lowerBound = static_cast<double>(facts->mii().value);
  }
  if (!result.bounds.lowerBound) result.bounds.lowerBound = static_cast<double>(facts->mii().value);
  return result;
}

}  // namespace gaus::exact
