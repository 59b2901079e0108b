#include <algorithm>
#include <atomic>
#include <deque>
#include <functional>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus {

namespace {

constexpr Cycle kUnreached = std::numeric_limits<Cycle>::min();

std::atomic<AnalysisObserver> analysisObserver{nullptr};

void observed(Analysis analysis, const Graph& graph) {
  if (const AnalysisObserver observer = analysisObserver.load(std::memory_order_relaxed)) {
    observer(analysis, graph);
  }
}

// Kahn's algorithm over the distance-0 edges. Returns the ops it could order, all of them unless
// distance-0 edges form a cycle; `inDegree` is left holding each op's unresolved in-edges.
std::vector<OpId> orderByKahn(const Graph& graph, ReadyOrder readyOrder,
                              std::vector<std::int32_t>& inDegree) {
  const OpId opCount = graph.numOps();
  inDegree.assign(static_cast<std::size_t>(opCount), 0);
  const auto& targets = graph.edgeTargets();
  const auto& distances = graph.edgeDistances();
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (distances[e] == 0) ++inDegree[targets[e]];
  }
  std::vector<OpId> order;
  order.reserve(static_cast<std::size_t>(opCount));
  for (OpId op = 0; op < opCount; ++op) {
    if (inDegree[op] == 0) order.push_back(op);
  }
  // First ready first: `order` doubles as the FIFO queue. Smallest id: the ops not yet taken
  // wait in a min-heap (the sources, pushed in id order, already form one).
  std::vector<OpId> heap;
  if (readyOrder == ReadyOrder::kSmallestId) {
    heap = std::move(order);
    order.clear();
  }
  const auto release = [&](OpId op) {
    for (EdgeId e : graph.outEdges(op)) {
      if (distances[e] != 0) continue;
      const OpId target = targets[e];
      if (--inDegree[target] != 0) continue;
      if (readyOrder == ReadyOrder::kFirstReady) {
        order.push_back(target);
      } else {
        heap.push_back(target);
        std::push_heap(heap.begin(), heap.end(), std::greater<>());
      }
    }
  };
  if (readyOrder == ReadyOrder::kFirstReady) {
    for (std::size_t head = 0; head < order.size(); ++head) release(order[head]);
  } else {
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), std::greater<>());
      const OpId op = heap.back();
      heap.pop_back();
      order.push_back(op);
      release(op);
    }
  }
  return order;
}

// The ops of one cycle among those Kahn's algorithm left unordered (inDegree > 0), in edge
// order: each has a distance-0 predecessor among them, so walking predecessors from the
// smallest such id must revisit an op.
std::vector<OpId> cycleAmongUnordered(const Graph& graph,
                                      const std::vector<std::int32_t>& inDegree) {
  OpId start = -1;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (inDegree[op] > 0) {
      start = op;
      break;
    }
  }
  std::vector<std::int32_t> seenAt(static_cast<std::size_t>(graph.numOps()), -1);
  std::vector<OpId> walk;
  OpId current = start;
  while (seenAt[current] < 0) {
    seenAt[current] = static_cast<std::int32_t>(walk.size());
    walk.push_back(current);
    for (EdgeId e : graph.inEdges(current)) {
      const OpId pred = graph.edgeSource(e);
      if (graph.edgeDistance(e) == 0 && inDegree[pred] > 0) {
        current = pred;
        break;
      }
    }
  }
  // walk[seenAt[current]..] is the cycle, in reverse edge direction.
  std::vector<OpId> cycle(walk.begin() + seenAt[current], walk.end());
  std::reverse(cycle.begin(), cycle.end());
  return cycle;
}

std::string describeZeroDistanceCycle(const Graph& graph, const std::vector<OpId>& cycle) {
  std::string names;
  const std::size_t shown = std::min<std::size_t>(cycle.size(), 12);
  for (std::size_t i = 0; i < shown; ++i) names += graph.opName(cycle[i]) + " -> ";
  if (shown < cycle.size()) names += fmt::format("... ({} ops) -> ", cycle.size());
  names += graph.opName(cycle.front());
  return fmt::format(
      "cycle of distance-0 edges: {} (no schedule can satisfy it; a loop-carried "
      "edge needs distance >= 1)",
      names);
}

