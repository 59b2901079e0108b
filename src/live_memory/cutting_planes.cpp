// Kelley's cutting planes with Wentges' smoothing (cutting_planes.hpp).

#include "cutting_planes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "matrix_game.hpp"

namespace gaus::live_memory {

CuttingPlanes::CuttingPlanes(TimeExpandedNetwork& network, std::vector<std::vector<double>> known,
                             bool integral)
    : network_(network), planes_(std::move(known)), integral_(integral) {}

double CuttingPlanes::round(double value) const {
  return integral_ ? std::ceil(value - 1e-6 * std::max(1.0, std::abs(value))) : value;
}

std::optional<TimeExpandedNetwork::Cut> CuttingPlanes::next(const std::function<bool()>& stop) {
  const int width = network_.cycles();
  // Without a plane the first weights are uniform: the cut then minimizes the total live memory.
  const MatrixGame master =
      planes_.empty()
          ? MatrixGame{std::numeric_limits<double>::infinity(),
                       std::vector<double>(static_cast<std::size_t>(width), 1.0 / width)}
          : solveMatrixGame(planes_, width);
  estimate_ = master.value;
  if (bound_ && (round(estimate_) <= round(*bound_) ||
                 estimate_ <= *bound_ + 1e-9 * std::max(1.0, std::abs(*bound_)))) {
    return std::nullopt;
  }
  std::vector<double> weights = master.weights;
  if (bound_) {
    for (std::size_t t = 0; t < weights.size(); ++t) {
      weights[t] = 0.5 * (weights[t] + bestWeights_[t]);
    }
  }
  if (std::accumulate(weights.begin(), weights.end(), 0.0) <= 0.0) return std::nullopt;
  return probe(std::move(weights), stop);
}

TimeExpandedNetwork::Cut CuttingPlanes::probe(std::vector<double> weights,
                                              const std::function<bool()>& stop) {
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  TimeExpandedNetwork::Cut cut = network_.solve(weights, stop);
  ++cuts_;
  // The weights need not sum to 1 exactly: the bound is the weighted sum's over their total.
  const double value = cut.bound / total;
  if (!bound_ || value > *bound_) {
    bound_ = value;
    bestWeights_ = std::move(weights);
  }
  planes_.push_back(cut.profile);
  return cut;
}

}  // namespace gaus::live_memory
