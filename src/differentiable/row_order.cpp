#include "row_order.hpp"

#include <algorithm>
#include <numeric>

#include <gaus/core/analysis.hpp>

namespace gaus::differentiable {

RowOrder RowOrder::byLatestStart(const Graph& graph, const std::vector<OpId>& topoOrder) {
  const auto heights = heightsToEnd(graph, topoOrder);
  if (!heights) return {};  // no order of the distance-0 edges: the problem's check refuses it
  RowOrder order;
  const auto ops = static_cast<std::size_t>(graph.numOps());
  order.opOfRow_.resize(ops);
  std::iota(order.opOfRow_.begin(), order.opOfRow_.end(), std::int64_t{0});
  const std::vector<Cycle>& height = *heights;
  std::stable_sort(order.opOfRow_.begin(), order.opOfRow_.end(),
                   [&height](std::int64_t a, std::int64_t b) { return height[a] > height[b]; });
  order.rowOf_.resize(ops);
  for (std::size_t r = 0; r < ops; ++r)
    order.rowOf_[order.opOfRow_[r]] = static_cast<std::int64_t>(r);
  return order;
}

}  // namespace gaus::differentiable
