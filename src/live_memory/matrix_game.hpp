// The master problem of the Lagrangian bound (lagrangian_bound.cpp): the value of the zero-sum
// game max over weights lambda in the simplex of min over rows c of sum_t lambda_t g[c][t], for
// nonnegative g, with an optimal lambda. The rows are the live profiles of the schedules the
// minimum cuts found; the value is the cutting-plane model's estimate of the Lagrangian dual.
//
// Why a solver of its own rather than HiGHS: the bound is reported by the light methods of the
// gaus program (list, fds) and by builds without a MILP solver (the sanitized suites), which
// link formulation B's first library only, and this LP has a few hundred rows and columns with
// an obvious feasible basis, which a dense primal simplex solves in microseconds to milliseconds.
#pragma once

#include <vector>

namespace gaus::live_memory {

struct MatrixGame {
  double value = 0.0;           // max over lambda of min over rows
  std::vector<double> weights;  // an optimal lambda, summing to 1
};

// `rows` hold `columns` nonnegative entries each (at least one row). Solved as the packing LP
// max sum_c y_c subject to sum_c y_c g[c][t] <= 1, y >= 0, whose optimum is 1 / value and whose
// duals, normalized, are an optimal lambda (the dual is min sum_t x_t subject to G x >= 1), by the
// simplex method from the slack basis, Dantzig's rule with Bland's after degenerate pivots.
MatrixGame solveMatrixGame(const std::vector<std::vector<double>>& rows, int columns);

}  // namespace gaus::live_memory
