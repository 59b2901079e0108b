// Expected live memory (GAUS.md "Memory", formulations B and C). The value op i produces is live
// from its start to its last consumer's start (consumer start + delta * II for loop-carried
// consumers; core's liveInterval), so under independence
//   E[live_i(t)] = P(s_i <= t < max_j s_j + o_j) = F_i(t) - G_i(t),
//   G_i(t) = F_i(t) * prod_{j in succ(i)} F_j(t - o_j),
// which equals GAUS.md's F_i(t) * (1 - prod_j F_j(t)). G_i is the CDF of the latest of i and its
// consumers: 0 before g_i = max over those ops of (a_m + o_m), 1 from g_i + W - 1 on, so it fits
// in one window too. E[Reg(t)] = sum_i mem_i * (F_i(t) - G_i(t)) is then the running sum over t
// of mem_i * (P_i - Q_i), Q_i the pmf of that latest start: two window scatters and a cumsum,
// instead of GAUS.md's product over the whole horizon. An op appearing twice among i's members
// (i itself through a loop-carried self-edge, or a consumer on parallel edges) counts once with
// its largest shift, which keeps the product exact.
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
#include "window_scatter.hpp"

namespace gaus::differentiable {

struct LatestStartIndex;  // host arrays of the fused kernel (live_memory_term.cpp)

// The pmf of the latest start among each memory op's members, on its own window.
struct LatestStartDistribution {
  torch::Tensor offset;  // [B, M] int64: g_i
  torch::Tensor pmf;     // [B, M, W]: Q_i(g_i + j)
};

class LiveMemoryTerm {
 public:
  LiveMemoryTerm(const Graph& graph, const WindowGeometry& geometry, std::optional<std::int64_t> ii,
                 const TensorSettings& settings, const RowOrder& rows = RowOrder());

  bool empty() const { return owners_.empty(); }
  // [B, T] (T = D + the largest shift), or [B, II] folded for modulo problems.
  torch::Tensor expectedLiveMemory(const WindowedDistribution& distribution) const;
  // Exposed for tests: Q and g for every memory op.
  LatestStartDistribution latestStart(const WindowedDistribution& distribution) const;

 private:
  LatestStartDistribution latestStartComposed(const WindowedDistribution& distribution) const;

  TensorSettings settings_;
  std::optional<std::int64_t> ii_;
  std::vector<std::int64_t> owners_;  // memory ops with at least one consumer
  std::shared_ptr<const LatestStartIndex> index_;
  torch::Tensor memberOwner_, memberOp_, memberShift_;  // one entry per (owner, member)
  WindowScatter producedScatter_;                       // +mem_i * P_i
  WindowScatter releasedScatter_;                       // -mem_i * Q_i
};

}  // namespace gaus::differentiable
