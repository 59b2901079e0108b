// The project's one mixed-integer program builder, solved by HiGHS or CBC (MilpSolver): every
// MILP of gaus (cost normalization, the latency and modulo MILPs, the live-memory windows) builds
// its rows here, and only src/milp/highs_solver.cpp and src/milp/cbc_solver.cpp include a solver.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/enum_names.hpp>
#include <gaus/core/result.hpp>

namespace gaus::milp {

// Which solver MilpModel::solve runs. Both are always built; `-O solver=highs|cbc` picks one on
// every method that solves MILPs.
enum class MilpSolver {
  kHighs,  // HiGHS 1.15 (PyPI's highsbox wheel), in-process, stopped by its callback
  kCbc,    // CBC 2.10 (Debian), in a forked child killed when it overruns
};
inline constexpr auto kMilpSolverNames = makeEnumNames<MilpSolver>({
    {MilpSolver::kHighs, "highs"},
    {MilpSolver::kCbc, "cbc"},
});
inline std::string_view toString(MilpSolver solver) {
  return kMilpSolverNames.name(solver);
}

// The default solver, chosen on the measurements of docs/benchmarks.md ("HiGHS against CBC"):
// on the HeuriGym latency proofs and the MachSuite modulo loops HiGHS proved 105 of 112 optimal
// against CBC's 102, was the faster on 92 of the 101 both proved, never found a worse value, and
// a cancel request stops it with its incumbent (CBC's child is killed without one).
inline constexpr MilpSolver kDefaultMilpSolver = MilpSolver::kHighs;

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

// How long past its time limit a solve may run before it is stopped: the solvers' own limits end
// most solves within a fraction of a second; this leaves them the time to return their incumbent.
// It is
// half the project's allowance of max(1 s, 10 %) past a limit (docs/benchmarks.md, "Limits that
// hold"), so that tearing the model down and the rest of the call fit in the other half.
inline double stopGraceSeconds(double timeLimitSeconds) {
  return 0.5 * std::max(1.0, 0.1 * timeLimitSeconds);
}

// What a solve established, in the project's one status model (core/result.hpp):
// - kOptimal: proven optimal; kInfeasible: proven infeasible;
// - kTimeout: a limit (time, nodes) or a cancel request stopped the solver, with or without a
//   solution (`values` says; `note` says which);
// - kFeasible: a solution the solver neither proved optimal nor was stopped on (rare);
// - a failed call (the solver abandoned the model: numerical trouble, unbounded, a crash before
//   the limit) is CallStatus::kError.
// Both solvers answer in this one contract (tests/unit/milp/test_milp_solvers.cpp).
struct MilpSolution {
  CallStatus call = CallStatus::kOk;
  ModelStatus status = ModelStatus::kUnknown;
  std::vector<double> values;       // per variable, when a solution exists
  std::optional<double> objective;  // of the best solution
  std::optional<double> bound;      // best proven bound on the objective
  double seconds = 0.0;
  std::int64_t nodes = 0;
  // Why the status is not the solver's own (stopped, died, a claim not trusted) or why the call
  // failed.
  std::string note;
  // CBC's solving process died before its limit (a crash inside CBC or Clp), as opposed to a
  // failed call the solver itself reported.
  bool crashed = false;

