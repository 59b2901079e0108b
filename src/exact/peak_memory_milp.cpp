// Peak live memory under a horizon D solved exactly (include/gaus/exact/peak_memory_milp.hpp):
// formulation B of GauS (Cai et al., arXiv 2602.20427) as the whole graph's time-indexed model of
// the verifier's live intervals (live_memory/exact_solve.hpp), every op moving in its ASAP/ALAP
// window at D. The parts are formulation B's, in src/live_memory, which GauS calls too:
// - The bound: live_memory::reportBound, within its share of the time, which is also P's lower
//   bound in the model (it lifts the LP relaxation's); the MILP's own bound raises it.
// - The start: the list schedule, when it fits D, improved by formulation B's improvement step
//   (the local refinement, then exact windows around its peak; problems without limited
//   resources, which neither looks at), and the start given (--init, init=gaus), when it
//   verifies; the lowest peak is the solver's first incumbent and the answer when it finds
//   nothing better in time.
// - A model above the nonzero or memory limits is refused with refuseLargeModel's message; the
//   call still answers with the start and the bound.

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include <gaus/core/problem_facts.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/exact/exact_figures.hpp>
#include <gaus/exact/peak_memory_milp.hpp>
#include <gaus/heuristic/list_scheduler.hpp>
#include <gaus/live_memory/bound.hpp>
#include <gaus/live_memory/exact_solve.hpp>
#include <gaus/live_memory/improvement.hpp>

namespace gaus::exact {

namespace {

// Share of the time limit the improvement step of the list schedule may take (the refinement
// ends at a local optimum in well under a second on the small EPFL circuits, the windows then
// take what is left of the share): its peak is what the MILP must beat. On ctrl at D = 11 the
// windows reach 31, the optimum, before the MILP starts (the refined list schedule has 39).
constexpr double kImprovementShare = 0.3;

double peakOf(const Problem& problem, const Schedule& schedule) {
  return computeMetrics(*problem.graph, *problem.machine, schedule).peakLiveMemory;
}

bool verifies(const Problem& problem, const Schedule& schedule) {
  VerifyOptions options;
  options.maxMessages = 0;
  return verify(problem, schedule, options).ok();
}

// The lowest-peak verified schedule found so far: the MILP's start and its fallback answer.
struct StartSchedule {
  std::optional<Schedule> schedule;
  double peak = 0.0;

