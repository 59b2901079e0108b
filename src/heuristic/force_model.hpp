// Internal to the heuristic module: the model of force-directed scheduling (force_directed.cpp
// says what it implements and its source, P. G. Paulin and J. P. Knight, IEEE Trans. CAD 1989):
// the time frames of the ops, the distribution graph of one objective (resources or live
// memory) and the forces of narrowing a frame, with the staleness that lazy forces read.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>

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

// The frames, the distribution graph of one objective, and the forces over them.

class ForceModel {
 public:
  ForceModel(const Graph& graph, const Machine& machine, bool memory);

  // Starts over with these frames (every asap <= alap, consistent over the edges).
  void reset(std::vector<Cycle> asap, std::vector<Cycle> alap);

  Cycle asap(OpId op) const { return asap_[op]; }
  Cycle alap(OpId op) const { return alap_[op]; }
  bool fixed(OpId op) const { return asap_[op] == alap_[op]; }
  OpId fixedCount() const { return fixedCount_; }  // ops whose frame is a single step
  const std::vector<Cycle>& asaps() const { return asap_; }
  std::int64_t epoch() const { return epoch_; }
  std::int64_t evaluations() const { return evaluations_; }

  // Narrows op's frame to [lo, hi] (within the current one) and every frame that follows over
  // the edges, updating the distribution graph.
  void narrow(OpId op, Cycle lo, Cycle hi);

  // Whether nothing op's forces read changed after `epoch`: its frame, its neighbours' frames
  // and the distribution graph over their frames.
  bool unchangedSince(OpId op, std::int64_t epoch) const;

  // The least force of fixing op at one step of its frame, and that step (the earliest of
  // equal forces).
  std::pair<double, Cycle> bestStep(OpId op);

  // The force of narrowing op's frame to [lo, hi] (with its neighbours').
  double narrowingForce(OpId op, Cycle lo, Cycle hi);

 private:
  // What an op's frame change is weighed against: for resources the DG cost of starting at each
  // step s of the frame, for memory the weight g(t) of raising P(start <= t) at each cycle t of
  // the frame (with the sums the forces need).
  struct Profile {
    OpId op = 0;
    Cycle lo = 0;
    Cycle hi = 0;
    Cycle delay = 0;     // of the edge from the op being fixed (neighbours only)
    bool after = false;  // a successor (its ASAP follows), else a predecessor (its ALAP)
    std::vector<double> values;
    std::vector<double> suffix;  // suffix[i] = sum of values[i..]
    double current = 0.0;        // weighted() over the current frame
  };

  void setPending(OpId op, Cycle lo, Cycle hi);

  void markCycles(Cycle lo, Cycle hi);  // [lo, hi)

  // The value of v is live at t with probability F_v(t) (1 - prod over readers F_r(t)): from
  // its ASAP until the last reader's ALAP at most.
  void addLiveTerm(OpId v, double sign);

  void addOccupancy(OpId op, double sign);

  // Fills `profile` for op's current frame.
  void fillProfile(Profile& profile, OpId op);

  // sum_t x(t) weight(t) for a start uniform in [lo, hi] within the profile's frame: the mean
  // start cost (resources), or sum_t F(t) g(t) (memory).
  double weighted(const Profile& profile, Cycle lo, Cycle hi) const;

  // The profiles of op and of its neighbours whose frames are not a single step.
  void prepare(OpId op);

  // Self force of the prepared op narrowed to [lo, hi], plus the forces on the neighbours whose
  // frames that narrows.
  double forceOfNarrowing(Cycle lo, Cycle hi) const;

  const Graph& graph_;
  bool memory_;
  std::size_t resourceCount_;
  NeighbourLists predecessors_;
  NeighbourLists successors_;
  std::vector<Cycle> asap_;
  std::vector<Cycle> alap_;
  Cycle cycles_ = 1;
  // Memory: expected live weight per cycle. Resources: expected units per resource and cycle
  // (resource-major).
  std::vector<double> distribution_;
  // Staleness of cached forces: the epoch of the last change of each cycle of the distribution
  // graph and of each frame.
  std::int64_t epoch_ = 0;
  std::vector<std::int64_t> cycleChangedAt_;
  std::vector<std::int64_t> frameChangedAt_;
  // narrow()'s scratch.
  std::vector<Cycle> pendingLo_;
  std::vector<Cycle> pendingHi_;
  std::vector<char> marked_;  // 1: in changed_, 2: in the values to update
  std::vector<OpId> changed_;
  std::vector<Profile> profiles_;
  std::size_t profileCount_ = 0;
  std::int64_t evaluations_ = 0;
  OpId fixedCount_ = 0;
};

// Why a run is refused when its distribution graphs would be too large (cycles x rows cells), or
// nullopt.
std::optional<std::string> distributionTooLarge(Cycle cycles, ResourceId rows);

}  // namespace gaus::heuristic::detail
