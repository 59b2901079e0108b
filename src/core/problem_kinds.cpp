#include <gaus/core/problem_facts.hpp>
#include <gaus/core/problem_kinds.hpp>

namespace gaus {

std::vector<ProblemKind> preferredKinds(const KindEvidence& evidence) {
  const ProblemObjective objective = evidence.objective;
  if (evidence.warps) return {ProblemKind::kModuloWarp};
  if (evidence.loop || objective == ProblemObjective::kIi) {
    return {ProblemKind::kModulo, ProblemKind::kModuloWarp};
  }
  if (evidence.horizon || objective == ProblemObjective::kPeakMemory ||
      objective == ProblemObjective::kStageCost) {
    return {ProblemKind::kLatencyBounded};
  }
  return {ProblemKind::kLatency};
}

bool needsHorizon(ProblemKind kind) {
  return kind == ProblemKind::kLatencyBounded || kind == ProblemKind::kStages;
}

std::vector<ProblemObjective> preferredObjectives(ProblemKind kind, bool liveMemory) {
  switch (kind) {
    case ProblemKind::kLatency:
      return {ProblemObjective::kLatency};
    case ProblemKind::kLatencyBounded:
      if (liveMemory) return {ProblemObjective::kPeakMemory, ProblemObjective::kStageCost};
      return {ProblemObjective::kStageCost, ProblemObjective::kPeakMemory};
    case ProblemKind::kModulo:
    case ProblemKind::kModuloWarp:
      return {ProblemObjective::kIi};
    case ProblemKind::kStages:
      return {ProblemObjective::kStageCost};
  }
  return {ProblemObjective::kLatency};
}

ProblemObjective askedObjective(const Problem& problem) {
  if (problem.objective != ProblemObjective::kMethodDefault) return problem.objective;
  const bool liveMemory = problem.graph && problem.facts()->hasLiveMemory();
  return preferredObjectives(problem.kind, liveMemory).front();
}

ProblemKind kindOfSchedule(const Schedule& schedule, bool hasHorizon) {
  return preferredKinds({schedule.ii.has_value(), schedule.warps.has_value(), hasHorizon, {}})
      .front();
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
