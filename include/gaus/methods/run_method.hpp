// The one path that runs a method of a registry, for every caller: `gaus schedule` and `gaus
// twill`, each run of `gaus run` (and the methods a run runs first: its start, the method that
// sets its horizon), the benchmarks. It finds the method, applies the settings once, poses the
// problem the same way for every caller, and runs it through MethodRegistry::run (the input
// check, the method, the verification of its schedule).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
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
// alike), the horizon D, the fixed II.
struct ProblemRequest {
  std::optional<ProblemKind> kind;
  std::optional<Cycle> horizon;
  std::optional<std::int32_t> ii;
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

}  // namespace gaus
