// Internal to the heuristic module: each op's distinct distance-0 predecessors or successors,
// with the largest delay of the edges to each (CSR), as force-directed scheduling reads them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include <gaus/core/graph.hpp>

namespace gaus::heuristic::detail {

// A distance-0 neighbour and the largest delay of the edges to it.
struct Neighbour {
  OpId op;
  Cycle delay;
};

// Each op's distinct distance-0 predecessors or successors (CSR).
class NeighbourLists {
 public:
  NeighbourLists(const Graph& graph, bool successors) {
    const auto opCount = static_cast<std::size_t>(graph.numOps());
    offset_.assign(opCount + 1, 0);
    std::vector<std::int64_t> slot(opCount, -1);
    for (OpId op = 0; op < graph.numOps(); ++op) {
      const auto first = static_cast<std::int64_t>(items_.size());
      for (EdgeId e : successors ? graph.outEdges(op) : graph.inEdges(op)) {
        if (graph.edgeDistance(e) != 0) continue;
        const OpId other = successors ? graph.edgeTarget(e) : graph.edgeSource(e);
        const Cycle delay = graph.edgeDelay(e);
        if (slot[other] >= first) {
          auto& item = items_[static_cast<std::size_t>(slot[other])];
          item.delay = std::max(item.delay, delay);
        } else {
          slot[other] = static_cast<std::int64_t>(items_.size());
          items_.push_back({other, delay});
        }
      }
      offset_[op + 1] = static_cast<std::int64_t>(items_.size());
    }
  }
  std::span<const Neighbour> of(OpId op) const {
    return {items_.data() + offset_[op], items_.data() + offset_[op + 1]};
  }
  std::size_t size(OpId op) const {
    return static_cast<std::size_t>(offset_[op + 1] - offset_[op]);
  }

 private:
  std::vector<std::int64_t> offset_;
  std::vector<Neighbour> items_;
};

}  // namespace gaus::heuristic::detail
