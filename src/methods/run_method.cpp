#include <algorithm>

#include <fmt/format.h>

#include <gaus/core/option_table.hpp>
#include <gaus/core/problem_kinds.hpp>
#include <gaus/methods/run_method.hpp>

namespace gaus {

Expected<MethodCall> prepareMethodCall(const MethodRegistry& registry,
                                       const MethodRequest& request) {
  const MethodInfo* method = registry.find(request.method);
  if (method == nullptr) return Error{registry.unknownMethodMessage(request.method)};
  AppliedSettings applied = applySettings(*method, request.options, request.settings);
  auto parsed = method->parseOptions(applied.options, applied.settings);
  return MethodCall{&registry,
                    method,
                    std::move(applied.options),
                    std::move(applied.settings),
                    std::move(parsed),
                    std::move(applied.ignored)};
}

Problem poseProblem(const Instance& instance, const MethodInfo& method,
                    const ProblemRequest& request) {
  const ProblemKind kind =
      request.kind ? *request.kind
                   : inferProblemKind(*instance.graph, method, request.ii.has_value(),
                                      request.horizon.has_value(), request.objective);
  Problem problem = instance.problem(kind, request.horizon, request.ii);
  problem.objectiveNamed = request.objective != ProblemObjective::kMethodDefault;
  problem.objective = request.objective;
  problem.objective = resolveObjective(problem, method);
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

// --kind read, or nothing when it names none.
Expected<std::optional<ProblemKind>> readProblemKind(std::string_view kindName) {
  if (kindName.empty()) return std::optional<ProblemKind>();
  const auto kind = parseProblemKind(kindName);
  if (!kind) {
    const std::vector<std::string> kinds = problemKindNames();
    return Error{fmt::format("--kind '{}'{}: expected {}", kindName,
                             option_text::didYouMean(kindName, kinds),
                             option_text::listChoices(kinds))};
  }
  return std::optional<ProblemKind>(*kind);
}

// An objective whose problems all need a horizon D, asked without one: refused before anything
// is loaded, naming --horizon (the kind would be inferred latency-bounded, and its input check
// would fail only once the method's engine is loaded and the input read).
Status checkHorizonForObjective(ProblemObjective objective, std::optional<ProblemKind> kind,
                                bool hasHorizon) {
  if (hasHorizon || objective == ProblemObjective::kMethodDefault) return Done{};
  if (kind && !needsHorizon(*kind)) return Done{};
  for (const ProblemKind candidate :
       {ProblemKind::kLatency, ProblemKind::kLatencyBounded, ProblemKind::kModulo,
        ProblemKind::kModuloWarp, ProblemKind::kStages}) {
    if (objectiveFits(objective, candidate) && !needsHorizon(candidate)) return Done{};
  }
  return Error{fmt::format(
      "--objective {} asks for a {} problem, which needs a horizon: give --horizon D (every op "
      "completes by cycle D{})",
      toString(objective), kind ? toString(*kind) : std::string_view("latency-bounded"),
      kind == ProblemKind::kStages ? "; --kind stages: D stages" : "")};
}

// The kind to pose: the one --kind names, or inferProblemKind. A kind the method does not solve
// is refused here, before the input is checked, with the methods that do; for a loop the
// message also says that --kind latency schedules one iteration instead.
Expected<ProblemKind> resolveProblemKind(const MethodRegistry& registry, const MethodInfo& method,
                                         const Instance& instance, std::optional<ProblemKind> named,
                                         bool fixedIi, bool hasHorizon,
                                         ProblemObjective objective) {
  if (named) {
    if (!method.solves(*named)) return Error{registry.unsupportedKindMessage(method.name, *named)};
    return *named;
  }
  const Graph& graph = *instance.graph;
  const ProblemKind kind = inferProblemKind(graph, method, fixedIi, hasHorizon, objective);
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
  // What the request asks, read and checked before the method is looked up.
  const auto objective = parseProblemObjective(request.objective);
  if (!objective) return Error{objective.error()};
  const auto namedKind = readProblemKind(request.kind);
  if (!namedKind) return Error{namedKind.error()};
  if (const Status horizon =
          checkHorizonForObjective(*objective, *namedKind, request.horizon.has_value());
      !horizon) {
    return Error{horizon.error()};
  }
  // The deadline reaches the method as the setting time_limit, in seconds: a method's own -O
  // time_limit wins, and a method without one ignores it (and says so), as any setting.
  MethodRequest methodRequest = request.method;
  std::optional<double> methodLimit;
  if (request.deadline.limited()) {
    methodLimit = std::max(0.001, request.deadline.remainingSeconds());
    methodRequest.settings["time_limit"] = *methodLimit;
  }
  auto call = prepareMethodCall(registry, methodRequest);
  if (!call) return Error{call.error()};
  const MethodInfo& method = *call->method;
  if (method.unavailable) return Error{*method.unavailable};
  if (!method.declares("time_limit") || request.method.options.contains("time_limit")) {
    methodLimit.reset();
  }
  const auto kind =
      resolveProblemKind(registry, method, instance, *namedKind, request.ii.has_value(),
                         request.horizon.has_value(), *objective);
  if (!kind) return Error{kind.error()};
  Problem problem = poseProblem(instance, method, {*kind, request.horizon, request.ii, *objective});
  if (const auto refusal = registry.unsupportedObjectiveMessage(method, problem)) {
    return Error{*refusal};
  }
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
