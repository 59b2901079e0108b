// Expected precedence violation (GAUS.md "Expected violations"): edge u -> v with delay d and
// distance delta is violated when round(X_v) + delta * II < round(X_u) + d, i.e.
// round(X_v) <= round(X_u) + d - delta * II - 1, with probability (independent ops)
//   V_e = sum_t P_u(t) * F_v(t + d - delta * II - 1).
// One formula for forward and loop-carried edges (II = 0 leaves the latter out: acyclic problems
// do not constrain them). F_v is read from v's window: an |E| x W gather, no sums over D.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <torch/torch.h>

#include <gaus/core/graph.hpp>

#include "row_order.hpp"
#include "tensor_support.hpp"
#include "window_distribution.hpp"

namespace gaus::differentiable {

struct PrecedenceIndex;  // host arrays of the fused kernel (precedence_term.cpp)
class PrecedenceChunks;  // the LibTorch composition in chunks of edges (precedence_term.cpp)

class PrecedenceTerm {
 public:
  // `ii` unset: the acyclic problem (edges of distance 0 only). Self-loops are left out: their
  // constraint delta * II >= d does not depend on the schedule, and the II search starts at
  // RecMII, which satisfies it.
  // `rows`: the window table's row of each op (row_order.hpp).
  PrecedenceTerm(const Graph& graph, std::optional<std::int64_t> ii, const TensorSettings& settings,
                 const RowOrder& rows = RowOrder());

  std::int64_t size() const { return static_cast<std::int64_t>(graphEdge_.size()); }
  // The graph edge behind element e of evaluate()'s result.
  EdgeId graphEdge(std::int64_t e) const { return graphEdge_[e]; }

  // [B, size()]: the violation probability of every modelled edge.
  torch::Tensor evaluate(const WindowedDistribution& distribution) const;

 private:
  TensorSettings settings_;
  std::vector<EdgeId> graphEdge_;
  // Shared with the autograd graphs built by evaluate(), which refer to them by address.
  std::shared_ptr<const PrecedenceIndex> index_;
  std::shared_ptr<const PrecedenceChunks> chunks_;
};

}  // namespace gaus::differentiable
