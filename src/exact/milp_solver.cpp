// CBC behind the MilpModel builder, through CBC's C interface (Cbc_C_Interface.h): it runs the
// same preprocessing, cut generators and primal heuristics as the cbc command-line solver
// (CbcMain1), which a bare CbcModel::branchAndBound does not, and it accepts a MIP start.

#include "milp_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>

#include <coin/Cbc_C_Interface.h>

namespace gaus::exact::detail {

namespace {

// CBC reads +-1e30 and beyond as infinite.
double toCbcBound(double value) {
  constexpr double kInfinity = 1e30;
  if (value >= kInfinity) return std::numeric_limits<double>::max();
  if (value <= -kInfinity) return -std::numeric_limits<double>::max();
  return value;
}

struct CbcModelDeleter {
  void operator()(Cbc_Model* model) const { Cbc_deleteModel(model); }
};

}  // namespace

std::string_view toString(MilpStatus status) {
  switch (status) {
    case MilpStatus::kOptimal:
      return "optimal";
    case MilpStatus::kFeasible:
      return "feasible";
    case MilpStatus::kInfeasible:
      return "infeasible";
    case MilpStatus::kTimeout:
      return "timeout";
    case MilpStatus::kError:
      return "error";
  }
  return "error";
}

std::int64_t MilpSolution::integerValue(VariableId variable) const {
  return static_cast<std::int64_t>(std::llround(values[variable]));
}

VariableId MilpModel::addVariable(double lower, double upper, bool integer, double cost,
                                  std::string name) {
  lower_.push_back(lower);
  upper_.push_back(upper);
  cost_.push_back(cost);
  integer_.push_back(integer ? 1 : 0);
  names_.push_back(std::move(name));
  return static_cast<VariableId>(lower_.size() - 1);
}

void MilpModel::addRow(const LinearExpression& row, double lower, double upper) {
  rowIndex_.insert(rowIndex_.end(), row.variables.begin(), row.variables.end());
  rowValue_.insert(rowValue_.end(), row.coefficients.begin(), row.coefficients.end());
  rowStart_.push_back(static_cast<std::int64_t>(rowIndex_.size()));
  rowLower_.push_back(lower);
  rowUpper_.push_back(upper);
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

MilpSolution MilpModel::solve(double timeLimitSeconds) const {
  const auto begin = std::chrono::steady_clock::now();
  const int columns = static_cast<int>(lower_.size());
  const int rows = static_cast<int>(rowLower_.size());

  // Rows are collected row-major; CBC loads column-major (CSC). Duplicate entries of one row and
  // column are merged, as CBC rejects them.
  std::vector<std::vector<std::pair<int, double>>> byColumn(static_cast<std::size_t>(columns));
  for (int r = 0; r < rows; ++r) {
    for (std::int64_t k = rowStart_[r]; k < rowStart_[r + 1]; ++k) {
      auto& column = byColumn[rowIndex_[k]];
      if (!column.empty() && column.back().first == r) {
        column.back().second += rowValue_[k];
      } else {
        column.emplace_back(r, rowValue_[k]);
      }
    }
  }
  std::vector<CoinBigIndex> start{0};
  std::vector<int> index;
  std::vector<double> value;
  for (const auto& column : byColumn) {
    for (const auto& [row, coefficient] : column) {
      if (coefficient == 0.0) continue;
      index.push_back(row);
      value.push_back(coefficient);
    }
    start.push_back(static_cast<CoinBigIndex>(index.size()));
  }
  std::vector<double> columnLower(lower_), columnUpper(upper_);
  std::vector<double> rowLower(rowLower_), rowUpper(rowUpper_);
  for (auto& bound : columnLower) bound = toCbcBound(bound);
  for (auto& bound : columnUpper) bound = toCbcBound(bound);
  for (auto& bound : rowLower) bound = toCbcBound(bound);
  for (auto& bound : rowUpper) bound = toCbcBound(bound);

  std::unique_ptr<Cbc_Model, CbcModelDeleter> model(Cbc_newModel());
  Cbc_Model* cbc = model.get();
  Cbc_loadProblem(cbc, columns, rows, start.data(), index.data(), value.data(), columnLower.data(),
                  columnUpper.data(), cost_.data(), rowLower.data(), rowUpper.data());
  for (int c = 0; c < columns; ++c) {
    if (integer_[c]) Cbc_setInteger(cbc, c);
  }
  Cbc_setObjSense(cbc, maximize_ ? -1.0 : 1.0);
  Cbc_setLogLevel(cbc, 0);
  Cbc_setParameter(cbc, "threads", "1");
  if (timeLimitSeconds > 0) Cbc_setMaximumSeconds(cbc, std::max(0.01, timeLimitSeconds));
  if (start_ && static_cast<int>(start_->size()) == columns) {
    std::vector<int> all(static_cast<std::size_t>(columns));
    for (int c = 0; c < columns; ++c) all[c] = c;
    Cbc_setMIPStartI(cbc, columns, all.data(), start_->data());
  }

  MilpSolution solution;
  if (columns == 0) {
    solution.status = MilpStatus::kOptimal;
    solution.objective = 0.0;
    solution.bound = 0.0;
    return solution;
  }
  Cbc_solve(cbc);
  solution.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  solution.nodes = Cbc_getNodeCount(cbc);

  const double* best = Cbc_bestSolution(cbc);
  const bool haveSolution = best != nullptr;
  if (haveSolution) {
    solution.values.assign(best, best + columns);
    solution.objective = Cbc_getObjValue(cbc);
  }
  if (Cbc_isProvenOptimal(cbc) && haveSolution) {
    solution.status = MilpStatus::kOptimal;
    solution.bound = solution.objective;
  } else if (Cbc_isProvenInfeasible(cbc) ||
             (Cbc_status(cbc) == 0 && !haveSolution && Cbc_secondaryStatus(cbc) == 1)) {
    solution.status = MilpStatus::kInfeasible;
  } else if (Cbc_isSecondsLimitReached(cbc) || Cbc_status(cbc) == 1) {
    solution.status = haveSolution ? MilpStatus::kFeasible : MilpStatus::kTimeout;
    solution.bound = Cbc_getBestPossibleObjValue(cbc);
  } else if (haveSolution) {
    solution.status = MilpStatus::kFeasible;
  } else {
    solution.status = MilpStatus::kError;
  }
  return solution;
}

}  // namespace gaus::exact::detail
