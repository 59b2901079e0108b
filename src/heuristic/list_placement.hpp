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
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <vector>

#include <gaus/core/graph.hpp>

namespace gaus::heuristic::detail {

// The eligible ops' ranks, smallest first. Ranks are distinct and below a known count, so a
// 64-ary tree of bitmaps holds them: a push sets one bit per level, a pop reads one word per level
// (count trailing zeros). On a graph of 10M ops, where hundreds of thousands of ops may be
// eligible at once, it replaced a binary heap whose sift-downs missed the cache at every level.
class RankQueue {
 public:
  explicit RankQueue(std::size_t universe) {
    std::size_t words = universe;
    do {
      words = std::max<std::size_t>((words + 63) / 64, 1);  // an empty universe has one word
      levels_.emplace_back(words, 0);
    } while (words > 1);
  }

  bool empty() const { return levels_.back()[0] == 0; }

  void push(std::int32_t rank) {
    auto position = static_cast<std::uint64_t>(rank);
    for (auto& level : levels_) {
      std::uint64_t& word = level[position >> 6];
      const bool wasEmpty = word == 0;
      word |= std::uint64_t{1} << (position & 63);
      if (!wasEmpty) return;  // the levels above hold this word's bit already
      position >>= 6;
    }
  }

  std::int32_t popSmallest() {
    std::uint64_t position = 0;
    for (auto level = levels_.rbegin(); level != levels_.rend(); ++level) {
      position = (position << 6) | static_cast<std::uint64_t>(__builtin_ctzll((*level)[position]));
    }
    const auto rank = static_cast<std::int32_t>(position);
    for (auto& level : levels_) {
      std::uint64_t& word = level[position >> 6];
      word &= ~(std::uint64_t{1} << (position & 63));
      if (word != 0) break;  // the levels above still hold this word's bit
      position >>= 6;
    }
    return rank;
  }

 private:
  std::vector<std::vector<std::uint64_t>> levels_;  // leaves (one bit per rank) first, root last
};

// The graph as the placement walks it, its ops renumbered into "places": place p is the op
// opAt(p), and each place's out-edges lie side by side (target place, delay, distance) with its
// distance-0 in-edges counted. The places follow an order the caller expects the placements to
// roughly follow (the list scheduler: ALAP), so that the records and edges of the op placed next
// are usually next in memory. With op ids that follow no order (a generated graph of 10M ops),
// walking the graph's own adjacency cost a cache miss or two per op and per edge: its edge ids
// are in the order they were added. The list scheduler builds it once per graph (GauS places
// millions of ops per candidate, many candidates per run); the modulo list scheduler, once per
// call, in its own order.
class PlacementGraph {
 public:
  struct OutEdge {
    std::int32_t target;  // the target's place
    std::int32_t delay;
    std::int32_t distance;
  };

  // `placeOrder`: the ops, place 0 first; empty keeps the op ids as places.
  explicit PlacementGraph(const Graph& graph, std::vector<OpId> placeOrder = {})
      : opAt_(std::move(placeOrder)),
        placeOf_(static_cast<std::size_t>(graph.numOps())),
        first_(static_cast<std::size_t>(graph.numOps()) + 1, 0),
        predecessors_(static_cast<std::size_t>(graph.numOps()), 0) {
    if (opAt_.empty()) {
      opAt_.resize(placeOf_.size());
      std::iota(opAt_.begin(), opAt_.end(), 0);
    }
    for (std::size_t place = 0; place < opAt_.size(); ++place) {
      placeOf_[opAt_[place]] = static_cast<std::int32_t>(place);
    }
    edges_.reserve(static_cast<std::size_t>(graph.numEdges()));
    for (std::size_t place = 0; place < opAt_.size(); ++place) {
      for (EdgeId e : graph.outEdges(opAt_[place])) {
        const std::int32_t target = placeOf_[graph.edgeTarget(e)];
        edges_.push_back({target, graph.edgeDelay(e), graph.edgeDistance(e)});
        if (graph.edgeDistance(e) == 0) ++predecessors_[target];
      }
      first_[place + 1] = static_cast<std::int64_t>(edges_.size());
    }
  }