// Follows parent edges from `from` until an op repeats and returns that cycle in edge order
// (the whole set when the chain ends first, which a proven positive cycle should not allow).
std::vector<OpId> traceParentCycle(const Graph& graph, const std::vector<OpId>& ops,
                                   const std::vector<std::int32_t>& local,
                                   const std::vector<EdgeId>& parentEdge, std::int32_t from) {
  std::vector<std::int32_t> seenAt(ops.size(), -1);
  std::vector<std::int32_t> walk;
  std::int32_t node = from;
  while (node >= 0 && seenAt[node] < 0) {
    seenAt[node] = static_cast<std::int32_t>(walk.size());
    walk.push_back(node);
    node = parentEdge[node] < 0 ? -1 : local[graph.edgeSource(parentEdge[node])];
  }
  if (node < 0) return ops;
  std::vector<OpId> cycle;
  for (std::size_t i = static_cast<std::size_t>(seenAt[node]); i < walk.size(); ++i) {
    cycle.push_back(ops[walk[i]]);
  }
  std::reverse(cycle.begin(), cycle.end());
  return cycle;
}

// Longest-path relaxation (SPFA) over the edges inside one set of ops, with edge weight
// delay - distance * ii. Returns the ops of a positive cycle, or an empty vector when none.
// `local` maps an op to its index in `ops`, or -1 for ops outside the set. A best path of
// `ops.size()` edges must repeat an op, so it proves a positive cycle.
std::vector<OpId> findPositiveCycle(const Graph& graph, const std::vector<OpId>& ops,
                                    const std::vector<std::int32_t>& local, std::int64_t ii) {
  const auto count = static_cast<std::int32_t>(ops.size());
  std::vector<Cycle> distance(ops.size(), 0);
  std::vector<EdgeId> parentEdge(ops.size(), -1);
  std::vector<std::int32_t> pathEdges(ops.size(), 0);
  std::vector<std::uint8_t> queued(ops.size(), 1);
  // FIFO of at most `count` entries (each op is queued at most once at a time) as a ring.
  std::vector<std::int32_t> ring(ops.size());
  std::iota(ring.begin(), ring.end(), 0);
  std::size_t head = 0;
  std::size_t queuedCount = ops.size();
  while (queuedCount > 0) {
    const std::int32_t u = ring[head];
    head = (head + 1) % ring.size();
    --queuedCount;
    queued[u] = 0;
    for (EdgeId e : graph.outEdges(ops[u])) {
      const std::int32_t v = local[graph.edgeTarget(e)];
      if (v < 0) continue;
      const Cycle candidate = distance[u] + graph.edgeDelay(e) - graph.edgeDistance(e) * ii;
      if (candidate > distance[v]) {
        distance[v] = candidate;
        parentEdge[v] = e;
        pathEdges[v] = pathEdges[u] + 1;
        if (pathEdges[v] >= count) return traceParentCycle(graph, ops, local, parentEdge, v);
        if (!queued[v]) {
          queued[v] = 1;
          ring[(head + queuedCount) % ring.size()] = v;
          ++queuedCount;
        }
      }
    }
  }
  return {};
}

}  // namespace

void observeAnalyses(AnalysisObserver observer) {
  analysisObserver.store(observer, std::memory_order_relaxed);
}

Expected<std::vector<OpId>> topologicalOrder(const Graph& graph, ReadyOrder readyOrder) {
  observed(Analysis::kTopologicalOrder, graph);
  std::vector<std::int32_t> inDegree;
  std::vector<OpId> order = orderByKahn(graph, readyOrder, inDegree);
  if (static_cast<OpId>(order.size()) != graph.numOps()) {
    return Error{describeZeroDistanceCycle(graph, cycleAmongUnordered(graph, inDegree))};
  }
  return order;
}

