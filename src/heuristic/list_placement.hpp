// Internal to the heuristic module: one pass of operation-driven list placement, the loop that
// the list scheduler (absolute cycles) and the modulo list scheduler (a modulo reservation table)
// share. Ops become eligible once every distance-0 predecessor is placed; the eligible op that
// comes first in the priority order is placed next, at the slot the table gives for its earliest
// start:
//     earliest(v) = max(lowerBound(v), max over in-edges u -> v with u placed of
//                       t(u) + delay - distance * II)
// Without an II only distance-0 edges count (one iteration). With one, a loop-carried
// predecessor that is already placed counts too, so that a pass does not break what it can see.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <gaus/core/graph.hpp>

namespace gaus::heuristic::detail {

class ListPlacement {
 public:
  // `order`: position k holds the op that goes k-th among those eligible together.
  ListPlacement(const Graph& graph, std::vector<OpId> order)
      : graph_(graph), order_(std::move(order)) {
    rank_.resize(order_.size());
    for (std::size_t k = 0; k < order_.size(); ++k) {
      rank_[order_[k]] = static_cast<std::int32_t>(k);
    }
    initialPending_.assign(order_.size(), 0);
    for (EdgeId e = 0; e < graph.numEdges(); ++e) {
      if (graph.edgeDistance(e) == 0) ++initialPending_[graph.edgeTarget(e)];
    }
  }

  // One pass over every op. `lowerBound` is empty (0 for every op) or holds one bound per op.
  // `slotFor(op, earliest)` returns the start at which it reserved the op, or nullopt to end the
  // pass. `start` receives the starts (its size is the op count). True when every op was placed
  // (false also when a cycle of distance-0 edges keeps ops from ever becoming eligible).
  template <typename SlotFor>
  bool run(std::optional<Cycle> ii, const std::vector<Cycle>& lowerBound, std::vector<Cycle>& start,
           SlotFor&& slotFor) {
    const auto& targets = graph_.edgeTargets();
    const auto& delays = graph_.edgeDelays();
    const auto& distances = graph_.edgeDistances();
    std::vector<std::int32_t> pending = initialPending_;
    // earliest(v) so far, raised along each out-edge when its source is placed: the edges are
    // walked once, from the placed op, instead of once more from each op as it is placed (on a
    // graph of millions of ops that second walk was the larger part of a pass).
    std::vector<Cycle> earliest =
        lowerBound.empty() ? std::vector<Cycle>(order_.size(), 0) : lowerBound;
    // The eligible ops as a binary min-heap of ranks.
    std::vector<std::int32_t> eligible;
    eligible.reserve(order_.size());
    for (std::size_t op = 0; op < order_.size(); ++op) {
      if (pending[op] == 0) eligible.push_back(rank_[op]);
    }
    std::make_heap(eligible.begin(), eligible.end(), std::greater<>());
    std::size_t placedCount = 0;
    while (!eligible.empty()) {
      std::pop_heap(eligible.begin(), eligible.end(), std::greater<>());
      const OpId op = order_[eligible.back()];
      eligible.pop_back();
      const std::optional<Cycle> slot = slotFor(op, earliest[op]);
      if (!slot) return false;
      start[op] = *slot;
      ++placedCount;
      for (EdgeId e : graph_.outEdges(op)) {
        const OpId target = targets[e];
        // A loop-carried edge counts only with an II; it reaches a target placed already (a
        // back edge, a self-loop) too, where the bound is no longer read.
        if (distances[e] != 0 && !ii) continue;
        earliest[target] =
            std::max(earliest[target], *slot + delays[e] - distances[e] * ii.value_or(0));
        if (distances[e] == 0 && --pending[target] == 0) {
          eligible.push_back(rank_[target]);
          std::push_heap(eligible.begin(), eligible.end(), std::greater<>());
        }
      }
    }
    return placedCount == order_.size();
  }

 private:
  const Graph& graph_;
  std::vector<OpId> order_;
  std::vector<std::int32_t> rank_;
  std::vector<std::int32_t> initialPending_;  // distance-0 predecessors per op
};

}  // namespace gaus::heuristic::detail
