#include <algorithm>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>
#include <gaus/methods/run_method.hpp>

namespace gaus {

Expected<MethodCall> prepareMethodCall(const MethodRegistry& registry,
                                       const MethodRequest& request) {
  const MethodInfo* method = registry.find(request.method);
  if (method == nullptr) return Error{registry.unknownMethodMessage(request.method)};
  AppliedSettings applied = applySettings(*method, request.options, request.settings);
  return MethodCall{&registry, method, std::move(applied.options), std::move(applied.ignored)};
}

Problem poseProblem(const Instance& instance, const MethodInfo& method,
                    const ProblemRequest& request) {
  const ProblemKind kind = request.kind.value_or(inferProblemKind(
      *instance.graph, method, request.ii.has_value(), request.horizon.has_value()));
  Problem problem = instance.problem(kind, request.horizon, request.ii);
  problem.objective = request.objective;
  return problem;
}

Result runMethod(const Problem& problem, const MethodCall& call, const RunContext& context) {
  return call.registry->run(call.method->name, problem, call.options, context);
}

Result runMethod(const MethodRegistry& registry, const Problem& problem,
                 const MethodRequest& request, const RunContext& context) {
  auto call = prepareMethodCall(registry, request);
  if (!call) return errorResult(call.error());
  return runMethod(problem, *call, context);
}

Expected<const MethodInfo*> findRunnableMethod(const MethodRegistry& registry,
                                               std::string_view name) {
  const MethodInfo* method = registry.find(name);
  if (method == nullptr) return Error{registry.unknownMethodMessage(name)};
  if (method->unavailable) return Error{*method->unavailable};
  return method;
}

Expected<ProblemKind> resolveProblemKind(const MethodRegistry& registry, const MethodInfo& method,
                                         const Instance& instance, std::string_view kindName,
                                         bool fixedIi, bool hasHorizon) {
  if (!kindName.empty()) {
    const auto kind = parseProblemKind(kindName);
    if (!kind) {
      const std::vector<std::string> kinds = problemKindNames();
      return Error{fmt::format("--kind '{}'{}: expected {}", kindName,
                               option_text::didYouMean(kindName, kinds),
                               option_text::listChoices(kinds))};
    }
    if (!method.solves(*kind)) return Error{registry.unsupportedKindMessage(method.name, *kind)};
    return *kind;
  }
  const Graph& graph = *instance.graph;
  const ProblemKind kind = inferProblemKind(graph, method, fixedIi, hasHorizon);
  if (method.solves(kind)) return kind;
  if (!graph.hasLoopCarriedEdges()) {
    return Error{registry.unsupportedKindMessage(method.name, kind)};
  }
  EdgeId loopCarried = 0;
  for (EdgeId e = 0; e < graph.numEdges(); ++e) loopCarried += graph.edgeDistance(e) > 0 ? 1 : 0;
  return Error{fmt::format(
      "{}: the graph has {} loop-carried edge{}, so it poses a {} problem: {}. --kind latency "
      "schedules one iteration instead and ignores the loop-carried edges on purpose",
      instance.sourcePath, loopCarried, loopCarried == 1 ? "" : "s", toString(kind),
      registry.unsupportedKindMessage(method.name, kind))};
}

Expected<InstanceRun> runMethodOnInstance(const MethodRegistry& registry, const Instance& instance,
                                          const InstanceRunRequest& request) {
  const auto method = findRunnableMethod(registry, request.method.method);
  if (!method) return Error{method.error()};
  InstanceRun run;
  const auto kind = resolveProblemKind(registry, **method, instance, request.kind,
                                       request.ii.has_value(), request.horizon.has_value());
  if (!kind) return Error{kind.error()};
  run.kind = *kind;
  const auto objective = parseProblemObjective(request.objective);
  if (!objective) return Error{objective.error()};
  Problem problem =
      poseProblem(instance, **method, {run.kind, request.horizon, request.ii, *objective});
  if (request.ratio) {
    if (run.kind != ProblemKind::kStages) {
      return Error{
          fmt::format("--ratio applies to --kind stages, not to a {} problem", toString(run.kind))};
    }
    problem.stageRatio = *request.ratio;
  }
  auto call = prepareMethodCall(registry, request.method);
  if (!call) return Error{call.error()};
  run.ignoredSettings = call->ignoredSettings;
  if (request.deadline.remainingLimit() && request.method.options.count("time_limit") == 0 &&
      (*method)->declares("time_limit")) {
    run.methodLimit = std::max(0.001, request.deadline.remainingSeconds());
    call->options["time_limit"] = fmt::format("{:.3f}", *run.methodLimit);
  }
  run.result = runMethod(problem, *call, request.context);
  return run;
}

}  // namespace gaus
