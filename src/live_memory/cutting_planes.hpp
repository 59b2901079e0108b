// The search for Lagrange weights on one window's time-expanded network, the one loop that the
// Lagrangian bound, the cut windows and the Lagrangian start share: Kelley's cutting-plane method
// with Wentges' smoothing.
//
// Every minimum cut for weights lambda gives a schedule whose live profile g over the window is a
// plane: LB(mu) <= mu . g for every weight vector mu. The master problem, max over mu in the
// simplex of the least plane (matrix_game.hpp), gives an upper estimate of max LB and its
// maximizer; the next weights are halfway between that maximizer and the best weights so far,
// which damps the method's oscillation (A. Wentges, "Weighted Dantzig-Wolfe decomposition for
// linear mixed-integer programming", International Transactions in Operational Research 4(2),
// 1997). Every cut's bound is valid on its own, so the loop may stop at any time; it ends when
// the estimate meets the best bound.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "time_expanded_network.hpp"

namespace gaus::live_memory {

class CuttingPlanes {
 public:
  // `known`: live profiles over the window of schedules within the network's ranges, the first
  // planes; without any, the first weights are uniform (the least total live memory).
  // `integral`: every mem is whole, so bounds round up.
  CuttingPlanes(TimeExpandedNetwork& network, std::vector<std::vector<double>> known,
                bool integral);

  // One more minimum cut, or nothing when the estimate has met the bound (within rounding) and
  // no cut can raise it. The cut's profile is the plane added.
  std::optional<TimeExpandedNetwork::Cut> next(const std::function<bool()>& stop);
  // The cut for the given weights (nonnegative, not all zero), its bound and plane kept as
  // next()'s: where the planes have met the bound, weights near the best ones still give other
  // schedules (the minimum cuts of tied weights differ), which a primal search wants.
  TimeExpandedNetwork::Cut probe(std::vector<double> weights, const std::function<bool()>& stop);
  const std::vector<double>& bestWeights() const { return bestWeights_; }

  // The best bound so far on the window's least weighted peak (unrounded; nullopt before a
  // cut), and the master's estimate, an upper bound on any bound the loop can reach.
  std::optional<double> bound() const { return bound_; }
  double estimate() const { return estimate_; }
  // Rounded up to the next whole number where every mem is whole (then so is every live
  // memory), allowing for the sums' rounding.
  double round(double value) const;
  int cuts() const { return cuts_; }

 private:
  TimeExpandedNetwork& network_;
  std::vector<std::vector<double>> planes_;
  bool integral_;
  std::optional<double> bound_;
  std::vector<double> bestWeights_;
  double estimate_ = 0.0;
  int cuts_ = 0;
};

}  // namespace gaus::live_memory
