// Internal to the exact engine: a small mixed-integer program builder solved by CBC. The three
// MILPs of this module (cost normalization, acyclic latency, modulo at a fixed II) build their
// rows here, so that only milp_solver.cpp includes CBC.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/registry.hpp>
#include <gaus/core/result.hpp>

namespace gaus::milp {

using VariableId = std::int32_t;

// A linear expression as parallel index / coefficient arrays (duplicate indices are summed).
struct LinearExpression {
  std::vector<VariableId> variables;
  std::vector<double> coefficients;

  void add(VariableId variable, double coefficient) {
    variables.push_back(variable);
    coefficients.push_back(coefficient);
  }
};

// What is left of `deadline` as a solve's time limit in seconds: at least 10 ms, since a limit
// of 0 means none to MilpModel::solve and the MILP options.
inline double timeLeftForSolve(const Deadline& deadline) {
  return std::max(0.01, deadline.remainingSeconds());
}

// How long past its time limit a solve may run before it is stopped: CBC's own limit ends most
// solves within a fraction of a second; this leaves it the time to return its incumbent. It is
// half the project's allowance of max(1 s, 10 %) past a limit (docs/benchmarks.md, "Limits that
// hold"), so that tearing the model down and the rest of the call fit in the other half.
inline double stopGraceSeconds(double timeLimitSeconds) {
  return 0.5 * std::max(1.0, 0.1 * timeLimitSeconds);
}

// What a solve established, in the project's one status model (core/result.hpp):
// - kOptimal: proven optimal; kInfeasible: proven infeasible;
// - kTimeout: the limit stopped CBC, with or without a solution (`values` says);
// - kFeasible: a solution CBC neither proved optimal nor was stopped on (rare);
// - a failed call (CBC abandoned the model: numerical trouble, unbounded, a crash before the
//   limit) is CallStatus::kError.
struct MilpSolution {
  CallStatus call = CallStatus::kOk;
  ModelStatus status = ModelStatus::kUnknown;
  std::vector<double> values;       // per variable, when a solution exists
  std::optional<double> objective;  // of the best solution
  std::optional<double> bound;      // best proven bound on the objective
  double seconds = 0.0;
  std::int64_t nodes = 0;
  // Why the status is not CBC's own (stopped, died, a claim not trusted) or why the call failed.
  std::string note;
  // The solving process died before its limit (a crash inside CBC or Clp), as opposed to a
  // failed call CBC itself reported.
  bool crashed = false;

  // An empty model (no variables) is optimal with no values.
  bool hasSolution() const { return !values.empty() || status == ModelStatus::kOptimal; }
  // "timeout (stopped at its node limit (200 nodes))": the status (gaus::statusText, as a
  // Result says it) and, when there is one, why.
  std::string statusWithNote() const {
    const std::string text(gaus::statusText(call, status));
    return note.empty() ? text : text + " (" + note + ")";
  }
  // Value of an integer variable, rounded (CBC returns doubles within its integer tolerance).
  std::int64_t integerValue(VariableId variable) const;
};

class MilpModel {
 public:
  // Minimizes by default; the objective is the sum of each variable's cost.
  VariableId addVariable(double lower, double upper, bool integer, double cost,
                         std::string name = {});
  void addRow(const LinearExpression& row, double lower, double upper);
  void addLessEqual(const LinearExpression& row, double upper);
  void addGreaterEqual(const LinearExpression& row, double lower);
  void addEqual(const LinearExpression& row, double value);
  void setMaximize(bool maximize) { maximize_ = maximize; }
  // A known solution (all variables) handed to CBC as its first incumbent.
  void setStart(std::vector<double> values) { start_ = std::move(values); }
  // Branch-and-bound nodes before CBC stops (0: no limit), a limit on work rather than time: a
  // solve stopped by it ends at the same incumbent on any machine, however loaded, as long as
  // the time limit does not stop it first. Stopped on nodes, the status is kTimeout (a limit
  // stopped CBC) and the note says it was the node limit.
  void setNodeLimit(std::int64_t nodes) { nodeLimit_ = nodes; }

  VariableId numVariables() const { return static_cast<VariableId>(lower_.size()); }
  std::int64_t numRows() const { return static_cast<std::int64_t>(rowLower_.size()); }
  double lowerBound(VariableId v) const { return lower_[v]; }
  double upperBound(VariableId v) const { return upper_[v]; }

  // Solves with CBC on one thread (CI has two cores shared by several jobs) within the time
  // limit (seconds, wall clock; <= 0 means none). With a limit, CBC runs in a child process that
  // is stopped at the limit plus stopGraceSeconds: CBC checks its limit only between nodes, and its
  // root LP and preprocessing can run far past it on a large model (a minute for a 1 s limit
  // on Triton's FA dump in raw cycles). A stopped solve returns kTimeout without a solution.
  // A child that crashes before its limit is solved once more with presolve off in the time
  // left (milp_solver.cpp says which Clp abort that avoids); a second crash fails the call.
  MilpSolution solve(double timeLimitSeconds) const;

 private:
  static constexpr bool kPresolveOn = true;
  static constexpr bool kPresolveOff = false;
  MilpSolution solveInChild(double timeLimitSeconds, bool presolve) const;
  MilpSolution solveHere(double timeLimitSeconds, bool presolve) const;

  std::vector<double> lower_, upper_, cost_;
  std::vector<char> integer_;
  std::vector<std::string> names_;
  std::vector<std::int64_t> rowStart_{0};
  std::vector<VariableId> rowIndex_;
  std::vector<double> rowValue_;
  std::vector<double> rowLower_, rowUpper_;
  std::optional<std::vector<double>> start_;
  std::int64_t nodeLimit_ = 0;
  bool maximize_ = false;
};

// The size of a model before it is built (include/gaus/exact/model_limits.hpp).
struct ModelSize {
  std::int64_t variables = 0;
  std::int64_t nonzeros = 0;
};

// A message saying why a model of `size` is refused (what, how large, the limit and what to
// change), or nothing when it fits under `maxNonzeros` and its estimated memory (about
// kBytesPerNonzero bytes per nonzero, milp_solver.cpp) under `memoryLimitBytes`. `remedy` says
// what to change, in lower case after a colon; empty: the time-indexed models' advice (normalize
// the costs, which shrinks the windows in cycles).
std::optional<std::string> refuseLargeModel(std::string_view what, ModelSize size,
                                            std::int64_t maxNonzeros, std::int64_t memoryLimitBytes,
                                            std::string_view remedy = {});

}  // namespace gaus::milp
