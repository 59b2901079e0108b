// Start schedules and time windows for the exact models (TWILL.md section 2, "Speed": bound each
// op's time window from ASAP/ALAP at the current II and an upper bound on L; give the solver a
// first schedule). The greedy placement is the heuristic module's list scheduling and its modulo
// variant, without the eviction of iterative modulo scheduling: it only has to be quick and legal
// when it succeeds.

#include "start_schedule.hpp"

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/heuristic/iterative_modulo_scheduler.hpp>
#include <gaus/heuristic/list_scheduler.hpp>
#include <gaus/heuristic/modulo_list_scheduler.hpp>

namespace gaus::exact::detail {

std::optional<Schedule> greedySchedule(const Problem& problem, std::optional<std::int32_t> ii) {
  if (!ii) {
    // The list scheduler's default priority is this height, and its tie-break (ALAP = critical
    // path - height) leaves ties to the smaller id.
    auto schedule = heuristic::listSchedule(problem);
    if (!schedule) return std::nullopt;
    return std::move(schedule).value();
  }
  const Graph& graph = *problem.graph;
  const auto facts = problem.facts();
  const auto& order = facts->order();
  if (!order) return std::nullopt;
  const auto height = heightsToEnd(graph, *order);
  if (!height) return std::nullopt;
  heuristic::ModuloListOptions options;
  options.knownAcyclic = true;  // the facts' order exists
  options.priorityKey.reserve(height->size());
  for (Cycle h : *height) options.priorityKey.push_back(-static_cast<double>(h));
  auto schedule = heuristic::moduloListSchedule(graph, *problem.machine, *ii, options);
  if (!schedule) return std::nullopt;
  return std::move(schedule).value();
}

std::optional<std::vector<Cycle>> moduloStartSchedule(const Problem& problem, std::int32_t ii,
                                                      StartHeuristic heuristic) {
  const Graph& graph = *problem.graph;
  std::optional<std::vector<Cycle>> best;
  auto consider = [&](const std::vector<Cycle>& start) {
    if (!best || scheduleLatency(graph, start) < scheduleLatency(graph, *best)) {
      best = start;
    }
  };
  if (heuristic != StartHeuristic::kIms) {
    if (auto greedy = greedySchedule(problem, ii)) consider(greedy->start);
  }
  if (heuristic != StartHeuristic::kGreedy) {
    Problem modulo = problem;
    modulo.kind = ProblemKind::kModulo;
    modulo.ii = ii;
    heuristic::ImsOptions ims;
    ims.ii = ii;
    const Result result = heuristic::iterativeModuloSchedule(modulo, ims);
    if (result.schedule && verify(modulo, *result.schedule).ok()) consider(result.schedule->start);
  }
  return best;
}

std::optional<std::vector<Cycle>> latestStarts(const Graph& graph, const std::vector<OpId>& order,
                                               std::optional<std::int32_t> ii, Cycle horizon,
                                               const std::vector<Cycle>& earliest) {
  auto height = heightsToEnd(graph, order, ii ? std::optional<std::int64_t>(*ii) : std::nullopt);
  if (!height) return std::nullopt;
  std::vector<Cycle> latest = std::move(height).value();
  for (OpId op = 0; op < graph.numOps(); ++op) {
    latest[op] = horizon - latest[op];
    if (latest[op] < earliest[op]) return std::nullopt;
  }
  return latest;
}

Expected<Schedule> initialInUnits(const Problem& solved, const Schedule& initial,
                                  std::int64_t timeUnit) {
  Schedule scaled = initial;
  if (scaled.ii) {
    if (*scaled.ii % timeUnit != 0) {
      return Error{
          fmt::format("its II is not a multiple of the normalized time unit {}", timeUnit)};
    }
    scaled.ii = static_cast<std::int32_t>(*scaled.ii / timeUnit);
  }
  for (Cycle& start : scaled.start) {
    if (start % timeUnit != 0) {
      return Error{
          fmt::format("its starts are not multiples of the normalized time unit {}", timeUnit)};
    }
    start /= timeUnit;
  }
  const VerificationReport report = verify(solved, scaled);
  // One violation says why; the verifier's full list would bury the rest of the summary.
  if (!report.ok()) {
    return Error{fmt::format("it does not verify ({} violations; first: {})",
                             report.totalViolations,
                             report.violations.empty() ? "" : report.violations.front().message)};
  }
  return scaled;
}

}  // namespace gaus::exact::detail
