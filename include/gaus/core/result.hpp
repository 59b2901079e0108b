// What a scheduling method returns. Following HiGHS, the status of the model (optimal, feasible,
// infeasible, timeout) is kept apart from errors of the call (status kError with a message).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gaus/core/schedule.hpp>
#include <gaus/core/verify.hpp>

namespace gaus {

enum class SolveStatus {
  kOptimal,     // proven optimal for the method's objective
  kFeasible,    // a legal schedule, optimality not proven
  kInfeasible,  // proven that no schedule exists (message says which constraint blocks it)
  kTimeout,     // the time or iteration budget ran out; a schedule may still be present
  kError,       // the call failed (bad option, unsupported problem, solver failure)
};
std::string_view toString(SolveStatus status);

struct Bounds {
  std::optional<double> lowerBound;  // on the method's objective (latency, II, ...)
  bool iiProvenOptimal = false;
  bool latencyProvenOptimal = false;
  std::string iiBoundReason;  // what bounds II from below: "ResMII (TC)", "RecMII (cycle ...)"
};

struct SolveStats {
  double seconds = 0.0;
  std::int64_t iterations = 0;
  std::int64_t solverCalls = 0;
};

struct Result {
  SolveStatus status = SolveStatus::kError;
  std::optional<Schedule> schedule;
  std::optional<double> objective;  // the method's objective value, when it has one
  std::string objectiveName;        // "latency", "ii", "peak_memory", ...
  Bounds bounds;
  SolveStats stats;
  std::string message;  // one line: why infeasible, what timed out, what failed
  std::vector<std::pair<std::string, std::string>> options;  // every option with its value used
  std::vector<std::string> log;                       // attempts, in order ("II=3 L=7 sat 0.01s")
  std::vector<std::pair<std::string, double>> extra;  // method-specific figures
  std::optional<VerificationReport> verification;     // filled by MethodRegistry::run

  bool hasSchedule() const { return schedule.has_value(); }
  bool verified() const { return verification.has_value() && verification->ok(); }
};

// A failed call: status kError with a message.
Result errorResult(std::string message);

}  // namespace gaus
