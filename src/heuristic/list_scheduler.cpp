// Resource-constrained list scheduling over reservation tables (one iteration, acyclic).
//
// The textbook scheme (e.g. De Micheli, "Synthesis and Optimization of Digital Circuits",
// McGraw-Hill 1994, chapter 5; in project-scheduling terms the serial schedule-generation scheme of
// Kolisch, EJOR 1996): ops become eligible once every distance-0 predecessor is placed; the
// eligible op of best priority is placed at the earliest cycle >= its ready time (predecessor
// start + edge delay, and its release time) where its whole reservation table fits. Departures:
// - Ops are placed one at a time at their earliest fit instead of filling cycle by cycle (the
//   cycle-driven variant): a placed op may take an earlier hole left by a later-ready op, and the
//   cost no longer depends on the schedule length.
// - The priority is height (longest path to the end, delays and durations included) by default;
//   ALAP, mobility and a caller's key are options (ListSchedulerOptions).
//
// The placement loop is the one the modulo list scheduler runs on a modulo reservation table
// (list_placement.hpp). Costs: O((V + E) log V) for the ready heap, plus the slot searches, which
// skip full cycles through the resource timeline's union-find (resource_timeline.hpp).

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/heuristic/list_scheduler.hpp>

#include "list_placement.hpp"
#include "priorities.hpp"
#include "resource_timeline.hpp"

namespace gaus::heuristic {

namespace {

Status checkOptions(const Graph& graph, const ListSchedulerOptions& options) {
  const auto opCount = static_cast<std::size_t>(graph.numOps());
  const bool usesCustom =
      options.priority == ListPriority::kCustom || options.tieBreak == ListPriority::kCustom;
  if (usesCustom && options.customKey.size() != opCount) {
    return Error{fmt::format("list scheduling: the custom priority has {} keys for {} ops",
                             options.customKey.size(), opCount)};
  }
  if (usesCustom) {
    for (std::size_t op = 0; op < opCount; ++op) {
      if (std::isnan(options.customKey[op])) {
        return Error{fmt::format("list scheduling: the custom priority of op {} is NaN",
                                 graph.opName(static_cast<OpId>(op)))};
      }
    }
  }
  if (!options.releaseTime.empty() && options.releaseTime.size() != opCount) {
    return Error{fmt::format("list scheduling: {} release times for {} ops",
                             options.releaseTime.size(), opCount)};
  }
  for (std::size_t op = 0; op < options.releaseTime.size(); ++op) {
    if (options.releaseTime[op] < 0) {
      return Error{fmt::format("list scheduling: op {} has a negative release time {}",
                               graph.opName(static_cast<OpId>(op)), options.releaseTime[op])};
    }
  }
  return Done{};
}

// Smaller-first key per op for one priority rule.
std::vector<double> priorityKeys(ListPriority rule, const ListSchedulerOptions& options,
                                 const std::vector<Cycle>& height, const std::vector<Cycle>& asap,
                                 const std::vector<std::int32_t>& successors, Cycle criticalPath) {
  std::vector<double> key(height.size());
  for (std::size_t op = 0; op < height.size(); ++op) {
    const Cycle alap = criticalPath - height[op];
    switch (rule) {
      case ListPriority::kHeight:
        key[op] = -static_cast<double>(height[op]);
        break;
      case ListPriority::kAlap:
        key[op] = static_cast<double>(alap);
        break;
      case ListPriority::kMobility:
        key[op] = static_cast<double>(alap - asap[op]);
        break;
      case ListPriority::kCustom:
        key[op] = options.customKey[op];
        break;
      case ListPriority::kSuccessors:
        key[op] = -static_cast<double>(successors[op]);
        break;
    }
  }
  return key;
}

}  // namespace

// What does not depend on the priority: the checked reservation runs, heights (and ALAP),
// ASAP and the distance-0 successor counts, and the graph as the placement walks it.
struct ListScheduler::Prepared {
  const Graph& graph;
  const Machine& machine;
  ReservationRunBuilder runsByPlace;  // op placementGraph->opAt(p)'s runs are runsOf(p)
  std::vector<Cycle> height;
  std::vector<Cycle> asap;
  std::vector<std::int32_t> successors;
  Cycle criticalPath = 0;
  std::shared_ptr<const detail::PlacementGraph> placementGraph;
};

ListScheduler::ListScheduler(std::unique_ptr<const Prepared> prepared)
    : prepared_(std::move(prepared)) {}
ListScheduler::ListScheduler(ListScheduler&&) noexcept = default;
ListScheduler& ListScheduler::operator=(ListScheduler&&) noexcept = default;
ListScheduler::~ListScheduler() = default;

Expected<ListScheduler> ListScheduler::prepare(const Problem& problem) {
  if (!problem.graph || !problem.machine) {
    return Error{"list scheduling: the problem has no graph or no machine"};
  }
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;
  const auto facts = problem.facts();
  if (!facts->order()) return Error{"list scheduling: " + facts->order().error()};
  const std::vector<OpId>& topo = *facts->order();
  auto prepared = std::make_unique<Prepared>(Prepared{
      graph, machine, ReservationRunBuilder(machine, std::nullopt), {}, {}, {}, 0, nullptr});
  // Height gives ALAP too (ALAP = critical path - height).
  auto height = heightsToEnd(graph, topo);
  if (!height) return Error{"list scheduling: " + height.error()};
  prepared->height = std::move(height).value();
  prepared->asap = facts->asap();
  prepared->criticalPath = prepared->height.empty() ? 0
                                                    : *std::max_element(prepared->height.begin(),
                                                                        prepared->height.end());
  prepared->successors.assign(prepared->height.size(), 0);
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeDistance(e) == 0) ++prepared->successors[graph.edgeSource(e)];
  }
  // Places in ALAP order (height first, the default priority's order), the order every
  // candidate's placement roughly follows; the reservation runs are kept in that order too.
  std::vector<double> byHeight(prepared->height.size());
  for (std::size_t op = 0; op < byHeight.size(); ++op) {
    byHeight[op] = -static_cast<double>(prepared->height[op]);
  }
  prepared->placementGraph = std::make_shared<const detail::PlacementGraph>(
      graph, detail::orderByKeys(byHeight, std::vector<double>(byHeight.size(), 0.0)));
  for (std::int32_t place = 0; place < graph.numOps(); ++place) {
    prepared->runsByPlace.addOp(graph.reservation(prepared->placementGraph->opAt(place)));
  }
  // In op order, so that the op named is the first of the input's.
  for (OpId op = 0; op < graph.numOps(); ++op) {
    const auto runs = prepared->runsByPlace.runsOf(prepared->placementGraph->placeOf(op));
    if (auto overfull = describeOverfullRun(runs, machine, graph.opName(op), std::nullopt)) {
      return Error{"list scheduling: " + *overfull};
    }
  }
  return ListScheduler(std::move(prepared));
}

