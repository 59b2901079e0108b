// The one path that runs a method of a registry, for every caller: `gaus schedule` and `gaus
// twill`, Python's gaus.schedule() and gaus.twill(), each run of `gaus run` (and the methods a
// run runs first: its start, the method that sets its horizon), the benchmarks. It finds the
// method, applies the settings once, poses the problem the same way for every caller, and runs it
// through MethodRegistry::run (the input check, the method, the verification of its schedule).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/instance.hpp>
#include <gaus/core/registry.hpp>

namespace gaus {

// What a caller asks of a method.
struct MethodRequest {
  std::string method;
  MethodOptions options;  // the method's own (-O, an experiment entry's): each beats a setting
  // Settings for every method (--time-limit, --seed, ...; an experiment's settings and budget):
  // each reaches the method as its option of the same name where it declares one
  // (applySettings).
  MethodOptions settings;
};

// A method ready to run: found, and its options as the run uses them.
struct MethodCall {
  const MethodRegistry* registry = nullptr;
  const MethodInfo* method = nullptr;        // may be `unavailable` (its plugin did not load)
  MethodOptions options;                     // the request's, with the settings applied
  std::vector<std::string> ignoredSettings;  // settings the method does not declare
};

// Finds the method and applies the settings: once per run, whatever else reads the options (a
// results record echoes them before the run). Fails with the registry's message for a name it
// does not know.
Expected<MethodCall> prepareMethodCall(const MethodRegistry& registry,
                                       const MethodRequest& request);

// What to pose on a graph beyond it: the kind (unset: inferProblemKind, for every method
// alike), the horizon D, the fixed II, the objective (Problem::check refuses one that does not
// fit the kind).
struct ProblemRequest {
  std::optional<ProblemKind> kind;
  std::optional<Cycle> horizon;
  std::optional<std::int32_t> ii;
  ProblemObjective objective = ProblemObjective::kMethodDefault;
};


// The problem `method` is asked on `instance`. A kind the method does not solve is posed all
// the same: MethodRegistry::run refuses it (a command may refuse it earlier, naming the methods
// that solve it: MethodRegistry::unsupportedKindMessage).
Problem poseProblem(const Instance& instance, const MethodInfo& method,
                    const ProblemRequest& request);

// Runs a prepared call on `problem`.
Result runMethod(const Problem& problem, const MethodCall& call, const RunContext& context = {});

// prepareMethodCall, then runMethod; an unknown method is a failed call.
Result runMethod(const MethodRegistry& registry, const Problem& problem,
                 const MethodRequest& request, const RunContext& context = {});

// ---- One method on one instance, as `gaus schedule`, `gaus twill` and Python pose it ----

// The method of that name, or the message a command stops with before it reads its input: the
// registry's for an unknown name, the reason for a method whose engine plugin did not load.
Expected<const MethodInfo*> findRunnableMethod(const MethodRegistry& registry,
                                               std::string_view name);

// The kind to pose: `kindName` ("--kind"; empty: inferProblemKind). A kind the method does not
// solve is refused here, before the input is checked, with the methods that do; for a loop the
// message also says that --kind latency schedules one iteration instead.
Expected<ProblemKind> resolveProblemKind(const MethodRegistry& registry, const MethodInfo& method,
                                         const Instance& instance, std::string_view kindName,
                                         bool fixedIi, bool hasHorizon);

// What a command asks of one method on one instance.
struct InstanceRunRequest {
  MethodRequest method;
  std::string kind;  // a problem kind's name; empty: inferred
  std::optional<Cycle> horizon;
  std::optional<std::int32_t> ii;
  std::optional<double> ratio;  // stage problems: the weight of the peak stage weight
  std::string objective;        // an objective's name (--objective); empty: the method's default
  // The caller's time limit, counted from when the caller started (loading the engine and the
  // input come out of it): unless the method's own options set time_limit, the method gets what
  // is left (docs/benchmarks.md, "Limits that hold").
  Deadline deadline{std::nullopt};
  RunContext context;  // progress, cancellation, a start schedule
};

struct InstanceRun {
  ProblemKind kind = ProblemKind::kLatency;
  Result result;
  std::vector<std::string> ignoredSettings;  // settings the method does not declare
  std::optional<double> methodLimit;         // the seconds the deadline left the method
};

// Resolves the kind, poses the problem, prepares the call and runs it (runMethod: the input
// check, the method, the verification). Fails with the message of the first thing that stops it
// before the method runs; what the method finds is in InstanceRun::result.
Expected<InstanceRun> runMethodOnInstance(const MethodRegistry& registry, const Instance& instance,
                                          const InstanceRunRequest& request);

}  // namespace gaus
