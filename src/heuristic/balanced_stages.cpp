// The "greedy balanced" stage assignment of GS-Schedule's benchmark README
// (benchmarks/gs-schedule-icml24-rw/README.md): cut one topological order into at most D
// contiguous chunks of bounded weight, with the smallest bound that fits, found by binary search.
// Where the README is silent the code chooses: the topological order takes the smallest ready id
// first (it reproduces the README's figure on rand_graph_sparse_1000_1, docs/benchmarks.md).

#include <algorithm>
#include <cmath>

#include <gaus/core/analysis.hpp>
#include <gaus/core/stage_objective.hpp>
#include <gaus/heuristic/balanced_stages.hpp>

namespace gaus::heuristic {

namespace {

// Stages of the greedy cut at `capacity`; the stage count used is one more than the largest.
std::vector<Cycle> cutAtCapacity(const Graph& graph, const std::vector<OpId>& order,
                                 std::int64_t capacity) {
  std::vector<Cycle> stage(static_cast<std::size_t>(graph.numOps()), 0);
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

Expected<Schedule> greedyBalancedStages(const Graph& graph, Cycle stages) {
  auto order = topologicalOrder(graph, ReadyOrder::kSmallestId);
  if (!order) return Error{"greedy balanced stages: " + order.error()};
  std::int64_t sum = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) sum += std::llround(graph.weight(op));
  const auto fits = [&](std::int64_t capacity) {
    const auto stage = cutAtCapacity(graph, *order, capacity);
    return graph.numOps() == 0 || *std::max_element(stage.begin(), stage.end()) < stages;
  };
  auto low = static_cast<std::int64_t>(peakStageWeightLowerBound(graph, stages));
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
  schedule.start = cutAtCapacity(graph, *order, low);
  return schedule;
}

}  // namespace gaus::heuristic
