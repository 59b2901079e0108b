// The one path that runs a method of a registry, for every caller: `gaus schedule` and `gaus
// twill`, Python's gaus.schedule() and gaus.twill(), each run of `gaus run` (and the methods a
// run runs first: its start, the method that sets its horizon), the benchmarks. A call is
// prepared once (prepareMethodCall: the method found, the settings applied, the options parsed;
// prepareInstanceRun adds the kind resolved, the problem posed and the deadline) and run once
// through MethodRegistry::runParsed (the input check, the method, the verification of its
// schedule). Callers read what the prepared call says (the settings it ignores, the options it
// echoes) rather than working it out again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/instance.hpp>
#include <gaus/methods/registry.hpp>

namespace gaus {

// What a caller asks of a method.
struct MethodRequest {
  std::string method;
  MethodOptions options;  // the method's own (-O, an experiment entry's): each beats a setting
  // Settings for every method (--seed, --device, ...; an experiment's settings and budget),
  // typed: each reaches the method as its option of the same name where it declares one
  // (applySettings).
  Settings settings;
};

// A method call prepared once: the method found, the settings applied, the options parsed.
struct MethodCall {
  const MethodRegistry* registry = nullptr;
  const MethodInfo* method = nullptr;
  MethodOptions options;  // the request's own
  Settings settings;      // the settings that reach the method (those it declares, not set by
                          // its own options)
  // `options` parsed: what the run uses and echoes; or the option table's message for a bad
  // option (the reason, for a method whose engine plugin did not load), with which the call
  // fails when it runs, as a Result whose call is an error.
  Expected<ParsedOptions> parsed;
  std::vector<std::string> ignoredSettings;  // settings the method does not declare

  // The option values the run uses, by name; nothing for options that do not parse.
  OptionValues echo() const { return parsed ? parsed->echo : OptionValues{}; }
};

// Finds the method, applies the settings and parses the options: once per run, whatever else
// reads them (a results record echoes them before the run: MethodCall::echo). Fails with the
// registry's message for a name it does not know.
Expected<MethodCall> prepareMethodCall(const MethodRegistry& registry,
                                       const MethodRequest& request);

// What to pose on a graph beyond it: the kind (unset: inferProblemKind, for every method
// alike), the horizon D, the fixed II, the objective (kMethodDefault: none named, resolved by
// resolveObjective; the registry refuses one that does not fit the kind or that the method does
// not minimize).
struct ProblemRequest {
  std::optional<ProblemKind> kind;
  std::optional<Cycle> horizon;
  std::optional<std::int32_t> ii;
  ProblemObjective objective = ProblemObjective::kMethodDefault;
};

// The problem `method` is asked on `instance`, posed once: its kind (inferred once when the
// request names none), its objective (resolved once), its facts (computed on first use). A kind
// or an objective the method does not take is posed all the same: MethodRegistry::runParsed
// refuses it (a command may refuse it earlier, naming the methods that take it:
// MethodRegistry::unsupportedKindMessage, unsupportedObjectiveMessage).
Problem poseProblem(const Instance& instance, const MethodInfo& method,
                    const ProblemRequest& request);

// Runs a prepared call on `problem` (posed for the call's method: poseProblem), with the
// method's machine options applied (withMachineOptions).
Result runMethod(const Problem& problem, const MethodCall& call, const RunContext& context = {});

// prepareMethodCall, then runMethod; a call that cannot be prepared is a failed call.
Result runMethod(const MethodRegistry& registry, const Problem& problem,
                 const MethodRequest& request, const RunContext& context = {});

// ---- One method on one instance, as `gaus schedule`, `gaus twill` and Python pose it ----

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
  // is left (docs/benchmarks.md, "Limits that hold"). The one channel of a caller's time limit:
  // the settings carry none.
  Deadline deadline{std::nullopt};
};

// One method on one instance, prepared once: the call, the problem posed (its kind resolved)
// and what the deadline left the method.
struct PreparedRun {
  MethodCall call;
  Problem problem;
  // The seconds the deadline left the method (its time_limit), when the request has a deadline
  // and the method's own options do not set time_limit.
  std::optional<double> methodLimit;
};

// Reads the objective and refuses one that needs a horizon when none is given, naming
// --horizon (before the method is looked up, so before any engine plugin loads); refuses a
// method whose engine plugin did not load (with the reason), resolves the kind
// (InstanceRunRequest::kind, or inferred; a kind the method does not solve is refused here,
// before the input is checked, naming the methods that do, and for a loop also that --kind
// latency schedules one iteration), poses the problem (an objective the method does not minimize
// is refused here too, naming those that do) and prepares the call, what is left of the
// deadline reaching the method as the setting time_limit, in seconds. Fails with the message of
// the first thing that stops the call before the method runs.
Expected<PreparedRun> prepareInstanceRun(const MethodRegistry& registry, const Instance& instance,
                                         const InstanceRunRequest& request);

struct InstanceRun {
  ProblemKind kind = ProblemKind::kLatency;
  Result result;
  std::vector<std::string> ignoredSettings;  // settings the method does not declare
  std::optional<double> methodLimit;         // the seconds the deadline left the method
};

// Runs a prepared call once (runMethod: the input check, the method, the verification).
InstanceRun runPrepared(const PreparedRun& prepared, const RunContext& context = {});

// prepareInstanceRun, then runPrepared, for a caller that says nothing in between (Python).
Expected<InstanceRun> runMethodOnInstance(const MethodRegistry& registry, const Instance& instance,
                                          const InstanceRunRequest& request,
                                          const RunContext& context = {});

}  // namespace gaus
