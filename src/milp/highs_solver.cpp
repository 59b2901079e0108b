// HiGHS (Huangfu and Hall's dual simplex, and the branch-and-cut MIP solver of HiGHS 1.15, MIT
// licence; PyPI's highsbox wheel) behind the MilpModel builder, through HiGHS's C interface
// (interfaces/highs_c_api.h): the C interface keeps this file off the C++ ABI of the wheel's
// libstdc++ build.
//
// HiGHS solves in this process: unlike CBC it can be stopped from outside. Its interrupt
// callbacks (kHighsCallbackMipInterrupt between the MIP solver's steps, and the simplex and IPM
// interrupts inside an LP, the root LP included) ask stopRequested(), which is true once the
// wall-clock limit has passed or a cancel flag (RunContext::cancel) is set; HiGHS then returns
// its incumbent and bound with the status "interrupted". HiGHS's own time_limit is set too (its
// presolve looks at it). Whether these hold the project's limits is measured by `gaus-bench
// limits` (docs/benchmarks.md, "Limits that hold").

#include <chrono>
#include <cmath>
#include <interfaces/highs_c_api.h>
#include <limits>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "milp_backends.hpp"

namespace gaus::milp {

namespace {

// The builder's +-1e30 means no bound; HiGHS takes infinity (and reads anything beyond its
// infinite_bound option, 1e20, as infinite too).
double toHighsBound(double value) {
  constexpr double kInfinity = 1e30;
  if (value >= kInfinity) return std::numeric_limits<double>::infinity();
  if (value <= -kInfinity) return -std::numeric_limits<double>::infinity();
  return value;
}

struct HighsDeleter {
  void operator()(void* highs) const { Highs_destroy(highs); }
};

// What the callbacks read: the limit as a point in time and the caller's cancel flag.
struct StopState {
  std::optional<std::chrono::steady_clock::time_point> stopAt;
  const std::atomic<bool>* cancel = nullptr;
  bool cancelled = false;  // the flag was seen set (only the solving thread writes it)

