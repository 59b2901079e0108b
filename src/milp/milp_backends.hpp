// The two solvers behind MilpModel::solve (include/gaus/milp/milp_model.hpp), each in its own
// file: cbc_solver.cpp and highs_solver.cpp. Internal to src/milp.
#pragma once

#include <vector>

#include <gaus/milp/milp_model.hpp>

namespace gaus::milp {

// The model's matrix column by column, as both solvers load it: entries of one row and column
// summed (CBC rejects duplicates) and zeros dropped.
struct ColumnMatrix {
  std::vector<int> start{0};
  std::vector<int> index;
  std::vector<double> value;
};
ColumnMatrix columnMajor(const MilpData& data);

// Both answer a non-empty model in the one MilpSolution contract, within
// settings.timeLimitSeconds plus stopGraceSeconds.
MilpSolution solveWithCbc(const MilpData& data, const MilpSolveSettings& settings);
MilpSolution solveWithHighs(const MilpData& data, const MilpSolveSettings& settings);

}  // namespace gaus::milp
