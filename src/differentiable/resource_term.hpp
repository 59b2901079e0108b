// Expected resource usage and its violation (GAUS.md "Resources"): op i's reservation block
// (resource r, cycles [begin, begin + length), units) is in use at t when its start lies in
// (t - begin - length, t - begin], so
//   U_r(t) = sum over blocks of units * (F_i(t - begin) - F_i(t - begin - length)),
// and the violation is sum_t relu(U_r(t) - cap_r), one element per (resource, step). Modulo
// problems fold t modulo II first (an |R| x II table). Unlimited resources are left out.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <torch/torch.h>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>

#include "row_order.hpp"
#include "tensor_support.hpp"
#include "window_distribution.hpp"
#include "window_scatter.hpp"

namespace gaus::differentiable {

class ResourceTerm {
 public:
  ResourceTerm(const Graph& graph, const Machine& machine, const WindowGeometry& geometry,
               std::optional<std::int64_t> ii, const TensorSettings& settings,
               const RowOrder& rows = RowOrder());

  // Limited resources that some op reserves, and steps per resource (T, or II when modulo).
  std::int64_t channels() const { return static_cast<std::int64_t>(resources_.size()); }
  std::int64_t steps() const { return ii_.value_or(scatter_.length()); }
  std::int64_t size() const { return channels() * steps(); }
  ResourceId resource(std::int64_t channel) const { return resources_[channel]; }

  // [B, channels, steps]: expected units in use.
  torch::Tensor usage(const WindowedDistribution& distribution) const;
  // [B, size()]: relu(usage - capacity), flattened channel-major.
  torch::Tensor evaluate(const WindowedDistribution& distribution) const;

 private:
  std::vector<ResourceId> resources_;
  std::optional<std::int64_t> ii_;
  WindowScatter scatter_;
  torch::Tensor capacity_;  // [channels, 1]
};

}  // namespace gaus::differentiable
