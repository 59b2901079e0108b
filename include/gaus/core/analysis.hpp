// Graph analyses every method builds on: topological order, ASAP/ALAP times, the critical path,
// strongly connected components, and the lower bounds on II (ResMII, RecMII).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>

namespace gaus {

// Which ready op Kahn's algorithm takes next; both orders are deterministic.
enum class ReadyOrder {
  kFirstReady,  // first come, first served: the sources in id order, then each op as it is freed
  kSmallestId,  // the smallest id among the ready ops (a heap: O(V log V) more)
};

// Topological order of the ops over the edges of distance 0 (Kahn's algorithm). A cycle of
// distance-0 edges is an error whose message names the ops on one such cycle.
Expected<std::vector<OpId>> topologicalOrder(const Graph& graph,
                                             ReadyOrder readyOrder = ReadyOrder::kFirstReady);

// The ops of the cycle of distance-0 edges that topologicalOrder's error names, in edge order
// (u -> next): empty when the distance-0 edges are acyclic.
std::vector<OpId> zeroDistanceCycle(const Graph& graph);

// Earliest start of every op over the distance-0 edges (sources start at 0).
std::vector<Cycle> asapTimes(const Graph& graph, const std::vector<OpId>& topoOrder);

// Longest path from each op to the end of the schedule, the op's own duration included:
// height(op) = max(duration(op), max over out-edges e of delay(e) - distance(e) * ii +
// height(target)).
// - Without `ii`: distance-0 edges only, one pass in reverse topological order.
// - With `ii`: every edge (Rau's HeightR for iterative modulo scheduling), by passes in reverse
//   topological order until nothing changes; a pass that still changes after |V| passes means a
//   positive cycle, i.e. `ii` is below RecMII, which is reported as an error.
// The latest start at horizon D is D - height: alapTimes below, and the exact engine's windows.
Expected<std::vector<Cycle>> heightsToEnd(const Graph& graph, const std::vector<OpId>& topoOrder,
                                          std::optional<std::int64_t> ii = std::nullopt);

// Latest start of every op such that it and all its successors complete by `horizon`
// (D - height over the distance-0 edges). Fails when the horizon is shorter than the critical
// path (naming the critical path length).
Expected<std::vector<Cycle>> alapTimes(const Graph& graph, const std::vector<OpId>& topoOrder,
                                       Cycle horizon);

// Length of the longest path: the latency of the ASAP schedule.
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

// What bounds II from below, as every modulo method reports it (Bounds::mii): MII = max(ResMII,
// RecMII), both parts, and the reason in words (describeIiBound).
struct MiiBound {
  std::int64_t value = 1;
  std::int64_t resMii = 1;
  std::int64_t recMii = 0;
  std::string reason;  // "ResMII (TC) = 2 >= RecMII (cycle O -> O) = 1"
};
MiiBound miiBound(const Graph& graph, const Machine& machine, const ResMii& resMii,
                  const RecMii& recMii);

// The ops of a recurrence closed into a cycle, "s1 -> acc -> m1 -> s1" (eight ops at most,
// then "-> ... (N ops)"): how every message names RecMII's cycle.
std::string describeRecurrence(const Graph& graph, const std::vector<OpId>& cycle);

// What bounds II from below, the one text every modulo method reports in Bounds::mii (miiBound):
// "RecMII (cycle s1 -> acc -> m1 -> s1) = 5 > ResMII (MUL) = 3", or
// "ResMII (TC) = 2 >= RecMII (cycle O -> O) = 1".
std::string describeIiBound(const Graph& graph, const Machine& machine, const ResMii& resMii,
                            const RecMii& recMii);

// True when the constraint graph t(v) - t(u) >= delay - distance * ii has no positive cycle,
// i.e. the recurrences allow `ii`.
bool recurrencesAllowIi(const Graph& graph, std::int64_t ii);

// Earliest start times at a given II over all edges (weights delay - distance * ii), by
// Bellman-Ford style relaxation. Fails when `ii` is below RecMII (a positive cycle).
Expected<std::vector<Cycle>> moduloAsapTimes(const Graph& graph, std::int64_t ii);

// The smallest II at which `oneIteration` (the starts of one iteration, legal on its own: it
// meets the distance-0 edges and the resources), repeated every II cycles, is a legal modulo
// schedule in which iterations do not overlap: II >= its latency (its reservations then lie in
// [0, L) and never meet modulo II) and II >= ceil((t(u) + delay - t(v)) / distance) on every
// loop-carried edge u -> v. At least 1. The last-resort II of modulo schedulers (iterative modulo
// scheduling's fallback, the upper end of the exact II search).
Cycle nonOverlappedIi(const Graph& graph, std::span<const Cycle> oneIteration);

// Whether some op's value has a size (mem != 0): on such a graph a latency-bounded problem's
// default objective is the peak live memory (formulation B; core/problem_kinds.hpp,
// preferredObjectives).
bool hasLiveMemory(const Graph& graph);

// Whether some op reserves a resource of limited capacity: the one test of "the machine limits
// this graph" (live memory's refinement and windows apply only where it does not, and the
// whole-graph MILP then needs no capacity rows).
bool usesLimitedResource(const Graph& graph, const Machine& machine);

// The starts one op may take with every other op where it is, in an acyclic schedule within a
// horizon (what the local searches of the stage and live-memory refinements move in): [latest
// predecessor start + delay, earliest successor start - delay] over the distance-0 edges, within
// [0, horizon - duration]; empty (first > second) when the op cannot stay.
std::pair<Cycle, Cycle> precedenceWindow(const Graph& graph, std::span<const Cycle> start, OpId op,
                                         Cycle horizon);

// A test's view of the analyses that a posed problem computes once (ProblemFacts): each call of
// topologicalOrder, computeResMii and computeRecMii is reported to the observer with its graph.
// One observer for the process, none by default; the run path's tests count with it that one
// `gaus schedule` or `gaus twill` computes each once (tests/unit/experiment/test_run_path.cpp).
enum class Analysis { kTopologicalOrder, kResMii, kRecMii };
using AnalysisObserver = void (*)(Analysis analysis, const Graph& graph);
void observeAnalyses(AnalysisObserver observer);  // nullptr: none

// All the above in one summary for `gaus info`.
struct GraphSummary {
  OpId ops = 0;
  EdgeId edges = 0;
  EdgeId loopCarriedEdges = 0;
  std::int32_t weakComponents = 0;
  std::int32_t nontrivialSccs = 0;  // recurrences: strongly connected components with a cycle
  EdgeId loopCarriedEdgesOnRecurrences = 0;  // of loopCarriedEdges, those inside a recurrence
  Cycle criticalPath = 0;
  std::int64_t depth = 0;  // ops on the longest path (counting ops, not cycles)
  ResMii resMii;
  RecMii recMii;
};
Expected<GraphSummary> summarizeGraph(const Graph& graph, const Machine& machine);

}  // namespace gaus
