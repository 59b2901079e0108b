// The warp rules a dependence sees (warp_rules.hpp).

#include <gaus/core/warp_rules.hpp>

namespace gaus {

Cycle crossWarpDelay(const Graph& graph, EdgeId e) {
  return static_cast<Cycle>(graph.edgeDelay(e)) + graph.spillCost(graph.edgeSource(e));
}

bool warpSetsAlwaysDiffer(const Graph& graph, const Machine& machine, OpId u, OpId v) {
  if (graph.minWarps(u) != graph.minWarps(v)) return true;
  return machine.variableLatencyWarp.has_value() &&
         graph.variableLatency(u) != graph.variableLatency(v);
}

}  // namespace gaus
