// What a scheduling method returns. Following HiGHS, the status of the call (ok, or an error:
// a bad option, an unsupported problem, a solver failure) is kept apart from what the call
// established about the problem (optimal, feasible, infeasible, timeout, unknown). One
// ModelStatus serves every engine, for a whole run and for each attempt inside it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gaus/core/analysis.hpp>
#include <gaus/core/enum_names.hpp>
#include <gaus/core/figures.hpp>
#include <gaus/core/options.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/core/verify.hpp>

namespace gaus {

enum class CallStatus {
  kOk,     // the call ran; ModelStatus says what it found
  kError,  // the call failed; Result::message says why
};

enum class ModelStatus {
  kOptimal,     // proven optimal for the objective (an attempt: proven minimal at its II/L)
  kFeasible,    // a legal schedule, optimality not proven (an SMT check: satisfiable)
  kInfeasible,  // proven that no schedule exists (the message says which constraint blocks it)
  kTimeout,     // a time limit, node limit or cancel stopped it (a step budget: kFeasible)
  kUnknown,     // nothing established (the call failed, or a solver gave up undecided)
};

inline constexpr auto kCallStatusNames = makeEnumNames<CallStatus>({
    {CallStatus::kOk, "ok"},
    {CallStatus::kError, "error"},
});
inline constexpr auto kModelStatusNames = makeEnumNames<ModelStatus>({
    {ModelStatus::kOptimal, "optimal"},
    {ModelStatus::kFeasible, "feasible"},
    {ModelStatus::kInfeasible, "infeasible"},
    {ModelStatus::kTimeout, "timeout"},
    {ModelStatus::kUnknown, "unknown"},
});
inline std::string_view toString(CallStatus status) {
  return kCallStatusNames.name(status);
}
inline std::string_view toString(ModelStatus status) {
  return kModelStatusNames.name(status);
}
// What a person or a results file reads: "error" for a failed call, else the model status. The
// one text for Result, Attempt and the MILP solver's solution.
inline std::string_view statusText(CallStatus call, ModelStatus status) {
  return call == CallStatus::kError ? toString(CallStatus::kError) : toString(status);
}

// One step of a method's search, as a record: the II, latency L or horizon D it tried, what it
// established, how long it took and the bound it proved. Methods fill these in order; the
// human log is printed from them and benchmarks read them.
struct Attempt {
  std::string phase;  // "ii", "horizon", "milp", "smt", "minimize-warps", ...
  std::optional<std::int64_t> ii;
  std::optional<std::int64_t> latency;  // L tried (SMT) or found (MILP)
  std::optional<std::int64_t> horizon;  // D tried (GauS's outer search on the horizon)
  CallStatus call = CallStatus::kOk;
  ModelStatus status = ModelStatus::kUnknown;
  double seconds = 0.0;
  std::optional<double> bound;  // a lower bound this attempt proved on its objective
  std::string detail;           // why infeasible, what timed out, the model's size

  // "II=2 L=4 smt feasible 0.003s (detail)".
  std::string describe() const;
  std::string_view statusText() const { return gaus::statusText(call, status); }
};

struct Bounds {
  std::optional<double> lowerBound;  // on the method's objective (latency, II, ...)
  // What gives lowerBound, when a method says: "min cut at cycle 41", "Lagrangian over cycles
  // 35-55", "HiGHS's dual bound"; empty where the method does not name it.
  std::string lowerBoundArgument;
  bool iiProvenOptimal = false;
  bool latencyProvenOptimal = false;
  // Modulo problems: what bounds II from below, in cycles (MII, ResMII, RecMII and the reason:
  // "ResMII (TC) = 2 >= RecMII (cycle O -> O) = 1"), as the problem's facts give it.
  std::optional<MiiBound> mii;
};

struct SolveStats {
  double seconds = 0.0;
  std::int64_t iterations = 0;
  std::int64_t solverCalls = 0;
};

struct Result {
  CallStatus call = CallStatus::kOk;
  ModelStatus status = ModelStatus::kUnknown;
  std::optional<Schedule> schedule;
  std::optional<double> objective;  // the method's objective value, when it has one
  std::string objectiveName;        // "latency", "ii", "peak_memory", ...
  Bounds bounds;
  SolveStats stats;
  std::string message;            // one line: why infeasible, what timed out, what failed
  OptionValues options;           // every option with the value used (the method's table echo)
  std::vector<Attempt> attempts;  // in order
  Figures figures;  // what the method reports beside the objective, declared (figures.hpp)
  // Method-specific text a reader wants beside the figures, by title ("explanation",
  // "normalization"); printed as sections by the CLI.
  std::vector<std::pair<std::string, std::string>> notes;
  std::optional<VerificationReport> verification;  // filled by MethodRegistry::run

  bool failed() const { return call == CallStatus::kError; }
  bool hasSchedule() const { return schedule.has_value(); }
  bool verified() const { return verification.has_value() && verification->ok(); }
  std::string_view statusText() const { return gaus::statusText(call, status); }
};

// A failed call: CallStatus::kError with a message.
Result errorResult(std::string message);

}  // namespace gaus
