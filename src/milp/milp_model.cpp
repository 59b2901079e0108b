// The MilpModel builder (include/gaus/milp/milp_model.hpp): it collects the columns and rows and
// hands them to the chosen solver (cbc_solver.cpp, highs_solver.cpp).

#include <cmath>

#include <fmt/format.h>

#include <gaus/core/memory_limit.hpp>
#include <gaus/milp/milp_model.hpp>
#include <gaus/milp/solver_availability.hpp>

#include "milp_backends.hpp"

namespace gaus::milp {

namespace {

// Peak memory per nonzero of a model built, loaded into CBC and solved at the root: 3.2 GB for
// the 6.8 M nonzeros of Triton's FA dump in raw cycles at II 1325 (docs/exact.md, "Time limits
// and model size").
constexpr double kBytesPerNonzero = 470.0;

}  // namespace

std::optional<std::string> refuseLargeModel(std::string_view what, ModelSize size,
                                            std::int64_t maxNonzeros, std::int64_t memoryLimitBytes,
                                            std::string_view remedy) {
  const auto estimatedBytes =
      static_cast<std::int64_t>(static_cast<double>(size.nonzeros) * kBytesPerNonzero);
  if (auto refused = refuseAboveMemoryLimit(
          fmt::format("{} ({} variables, {} nonzeros)", what, size.variables, size.nonzeros),
          estimatedBytes, memoryLimitBytes,
          remedy.empty() ? "normalize the costs (-O normalize=on) or lower -O normalize_sum, which "
                           "shrinks the windows in cycles"
                         : remedy,
          "gaus or a heuristic")) {
    return refused;
  }
  const std::int64_t limit = maxNonzeros;
  if (size.nonzeros <= limit) return std::nullopt;
  const std::string change = remedy.empty()
                                 ? std::string(
                                       ". The model grows with the costs in cycles: normalize them "
                                       "(-O normalize=on; a fixed --ii is solved in raw cycles, so "
                                       "leave II to the search), lower -O normalize_sum if they "
                                       "already are")
                                 : ": " + std::string(remedy);
  return fmt::format(
      "{} would have {} variables and {} nonzeros, above max_nonzeros={} (about {:.1f} GB){}, or "
      "raise -O max_nonzeros",
      what, size.variables, size.nonzeros, limit,
      static_cast<double>(size.nonzeros) * kBytesPerNonzero / 1e9, change);
}

std::int64_t MilpSolution::integerValue(VariableId variable) const {
  return static_cast<std::int64_t>(std::llround(values[variable]));
}

VariableId MilpModel::addVariable(double lower, double upper, bool integer, double cost,
                                  std::string name) {
  data_.lower.push_back(lower);
  data_.upper.push_back(upper);
  data_.cost.push_back(cost);
  data_.integer.push_back(integer ? 1 : 0);
  data_.names.push_back(std::move(name));
  return static_cast<VariableId>(data_.lower.size() - 1);
}

void MilpModel::addRow(const LinearExpression& row, double lower, double upper) {
  data_.rowIndex.insert(data_.rowIndex.end(), row.variables.begin(), row.variables.end());
  data_.rowValue.insert(data_.rowValue.end(), row.coefficients.begin(), row.coefficients.end());
  data_.rowStart.push_back(static_cast<std::int64_t>(data_.rowIndex.size()));
  data_.rowLower.push_back(lower);
  data_.rowUpper.push_back(upper);
}

void MilpModel::addLessEqual(const LinearExpression& row, double upper) {
  addRow(row, -1e30, upper);
}
void MilpModel::addGreaterEqual(const LinearExpression& row, double lower) {
  addRow(row, lower, 1e30);
}
void MilpModel::addEqual(const LinearExpression& row, double value) {
  addRow(row, value, value);
}

ColumnMatrix columnMajor(const MilpData& data) {
  const auto columns = data.lower.size();
  const auto rows = static_cast<int>(data.rowLower.size());
  // Rows are collected row-major; the solvers load column-major (CSC).
  std::vector<std::vector<std::pair<int, double>>> byColumn(columns);
  for (int r = 0; r < rows; ++r) {
    for (std::int64_t k = data.rowStart[r]; k < data.rowStart[r + 1]; ++k) {
      auto& column = byColumn[data.rowIndex[k]];
      if (!column.empty() && column.back().first == r) {
        column.back().second += data.rowValue[k];
      } else {
        column.emplace_back(r, data.rowValue[k]);
      }
    }
  }
  ColumnMatrix matrix;
  for (const auto& column : byColumn) {
    for (const auto& [row, coefficient] : column) {
      if (coefficient == 0.0) continue;
      matrix.index.push_back(row);
      matrix.value.push_back(coefficient);
    }
    matrix.start.push_back(static_cast<int>(matrix.index.size()));
  }
  return matrix;
}

MilpSolution MilpModel::solve(double timeLimitSeconds) const {
  if (data_.lower.empty()) {
    MilpSolution solution;
    solution.status = ModelStatus::kOptimal;
    solution.objective = 0.0;
    solution.bound = 0.0;
    return solution;
  }
  MilpSolveSettings settings;
  settings.timeLimitSeconds = timeLimitSeconds;
  settings.nodeLimit = nodeLimit_;
  settings.start = start_ ? &*start_ : nullptr;
  settings.cancel = cancel_;
  switch (solver_) {
    case MilpSolver::kHighs:
      return solveWithHighs(data_, settings);
    case MilpSolver::kCbc:
      return solveWithCbc(data_, settings);
  }
  return solveWithCbc(data_, settings);
}

std::optional<std::string> solverUnavailable(MilpSolver solver) {
  if (solver == MilpSolver::kCbc) return cbcUnavailable();
  return std::nullopt;
}

}  // namespace gaus::milp