std::vector<OpId> zeroDistanceCycle(const Graph& graph) {
  std::vector<std::int32_t> inDegree;
  if (static_cast<OpId>(orderByKahn(graph, ReadyOrder::kFirstReady, inDegree).size()) ==
      graph.numOps()) {
    return {};
  }
  return cycleAmongUnordered(graph, inDegree);
}

std::vector<Cycle> asapTimes(const Graph& graph, const std::vector<OpId>& topoOrder) {
  std::vector<Cycle> asap(static_cast<std::size_t>(graph.numOps()), 0);
  const auto& targets = graph.edgeTargets();
  const auto& delays = graph.edgeDelays();
  const auto& distances = graph.edgeDistances();
  for (OpId op : topoOrder) {
    const Cycle start = asap[op];
    for (EdgeId e : graph.outEdges(op)) {
      if (distances[e] != 0) continue;
      Cycle& target = asap[targets[e]];
      target = std::max(target, start + delays[e]);
    }
  }
  return asap;
}

Expected<std::vector<Cycle>> heightsToEnd(const Graph& graph, const std::vector<OpId>& topoOrder,
                                          std::optional<std::int64_t> ii) {
  const OpId opCount = graph.numOps();
  std::vector<Cycle> height(static_cast<std::size_t>(opCount));
  for (OpId op = 0; op < opCount; ++op) height[op] = graph.duration(op);
  const auto& targets = graph.edgeTargets();
  const auto& delays = graph.edgeDelays();
  const auto& distances = graph.edgeDistances();
  // One pass settles every path of distance-0 edges; each further pass settles paths with one
  // more loop-carried edge, so a graph without positive cycles settles within |V| + 1 passes.
  const std::int64_t maxPasses = ii ? std::int64_t{opCount} + 1 : 1;
  for (std::int64_t pass = 0; pass < maxPasses; ++pass) {
    bool changed = false;
    for (auto it = topoOrder.rbegin(); it != topoOrder.rend(); ++it) {
      const OpId op = *it;
      Cycle best = height[op];
      for (EdgeId e : graph.outEdges(op)) {
        if (distances[e] != 0 && !ii) continue;
        const Cycle weight = delays[e] - (ii ? distances[e] * *ii : 0);
        best = std::max(best, weight + height[targets[e]]);
      }
      if (best != height[op]) {
        height[op] = best;
        changed = true;
      }
    }
    if (!changed || !ii) return height;
  }
  return Error{fmt::format("heights at II={} do not settle: a recurrence needs a larger II", *ii)};
}

Expected<std::vector<Cycle>> alapTimes(const Graph& graph, const std::vector<OpId>& topoOrder,
                                       Cycle horizon) {
  // Without an II the heights always settle.
  std::vector<Cycle> alap = std::move(heightsToEnd(graph, topoOrder)).value();
  for (Cycle& latest : alap) latest = horizon - latest;
  if (std::any_of(alap.begin(), alap.end(), [](Cycle latest) { return latest < 0; })) {
    const auto asap = asapTimes(graph, topoOrder);
    return Error{fmt::format("horizon D={} is shorter than the critical path ({} cycles)", horizon,
                             criticalPathLength(graph, asap))};
  }
  return alap;
}

Cycle criticalPathLength(const Graph& graph, const std::vector<Cycle>& asap) {
  return scheduleLatency(graph, asap);
}

