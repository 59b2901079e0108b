// Start schedules and time windows for the exact models (TWILL.md section 2, "Speed": bound each
// op's time window from ASAP/ALAP at the current II and an upper bound on L; give CBC a first
// schedule). The greedy placement is plain operation-driven list scheduling (acyclic) and its
// modulo variant with a folded reservation table, without the eviction of iterative modulo
// scheduling: it only has to be quick and legal when it succeeds.

#include "start_schedule.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <numeric>
#include <queue>

namespace gaus::exact::detail {

namespace {

// Units in use per resource and cycle: absolute cycles (growing) or residues modulo ii.
class ReservationTable {
 public:
  ReservationTable(const Machine& machine, std::optional<std::int32_t> ii)
      : machine_(machine), ii_(ii), used_(machine.resources.size()) {
    if (ii_) {
      for (auto& row : used_) row.assign(static_cast<std::size_t>(*ii_), 0);
    }
  }

  bool fits(std::span<const ReservationBlock> blocks, Cycle start) {
    bool ok = true;
    apply(blocks, start, 1);
    for (const auto& block : blocks) {
      if (!machine_.resources[block.resource].limited()) continue;
      const std::int64_t capacity = *machine_.resources[block.resource].capacity;
      for (std::int32_t j = 0; j < block.length && ok; ++j) {
        ok = at(block.resource, start + block.begin + j) <= capacity;
      }
    }
    apply(blocks, start, -1);
    return ok;
  }

  void reserve(std::span<const ReservationBlock> blocks, Cycle start) { apply(blocks, start, 1); }

 private:
  std::int64_t& at(ResourceId resource, Cycle cycle) {
    auto& row = used_[resource];
    std::size_t index = 0;
    if (ii_) {
      index = static_cast<std::size_t>(((cycle % *ii_) + *ii_) % *ii_);
    } else {
      index = static_cast<std::size_t>(cycle);
      if (index >= row.size()) row.resize(index * 2 + 16, 0);
    }
    return row[index];
  }

  void apply(std::span<const ReservationBlock> blocks, Cycle start, std::int64_t sign) {
    for (const auto& block : blocks) {
      if (!machine_.resources[block.resource].limited()) continue;
      for (std::int32_t j = 0; j < block.length; ++j) {
        at(block.resource, start + block.begin + j) += sign * block.units;
      }
    }
  }

  const Machine& machine_;
  std::optional<std::int32_t> ii_;
  std::vector<std::vector<std::int64_t>> used_;
};

// Longest path from each op to the end over distance-0 edges, plus the op's duration.
std::vector<Cycle> heights(const Graph& graph, const std::vector<OpId>& order) {
  std::vector<Cycle> height(static_cast<std::size_t>(graph.numOps()), 0);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const OpId op = *it;
    height[op] = graph.duration(op);
    for (EdgeId e : graph.outEdges(op)) {
      if (graph.edgeDistance(e) > 0) continue;
      height[op] = std::max(height[op], graph.edgeDelay(e) + height[graph.edgeTarget(e)]);
    }
  }
  return height;
}

// Kahn's order over distance-0 edges; empty when they have a cycle.
std::vector<OpId> forwardOrder(const Graph& graph) {
  std::vector<std::int32_t> indegree(static_cast<std::size_t>(graph.numOps()), 0);
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeDistance(e) == 0) ++indegree[graph.edgeTarget(e)];
  }
  std::vector<OpId> order;
  std::deque<OpId> ready;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (indegree[op] == 0) ready.push_back(op);
  }
  while (!ready.empty()) {
    const OpId op = ready.front();
    ready.pop_front();
    order.push_back(op);
    for (EdgeId e : graph.outEdges(op)) {
      if (graph.edgeDistance(e) == 0 && --indegree[graph.edgeTarget(e)] == 0) {
        ready.push_back(graph.edgeTarget(e));
      }
    }
  }
  if (static_cast<OpId>(order.size()) != graph.numOps()) return {};
  return order;
}

}  // namespace

Cycle scheduleLatency(const Graph& graph, const std::vector<Cycle>& start) {
  Cycle latency = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    latency = std::max(latency, start[op] + graph.duration(op));
  }
  return latency;
}

