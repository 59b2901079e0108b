// Expected horizon violation (GAUS.md): op i must complete by D, i.e. start at or before
// D - duration_i; V_i = 1 - F_i(D - duration_i). Ops whose duration is at most 1 never violate
// it (the model's support ends at D - 1) and are left out.
#pragma once

#include <cstdint>
#include <vector>

#include <torch/torch.h>

#include <gaus/core/graph.hpp>

#include "row_order.hpp"
#include "tensor_support.hpp"
#include "window_distribution.hpp"

namespace gaus::differentiable {

class HorizonTerm {
 public:
  HorizonTerm(const Graph& graph, const WindowGeometry& geometry, const TensorSettings& settings,
              const RowOrder& rows = RowOrder());

  std::int64_t size() const { return static_cast<std::int64_t>(ops_.size()); }
  OpId op(std::int64_t element) const { return static_cast<OpId>(ops_[element]); }

  // [B, size()] from the means and widths ([B, V], op order) and the window offsets of
  // `distribution` (rows).
  torch::Tensor evaluate(const torch::Tensor& mu, const torch::Tensor& sigma,
                         const WindowedDistribution& distribution) const;

 private:
  std::vector<std::int64_t> ops_;
  torch::Tensor opTensor_, rowTensor_, latestStartTensor_;  // ops_ and their rows
};

}  // namespace gaus::differentiable
