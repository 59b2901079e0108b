// The two solvers behind MilpModel::solve (include/gaus/milp/milp_model.hpp), each in its own
// file: cbc_solver.cpp and highs_solver.cpp. Internal to src/milp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <gaus/core/deadline.hpp>
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

// Why CBC is missing from this build, or nothing (cbc_solver.cpp, cbc_absent.cpp).
std::optional<std::string> cbcUnavailable();

// A solver as child_solve.cpp runs it.
struct ChildSolver {
  const char* name;  // for the notes: "CBC", "HiGHS"
  // Solves in the calling process (in the child, with `cancel` the child's own flag).
  MilpSolution (*solveHere)(const MilpData& data, const MilpSolveSettings& settings);
  // Whether the solver stops when settings.cancel is set: a cancel is then passed on to the
  // child, which returns its incumbent; otherwise the child is killed at once.
  bool interruptible;
};

// `solver` in a forked child that is killed at the limit plus stopGraceSeconds (a killed solve
// is a timeout without a solution) or on a cancel request (child_solve.cpp). `crashed` is set
// when the child died before its limit.
MilpSolution solveInChild(const MilpData& data, const MilpSolveSettings& settings,
                          const ChildSolver& solver);

}  // namespace gaus::milp