  bool stopRequested() {
    if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
      cancelled = true;
      return true;
    }
    return stopAt && std::chrono::steady_clock::now() >= *stopAt;
  }
};

void interruptCallback(int callbackType, const char* /*message*/,
                       const HighsCallbackDataOut* /*out*/, HighsCallbackDataIn* in, void* user) {
  if (callbackType != kHighsCallbackMipInterrupt &&
      callbackType != kHighsCallbackSimplexInterrupt &&
      callbackType != kHighsCallbackIpmInterrupt) {
    return;
  }
  if (static_cast<StopState*>(user)->stopRequested()) in->user_interrupt = 1;
}

// One thread (CI has two cores shared by several jobs), no output, and a solve proven optimal
// only at a gap of zero, as CBC's: HiGHS's default relative gap of 1e-4 would call a latency of
// 10,001 optimal above a bound of 10,000.
void configure(void* highs, const MilpSolveSettings& settings) {
  Highs_setBoolOptionValue(highs, "output_flag", 0);
  Highs_setIntOptionValue(highs, "threads", 1);
  Highs_setDoubleOptionValue(highs, "mip_rel_gap", 0.0);
  if (settings.timeLimitSeconds > 0) {
    Highs_setDoubleOptionValue(highs, "time_limit", settings.timeLimitSeconds);
  }
  if (settings.nodeLimit > 0) {
    Highs_setIntOptionValue(
        highs, "mip_max_nodes",
        static_cast<HighsInt>(std::min<std::int64_t>(settings.nodeLimit, INT32_MAX)));
  }
  if (!settings.presolve) Highs_setStringOptionValue(highs, "presolve", "off");
}

std::optional<double> doubleInfo(void* highs, const char* name) {
  double value = 0.0;
  if (Highs_getDoubleInfoValue(highs, name, &value) != kHighsStatusOk) return std::nullopt;
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace

MilpSolution solveWithHighs(const MilpData& data, const MilpSolveSettings& settings) {
  const auto begin = std::chrono::steady_clock::now();
  const auto columns = static_cast<HighsInt>(data.lower.size());
  const auto rows = static_cast<HighsInt>(data.rowLower.size());
  const ColumnMatrix matrix = columnMajor(data);
  std::vector<double> columnLower(data.lower), columnUpper(data.upper);
  std::vector<double> rowLower(data.rowLower), rowUpper(data.rowUpper);
  for (auto& bound : columnLower) bound = toHighsBound(bound);
  for (auto& bound : columnUpper) bound = toHighsBound(bound);
  for (auto& bound : rowLower) bound = toHighsBound(bound);
  for (auto& bound : rowUpper) bound = toHighsBound(bound);
  std::vector<HighsInt> integrality(data.integer.size());
  for (std::size_t c = 0; c < data.integer.size(); ++c) {
    integrality[c] = data.integer[c] ? kHighsVarTypeInteger : kHighsVarTypeContinuous;
  }

  MilpSolution solution;
  std::unique_ptr<void, HighsDeleter> owner(Highs_create());
  void* highs = owner.get();
  configure(highs, settings);
  const HighsInt passed = Highs_passMip(
      highs, columns, rows, static_cast<HighsInt>(matrix.index.size()), kHighsMatrixFormatColwise,
      data.maximize ? kHighsObjSenseMaximize : kHighsObjSenseMinimize, 0.0, data.cost.data(),
      columnLower.data(), columnUpper.data(), rowLower.data(), rowUpper.data(), matrix.start.data(),
      matrix.index.data(), matrix.value.data(), integrality.data());
  if (passed == kHighsStatusError) {
    solution.call = CallStatus::kError;
    solution.note = "HiGHS refused the model";
    solution.seconds = secondsSince(begin);
    return solution;
  }
  if (settings.start != nullptr && static_cast<HighsInt>(settings.start->size()) == columns) {
    Highs_setSolution(highs, settings.start->data(), nullptr, nullptr, nullptr);
  }
  StopState stop;
  stop.cancel = settings.cancel;
  if (settings.timeLimitSeconds > 0) {
    stop.stopAt = begin + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(settings.timeLimitSeconds));
  }
  Highs_setCallback(highs, interruptCallback, &stop);
  Highs_startCallback(highs, kHighsCallbackMipInterrupt);
  Highs_startCallback(highs, kHighsCallbackSimplexInterrupt);
  Highs_startCallback(highs, kHighsCallbackIpmInterrupt);

  const HighsInt ran = Highs_run(highs);
  solution.seconds = secondsSince(begin);
  std::int64_t nodes = 0;
  if (Highs_getInt64InfoValue(highs, "mip_node_count", &nodes) == kHighsStatusOk && nodes > 0) {
    solution.nodes = nodes;
  }
  HighsInt primalStatus = kHighsSolutionStatusNone;
  Highs_getIntInfoValue(highs, "primal_solution_status", &primalStatus);
  const bool haveSolution =
      ran != kHighsStatusError && primalStatus == kHighsSolutionStatusFeasible;
  if (haveSolution) {
    solution.values.assign(static_cast<std::size_t>(columns), 0.0);
    Highs_getSolution(highs, solution.values.data(), nullptr, nullptr, nullptr);
    solution.objective = Highs_getObjectiveValue(highs);
  }
  const std::optional<double> dualBound = doubleInfo(highs, "mip_dual_bound");

  const HighsInt status = Highs_getModelStatus(highs);
  if (status == kHighsModelStatusOptimal && haveSolution) {
    solution.status = ModelStatus::kOptimal;
    solution.bound = solution.objective;
  } else if (status == kHighsModelStatusInfeasible) {
    solution.status = ModelStatus::kInfeasible;
  } else if (status == kHighsModelStatusTimeLimit || status == kHighsModelStatusInterrupt ||
             status == kHighsModelStatusSolutionLimit ||
             status == kHighsModelStatusIterationLimit) {
    solution.status = ModelStatus::kTimeout;
    solution.bound = dualBound;
    if (stop.cancelled) {
      solution.note = fmt::format("stopped by a cancel request after {:.1f}s", solution.seconds);
    } else if (status == kHighsModelStatusSolutionLimit && settings.nodeLimit > 0 &&
               solution.nodes >= settings.nodeLimit) {
      solution.note = fmt::format("stopped at its node limit ({} nodes)", settings.nodeLimit);
    }
  } else if (haveSolution) {
    solution.status = ModelStatus::kFeasible;
    solution.bound = dualBound;
  } else {
    solution.call = CallStatus::kError;
    solution.note = fmt::format(
        "HiGHS abandoned the model (model status {}: numerical trouble, unbounded or an error)",
        status);
  }
  return solution;
}

}  // namespace gaus::milp
