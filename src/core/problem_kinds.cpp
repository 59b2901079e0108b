#include <gaus/core/problem_kinds.hpp>

namespace gaus {

std::vector<ProblemKind> preferredKinds(const KindEvidence& evidence) {
  if (evidence.warps) return {ProblemKind::kModuloWarp};
  if (evidence.loop) return {ProblemKind::kModulo, ProblemKind::kModuloWarp};
  if (evidence.horizon) return {ProblemKind::kLatencyBounded};
  return {ProblemKind::kLatency};
}

ProblemKind kindOfSchedule(const Schedule& schedule, bool hasHorizon) {
  return preferredKinds({schedule.ii.has_value(), schedule.warps.has_value(), hasHorizon}).front();
}

Expected<Problem> answeredProblem(const Instance& instance, const Schedule& schedule,
                                  const AnsweredProblemRequest& request) {
  const ProblemKind kind =
      request.kind.value_or(kindOfSchedule(schedule, request.horizon.has_value()));
  // A stage problem is checked on its own graph (delay-0 edges, stages 0..D-1): problem() makes
  // it.
  Problem problem = instance.problem(kind, request.horizon, request.ii);
  if (const auto errors = problem.check(); !errors.empty()) return Error{errors.front()};
  return problem;
}

}  // namespace gaus