  std::size_t numEdges() const { return edges_.size(); }
  OpId opAt(std::int32_t place) const { return opAt_[place]; }
  std::int32_t placeOf(OpId op) const { return placeOf_[op]; }
  std::span<const OutEdge> outEdges(std::int32_t place) const {
    return {edges_.data() + first_[place], edges_.data() + first_[place + 1]};
  }
  std::int32_t distanceZeroPredecessors(std::int32_t place) const { return predecessors_[place]; }

 private:
  std::vector<OpId> opAt_;
  std::vector<std::int32_t> placeOf_;
  std::vector<std::int64_t> first_;  // place p's edges are edges_[first_[p], first_[p + 1])
  std::vector<OutEdge> edges_;
  std::vector<std::int32_t> predecessors_;  // per place
};

class ListPlacement {
 public:
  // `order`: position k holds the op that goes k-th among those eligible together. The places
  // follow the order itself.
  ListPlacement(const Graph& graph, const std::vector<OpId>& order)
      : ListPlacement(std::make_shared<const PlacementGraph>(graph, order), order) {}
  // The same on a placement graph built once by the caller.
  ListPlacement(std::shared_ptr<const PlacementGraph> graph, const std::vector<OpId>& order)
      : graph_(std::move(graph)), placeByRank_(order.size()), initial_(order.size()) {
    for (std::size_t k = 0; k < order.size(); ++k) {
      const std::int32_t place = graph_->placeOf(order[k]);
      placeByRank_[k] = place;
      initial_[place].rank = static_cast<std::int32_t>(k);
      initial_[place].pending = graph_->distanceZeroPredecessors(place);
    }
  }

  // One pass over every op. `lowerBound` is empty (0 for every op) or holds one bound per op.
  // `slotFor(op, place, earliest)` returns the start at which it reserved the op, or nullopt to
  // end the pass (the place lets a caller keep its own per-op data in place order). `start`
  // receives the starts (its size is the op count). True when every op was placed (false also when
  // a cycle of distance-0 edges keeps ops from ever becoming eligible).
  template <typename SlotFor>
  bool run(std::optional<Cycle> ii, const std::vector<Cycle>& lowerBound, std::vector<Cycle>& start,
           SlotFor&& slotFor) {
    // One record per place: the op's earliest start so far (raised along each out-edge when its
    // source is placed, so that the edges are walked once), its unplaced distance-0 predecessors
    // and its rank. Together, an edge's target costs one cache line, not three.
    std::vector<PlaceState> state = initial_;
    if (!lowerBound.empty()) {
      for (std::size_t place = 0; place < state.size(); ++place) {
        state[place].earliest = lowerBound[graph_->opAt(static_cast<std::int32_t>(place))];
      }
    }
    RankQueue eligible(state.size());
    for (const PlaceState& op : state) {
      if (op.pending == 0) eligible.push(op.rank);
    }
    std::size_t placedCount = 0;
    while (!eligible.empty()) {
      const std::int32_t place = placeByRank_[eligible.popSmallest()];
      const OpId op = graph_->opAt(place);
      const std::optional<Cycle> slot = slotFor(op, place, state[place].earliest);
      if (!slot) return false;
      start[op] = *slot;
      ++placedCount;
      const auto outEdges = graph_->outEdges(place);
      // The targets are scattered over the places: ask for their records before the walk needs
      // them, so that their misses overlap.
      for (const auto& edge : outEdges) __builtin_prefetch(&state[edge.target], 1);
      for (const auto& edge : outEdges) {
        // A loop-carried edge counts only with an II; it reaches a target placed already (a
        // back edge, a self-loop) too, where the bound is no longer read.
        if (edge.distance != 0 && !ii) continue;
        PlaceState& target = state[edge.target];
        target.earliest =
            std::max(target.earliest, *slot + edge.delay - edge.distance * ii.value_or(0));
        if (edge.distance == 0 && --target.pending == 0) eligible.push(target.rank);
      }
    }
    return placedCount == state.size();
  }

 private:
  struct PlaceState {
    Cycle earliest = 0;
    std::int32_t pending = 0;  // distance-0 predecessors not placed yet
    std::int32_t rank = 0;     // position in the order
  };

  std::shared_ptr<const PlacementGraph> graph_;
  std::vector<std::int32_t> placeByRank_;  // the order, as places
  std::vector<PlaceState> initial_;        // earliest 0, all predecessors pending
};

}  // namespace gaus::heuristic::detail
