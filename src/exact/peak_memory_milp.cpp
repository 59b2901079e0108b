// Peak live memory under a horizon D solved exactly (include/gaus/exact/peak_memory_milp.hpp):
// formulation B of GauS (Cai et al., arXiv 2602.20427), as the time-indexed model of the verifier's
// live intervals in milp/live_memory_model.cpp with every op moving in its ASAP/ALAP window at D.
//
// - The start: the list schedule, when it fits D, refined for peak memory by the local search of
//   heuristic::refineLiveMemory and then by the exact windows of GauS's B search (on problems
//   without limited resources, which neither looks at), and the start given (--init, init=gaus),
//   when it verifies; the lowest peak is the solver's first incumbent and the answer when it finds
//   nothing better in time.
// - The bound: the MILP's, never below the min-cut bound every method reports for B (core's
//   liveMemoryCutBound, within its share of the time; it is also P's lower bound in the model,
//   which lifts the LP relaxation's) and rounded up when every mem is whole.
// - A model above the nonzero or memory limits is refused with refuseLargeModel's message; the
//   call still answers with the start and the min-cut bound.

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/live_memory_bound.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/exact/exact_figures.hpp>
#include <gaus/exact/peak_memory_milp.hpp>
#include <gaus/heuristic/list_scheduler.hpp>
#include <gaus/heuristic/memory_refinement.hpp>
#include <gaus/milp/live_memory_model.hpp>
#include <gaus/milp/live_memory_windows.hpp>

