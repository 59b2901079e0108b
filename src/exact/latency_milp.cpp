// Acyclic latency minimization under resources: a time-indexed MILP (TWILL.md section 2, last
// paragraph; the model itself is in time_indexed.cpp). Windows: ASAP from the critical path,
// ALAP from an upper bound on the latency, which is the latency of a list schedule (also CBC's
// first incumbent). The lower bound on L is the larger of the critical path and, per resource,
// the busy cycles divided by the capacity.

#include <algorithm>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/registry.hpp>
#include <gaus/exact/latency_milp.hpp>

#include "normalized_solve.hpp"
#include "start_schedule.hpp"
#include "time_indexed.hpp"

namespace gaus::exact {

namespace {

using detail::MilpStatus;

Result solveInUnits(const Problem& problem, const LatencyMilpOptions& options) {
  // The limit covers the list schedule and building the model; CBC gets the rest.
  const Deadline deadline(options.timeLimitSeconds > 0
                              ? std::optional<double>(options.timeLimitSeconds)
                              : std::nullopt);
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;
  auto order = topologicalOrder(graph);
  if (!order) return errorResult(order.error());
  const std::vector<Cycle> asap = asapTimes(graph, *order);
  const Cycle criticalPath = criticalPathLength(graph, asap);
  // Every cycle holds at most `capacity` units of a resource, so the schedule is at least ResMII
  // long, the resource's reserved unit-cycles over its capacity (0 when no resource is busy).
  const ResMii resourceBound = computeResMii(graph, machine);
  const Cycle lower = std::max(criticalPath, resourceBound.binding ? resourceBound.value : 0);

  Result result;
  result.objectiveName = "latency";
  const auto list = detail::greedySchedule(problem, std::nullopt);
  if (!list) return errorResult("latency MILP: the list schedule failed (distance-0 cycle?)");
  const Cycle listLatency = scheduleLatency(graph, list->start);
  result.extra.emplace_back("list_latency", static_cast<double>(listLatency));
  Cycle upper = listLatency;
  if (options.latencyBound) upper = std::min(upper, *options.latencyBound);
  if (problem.horizon) upper = std::min(upper, *problem.horizon);
  if (upper < lower) {
    result.status = ModelStatus::kInfeasible;
    result.message = fmt::format(
        "no schedule completes within {} cycles: the critical path and resource bound is {}", upper,
        lower);
    return result;
  }

  auto latest = detail::latestStarts(graph, std::nullopt, upper, asap);
  if (!latest) {
    result.status = ModelStatus::kInfeasible;
    result.message = fmt::format("no schedule completes within {} cycles", upper);
    return result;
  }
  const auto symmetries = detail::findSymmetries(graph);
  const detail::SymmetryOrderings* breaking = options.breakSymmetry ? &symmetries : nullptr;
  if (auto refused =
          detail::refuseLargeModel(fmt::format("the latency MILP (L in [{}, {}])", lower, upper),
                                   detail::TimeIndexedModel::estimateSize(
                                       graph, machine, std::nullopt, {asap, *latest}, breaking),
                                   options.maxNonzeros)) {
    return errorResult(*refused);
  }
  detail::TimeIndexedModel model(graph, machine, std::nullopt, {asap, *latest}, lower, upper,
                                 breaking);
  const bool startFits = listLatency <= upper;
  if (options.useStart && startFits) {
    std::vector<Cycle> start = list->start;
    if (options.breakSymmetry) detail::orderBySymmetries(symmetries, start);
    model.model().setStart(model.encode(start));
  }
  result.extra.emplace_back("variables", static_cast<double>(model.shape().variables));
  result.extra.emplace_back("rows", static_cast<double>(model.shape().rows));
  detail::MilpSolution solution;
  solution.status = MilpStatus::kTimeout;
  if (!deadline.expired()) {
    solution =
        model.model().solve(options.timeLimitSeconds > 0 ? deadline.remainingSeconds() : 0.0);
  }
  result.stats.solverCalls = 1;
  result.stats.iterations = solution.nodes;
  Attempt attempt;
  attempt.phase = "milp";
  attempt.seconds = solution.seconds;
  attempt.detail =
      fmt::format("L in [{}, {}], {} variables, {} rows, CBC {}{}", lower, upper,
                  model.shape().variables, model.shape().rows, detail::toString(solution.status),
                  solution.note.empty() ? "" : " (" + solution.note + ")");
  result.bounds.lowerBound = static_cast<double>(lower);
  if (solution.bound) {
    result.bounds.lowerBound = std::max<double>(lower, std::ceil(*solution.bound - 1e-6));
  }
  switch (solution.status) {
    case MilpStatus::kOptimal:
    case MilpStatus::kFeasible: {
      Schedule schedule;
      schedule.start = model.decode(solution);
      const Cycle latency = scheduleLatency(graph, schedule.start);
      result.schedule = std::move(schedule);
      result.objective = static_cast<double>(latency);
      if (solution.status == MilpStatus::kOptimal) {
        result.status = ModelStatus::kOptimal;
        result.bounds.lowerBound = static_cast<double>(latency);
        result.bounds.latencyProvenOptimal = true;
      } else {
        result.status = ModelStatus::kTimeout;
        result.message = fmt::format(
            "time limit {}s reached: latency {} not proven optimal (lower bound {}); raise "
            "milp_time_limit",
            options.timeLimitSeconds, latency, *result.bounds.lowerBound);
      }
      break;
    }
    case MilpStatus::kInfeasible:
      result.status = ModelStatus::kInfeasible;
      result.message = fmt::format("no schedule completes within {} cycles", upper);
      break;
    case MilpStatus::kTimeout:
      if (startFits) {
        result.schedule = *list;
        result.objective = static_cast<double>(listLatency);
      }
      result.status = ModelStatus::kTimeout;
      result.message =
          fmt::format("time limit {}s reached before CBC found a schedule{}",
                      options.timeLimitSeconds, startFits ? "; returning the list schedule" : "");
      break;
    case MilpStatus::kError:
      return errorResult("latency MILP: CBC abandoned the model" +
                         (solution.note.empty() ? std::string(" (numerical difficulties)")
                                                : ": " + solution.note));
  }
  attempt.status = result.status;
  attempt.latency = result.objective
                        ? std::optional<std::int64_t>(static_cast<std::int64_t>(*result.objective))
                        : std::nullopt;
  attempt.bound = result.bounds.lowerBound;
  result.attempts.push_back(std::move(attempt));
  return result;
}

}  // namespace

Result solveLatencyMilp(const Problem& problem, const LatencyMilpOptions& options) {
  Result result = detail::solveWithNormalization(
      problem, options.normalization, [&](const Problem& solved, std::int64_t timeUnit) {
        LatencyMilpOptions inner = options;
        if (inner.latencyBound) inner.latencyBound = *inner.latencyBound / timeUnit;
        return solveInUnits(solved, inner);
      });
  if (result.schedule) {
    result.objective = static_cast<double>(scheduleLatency(*problem.graph, result.schedule->start));
  }
  return result;
}

}  // namespace gaus::exact