Expected<Schedule> ListScheduler::schedule(const ListSchedulerOptions& options) const {
  const Prepared& p = *prepared_;
  const Graph& graph = p.graph;
  if (auto valid = checkOptions(graph, options); !valid) return Error{valid.error()};
  std::vector<OpId> order = detail::orderByKeys(
      priorityKeys(options.priority, options, p.height, p.asap, p.successors, p.criticalPath),
      priorityKeys(options.tieBreak, options, p.height, p.asap, p.successors, p.criticalPath));
  detail::ResourceTimeline timeline(p.machine);
  Schedule schedule;
  schedule.start.assign(static_cast<std::size_t>(graph.numOps()), 0);
  std::optional<std::string> failure;
  detail::ListPlacement placement(p.placementGraph, order);
  placement.run(std::nullopt, options.releaseTime, schedule.start,
                [&](OpId /*op*/, std::int32_t place, Cycle earliest) -> std::optional<Cycle> {
                  const auto opRuns = p.runsByPlace.runsOf(place);
                  const Cycle start = timeline.earliestFit(opRuns, earliest);
                  if (auto reserved = timeline.reserve(opRuns, start); !reserved) {
                    failure = reserved.error();
                    return std::nullopt;
                  }
                  return start;
                });
  if (failure) return Error{*failure};
  return schedule;
}

Expected<Schedule> listSchedule(const Problem& problem, const ListSchedulerOptions& options) {
  auto scheduler = ListScheduler::prepare(problem);
  if (!scheduler) return Error{scheduler.error()};
  return scheduler->schedule(options);
}

}  // namespace gaus::heuristic