namespace gaus::exact {

namespace {

// Share of the time limit the refinement of the list schedule may take: it ends at a local
// optimum in well under a second on the small EPFL circuits, and its peak is what the MILP
// must beat.
constexpr double kRefinementShare = 0.2;
// Share for the exact windows of GauS's B search (milp::LiveMemoryWindowSearch) on the refined
// start: a large neighbourhood search on the same model, for a better first incumbent. On ctrl
// at D = 11 they reach 31, the optimum, before the MILP starts (the refined list schedule has
// 39); on router and int2float they did not lower the start in the share (60 s limit, this
// 2-core machine under load).
constexpr double kWindowShare = 0.1;

bool limitsResources(const Problem& problem) {
  for (OpId op = 0; op < problem.graph->numOps(); ++op) {
    for (const auto& block : problem.graph->reservation(op)) {
      if (problem.machine->resources[block.resource].limited()) return true;
    }
  }
  return false;
}

bool wholeMems(const Graph& graph) {
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (graph.mem(op) != std::floor(graph.mem(op))) return false;
  }
  return true;
}

double peakOf(const Problem& problem, const Schedule& schedule) {
  return computeMetrics(*problem.graph, *problem.machine, schedule).peakLiveMemory;
}

bool verifies(const Problem& problem, const Schedule& schedule) {
  VerifyOptions options;
  options.maxMessages = 0;
  return verify(problem, schedule, options).ok();
}

// B's lower bound on the peak (the min-cut bound of core's live_memory_bound.hpp) in the share
// of the time every method gives it, rounded up when every mem is whole, with its figure and a
// note on how it was found.
Expected<double> minCutBound(const Graph& graph, Cycle horizon,
                             const PeakMemoryMilpOptions& options, Result& result) {
  const bool whole = wholeMems(graph);
  const auto roundBound = [whole](double bound) { return whole ? std::ceil(bound - 1e-6) : bound; };
  const Deadline cutDeadline(peakMemoryBoundSeconds(
      options.timeLimitSeconds > 0 ? std::optional<double>(options.timeLimitSeconds)
                                   : std::nullopt));
  const auto cut = liveMemoryCutBound(graph, horizon, [&] {
    return cutDeadline.expired() ||
           (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed));
  });
  if (!cut) return Error{cut.error()};
  const double bound = roundBound(cut->value);
  result.figures.set(figures::kCombinatorialBound, bound);
  result.notes.emplace_back(
      "bound", fmt::format("min cut {} (mandatory lifetimes {}) in {:.3f} s{}", cut->value,
                           cut->mandatory, cutDeadline.elapsedSeconds(),
                           cut->complete ? "" : ", stopped by its time share"));
  return bound;
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

// The start: the lowest peak among the list schedule (refined by the live-memory refinement and
// the exact windows when no resource is limited) and the one given, with a note when the given
// one does not verify.
StartSchedule findStart(const Problem& problem, const PeakMemoryMilpOptions& options,
                        const Deadline& deadline, Result& result) {
  const Graph& graph = *problem.graph;
  const Cycle horizon = *problem.horizon;
  StartSchedule best;
  if (auto list = heuristic::listSchedule(problem);
      list && scheduleLatency(graph, list->start) <= horizon) {
    if (limitsResources(problem)) {
      best.consider(problem, *list);
    } else {
      const Deadline refinementDeadline(
          deadline.remainingLimit()
              ? std::optional<double>(kRefinementShare * options.timeLimitSeconds)
              : std::nullopt);
      heuristic::MemoryRefinementOptions refinement;
      refinement.stop = [&refinementDeadline] { return refinementDeadline.expired(); };
      const Schedule refined =
          heuristic::refineLiveMemory(graph, horizon, *list, refinement).schedule;
      best.consider(problem, refined);
      milp::LiveMemoryWindowOptions windowOptions;
      windowOptions.solver = options.solver;
      milp::LiveMemoryWindowSearch windows(graph, horizon, refined, windowOptions);
      windows.run(nullptr, deadline.remainingLimit() ? kWindowShare * options.timeLimitSeconds
                                                     : std::numeric_limits<double>::infinity());
      best.consider(problem, windows.schedule());
    }
  }
  if (options.initialSchedule != nullptr && !best.consider(problem, *options.initialSchedule)) {
    result.notes.emplace_back(
        "start", fmt::format("the start schedule of {} does not verify for this problem; ignored",
                             options.initialScheduleOrigin));
  }
  return best;
}

// The peak-memory MILP over every op's window [ASAP, ALAP] at D, from `placement`, with the
// bound as its floor and the machine's capacities when it limits a resource.
milp::LiveMemoryModelInput modelInput(const Problem& problem, const std::vector<Cycle>& asap,
                                      const std::vector<Cycle>& alap,
                                      const std::vector<Cycle>& placement, double bound) {
  milp::LiveMemoryModelInput input;
  input.graph = problem.graph.get();
  input.horizon = *problem.horizon;
  input.start = placement;
  for (OpId op = 0; op < problem.graph->numOps(); ++op)
    input.moving.push_back({op, asap[op], alap[op]});
  input.peakFloor = bound;
  if (limitsResources(problem)) input.machine = problem.machine.get();
  return input;
}

}  // namespace