std::optional<Schedule> greedySchedule(const Graph& graph, const Machine& machine,
                                       std::optional<std::int32_t> ii) {
  const std::vector<OpId> order = forwardOrder(graph);
  if (order.empty() && graph.numOps() > 0) return std::nullopt;
  const std::vector<Cycle> height = heights(graph, order);

  std::vector<std::int32_t> waiting(static_cast<std::size_t>(graph.numOps()), 0);
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeDistance(e) == 0) ++waiting[graph.edgeTarget(e)];
  }
  auto later = [&](OpId a, OpId b) {
    return height[a] != height[b] ? height[a] < height[b] : a > b;
  };
  std::priority_queue<OpId, std::vector<OpId>, decltype(later)> ready(later);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (waiting[op] == 0) ready.push(op);
  }
  std::vector<Cycle> readyAt(static_cast<std::size_t>(graph.numOps()), 0);
  Schedule schedule;
  schedule.start.assign(static_cast<std::size_t>(graph.numOps()), 0);
  schedule.ii = ii;
  ReservationTable table(machine, ii);
  while (!ready.empty()) {
    const OpId op = ready.top();
    ready.pop();
    const auto blocks = graph.reservation(op);
    Cycle start = readyAt[op];
    if (ii) {
      const Cycle last = start + *ii - 1;
      while (start <= last && !table.fits(blocks, start)) ++start;
      if (start > last) return std::nullopt;
    } else {
      while (!table.fits(blocks, start)) ++start;
    }
    table.reserve(blocks, start);
    schedule.start[op] = start;
    for (EdgeId e : graph.outEdges(op)) {
      if (graph.edgeDistance(e) > 0) continue;
      const OpId target = graph.edgeTarget(e);
      readyAt[target] = std::max(readyAt[target], start + graph.edgeDelay(e));
      if (--waiting[target] == 0) ready.push(target);
    }
  }
  if (ii) {
    for (EdgeId e = 0; e < graph.numEdges(); ++e) {
      const Cycle earliest = schedule.start[graph.edgeSource(e)] + graph.edgeDelay(e) -
                             static_cast<Cycle>(graph.edgeDistance(e)) * *ii;
      if (schedule.start[graph.edgeTarget(e)] < earliest) return std::nullopt;
    }
  }
  return schedule;
}

std::optional<std::vector<Cycle>> latestStarts(const Graph& graph, std::optional<std::int32_t> ii,
                                               Cycle horizon, const std::vector<Cycle>& earliest) {
  const OpId count = graph.numOps();
  std::vector<Cycle> latest(static_cast<std::size_t>(count));
  for (OpId op = 0; op < count; ++op) latest[op] = horizon - graph.duration(op);
  // Bellman-Ford on the reversed constraint graph: t(u) <= t(v) - delay + distance * ii. The
  // weights admit no positive cycle once ii >= RecMII, so |V| rounds suffice.
  std::vector<std::uint8_t> queued(static_cast<std::size_t>(count), 1);
  std::deque<OpId> queue(static_cast<std::size_t>(count));
  std::iota(queue.begin(), queue.end(), 0);
  std::int64_t relaxations = 0;
  const std::int64_t limit = static_cast<std::int64_t>(count) * (graph.numEdges() + 1) + 1;
  while (!queue.empty()) {
    const OpId v = queue.front();
    queue.pop_front();
    queued[v] = 0;
    for (EdgeId e : graph.inEdges(v)) {
      const std::int32_t distance = graph.edgeDistance(e);
      if (distance > 0 && !ii) continue;
      const OpId u = graph.edgeSource(e);
      const Cycle bound =
          latest[v] - graph.edgeDelay(e) + distance * static_cast<Cycle>(ii.value_or(0));
      if (bound < latest[u]) {
        latest[u] = bound;
        if (latest[u] < earliest[u]) return std::nullopt;
        if (++relaxations > limit) return std::nullopt;
        if (!queued[u]) {
          queued[u] = 1;
          queue.push_back(u);
        }
      }
    }
  }
  for (OpId op = 0; op < count; ++op) {
    if (latest[op] < earliest[op]) return std::nullopt;
  }
  return latest;
}

}  // namespace gaus::exact::detail