std::vector<OpId> criticalPath(const Graph& graph, const std::vector<OpId>& topoOrder,
                               const std::vector<Cycle>& asap) {
  (void)topoOrder;
  if (graph.numOps() == 0) return {};
  OpId last = 0;
  for (OpId op = 1; op < graph.numOps(); ++op) {
    if (asap[op] + graph.duration(op) > asap[last] + graph.duration(last)) last = op;
  }
  std::vector<OpId> path{last};
  OpId current = last;
  for (;;) {
    OpId previous = -1;
    for (EdgeId e : graph.inEdges(current)) {
      if (graph.edgeDistance(e) != 0) continue;
      const OpId source = graph.edgeSource(e);
      if (asap[source] + graph.edgeDelay(e) == asap[current]) {
        previous = source;
        break;
      }
    }
    if (previous < 0) break;
    path.push_back(previous);
    current = previous;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

Components stronglyConnectedComponents(const Graph& graph) {
  const OpId opCount = graph.numOps();
  Components result;
  result.componentOf.assign(static_cast<std::size_t>(opCount), -1);
  std::vector<std::int32_t> index(static_cast<std::size_t>(opCount), -1);
  std::vector<std::int32_t> lowLink(static_cast<std::size_t>(opCount), 0);
  std::vector<std::uint8_t> onStack(static_cast<std::size_t>(opCount), 0);
  std::vector<OpId> stack;
  // Explicit DFS frames (op, position in its out-edge list) instead of recursion: graphs of
  // 10^6 ops would overflow the call stack.
  std::vector<std::pair<OpId, std::int64_t>> frames;
  std::int32_t nextIndex = 0;
  for (OpId root = 0; root < opCount; ++root) {
    if (index[root] >= 0) continue;
    frames.emplace_back(root, 0);
    index[root] = lowLink[root] = nextIndex++;
    stack.push_back(root);
    onStack[root] = 1;
    while (!frames.empty()) {
      auto& [op, position] = frames.back();
      const auto out = graph.outEdges(op);
      if (position < static_cast<std::int64_t>(out.size())) {
        const OpId next = graph.edgeTarget(out[static_cast<std::size_t>(position++)]);
        if (index[next] < 0) {
          index[next] = lowLink[next] = nextIndex++;
          stack.push_back(next);
          onStack[next] = 1;
          frames.emplace_back(next, 0);
        } else if (onStack[next]) {
          lowLink[op] = std::min(lowLink[op], index[next]);
        }
        continue;
      }
      const OpId finished = op;
      frames.pop_back();
      if (!frames.empty()) {
        const OpId parent = frames.back().first;
        lowLink[parent] = std::min(lowLink[parent], lowLink[finished]);
      }
      if (lowLink[finished] == index[finished]) {
        OpId member;
        do {
          member = stack.back();
          stack.pop_back();
          onStack[member] = 0;
          result.componentOf[member] = result.count;
        } while (member != finished);
        ++result.count;
      }
    }
  }
  result.offset.assign(static_cast<std::size_t>(result.count) + 1, 0);
  for (OpId op = 0; op < opCount; ++op) ++result.offset[result.componentOf[op] + 1];
  for (std::size_t c = 1; c < result.offset.size(); ++c) result.offset[c] += result.offset[c - 1];
  result.members.resize(static_cast<std::size_t>(opCount));
  std::vector<std::int64_t> cursor(result.offset.begin(), result.offset.end() - 1);
  for (OpId op = 0; op < opCount; ++op) {
    result.members[static_cast<std::size_t>(cursor[result.componentOf[op]]++)] = op;
  }
  return result;
}

std::int32_t countWeaklyConnectedComponents(const Graph& graph) {
  std::vector<OpId> parent(static_cast<std::size_t>(graph.numOps()));
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](OpId op) {
    while (parent[op] != op) {
      parent[op] = parent[parent[op]];
      op = parent[op];
    }
    return op;
  };
  std::int32_t components = graph.numOps();
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const OpId a = find(graph.edgeSource(e));
    const OpId b = find(graph.edgeTarget(e));
    if (a != b) {
      parent[std::max(a, b)] = std::min(a, b);
      --components;
    }
  }
  return components;
}

