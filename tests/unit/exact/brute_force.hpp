// Brute-force references for the exact engine's tests: enumerate start times and let the
// independent verifier judge each schedule, so the reference shares nothing with the models.
#pragma once

#include <algorithm>
#include <functional>
#include <optional>
#include <vector>

#include <gaus/core/analysis.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/verify.hpp>

namespace gaus::test {

// Every assignment of starts in [0, latency - duration(v)] (in a topological order of the
// distance-0 edges, pruned by their delays) is handed to `accept` until it returns true.
inline bool anyScheduleWithin(const Problem& problem, Cycle latency, std::optional<std::int32_t> ii,
                              const std::function<bool(const Schedule&)>& accept) {
  const Graph& graph = *problem.graph;
  const auto order = topologicalOrder(graph);
  if (!order) return false;
  Schedule schedule;
  schedule.start.assign(static_cast<std::size_t>(graph.numOps()), 0);
  schedule.ii = ii;
  std::function<bool(std::size_t)> place = [&](std::size_t index) -> bool {
    if (index == order->size()) return accept(schedule);
    const OpId op = (*order)[index];
    Cycle earliest = 0;
    for (EdgeId e : graph.inEdges(op)) {
      if (graph.edgeDistance(e) == 0) {
        earliest = std::max(earliest, schedule.start[graph.edgeSource(e)] + graph.edgeDelay(e));
      }
    }
    for (Cycle t = earliest; t + graph.duration(op) <= latency; ++t) {
      schedule.start[op] = t;
      if (place(index + 1)) return true;
    }
    return false;
  };
  return place(0);
}

// The smallest L <= cap with a schedule that verifies (modulo `ii` when set), or nullopt.
inline std::optional<Cycle> bruteForceMinLatency(const Problem& problem,
                                                 std::optional<std::int32_t> ii, Cycle cap) {
  for (Cycle latency = 0; latency <= cap; ++latency) {
    const bool found = anyScheduleWithin(problem, latency, ii, [&](const Schedule& schedule) {
      return verify(problem, schedule).ok();
    });
    if (found) return latency;
  }
  return std::nullopt;
}

}  // namespace gaus::test
