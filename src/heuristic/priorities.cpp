#include "priorities.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

namespace gaus::heuristic::detail {

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

std::vector<OpId> orderByKeys(const std::vector<double>& primary,
                              const std::vector<double>& secondary) {
  std::vector<OpId> order(primary.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](OpId a, OpId b) {
    if (primary[a] != primary[b]) return primary[a] < primary[b];
    if (secondary[a] != secondary[b]) return secondary[a] < secondary[b];
    return a < b;
  });
  return order;
}

}  // namespace gaus::heuristic::detail
