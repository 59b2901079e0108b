// The value of a matrix game by the simplex method (matrix_game.hpp says which LP and why).

#include "matrix_game.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace gaus::live_memory {

namespace {

constexpr double kPivotTolerance = 1e-11;
// Consecutive pivots that leave the objective where it was before Bland's rule takes over,
// which cannot cycle.
constexpr int kDegeneratePivotsBeforeBland = 50;

}  // namespace

MatrixGame solveMatrixGame(const std::vector<std::vector<double>>& rows, int columns) {
  MatrixGame game;
  const auto cycles = static_cast<std::size_t>(columns);
  game.weights.assign(cycles, cycles == 0 ? 0.0 : 1.0 / static_cast<double>(cycles));
  double scale = 0.0;
  for (const auto& row : rows) {
    double largest = 0.0;
    for (const double g : row) largest = std::max(largest, g);
    // A row that is zero everywhere holds every lambda to 0.
    if (largest <= 0.0) return game;
    scale = std::max(scale, largest);
  }
  if (rows.empty() || cycles == 0) return game;

  // Tableau of the packing LP: one row per cycle t (sum_c y_c g[c][t] / scale + s_t = 1), the
  // columns y_1..y_m then s_1..s_K, and the right-hand side; the objective row holds the reduced
  // costs of maximizing sum_c y_c.
  const std::size_t structural = rows.size();
  const std::size_t width = structural + cycles + 1;
  std::vector<double> tableau(cycles * width, 0.0);
  const auto at = [&](std::size_t r, std::size_t c) -> double& { return tableau[r * width + c]; };
  for (std::size_t t = 0; t < cycles; ++t) {
    for (std::size_t c = 0; c < structural; ++c) at(t, c) = rows[c][t] / scale;
    at(t, structural + t) = 1.0;
    at(t, width - 1) = 1.0;
  }
  std::vector<double> reduced(width, 0.0);
  for (std::size_t c = 0; c < structural; ++c) reduced[c] = 1.0;
  std::vector<std::size_t> basis(cycles);
  for (std::size_t t = 0; t < cycles; ++t) basis[t] = structural + t;
  double objective = 0.0;
  int degenerate = 0;
  const std::size_t maxPivots = 50 * (cycles + structural) + 1000;
  for (std::size_t pivot = 0; pivot < maxPivots; ++pivot) {
    const bool bland = degenerate >= kDegeneratePivotsBeforeBland;
    std::size_t entering = width;
    for (std::size_t c = 0; c + 1 < width; ++c) {
      if (reduced[c] <= kPivotTolerance) continue;
      if (entering == width || (!bland && reduced[c] > reduced[entering])) entering = c;
      if (bland) break;
    }
    if (entering == width) break;  // optimal
    std::size_t leaving = cycles;
    double ratio = 0.0;
    for (std::size_t t = 0; t < cycles; ++t) {
      const double a = at(t, entering);
      if (a <= kPivotTolerance) continue;
      const double r = at(t, width - 1) / a;
      if (leaving == cycles || r < ratio - 1e-15 ||
          (r <= ratio + 1e-15 && basis[t] < basis[leaving])) {
        leaving = t;
        ratio = r;
      }
    }
    if (leaving == cycles) break;  // unbounded: cannot happen with every row positive somewhere
    const double pivotValue = at(leaving, entering);
    for (std::size_t c = 0; c < width; ++c) at(leaving, c) /= pivotValue;
    for (std::size_t t = 0; t < cycles; ++t) {
      if (t == leaving) continue;
      const double factor = at(t, entering);
      if (factor == 0.0) continue;
      for (std::size_t c = 0; c < width; ++c) at(t, c) -= factor * at(leaving, c);
    }
    const double factor = reduced[entering];
    for (std::size_t c = 0; c < width; ++c) reduced[c] -= factor * at(leaving, c);
    const double before = objective;
    objective += factor * at(leaving, width - 1);
    basis[leaving] = entering;
    degenerate = objective > before + 1e-13 ? 0 : degenerate + 1;
  }
  if (objective <= 0.0) return game;
  // The duals: minus the slacks' reduced costs; they sum to the objective at an optimum.
  double total = 0.0;
  for (std::size_t t = 0; t < cycles; ++t) {
    game.weights[t] = std::max(0.0, -reduced[structural + t]);
    total += game.weights[t];
  }
  if (total <= 0.0) return game;
  for (double& w : game.weights) w /= total;
  game.value = scale / objective;
  return game;
}

}  // namespace gaus::live_memory
