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
  auto parsed = method->parseOptions(applied.options);
  return MethodCall{&registry, method, std::move(applied.options), std::move(parsed),
                    std::move(applied.ignored)};
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
  if (!call.parsed) return errorResult(call.parsed.error());
  return call.registry->runParsed(
      *call.method, withMachineOptions(*call.method, problem, *call.parsed), *call.parsed, context);
}

Result runMethod(const MethodRegistry& registry, const Problem& problem,
                 const MethodRequest& request, const RunContext& context) {
  auto call = prepareMethodCall(registry, request);
  if (!call) return errorResult(call.error());
  return runMethod(problem, *call, context);
}

namespace {

// The kind to pose: `kindName` ("--kind"; empty: inferProblemKind). A kind the method does not
// solve is refused here, before the input is checked, with the methods that do; for a loop the
// message also says that --kind latency schedules one iteration instead.
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

}  // namespace

Expected<PreparedRun> prepareInstanceRun(const MethodRegistry& registry, const Instance& instance,
                                         const InstanceRunRequest& request) {
  // The deadline reaches the method as the setting time_limit: a method's own -O time_limit
  // wins, and a method without one ignores it (and says so), as any setting.
  MethodRequest methodRequest = request.method;
  std::optional<double> methodLimit;
  if (request.deadline.remainingLimit()) {
    methodLimit = std::max(0.001, request.deadline.remainingSeconds());
    methodRequest.settings["time_limit"] = fmt::format("{:.3f}", *methodLimit);
  }
  auto call = prepareMethodCall(registry, methodRequest);
  if (!call) return Error{call.error()};
  const MethodInfo& method = *call->method;
  if (method.unavailable) return Error{*method.unavailable};
  if (!method.declares("time_limit") || request.method.options.contains("time_limit")) {
    methodLimit.reset();
  }
  const auto kind = resolveProblemKind(registry, method, instance, request.kind,
                                       request.ii.has_value(), request.horizon.has_value());
  if (!kind) return Error{kind.error()};
  const auto objective = parseProblemObjective(request.objective);
  if (!objective) return Error{objective.error()};
  Problem problem = poseProblem(instance, method, {*kind, request.horizon, request.ii, *objective});
  if (request.ratio) {
    if (*kind != ProblemKind::kStages) {
      return Error{
          fmt::format("--ratio applies to --kind stages, not to a {} problem", toString(*kind))};
    }
    problem.stageRatio = *request.ratio;
  }
  if (call->parsed) problem = withMachineOptions(method, problem, *call->parsed);
  return PreparedRun{std::move(call).value(), std::move(problem), methodLimit};
}

InstanceRun runPrepared(const PreparedRun& prepared, const RunContext& context) {
  const MethodCall& call = prepared.call;
  InstanceRun run;
  run.kind = prepared.problem.kind;
  run.ignoredSettings = call.ignoredSettings;
  run.methodLimit = prepared.methodLimit;
  run.result = call.parsed
                   ? call.registry->runParsed(*call.method, prepared.problem, *call.parsed, context)
                   : errorResult(call.parsed.error());
  return run;
}

Expected<InstanceRun> runMethodOnInstance(const MethodRegistry& registry, const Instance& instance,
                                          const InstanceRunRequest& request,
                                          const RunContext& context) {
  auto prepared = prepareInstanceRun(registry, instance, request);
  if (!prepared) return Error{prepared.error()};
  return runPrepared(*prepared, context);
}

}  // namespace gaus
