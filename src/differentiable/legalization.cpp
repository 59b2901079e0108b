#include "legalization.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <tuple>

#include <gaus/core/analysis.hpp>
#include <gaus/heuristic/list_scheduler.hpp>
#include <gaus/heuristic/modulo_reservation_table.hpp>

namespace gaus::differentiable {

std::vector<Cycle> roundedStarts(const std::vector<double>& mu) {
  std::vector<Cycle> rounded;
  rounded.reserve(mu.size());
  for (double value : mu) rounded.push_back(std::max<Cycle>(0, std::llround(value)));
  return rounded;
}

Expected<Schedule> legalizeAcyclic(const Problem& problem, const std::vector<double>& priority,
                                   const std::vector<Cycle>* releaseTime) {
  heuristic::ListSchedulerOptions options;
  options.priority = heuristic::ListPriority::kCustom;
  options.tieBreak = heuristic::ListPriority::kAlap;
  options.customKey = priority;
  if (releaseTime != nullptr) options.releaseTime = *releaseTime;
  return heuristic::listSchedule(problem, options);
}

namespace {

// One pass of the modulo list scheme: ops in key order as their distance-0 predecessors are
// placed, each at the first cycle >= its earliest start (predecessors placed so far, loop-carried
// ones included, and `lowerBound`) where its reservation table fits the MRT. Returns false when
// some op finds no slot among II consecutive cycles (none will ever fit).
bool placeModuloPass(const Graph& graph, const Machine& machine, std::int32_t ii,
                     const std::vector<Cycle>& key, const std::vector<Cycle>& alap,
                     const std::vector<Cycle>& lowerBound, std::vector<Cycle>& start) {
  const OpId ops = graph.numOps();
  heuristic::ModuloReservationTable table(machine, ii);
  std::vector<std::int32_t> waiting(static_cast<std::size_t>(ops), 0);
  std::vector<std::uint8_t> placed(static_cast<std::size_t>(ops), 0);
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeDistance(e) == 0) ++waiting[graph.edgeTarget(e)];
  }
  using Entry = std::tuple<Cycle, Cycle, OpId>;  // key, ALAP, id: smallest first
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
  for (OpId op = 0; op < ops; ++op) {
    if (waiting[op] == 0) ready.emplace(key[op], alap[op], op);
  }
  while (!ready.empty()) {
    const OpId op = std::get<2>(ready.top());
    ready.pop();
    Cycle earliest = lowerBound[op];
    for (EdgeId e : graph.inEdges(op)) {
      const OpId source = graph.edgeSource(e);
      if (placed[source] == 0) continue;
      earliest = std::max(earliest, start[source] + graph.edgeDelay(e) -
                                        static_cast<Cycle>(graph.edgeDistance(e)) * ii);
    }
    const auto blocks = graph.reservation(op);
    Cycle slot = earliest;
    while (slot < earliest + ii && !table.fits(blocks, slot)) ++slot;
    if (slot == earliest + ii) return false;
    table.reserve(blocks, slot);
    start[op] = slot;
    placed[op] = 1;
    for (EdgeId e : graph.outEdges(op)) {
      if (graph.edgeDistance(e) != 0) continue;
      const OpId target = graph.edgeTarget(e);
      if (--waiting[target] == 0) ready.emplace(key[target], alap[target], target);
    }
  }
  return true;
}

}  // namespace

std::optional<Schedule> legalizeModulo(const Problem& problem, std::int32_t ii,
                                       const std::vector<Cycle>& key,
                                       const std::vector<Cycle>& alap, bool useReleaseTimes) {
  const Graph& graph = *problem.graph;
  const OpId ops = graph.numOps();
  // Self-loops do not depend on the schedule: delta * II >= d or never.
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeSource(e) == graph.edgeTarget(e) &&
        static_cast<Cycle>(graph.edgeDistance(e)) * ii < graph.edgeDelay(e)) {
      return std::nullopt;
    }
  }
  // Every op starts at or after its earliest start over all edges at this II (loop-carried ones
  // included): recurrences then hold from the first pass on, where raising bounds one violated
  // edge per pass could take many passes on a zero-slack cycle.
  auto earliest = moduloAsapTimes(graph, ii);
  if (!earliest) return std::nullopt;
  std::vector<Cycle> lowerBound = std::move(earliest).value();
  if (useReleaseTimes) {
    for (OpId op = 0; op < ops; ++op) lowerBound[op] = std::max(lowerBound[op], key[op]);
  }
  Schedule schedule;
  schedule.ii = ii;
  schedule.start.assign(static_cast<std::size_t>(ops), 0);
  for (OpId pass = 0; pass <= ops; ++pass) {
    if (!placeModuloPass(graph, *problem.machine, ii, key, alap, lowerBound, schedule.start)) {
      return std::nullopt;
    }
    bool fixedPoint = true;
    for (EdgeId e = 0; e < graph.numEdges(); ++e) {
      const OpId source = graph.edgeSource(e);
      const OpId target = graph.edgeTarget(e);
      const Cycle required = schedule.start[source] + graph.edgeDelay(e) -
                             static_cast<Cycle>(graph.edgeDistance(e)) * ii;
      if (schedule.start[target] < required) {
        lowerBound[target] = std::max(lowerBound[target], required);
        fixedPoint = false;
      }
    }
    if (fixedPoint) {
      if (problem.horizon) {
        for (OpId op = 0; op < ops; ++op) {
          if (schedule.start[op] + graph.duration(op) > *problem.horizon) return std::nullopt;
        }
      }
      return schedule;
    }
  }
  return std::nullopt;
}

}  // namespace gaus::differentiable
