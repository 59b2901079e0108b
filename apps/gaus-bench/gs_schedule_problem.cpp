#include "gs_schedule_problem.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <stdexcept>

namespace gaus::bench {

GsObjective evaluateGsSchedule(const Graph& graph, const Schedule& schedule, Cycle stages) {
  std::vector<double> load(static_cast<std::size_t>(stages), 0.0);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    load.at(static_cast<std::size_t>(schedule.start[op])) += graph.weight(op);
  }
  GsObjective objective;
  objective.peakStageWeight = *std::max_element(load.begin(), load.end());
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    objective.crossings +=
        graph.edgeComm(e) * static_cast<double>(schedule.start[graph.edgeTarget(e)] -
                                                schedule.start[graph.edgeSource(e)]);
  }
  return objective;
}

double gsLowerBound(const Graph& graph, Cycle stages) {
  double sum = 0;
  double largest = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    sum += graph.weight(op);
    largest = std::max(largest, graph.weight(op));
  }
  return std::max(std::ceil(sum / static_cast<double>(stages)), largest);
}

namespace {

std::vector<OpId> smallestIdFirstTopologicalOrder(const Graph& graph) {
  std::vector<std::int64_t> waiting(graph.numOps(), 0);
  for (EdgeId e = 0; e < graph.numEdges(); ++e) ++waiting[graph.edgeTarget(e)];
  std::priority_queue<OpId, std::vector<OpId>, std::greater<>> ready;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (waiting[op] == 0) ready.push(op);
  }
  std::vector<OpId> order;
  order.reserve(graph.numOps());
  while (!ready.empty()) {
    const OpId op = ready.top();
    ready.pop();
    order.push_back(op);
    for (const EdgeId e : graph.outEdges(op)) {
      if (--waiting[graph.edgeTarget(e)] == 0) ready.push(graph.edgeTarget(e));
    }
  }
  if (order.size() != static_cast<std::size_t>(graph.numOps())) {
    throw std::runtime_error(graph.name() + ": the graph has a cycle; GS-Schedule needs a DAG");
  }
  return order;
}

// Stages of the greedy cut at `capacity`; the stage count used is one more than the largest.
std::vector<Cycle> cutAtCapacity(const Graph& graph, const std::vector<OpId>& order,
                                 std::int64_t capacity) {
  std::vector<Cycle> stage(graph.numOps(), 0);
  Cycle current = 0;
  std::int64_t load = 0;
  for (const OpId op : order) {
    const auto weight = static_cast<std::int64_t>(std::llround(graph.weight(op)));
    if (load + weight > capacity && load > 0) {
      ++current;
      load = 0;
    }
    load += weight;
    stage[op] = current;
  }
  return stage;
}

}  // namespace

Schedule greedyBalancedStages(const Graph& graph, Cycle stages) {
  const std::vector<OpId> order = smallestIdFirstTopologicalOrder(graph);
  std::int64_t sum = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) sum += std::llround(graph.weight(op));
  const auto fits = [&](std::int64_t capacity) {
    const auto stage = cutAtCapacity(graph, order, capacity);
    return graph.numOps() == 0 || *std::max_element(stage.begin(), stage.end()) < stages;
  };
  std::int64_t low = static_cast<std::int64_t>(gsLowerBound(graph, stages));
  std::int64_t high = std::max(sum, low);  // one chunk holds everything
  while (low < high) {
    const std::int64_t middle = low + (high - low) / 2;
    if (fits(middle)) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  Schedule schedule;
  schedule.start = cutAtCapacity(graph, order, low);
  return schedule;
}

}  // namespace gaus::bench