  // Keeps `candidate` when it verifies and has the lower peak; false when it does not verify.
  bool consider(const Problem& problem, const Schedule& candidate) {
    if (!verifies(problem, candidate)) return false;
    const double candidatePeak = peakOf(problem, candidate);
    if (!schedule || candidatePeak < peak) {
      schedule = candidate;
      peak = candidatePeak;
    }
    return true;
  }
};

// The start: the lowest peak among the list schedule (improved by formulation B's improvement
// step when no resource is limited) and the one given, with a note when the given one does not
// verify.
StartSchedule findStart(const Problem& problem, const milp::MilpCall& call, Result& result) {
  const Graph& graph = *problem.graph;
  const Cycle horizon = *problem.horizon;
  StartSchedule best;
  if (auto list = heuristic::listSchedule(problem);
      list && scheduleLatency(graph, list->start) <= horizon) {
    if (problem.facts()->usesLimitedResource()) {
      best.consider(problem, *list);
    } else {
      // A share of the whole time limit (what kImprovementShare was measured as), not of what
      // the bound left.
      const auto limit = call.deadline.limitSeconds();
      const Deadline share = call.deadline.share(
          1.0, limit ? std::optional<double>(kImprovementShare * *limit) : std::nullopt);
      live_memory::ImprovementOptions improvementOptions;
      improvementOptions.windowOptions.solver = call.solver;
      live_memory::Improvement improvement(problem.facts(), *list, improvementOptions);
      improvement.run(
          [&] {
            return share.expired() ||
                   (call.cancel != nullptr && call.cancel->load(std::memory_order_relaxed));
          },
          true, share.remainingLimit().value_or(std::numeric_limits<double>::infinity()));
      best.consider(problem, improvement.schedule());
    }
  }
  if (call.initialSchedule != nullptr && !best.consider(problem, *call.initialSchedule)) {
    result.notes.emplace_back(
        "start", fmt::format("the start schedule of {} does not verify for this problem; ignored",
                             call.initialScheduleOrigin));
  }
  return best;
}

}  // namespace

Result solvePeakMemoryMilp(const Problem& problem, const PeakMemoryMilpOptions& options) {
  const milp::MilpCall& call = options.call;
  const Cycle horizon = *problem.horizon;
  Result result;
  result.objectiveName = std::string(toString(ProblemObjective::kPeakMemory));
  const auto reported = live_memory::reportBound(
      problem, result, live_memory::boundDeadline(call.deadline.remainingLimit()), call.cancel);
  if (!reported) {
    result.status = ModelStatus::kInfeasible;
    result.message = fmt::format("no schedule completes within D = {}", horizon);
    return result;
  }
  double bound = *reported;
  result.figures.set(figures::kCombinatorialBound, bound);

  StartSchedule best = findStart(problem, call, result);
  std::optional<Schedule>& start = best.schedule;
  double& startPeak = best.peak;
  if (start) result.figures.set(figures::kStartPeakMemory, startPeak);
  const auto answerWithStart = [&](ModelStatus status, std::string message) {
    if (start) {
      result.schedule = *start;
      result.objective = startPeak;
    }
    if (bound > result.bounds.lowerBound.value_or(bound - 1.0)) {
      result.bounds.lowerBound = bound;
      result.bounds.lowerBoundArgument =
          fmt::format("{}'s dual bound", milp::toString(call.solver));
    }
    result.status = start && startPeak <= bound + 1e-9 ? ModelStatus::kOptimal : status;
    result.message = std::move(message);
    return result;
  };
  // The start reaches the bound: nothing to solve.
  if (start && startPeak <= bound + 1e-9) return answerWithStart(ModelStatus::kOptimal, "");

  live_memory::WholeGraphOptions wholeGraph;
  wholeGraph.call = call;
  wholeGraph.remedy =
      "the model grows with ops x their ASAP-ALAP slack at D: use method gaus (whose exact "
      "windows solve parts of it) or raise -O max_nonzeros";
  live_memory::WholeGraphSolve solve =
      live_memory::solveWholeGraph(problem, start ? &*start : nullptr, bound, wholeGraph);
  if (solve.refused) {
    return answerWithStart(ModelStatus::kFeasible,
                           *solve.refused + (start ? "; returning the start schedule" : ""));
  }
  result.figures.set(figures::kVariables, static_cast<double>(solve.variables));
  result.figures.set(figures::kRows, static_cast<double>(solve.rows));
  result.stats.solverCalls += 1;
  result.stats.iterations = solve.nodes;
  const std::string solverName(milp::toString(call.solver));
  if (solve.call == CallStatus::kError) {
    return errorResult("peak-memory MILP: " + solverName + " failed (" + solve.note + ")");
  }
  if (solve.bound) bound = std::max(bound, *solve.bound);
  if (solve.schedule && (!start || peakOf(problem, *solve.schedule) < startPeak)) {
    start = std::move(solve.schedule);
    startPeak = peakOf(problem, *start);
  }
  if (solve.status == ModelStatus::kOptimal && start) bound = std::max(bound, startPeak);
  Attempt attempt = solve.attempt;
  attempt.bound = bound;
  if (solve.status == ModelStatus::kInfeasible) {
    // The windows hold every schedule within D, so only a cap could make the model
    // infeasible, and there is none: the solver's claim is not trusted with a start at hand.
    attempt.status = ModelStatus::kUnknown;
    result.attempts.push_back(attempt);
    return answerWithStart(
        start ? ModelStatus::kFeasible : ModelStatus::kInfeasible,
        start ? solverName + " claimed the model infeasible; returning the start schedule"
              : fmt::format("no schedule completes within D = {}", horizon));
  }
  std::string message;
  if (!start) {
    message = fmt::format("time limit reached after {:.3g}s before {} found a schedule",
                          call.deadline.elapsedSeconds(), solverName);
  } else if (startPeak > bound + 1e-9) {
    message = fmt::format("peak memory {} not proven optimal (lower bound {}); raise time_limit",
                          startPeak, bound);
  }
  attempt.status = start && startPeak <= bound + 1e-9 ? ModelStatus::kOptimal : solve.status;
  result.attempts.push_back(attempt);
  // Proven optimal was answered above (the bound meets the peak); the solver's own status
  // otherwise.
  return answerWithStart(
      solve.status == ModelStatus::kOptimal ? ModelStatus::kFeasible : solve.status, message);
}

}  // namespace gaus::exact