ResMii computeResMii(const Graph& graph, const Machine& machine) {
  observed(Analysis::kResMii, graph);
  ResMii result;
  std::vector<std::int64_t> demand(machine.resources.size(), 0);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    for (const auto& block : graph.reservation(op)) {
      if (block.resource < 0 || block.resource >= machine.numResources()) continue;
      const auto& resource = machine.resources[block.resource];
      if (!resource.limited()) continue;
      if (block.units > *resource.capacity && !result.infeasible) {
        result.infeasible =
            fmt::format("op {} needs {} unit(s) of resource {} at once, but its capacity is {}",
                        graph.opName(op), block.units, resource.name, *resource.capacity);
      }
      demand[block.resource] += static_cast<std::int64_t>(block.units) * block.length;
    }
  }
  for (ResourceId r = 0; r < machine.numResources(); ++r) {
    if (!machine.resources[r].limited() || demand[r] == 0) continue;
    const std::int64_t capacity = *machine.resources[r].capacity;
    if (capacity == 0) continue;  // already reported above
    const std::int64_t bound = (demand[r] + capacity - 1) / capacity;
    if (bound > result.value || (!result.binding && bound == result.value)) {
      result.value = bound;
      result.binding = r;
    }
  }
  return result;
}

bool recurrencesAllowIi(const Graph& graph, std::int64_t ii) {
  std::vector<OpId> ops(static_cast<std::size_t>(graph.numOps()));
  std::iota(ops.begin(), ops.end(), 0);
  std::vector<std::int32_t> local(ops.begin(), ops.end());
  return findPositiveCycle(graph, ops, local, ii).empty();
}

RecMii computeRecMii(const Graph& graph) {
  observed(Analysis::kRecMii, graph);
  RecMii result;
  // Only loop-carried edges close cycles that admit some II (distance-0 cycles are reported by
  // topologicalOrder), so an acyclic loop body has RecMII 0 and needs no search.
  if (!graph.hasLoopCarriedEdges()) return result;
  const Components components = stronglyConnectedComponents(graph);
  std::vector<std::int32_t> local(static_cast<std::size_t>(graph.numOps()), -1);
  for (std::int32_t c = 0; c < components.count; ++c) {
    if (components.size(c) == 1) {
      const OpId op = components.members[static_cast<std::size_t>(components.offset[c])];
      const auto out = graph.outEdges(op);
      if (std::none_of(out.begin(), out.end(),
                       [&](EdgeId e) { return graph.edgeTarget(e) == op; })) {
        continue;
      }
    }
    const std::vector<OpId> ops(components.members.begin() + components.offset[c],
                                components.members.begin() + components.offset[c + 1]);
    std::int64_t delaySum = 0;
    std::int32_t distanceSum = 0;
    bool hasCycle = ops.size() > 1;
    for (OpId op : ops) local[op] = 1;
    for (OpId op : ops) {
      for (EdgeId e : graph.outEdges(op)) {
        if (local[graph.edgeTarget(e)] < 0) continue;
        if (graph.edgeTarget(e) == op) hasCycle = true;
        delaySum += graph.edgeDelay(e);
        distanceSum += graph.edgeDistance(e);
      }
    }
    if (hasCycle) {
      for (std::size_t i = 0; i < ops.size(); ++i) local[ops[i]] = static_cast<std::int32_t>(i);
      if (distanceSum == 0) {
        result.infeasible = fmt::format("a cycle through op {} has only distance-0 edges",
                                        graph.opName(ops.front()));
      } else {
        // Any cycle has total delay <= delaySum and total distance >= 1, so II = delaySum (or 1)
        // always passes; search the smallest passing II in [max(1, value), delaySum].
        std::int64_t low = std::max<std::int64_t>(1, result.value);
        std::int64_t high = std::max<std::int64_t>(low, delaySum);
        if (!findPositiveCycle(graph, ops, local, low).empty()) {
          while (low + 1 < high) {
            const std::int64_t mid = low + (high - low) / 2;
            if (findPositiveCycle(graph, ops, local, mid).empty()) {
              high = mid;
            } else {
              low = mid;
            }
          }
          result.value = high;
          result.bindingCycle = findPositiveCycle(graph, ops, local, high - 1);
        } else if (result.value < low) {
          result.value = low;
          result.bindingCycle = ops;
        }
      }
    }
    for (OpId op : ops) local[op] = -1;
  }
  return result;
}

