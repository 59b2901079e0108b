#include "resource_term.hpp"

#include <algorithm>

namespace gaus::differentiable {

namespace {

struct ResourceRows {
  std::vector<ResourceId> resources;
  std::vector<double> capacities;
  ScatterRows rows;
};

ResourceRows collectReservationRows(const Graph& graph, const Machine& machine,
                                    const RowOrder& order) {
  ResourceRows result;
  std::vector<std::int64_t> channelOf(static_cast<std::size_t>(machine.numResources()), -1);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    for (const ReservationBlock& block : graph.reservation(op)) {
      if (block.resource >= machine.numResources()) continue;
      if (!machine.resources[block.resource].limited() || block.units == 0 || block.length == 0) {
        continue;
      }
      std::int64_t& channel = channelOf[block.resource];
      if (channel < 0) {
        channel = static_cast<std::int64_t>(result.resources.size());
        result.resources.push_back(block.resource);
        result.capacities.push_back(*machine.resources[block.resource].capacity);
      }
      result.rows.add(order.row(op), channel, block.begin, block.units);
      result.rows.add(order.row(op), channel, block.begin + block.length, -block.units);
    }
  }
  return result;
}

}  // namespace

ResourceTerm::ResourceTerm(const Graph& graph, const Machine& machine,
                           const WindowGeometry& geometry, std::optional<std::int64_t> ii,
                           const TensorSettings& settings, const RowOrder& rows)
    : ii_(ii) {
  ResourceRows collected = collectReservationRows(graph, machine, rows);
  resources_ = collected.resources;
  capacity_ = toRealTensor(collected.capacities, settings).view({-1, 1});
  const std::int64_t length = geometry.horizon + collected.rows.maxShift();
  scatter_ = WindowScatter(std::move(collected.rows), graph.numOps(), channels(), length, settings);
}

torch::Tensor ResourceTerm::usage(const WindowedDistribution& distribution) const {
  const torch::Tensor series = scatter_.cumulative(distribution.pmf, distribution.offset,
                                                   distribution.active, distribution.buffers);
  return ii_ ? foldModulo(series, *ii_) : series;
}

torch::Tensor ResourceTerm::evaluate(const WindowedDistribution& distribution) const {
  const std::int64_t batch = distribution.pmf.size(0);
  if (channels() == 0) return torch::zeros({batch, 0}, distribution.pmf.options());
  return torch::relu(usage(distribution) - capacity_).reshape({batch, -1});
}

}  // namespace gaus::differentiable