Result solvePeakMemoryMilp(const Problem& problem, const PeakMemoryMilpOptions& options) {
  const Deadline deadline(options.timeLimitSeconds > 0
                              ? std::optional<double>(options.timeLimitSeconds)
                              : std::nullopt);
  const Graph& graph = *problem.graph;
  const Cycle horizon = *problem.horizon;
  Result result;
  result.objectiveName = "peak_memory";
  auto order = topologicalOrder(graph);
  if (!order) return errorResult(order.error());
  const std::vector<Cycle> asap = asapTimes(graph, *order);
  auto alap = alapTimes(graph, *order, horizon);
  if (!alap) {
    result.status = ModelStatus::kInfeasible;
    result.message = alap.error();
    return result;
  }
  const auto cutBound = minCutBound(graph, horizon, options, result);
  if (!cutBound) return errorResult(cutBound.error());
  double bound = *cutBound;

  StartSchedule best = findStart(problem, options, deadline, result);
  std::optional<Schedule>& start = best.schedule;
  double& startPeak = best.peak;
  if (start) result.figures.set(figures::kStartPeakMemory, startPeak);
  const auto answerWithStart = [&](ModelStatus status, std::string message) {
    if (start) {
      result.schedule = *start;
      result.objective = startPeak;
    }
    result.bounds.lowerBound = bound;
    result.status = start && startPeak <= bound + 1e-9 ? ModelStatus::kOptimal : status;
    result.message = std::move(message);
    return result;
  };
  // The start reaches the bound: nothing to solve.
  if (start && startPeak <= bound + 1e-9) return answerWithStart(ModelStatus::kOptimal, "");

  const std::vector<Cycle> placement = start ? start->start : asap;
  const milp::LiveMemoryModelInput input = modelInput(problem, asap, *alap, placement, bound);
  const milp::ModelSize size = milp::LiveMemoryModel::estimateSize(input);
  if (auto refused = milp::refuseLargeModel(
          fmt::format("the peak-memory MILP (D = {})", horizon), size, options.maxNonzeros,
          options.memoryLimitBytes,
          "the model grows with ops x their ASAP-ALAP slack at D: use method gaus (whose exact "
          "windows solve parts of it) or raise -O max_nonzeros")) {
    return answerWithStart(ModelStatus::kFeasible,
                           *refused + (start ? "; returning the start schedule" : ""));
  }
  milp::LiveMemoryModel model(input);
  result.figures.set(figures::kVariables, static_cast<double>(model.model().numVariables()));
  result.figures.set(figures::kRows, static_cast<double>(model.model().numRows()));
  if (start && options.useStart) model.model().setStart(model.encode(start->start));
  model.model().setSolver(options.solver);
  model.model().setCancel(options.cancel);
  const std::string solverName(milp::toString(options.solver));
  milp::MilpSolution solution;
  solution.status = ModelStatus::kTimeout;
  if (!deadline.expired()) solution = model.model().solve(milp::timeLeftForSolve(deadline));
  result.stats.solverCalls += 1;
  result.stats.iterations = solution.nodes;
  Attempt attempt;
  attempt.phase = "milp";
  attempt.horizon = horizon;
  attempt.seconds = solution.seconds;
  attempt.detail = fmt::format("D = {}, {} variables, {} rows, {} nonzeros at most, {} {}", horizon,
                               model.model().numVariables(), model.model().numRows(), size.nonzeros,
                               solverName, solution.statusWithNote());
  if (solution.call == CallStatus::kError) {
    return errorResult("peak-memory MILP: " + solverName + " failed (" + solution.note + ")");
  }
  if (const auto proven = model.boundOf(solution)) bound = std::max(bound, *proven);
  std::optional<Schedule> found;
  if (solution.hasSolution() && !solution.values.empty()) {
    Schedule schedule;
    schedule.start = model.decode(solution);
    if (verifies(problem, schedule)) found = std::move(schedule);
  }
  if (found && (!start || peakOf(problem, *found) < startPeak)) {
    start = std::move(found);
    startPeak = peakOf(problem, *start);
  }
  if (solution.status == ModelStatus::kOptimal && start) bound = std::max(bound, startPeak);
  attempt.bound = bound;
  if (solution.status == ModelStatus::kInfeasible) {
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
    message = fmt::format("time limit {}s reached before {} found a schedule",
                          options.timeLimitSeconds, solverName);
  } else if (startPeak > bound + 1e-9) {
    message = fmt::format("peak memory {} not proven optimal (lower bound {}); raise time_limit",
                          startPeak, bound);
  }
  attempt.status = start && startPeak <= bound + 1e-9 ? ModelStatus::kOptimal : solution.status;
  result.attempts.push_back(attempt);
  // Proven optimal was answered above (the bound meets the peak); the solver's own status
  // otherwise.
  return answerWithStart(
      solution.status == ModelStatus::kOptimal ? ModelStatus::kFeasible : solution.status, message);
}

}  // namespace gaus::exact
