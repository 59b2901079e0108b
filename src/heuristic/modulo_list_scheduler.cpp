// Modulo list scheduling: the list scheme of list_scheduler.cpp on a modulo reservation table of
// II rows (the table of Rau and Glaeser, "Some scheduling techniques and an easily schedulable
// horizontal architecture for high performance scientific computing", MICRO-14, 1981), as GAUS.md
// "Legalization" specifies it for modulo problems: ops in priority order as their distance-0
// predecessors are placed, each at its earliest fit, loop-carried edges checked in repeated
// passes (at most |V|). Where this code departs from or adds to that:
// - Before the first pass every op's earliest start is raised to its longest path over every
//   edge at this II (core's moduloAsapTimes), so recurrences hold from the first pass on, where
//   raising bounds one violated edge per pass could take many passes on a zero-slack cycle.
// - A loop-carried predecessor that is already placed constrains an op like a distance-0 one;
//   those placed later are checked after the pass, and each violated edge raises its target's
//   bound for the next pass (|V| + 1 passes in all: the first one and |V| repairs).
// - Neither addition changes a schedule that one plain pass (distance-0 ready times only) gets
//   legal: a legal schedule with starts >= 0 already starts every op at or after both bounds, so
//   every op finds the same first fit. They only turn some failures into schedules.

#include <algorithm>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/heuristic/modulo_list_scheduler.hpp>
#include <gaus/heuristic/modulo_reservation_table.hpp>
#include <gaus/heuristic/reservation_runs.hpp>

#include "list_placement.hpp"
#include "priorities.hpp"

namespace gaus::heuristic {

namespace {

Status checkOptions(const Graph& graph, std::int32_t ii, const ModuloListOptions& options) {
  const auto opCount = static_cast<std::size_t>(graph.numOps());
  if (ii < 1) return Error{fmt::format("modulo list scheduling: II={} must be positive", ii)};
  const auto wrongSize = [&](std::size_t size) { return size != 0 && size != opCount; };
  if (wrongSize(options.priorityKey.size()) || wrongSize(options.tieBreakKey.size()) ||
      wrongSize(options.releaseTime.size())) {
    return Error{fmt::format(
        "modulo list scheduling: {} priority keys, {} tie-break keys and {} release times for {} "
        "ops (each must be empty or one per op)",
        options.priorityKey.size(), options.tieBreakKey.size(), options.releaseTime.size(),
        opCount)};
  }
  return Done{};
}

// The start every op may take at the latest lower bound: its earliest start over every edge at
// `ii` and its release time.
Expected<std::vector<Cycle>> initialLowerBounds(const Graph& graph, std::int32_t ii,
                                                const ModuloListOptions& options) {
  // Self-loops do not depend on the schedule: distance * II >= delay or never.
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeSource(e) == graph.edgeTarget(e) &&
        static_cast<Cycle>(graph.edgeDistance(e)) * ii < graph.edgeDelay(e)) {
      return Error{
          fmt::format("modulo list scheduling: the self-loop of {} needs a larger II than {}",
                      graph.opName(graph.edgeSource(e)), ii)};
    }
  }
  auto earliest = moduloAsapTimes(graph, ii);
  if (!earliest) return Error{"modulo list scheduling: " + earliest.error()};
  std::vector<Cycle> bound = std::move(earliest).value();
  for (std::size_t op = 0; op < options.releaseTime.size(); ++op) {
    bound[op] = std::max(bound[op], options.releaseTime[op]);
  }
  return bound;
}

}  // namespace

Expected<Schedule> moduloListSchedule(const Graph& graph, const Machine& machine, std::int32_t ii,
                                      const ModuloListOptions& options) {
  if (auto valid = checkOptions(graph, ii, options); !valid) return Error{valid.error()};
  if (!options.knownAcyclic) {
    if (auto order = topologicalOrder(graph); !order) {
      return Error{"modulo list scheduling: " + order.error()};
    }
  }
  auto bounds = initialLowerBounds(graph, ii, options);
  if (!bounds) return Error{bounds.error()};
  std::vector<Cycle> lowerBound = std::move(bounds).value();

  const OpId opCount = graph.numOps();
  const std::vector<double> none(static_cast<std::size_t>(opCount), 0.0);
  detail::ListPlacement placement(
      graph, detail::orderByKeys(options.priorityKey.empty() ? none : options.priorityKey,
                                 options.tieBreakKey.empty() ? none : options.tieBreakKey));
  ReservationRunBuilder runs(machine, ii);
  runs.addGraph(graph);

  Schedule schedule;
  schedule.ii = ii;
  schedule.start.assign(static_cast<std::size_t>(opCount), 0);
  for (OpId pass = 0; pass <= opCount; ++pass) {
    ModuloReservationTable table(machine, ii);
    std::optional<OpId> unplaced;
    const bool placedAll = placement.run(
        ii, lowerBound, schedule.start,
        [&](OpId op, std::int32_t /*place*/, Cycle earliest) -> std::optional<Cycle> {
          // II consecutive cycles cover every residue: no fit there means none anywhere.
          const auto slot = table.earliestFit(runs.runsOf(op), earliest, earliest + ii - 1);
          if (!slot) {
            unplaced = op;
            return std::nullopt;
          }
          table.reserve(runs.runsOf(op), *slot);
          return slot;
        });
    if (!placedAll) {
      // The distance-0 edges are acyclic (checked above), so only a misfit stops a pass.
      return Error{fmt::format("modulo list scheduling: {} fits at no residue at II={}",
                               graph.opName(*unplaced), ii)};
    }
    bool fixedPoint = true;
    for (EdgeId e = 0; e < graph.numEdges(); ++e) {
      const Cycle required = schedule.start[graph.edgeSource(e)] + graph.edgeDelay(e) -
                             static_cast<Cycle>(graph.edgeDistance(e)) * ii;
      const OpId target = graph.edgeTarget(e);
      if (schedule.start[target] < required) {
        lowerBound[target] = std::max(lowerBound[target], required);
        fixedPoint = false;
      }
    }
    if (fixedPoint) return schedule;
  }
  return Error{fmt::format(
      "modulo list scheduling: loop-carried edges still violated after {} passes at II={}",
      opCount + 1, ii)};
}

}  // namespace gaus::heuristic
