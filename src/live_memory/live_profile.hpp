// The live memory of a schedule per cycle, as the verifier counts it (core's liveInterval):
// what formulation B's bounds compare with and start from.
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include <gaus/core/graph.hpp>

namespace gaus::live_memory {

// The live memory of one schedule at every cycle of [0, horizon), from start times alone.
inline std::vector<double> liveProfile(const Graph& graph, std::span<const Cycle> start,
                                       Cycle horizon) {
  std::vector<double> change(static_cast<std::size_t>(horizon) + 1, 0.0);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (graph.mem(op) == 0.0) continue;
    Cycle end = start[op];
    for (const EdgeId e : graph.outEdges(op)) {
      if (graph.edgeDistance(e) == 0) end = std::max(end, start[graph.edgeTarget(e)]);
    }
    if (end <= start[op]) continue;
    change[static_cast<std::size_t>(start[op])] += graph.mem(op);
    change[static_cast<std::size_t>(std::min(end, horizon))] -= graph.mem(op);
  }
  std::vector<double> live(static_cast<std::size_t>(horizon), 0.0);
  double running = 0.0;
  for (Cycle t = 0; t < horizon; ++t) live[static_cast<std::size_t>(t)] = running += change[t];
  return live;
}

}  // namespace gaus::live_memory
