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
  return instance.problem(kind, request.horizon, request.ii);
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

}  // namespace gaus
