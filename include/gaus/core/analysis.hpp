// Graph analyses every method builds on: topological order, ASAP/ALAP times, the critical path,
// strongly connected components, and the lower bounds on II (ResMII, RecMII).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>

namespace gaus {

// Topological order of the ops over the edges of distance 0 (Kahn's algorithm; among ready ops
// the smallest id goes first, so the order is deterministic). A cycle of distance-0 edges is an
// error whose message names the ops on one such cycle.
Expected<std::vector<OpId>> topologicalOrder(const Graph& graph);

// Earliest start of every op over the distance-0 edges (sources start at 0).
std::vector<Cycle> asapTimes(const Graph& graph, const std::vector<OpId>& topoOrder);

// Latest start of every op such that it and all its successors complete by `horizon`. Fails when
// the horizon is shorter than the critical path (naming the critical path length).
Expected<std::vector<Cycle>> alapTimes(const Graph& graph, const std::vector<OpId>& topoOrder,
                                       Cycle horizon);

// Length of the longest path: max over ops of asap + duration.
Cycle criticalPathLength(const Graph& graph, const std::vector<Cycle>& asap);

// The ops of one longest path, from a source to the op that completes last.
std::vector<OpId> criticalPath(const Graph& graph, const std::vector<OpId>& topoOrder,
                               const std::vector<Cycle>& asap);

// Strongly connected components over all edges (any distance), by an iterative Tarjan.
struct Components {
  std::vector<std::int32_t> componentOf;  // per op
  std::int32_t count = 0;
  std::vector<std::int64_t> offset;  // CSR: members of component c are
  std::vector<OpId> members;         // members[offset[c] .. offset[c + 1])
  std::int32_t size(std::int32_t c) const {
    return static_cast<std::int32_t>(offset[c + 1] - offset[c]);
  }
};
Components stronglyConnectedComponents(const Graph& graph);

// Weakly connected components (edge direction ignored): the independent parts of the graph.
std::int32_t countWeaklyConnectedComponents(const Graph& graph);

// ResMII = max over limited resources r of ceil(total units x cycles reserved on r / cap(r)).
// A resource of capacity 0 that some op needs makes every II infeasible: `infeasible` says so.
struct ResMii {
  std::int64_t value = 1;                 // at least 1
  std::optional<ResourceId> binding;      // the resource attaining the maximum
  std::optional<std::string> infeasible;  // "op mul3 needs resource MUL of capacity 0"
};
ResMii computeResMii(const Graph& graph, const Machine& machine);

// RecMII = the smallest II at which no cycle of the graph has positive weight under
// w(e) = delay(e) - distance(e) * II, found by binary search with a positive-cycle test per
// strongly connected component. 0 when the graph has no cycles. A cycle of distance-0 edges
// has no feasible II: `infeasible` names it.
struct RecMii {
  std::int64_t value = 0;
  std::vector<OpId> bindingCycle;  // ops of a component that binds at value - 1, if any
  std::optional<std::string> infeasible;
};
RecMii computeRecMii(const Graph& graph);

// True when the constraint graph t(v) - t(u) >= delay - distance * ii has no positive cycle,
// i.e. the recurrences allow `ii`.
bool recurrencesAllowIi(const Graph& graph, std::int64_t ii);

// Earliest start times at a given II over all edges (weights delay - distance * ii), by
// Bellman-Ford style relaxation. Fails when `ii` is below RecMII (a positive cycle).
Expected<std::vector<Cycle>> moduloAsapTimes(const Graph& graph, std::int64_t ii);

// All the above in one summary for `gaus info`.
struct GraphSummary {
  OpId ops = 0;
  EdgeId edges = 0;
  EdgeId loopCarriedEdges = 0;
  std::int32_t weakComponents = 0;
  std::int32_t nontrivialSccs = 0;  // components with a cycle
  Cycle criticalPath = 0;
  std::int64_t depth = 0;  // ops on the longest path (counting ops, not cycles)
  ResMii resMii;
  RecMii recMii;
};
Expected<GraphSummary> summarizeGraph(const Graph& graph, const Machine& machine);

}  // namespace gaus
