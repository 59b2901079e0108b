// CBC behind the MilpModel builder, through CBC's C interface (Cbc_C_Interface.h): it runs the
// same preprocessing, cut generators and primal heuristics as the cbc command-line solver
// (CbcMain1), which a bare CbcModel::branchAndBound does not, and it accepts a MIP start.
//
// Time limits are enforced from outside CBC: a solve with a limit runs in a forked child
// (child_solve.cpp) that sends its answer through a pipe and is killed when it overruns, or when
// a cancel request comes (milp_model.hpp, solve). CBC
// checks its own limit between branch-and-bound nodes only; its root LP (Clp's idiot crash and
// primal simplex) and preprocessing do not look at the clock.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>

#include <coin/Cbc_C_Interface.h>
#include <fmt/format.h>

#include "milp_backends.hpp"

namespace gaus::milp {

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

// CBC in this process.
MilpSolution solveCbcHere(const MilpData& data, const MilpSolveSettings& settings) {
  const double timeLimitSeconds = settings.timeLimitSeconds;
  const auto begin = std::chrono::steady_clock::now();
  const int columns = static_cast<int>(data.lower.size());
  const int rows = static_cast<int>(data.rowLower.size());
  const ColumnMatrix matrix = columnMajor(data);
  std::vector<CoinBigIndex> start(matrix.start.begin(), matrix.start.end());
  std::vector<double> columnLower(data.lower), columnUpper(data.upper);
  std::vector<double> rowLower(data.rowLower), rowUpper(data.rowUpper);
  for (auto& bound : columnLower) bound = toCbcBound(bound);
  for (auto& bound : columnUpper) bound = toCbcBound(bound);
  for (auto& bound : rowLower) bound = toCbcBound(bound);
  for (auto& bound : rowUpper) bound = toCbcBound(bound);

  std::unique_ptr<Cbc_Model, CbcModelDeleter> model(Cbc_newModel());
  Cbc_Model* cbc = model.get();
  Cbc_loadProblem(cbc, columns, rows, start.data(), matrix.index.data(), matrix.value.data(),
                  columnLower.data(), columnUpper.data(), data.cost.data(), rowLower.data(),
                  rowUpper.data());
  for (int c = 0; c < columns; ++c) {
    if (data.integer[c]) Cbc_setInteger(cbc, c);
  }
  Cbc_setObjSense(cbc, data.maximize ? -1.0 : 1.0);
  Cbc_setLogLevel(cbc, 0);
  Cbc_setParameter(cbc, "threads", "1");
  // Wall-clock time, as every other limit of the project: CBC's default counts CPU time, which
  // on a loaded machine lets a solve run well past its limit.
  Cbc_setParameter(cbc, "timeMode", "elapsed");
  if (!settings.presolve) Cbc_setParameter(cbc, "presolve", "off");
  if (timeLimitSeconds > 0) Cbc_setMaximumSeconds(cbc, std::max(0.01, timeLimitSeconds));
  if (settings.nodeLimit > 0) {
    Cbc_setMaximumNodes(cbc,
                        static_cast<int>(std::min<std::int64_t>(settings.nodeLimit, INT32_MAX)));
  }
  if (settings.start != nullptr && static_cast<int>(settings.start->size()) == columns) {
    std::vector<int> all(static_cast<std::size_t>(columns));
    for (int c = 0; c < columns; ++c) all[c] = c;
    Cbc_setMIPStartI(cbc, columns, all.data(), settings.start->data());
  }

  MilpSolution solution;
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
    solution.status = ModelStatus::kOptimal;
    solution.bound = solution.objective;
  } else if (Cbc_isProvenInfeasible(cbc) ||
             (Cbc_status(cbc) == 0 && !haveSolution && Cbc_secondaryStatus(cbc) == 1)) {
    solution.status = ModelStatus::kInfeasible;
  } else if (Cbc_isSecondsLimitReached(cbc) || Cbc_status(cbc) == 1) {
    // Stopped on the limit: `values` holds the incumbent when CBC found one.
    solution.status = ModelStatus::kTimeout;
    solution.bound = Cbc_getBestPossibleObjValue(cbc);
    if (Cbc_isNodeLimitReached(cbc)) {
      solution.note = fmt::format("stopped at its node limit ({} nodes)", settings.nodeLimit);
    }
  } else if (haveSolution) {
    solution.status = ModelStatus::kFeasible;
  } else {
    solution.call = CallStatus::kError;
    solution.note = "CBC abandoned the model: numerical trouble or an unbounded relaxation";
  }
  // A proof claimed once the limit has run out is not trusted: CBC 2.10 says "proven
  // infeasible" when its limit stops it in preprocessing (Triton's FA dump, latency MILP in raw
  // cycles with a 1 s limit: status 0, secondary status 1, while a schedule exists).
  if (timeLimitSeconds > 0 && solution.seconds >= timeLimitSeconds) {
    if (solution.status == ModelStatus::kInfeasible) {
      solution.status = ModelStatus::kTimeout;
      solution.note = "CBC claimed infeasibility as its time limit ran out (not trusted)";
    } else if (solution.status == ModelStatus::kOptimal) {
      solution.status = ModelStatus::kTimeout;
      solution.note = "CBC claimed optimality as its time limit ran out (not trusted)";
    }
  }
  return solution;
}

// CBC cannot be asked to stop: a cancel kills its child at once.
constexpr ChildSolver kCbcInChild{"CBC", solveCbcHere, false};

}  // namespace

std::optional<std::string> cbcUnavailable() {
  return std::nullopt;
}

MilpSolution solveWithCbc(const MilpData& data, const MilpSolveSettings& settings) {
  const double timeLimitSeconds = settings.timeLimitSeconds;
  // Without a limit or a cancel flag nothing needs to stop CBC from outside.
  if (timeLimitSeconds <= 0 && settings.cancel == nullptr) return solveCbcHere(data, settings);
  const auto begin = std::chrono::steady_clock::now();
  MilpSolution solution = solveInChild(data, settings, kCbcInChild);
  if (!solution.crashed) return solution;
  // Clp 1.17 can abort on an assertion in a node's resolve (ClpNonLinearCost.cpp:1064,
  // `lowerValue <= upperValue`: the cross-method check's seed 861, a modulo MILP at II 14 that
  // aborts after 8 s). The same model solves with CBC's presolve off (in 2 s there; which step
  // of the presolved search sets the abort up is not known). One more try so, in the time left.
  MilpSolveSettings again = settings;
  again.presolve = false;
  if (timeLimitSeconds > 0) {
    again.timeLimitSeconds = timeLimitSeconds - secondsSince(begin);
    if (again.timeLimitSeconds <= 0.05) return solution;
  }
  MilpSolution second = solveInChild(data, again, kCbcInChild);
  second.note = fmt::format("{}; solved again with presolve off{}", solution.note,
                            second.note.empty() ? "" : ": " + second.note);
  second.seconds = secondsSince(begin);
  return second;
}

}  // namespace gaus::milp
