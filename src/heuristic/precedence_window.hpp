// The starts one op may take with every other op where it is, in an acyclic schedule within a
// horizon: what the local searches of stage_refinement.cpp and memory_refinement.cpp move in.
#pragma once

#include <algorithm>
#include <span>
#include <utility>

#include <gaus/core/graph.hpp>

namespace gaus::heuristic::detail {

// [latest predecessor start + delay, earliest successor start - delay] over the distance-0
// edges, within [0, horizon - duration]; empty (first > second) when the op cannot stay.
inline std::pair<Cycle, Cycle> precedenceWindow(const Graph& graph, std::span<const Cycle> start,
                                                OpId op, Cycle horizon) {
  Cycle low = 0;
  Cycle high = horizon - graph.duration(op);
  for (const EdgeId e : graph.inEdges(op)) {
    if (graph.edgeDistance(e) == 0) {
      low = std::max<Cycle>(low, start[graph.edgeSource(e)] + graph.edgeDelay(e));
    }
  }
  for (const EdgeId e : graph.outEdges(op)) {
    if (graph.edgeDistance(e) == 0) {
      high = std::min<Cycle>(high, start[graph.edgeTarget(e)] - graph.edgeDelay(e));
    }
  }
  return {low, high};
}

}  // namespace gaus::heuristic::detail
