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

#include "neighbour_lists.hpp"
#include "reader_products.hpp"

namespace gaus::heuristic::detail {

// How the forces are summed. kPrefix: each profile's prefix sums make the force of any
// narrowing O(1), so all the steps of a frame of width W cost O(W) (with the readers' products
// of reader_products.hpp); kDirect: each force summed term by term from the definitions, O(W^2)
// per op (the code before the prefix sums, kept as the reference the tests hold kPrefix to).
enum class ForceSums { kPrefix, kDirect };

// The frames, the distribution graph of one objective, and the forces over them.
class ForceModel {
 public:
  ForceModel(const Graph& graph, const Machine& machine, bool memory,
             ForceSums sums = ForceSums::kPrefix);

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
    // suffix[i] = sum of values[i..]; ramp[i] = sum of (j + 1) values[j] over j >= i (kPrefix):
    // weighted() over any sub-frame in O(1).
    std::vector<double> suffix;
    std::vector<double> ramp;
    double current = 0.0;  // weighted() over the current frame
  };

  void setPending(OpId op, Cycle lo, Cycle hi);

  void markCycles(Cycle lo, Cycle hi);  // [lo, hi)

  // The value of v is live at t with probability F_v(t) (1 - prod over readers F_r(t)): from
  // its ASAP until the last reader's ALAP at most.
  void addLiveTerm(OpId v, double sign);

  void addOccupancy(OpId op, double sign);

  // Fills `profile` for op's current frame.
  void fillProfile(Profile& profile, OpId op);

  // weight[i] = g(lo + i), the change of the memory DG at cycle lo + i per unit of F_op there,
  // for op's frame [lo, lo + width): from the readers' products (kPrefix) or term by term.
  void memoryWeights(OpId op, double* weight);
  void memoryWeightsDirect(OpId op, double* weight) const;

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
  ForceSums sums_;
  std::size_t resourceCount_;
  NeighbourLists predecessors_;
  NeighbourLists successors_;
  ReaderProducts products_;  // memory, kPrefix
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
  // A frame's memory weights, and the readers' products they and the live terms read.
  std::vector<double> weights_;
  std::vector<double> started_;
  std::size_t profileCount_ = 0;
  std::int64_t evaluations_ = 0;
  OpId fixedCount_ = 0;
};

// Why a run is refused when its distribution graphs would be too large (cycles x rows cells), or
// nullopt.
std::optional<std::string> distributionTooLarge(Cycle cycles, ResourceId rows);

}  // namespace gaus::heuristic::detail