  // An empty model (no variables) is optimal with no values.
  bool hasSolution() const { return !values.empty() || status == ModelStatus::kOptimal; }
  // "timeout (stopped at its node limit (200 nodes))": the status (gaus::statusText, as a
  // Result says it) and, when there is one, why.
  std::string statusWithNote() const {
    const std::string text(gaus::statusText(call, status));
    return note.empty() ? text : text + " (" + note + ")";
  }
  // Value of an integer variable, rounded (solvers return doubles within their integer
  // tolerance).
  std::int64_t integerValue(VariableId variable) const;
};

// The model's arrays as the builder collected them: columns with bounds, cost and integrality,
// and rows in compressed row form (entries of one row may repeat a column; a backend sums them).
struct MilpData {
  std::vector<double> lower, upper, cost;
  std::vector<char> integer;
  std::vector<std::string> names;
  std::vector<std::int64_t> rowStart{0};
  std::vector<VariableId> rowIndex;
  std::vector<double> rowValue;
  std::vector<double> rowLower, rowUpper;
  bool maximize = false;
};

// How one solve runs, beside the model: what MilpModel's setters and solve's argument say.
struct MilpSolveSettings {
  double timeLimitSeconds = 0.0;               // wall clock; <= 0: none
  std::int64_t nodeLimit = 0;                  // 0: none
  const std::vector<double>* start = nullptr;  // a MIP start over all variables, or none
  const std::atomic<bool>* cancel = nullptr;   // set from another thread to stop the solve
  bool presolve = true;
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
  void setMaximize(bool maximize) { data_.maximize = maximize; }
  // A known solution (all variables) handed to the solver as its first incumbent.
  void setStart(std::vector<double> values) { start_ = std::move(values); }
  // Branch-and-bound nodes before the solver stops (0: no limit), a limit on work rather than
  // time: a solve stopped by it ends at the same incumbent on any machine, however loaded, as
  // long as the time limit does not stop it first. Stopped on nodes, the status is kTimeout (a
  // limit stopped the solver) and the note says it was the node limit.
  void setNodeLimit(std::int64_t nodes) { nodeLimit_ = nodes; }
  // The solver that solve() runs (kDefaultMilpSolver unless set).
  void setSolver(MilpSolver solver) { solver_ = solver; }
  MilpSolver solver() const { return solver_; }
  // A flag another thread sets to stop the solve (RunContext::cancel; not owned, may be null):
  // the solve then ends promptly with kTimeout, its incumbent if it has one, and the note
  // "stopped by a cancel request". HiGHS reads it in its interrupt callbacks; CBC's child is
  // killed (without its incumbent).
  void setCancel(const std::atomic<bool>* cancel) { cancel_ = cancel; }

  VariableId numVariables() const { return static_cast<VariableId>(data_.lower.size()); }
  std::int64_t numRows() const { return static_cast<std::int64_t>(data_.rowLower.size()); }
  double lowerBound(VariableId v) const { return data_.lower[v]; }
  double upperBound(VariableId v) const { return data_.upper[v]; }
  const MilpData& data() const { return data_; }

  // Solves with the chosen solver on one thread (CI has two cores shared by several jobs)
  // within the time limit (seconds, wall clock; <= 0 means none), which holds to the limit plus
  // stopGraceSeconds on both:
  // - HiGHS solves in this process; its interrupt callbacks stop it at the limit or on a cancel
  //   request (highs_solver.cpp; `gaus-bench limits` measures that they hold).
  // - CBC, with a limit, runs in a child process that is stopped at the limit plus
  //   stopGraceSeconds: CBC checks its limit only between nodes, and its root LP and
  //   preprocessing can run far past it on a large model (a minute for a 1 s limit on Triton's
  //   FA dump in raw cycles). A stopped solve returns kTimeout without a solution. A child that
  //   crashes before its limit is solved once more with presolve off in the time left
  //   (cbc_solver.cpp says which Clp abort that avoids); a second crash fails the call.
  MilpSolution solve(double timeLimitSeconds) const;

 private:
  MilpData data_;
  std::optional<std::vector<double>> start_;
  std::int64_t nodeLimit_ = 0;
  MilpSolver solver_ = kDefaultMilpSolver;
  const std::atomic<bool>* cancel_ = nullptr;
};

// The size of a model before it is built (include/gaus/exact/model_limits.hpp).
struct ModelSize {
  std::int64_t variables = 0;
  std::int64_t nonzeros = 0;
};

// A message saying why a model of `size` is refused (what, how large, the limit and what to
// change), or nothing when it fits under `maxNonzeros` and its estimated memory (about
// kBytesPerNonzero bytes per nonzero, milp_model.cpp) under `memoryLimitBytes`. `remedy` says
// what to change, in lower case after a colon; empty: the time-indexed models' advice (normalize
// the costs, which shrinks the windows in cycles).
std::optional<std::string> refuseLargeModel(std::string_view what, ModelSize size,
                                            std::int64_t maxNonzeros, std::int64_t memoryLimitBytes,
                                            std::string_view remedy = {});

}  // namespace gaus::milp
