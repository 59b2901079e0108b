// The summary of a graph that `gaus info` prints (GraphSummary, analysis.hpp): its size, depth,
// components, recurrences and II bounds, each from the analyses of analysis.cpp.

#include <algorithm>

#include <gaus/core/analysis.hpp>

namespace gaus {

Expected<GraphSummary> summarizeGraph(const Graph& graph, const Machine& machine) {
  auto order = topologicalOrder(graph);
  if (!order) return Error{order.error()};
  GraphSummary summary;
  summary.ops = graph.numOps();
  summary.edges = graph.numEdges();
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeDistance(e) > 0) ++summary.loopCarriedEdges;
  }
  summary.weakComponents = countWeaklyConnectedComponents(graph);
  const auto asap = asapTimes(graph, *order);
  summary.criticalPath = criticalPathLength(graph, asap);
  std::vector<std::int64_t> depth(static_cast<std::size_t>(graph.numOps()), 1);
  for (OpId op : *order) {
    for (EdgeId e : graph.outEdges(op)) {
      if (graph.edgeDistance(e) != 0) continue;
      auto& target = depth[graph.edgeTarget(e)];
      target = std::max(target, depth[op] + 1);
    }
    summary.depth = std::max(summary.depth, depth[op]);
  }
  if (graph.hasLoopCarriedEdges()) {
    const Components components = stronglyConnectedComponents(graph);
    for (std::int32_t c = 0; c < components.count; ++c) {
      if (components.size(c) > 1) ++summary.nontrivialSccs;
    }
    for (OpId op = 0; op < graph.numOps(); ++op) {
      for (EdgeId e : graph.outEdges(op)) {
        if (graph.edgeTarget(e) == op && components.size(components.componentOf[op]) == 1) {
          ++summary.nontrivialSccs;
          break;
        }
      }
    }
    // A loop-carried edge between two recurrences (or out of none) bounds no II: only those
    // inside one close a cycle.
    for (EdgeId e = 0; e < graph.numEdges(); ++e) {
      if (graph.edgeDistance(e) > 0 && components.componentOf[graph.edgeSource(e)] ==
                                           components.componentOf[graph.edgeTarget(e)]) {
        ++summary.loopCarriedEdgesOnRecurrences;
      }
    }
  }
  summary.resMii = computeResMii(graph, machine);
  summary.recMii = computeRecMii(graph);
  return summary;
}

}  // namespace gaus