Expected<std::vector<Cycle>> moduloAsapTimes(const Graph& graph, std::int64_t ii) {
  const OpId opCount = graph.numOps();
  std::vector<Cycle> start(static_cast<std::size_t>(opCount), 0);
  std::vector<std::int32_t> pathEdges(static_cast<std::size_t>(opCount), 0);
  std::vector<std::uint8_t> queued(static_cast<std::size_t>(opCount), 1);
  std::deque<OpId> queue(static_cast<std::size_t>(opCount));
  std::iota(queue.begin(), queue.end(), 0);
  while (!queue.empty()) {
    const OpId u = queue.front();
    queue.pop_front();
    queued[u] = 0;
    for (EdgeId e : graph.outEdges(u)) {
      const OpId v = graph.edgeTarget(e);
      const Cycle candidate = start[u] + graph.edgeDelay(e) - graph.edgeDistance(e) * ii;
      if (candidate > start[v]) {
        start[v] = candidate;
        pathEdges[v] = pathEdges[u] + 1;
        if (pathEdges[v] >= opCount) {
          return Error{
              fmt::format("II={} is below the recurrence bound (a cycle through {} has "
                          "positive weight)",
                          ii, graph.opName(v))};
        }
        if (!queued[v]) {
          queued[v] = 1;
          queue.push_back(v);
        }
      }
    }
  }
  return start;
}

Cycle nonOverlappedIi(const Graph& graph, std::span<const Cycle> oneIteration) {
  Cycle ii = std::max<Cycle>(1, scheduleLatency(graph, oneIteration));
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const Cycle distance = graph.edgeDistance(e);
    if (distance == 0) continue;
    const Cycle gap = oneIteration[static_cast<std::size_t>(graph.edgeSource(e))] +
                      graph.edgeDelay(e) -
                      oneIteration[static_cast<std::size_t>(graph.edgeTarget(e))];
    if (gap > 0) ii = std::max(ii, (gap + distance - 1) / distance);
  }
  return ii;
}

std::string describeRecurrence(const Graph& graph, const std::vector<OpId>& cycle) {
  constexpr std::size_t kShown = 8;
  std::string text;
  const std::size_t shown = std::min(cycle.size(), kShown);
  for (std::size_t i = 0; i < shown; ++i) text += (i ? " -> " : "") + graph.opName(cycle[i]);
  if (shown < cycle.size()) text += fmt::format(" -> ... ({} ops)", cycle.size());
  if (!cycle.empty()) text += " -> " + graph.opName(cycle.front());
  return text;
}

std::string describeIiBound(const Graph& graph, const Machine& machine, const ResMii& resMii,
                            const RecMii& recMii) {
  const std::string res =
      resMii.binding
          ? fmt::format("ResMII ({}) = {}", machine.resources[*resMii.binding].name, resMii.value)
          : fmt::format("ResMII = {} (no limited resource in use)", resMii.value);
  const std::string rec =
      recMii.value > 0 ? fmt::format("RecMII (cycle {}) = {}",
                                     describeRecurrence(graph, recMii.bindingCycle), recMii.value)
                       : std::string("RecMII = 0 (no recurrence)");
  if (recMii.value > resMii.value) return fmt::format("{} > {}", rec, res);
  return fmt::format("{} >= {}", res, rec);
}

MiiBound miiBound(const Graph& graph, const Machine& machine, const ResMii& resMii,
                  const RecMii& recMii) {
  return {std::max(resMii.value, recMii.value), resMii.value, recMii.value,
          describeIiBound(graph, machine, resMii, recMii)};
}

bool usesLimitedResource(const Graph& graph, const Machine& machine) {
  for (OpId op = 0; op < graph.numOps(); ++op) {
    for (const ReservationBlock& block : graph.reservation(op)) {
      if (block.resource >= 0 && block.resource < machine.numResources() &&
          machine.resources[block.resource].limited()) {
        return true;
      }
    }
  }
  return false;
}

bool hasLiveMemory(const Graph& graph) {
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (graph.mem(op) != 0.0) return true;
  }
  return false;
}

std::pair<Cycle, Cycle> precedenceWindow(const Graph& graph, std::span<const Cycle> start, OpId op,
                                         Cycle horizon) {
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

}  // namespace gaus
