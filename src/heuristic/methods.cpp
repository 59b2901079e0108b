// The "list", "ims", "balanced" and "fds" methods: option parsing, bounds and the result each
// returns.

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/core/problem_kinds.hpp>
#include <gaus/core/stage_objective.hpp>
#include <gaus/heuristic/balanced_stages.hpp>
#include <gaus/heuristic/force_directed.hpp>
#include <gaus/heuristic/heuristic_figures.hpp>
#include <gaus/heuristic/iterative_modulo_scheduler.hpp>
#include <gaus/heuristic/list_scheduler.hpp>
#include <gaus/heuristic/methods.hpp>
#include <gaus/heuristic/stage_refinement.hpp>
#include <gaus/live_memory/bound.hpp>
#include <gaus/live_memory/refinement.hpp>
#include <gaus/methods/registry.hpp>

namespace gaus {

namespace {

using heuristic::ImsOptions;
using heuristic::ListPriority;
using heuristic::ListSchedulerOptions;

// The priorities a user can choose: "custom" needs a key per op, which only a library caller
// (GauS's legalization) can give.
constexpr auto kUserPriorityNames = heuristic::kListPriorityNames.without(ListPriority::kCustom);

// The "list" method's options: the scheduler's, and the refinement of a latency-bounded
// schedule for peak live memory (the "start + refinement" baseline of formulation B).
struct ListMethodOptions {
  ListSchedulerOptions scheduling;
  bool refine = false;
  std::optional<double> timeLimitSeconds;
};

OptionTable<ListMethodOptions> makeListTable() {
  OptionTable<ListMethodOptions> table("list");
  table
      .add(
          "priority",
          [](ListMethodOptions & options) -> auto& { return options.scheduling.priority; },
          kUserPriorityNames,
          "order of the ready ops: height (longest path to the end, larger first), alap "
          "(same order as height), mobility (ALAP - ASAP, smaller first), successors (more "
          "successors first)")
      .add(
          "tie_break",
          [](ListMethodOptions & options) -> auto& { return options.scheduling.tieBreak; },
          kUserPriorityNames,
          "rule among ops of equal priority (same choices); the op id breaks what is left")
      .add("refine", &ListMethodOptions::refine,
           "latency-bounded problems without limited resources: refine the schedule by "
           "single-op moves for peak live memory (live_memory::refine); the objective "
           "is then peak_memory")
      .add("time_limit", &ListMethodOptions::timeLimitSeconds,
           "seconds for the whole call (the refinement stops there); none: until no move helps",
           NumericRange::above(0));
  return table;
}

OptionTable<ImsOptions> makeImsTable() {
  OptionTable<ImsOptions> table("ims");
  table
      .add("ii", &ImsOptions::ii, "fixed II to schedule at; none: search from max(ResMII, RecMII)",
           NumericRange::atLeast(1))
      .add("budget_factor", &ImsOptions::budgetFactor,
           "placements allowed per II attempt, as a multiple of the number of ops",
           NumericRange::above(0))
      .add("max_ii", &ImsOptions::maxIi,
           "largest II tried; none: the II of the non-overlapped schedule, where a schedule "
           "always exists (it is returned when every attempt runs out of budget)",
           NumericRange::atLeast(1))
      .add("placement", &ImsOptions::placement, heuristic::kImsPlacementNames,
           "slot rule of an attempt: rau (the paper: first free slot after Estart), bounded "
           "(also before the scheduled successors, else forced at Estart), both (rau, then "
           "bounded at the same II)")
      .add("time_limit", &ImsOptions::timeLimitSeconds,
           "seconds for the whole search; none: no limit", NumericRange::above(0));
  return table;
}

OptionTable<heuristic::BalancedStagesOptions> makeBalancedTable() {
  using heuristic::BalancedStagesOptions;
  OptionTable<BalancedStagesOptions> table("balanced");
  table
      .add("refine", &BalancedStagesOptions::refine,
           "refine the cut: single ops move and pairs swap between stages while the objective "
           "falls (off: GS-Schedule's baseline as its README describes it)")
      .add("time_limit", &BalancedStagesOptions::timeLimitSeconds,
           "seconds for the whole call (the refinement stops there); none: until no move or swap "
           "helps",
           NumericRange::above(0));
  return table;
}

OptionTable<heuristic::ForceDirectedOptions> makeForceDirectedTable() {
  using heuristic::ForceDirectedOptions;
  OptionTable<ForceDirectedOptions> table("fds");
  table
      .add("objective", &ForceDirectedOptions::objective, heuristic::kForceObjectiveNames,
           "latency-bounded problems: what the distribution graphs measure: peak_memory "
           "(expected live memory per cycle), resource_units (expected units per resource and "
           "cycle, the paper's), or auto (the problem's objective: peak_memory where it asks "
           "for that, else resource_units)")
      .add("max_ops", &ForceDirectedOptions::maxOps,
           "larger graphs are refused, naming the methods to use instead; none: no limit",
           NumericRange::atLeast(1))
      .add("lazy", &ForceDirectedOptions::lazyForces,
           "latency-bounded: recompute a stale force only when it reaches the top of the heap "
           "(false: every stale force after each fix, as the paper, O(n^2 D))")
      .add("max_recomputations", &ForceDirectedOptions::maxRecomputations,
           "lazy: after this many stale forces recomputed without a fix, fix the least of them "
           "(bounds the work of a fix); none: recompute until a fresh force is on top",
           NumericRange::atLeast(1))
      .add("refine", &ForceDirectedOptions::refine,
           "memory objective without limited resources: refine the FDS schedule by single-op "
           "moves for peak live memory")
      .add("time_limit", &ForceDirectedOptions::timeLimitSeconds,
           "seconds for the whole call; the ops not yet fixed then start at their ASAP in their "
           "frames (or by height in list scheduling), as the result says; none: no limit",
           NumericRange::above(0));
  return table;
}

const OptionTable<heuristic::ForceDirectedOptions>& forceDirectedOptionTable() {
  static const OptionTable<heuristic::ForceDirectedOptions> table = makeForceDirectedTable();
  return table;
}

const OptionTable<heuristic::BalancedStagesOptions>& balancedOptionTable() {
  static const OptionTable<heuristic::BalancedStagesOptions> table = makeBalancedTable();
  return table;
}

const OptionTable<ListMethodOptions>& listOptionTable() {
  static const OptionTable<ListMethodOptions> table = makeListTable();
  return table;
}

const OptionTable<ImsOptions>& imsOptionTable() {
  static const OptionTable<ImsOptions> table = makeImsTable();
  return table;
}

// list's refine=true: the schedule refined for peak live memory within the horizon (runList
// then reports it with that objective and B's bound).
void refineForMemory(const Problem& problem, const ListMethodOptions& options,
                     const RunContext& context, Schedule& schedule, Result& result) {
  const Graph& graph = *problem.graph;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    for (const ReservationBlock& block : graph.reservation(op)) {
      if (problem.machine->resources[block.resource].limited()) {
        result.notes.emplace_back(
            "refinement", "not run: the refinement ignores reservations, and resource " +
                              problem.machine->resources[block.resource].name + " is limited");
        return;
      }
    }
  }
  const Deadline deadline(options.timeLimitSeconds);
  live_memory::RefinementOptions refinement;
  refinement.stop = [&] { return deadline.expired() || context.cancelled(); };
  live_memory::Refinement refined =
      live_memory::refine(graph, *problem.horizon, schedule, refinement);
  schedule = std::move(refined.schedule);
  if (!refined.localOptimum) {
    result.notes.emplace_back("refinement", "stopped by the time limit before a local optimum");
  }
}

Result runList(const Problem& problem, const ListMethodOptions& options,
               const RunContext& context) {
  auto schedule = heuristic::listSchedule(problem, options.scheduling);
  if (!schedule) return errorResult(schedule.error());
  const Graph& graph = *problem.graph;
  Result result;
  result.objectiveName = "latency";

  const Cycle latency = scheduleLatency(graph, schedule->start);
  // Lower bounds: the critical path, and per limited resource its total reserved unit-cycles
  // over its capacity (all of which must fit in [0, latency)), which is ResMII's formula.
  const auto facts = problem.facts();
  const Cycle criticalPath = facts->criticalPath();
  const ResMii& resourceBound = facts->resMii();
  const Cycle resourceLowerBound = resourceBound.binding ? resourceBound.value : 0;
  const Cycle lowerBound = std::max(criticalPath, resourceLowerBound);
  result.figures.set(heuristic::figures::kLatency, static_cast<double>(latency));
  result.figures.set(heuristic::figures::kCriticalPath, static_cast<double>(criticalPath));
  result.figures.set(heuristic::figures::kResourceBound, static_cast<double>(resourceLowerBound));
  result.bounds.lowerBound = static_cast<double>(lowerBound);

  if (problem.horizon && latency > *problem.horizon) {
    // Infeasible only when a lower bound proves it; a heuristic that misses D proves nothing
    // (the cross-method check found list saying "infeasible" beside another method's schedule
    // that met D).
    if (*problem.horizon < lowerBound) {
      result.status = ModelStatus::kInfeasible;
      result.message =
          *problem.horizon < criticalPath
              ? fmt::format(
                    "list schedule latency {} exceeds the horizon D={}, which is shorter "
                    "than the critical path ({} cycles): no schedule exists",
                    latency, *problem.horizon, criticalPath)
              : fmt::format(
                    "list schedule latency {} exceeds the horizon D={}, which is shorter "
                    "than the resource bound ({} cycles): no schedule exists",
                    latency, *problem.horizon, resourceLowerBound);
    } else {
      result.status = ModelStatus::kUnknown;
      result.message = fmt::format(
          "list schedule latency {} exceeds the horizon D={} (lower bound {}); list "
          "scheduling is a heuristic, an exact method may still meet D",
          latency, *problem.horizon, lowerBound);
    }
    return result;
  }
  result.objective = static_cast<double>(latency);
  result.bounds.latencyProvenOptimal = latency == lowerBound;
  result.status = latency == lowerBound ? ModelStatus::kOptimal : ModelStatus::kFeasible;
  result.schedule = std::move(schedule).value();
  if (problem.kind == ProblemKind::kLatencyBounded &&
      askedObjective(problem) == ProblemObjective::kPeakMemory) {
    // Within D, asked for peak live memory (the default where the values have a size), the
    // objective is the peak live memory (formulation B, as for gaus and ilp); the latency stays
    // among the figures, and the bound is the one every method reports for B.
    if (options.refine) refineForMemory(problem, options, context, *result.schedule, result);
    result.objectiveName = std::string(toString(ProblemObjective::kPeakMemory));
    result.objective = computeMetrics(graph, *problem.machine, *result.schedule).peakLiveMemory;
    result.bounds.lowerBound.reset();
    result.bounds.latencyProvenOptimal = false;
    result.status = ModelStatus::kFeasible;
    live_memory::reportBound(problem, result, live_memory::boundDeadline(std::nullopt),
                             context.cancel);
  }
  return result;
}

Result runBalanced(const Problem& problem, const heuristic::BalancedStagesOptions& options,
                   const RunContext& context) {
  const Graph& graph = *problem.graph;
  const Cycle stages = *problem.horizon;
  auto cut = heuristic::greedyBalancedStages(graph, stages);
  if (!cut) return errorResult(cut.error());
  Schedule schedule = std::move(cut).value();
  Result result;
  if (options.refine) {
    const Deadline deadline(options.timeLimitSeconds);
    heuristic::StageRefinementOptions refinement;
    refinement.ratio = problem.stageRatio;
    refinement.stop = [&] { return deadline.expired() || context.cancelled(); };
    heuristic::StageRefinement refined =
        heuristic::refineStages(graph, stages, schedule, refinement);
    schedule = std::move(refined.schedule);
    result.figures.set(heuristic::figures::kRefinementMoves, static_cast<double>(refined.moves));
    result.figures.set(heuristic::figures::kRefinementSwaps, static_cast<double>(refined.swaps));
    if (!refined.localOptimum)
      result.notes.emplace_back("refinement", "stopped by the time limit before a local optimum");
  }
  reportStageObjective(problem, schedule, result);
  result.schedule = std::move(schedule);
  return result;
}

Result runForceDirected(const Problem& problem, const heuristic::ForceDirectedOptions& options,
                        const RunContext& context) {
  return heuristic::forceDirectedSchedule(problem, options, context);
}

Result runIms(const Problem& problem, const ImsOptions& options, const RunContext& context) {
  return heuristic::iterativeModuloSchedule(problem, options, context);
}

}  // namespace

void registerHeuristicMethods(MethodRegistry& registry) {
  registry.add(makeMethod<ListMethodOptions>(
      "list", "resource-constrained list scheduling over reservation tables (minimizes latency)",
      {ProblemKind::kLatency, ProblemKind::kLatencyBounded}, listOptionTable(),
      heuristic::heuristicFigureTable(), runList));
  registry.add(makeMethod<ImsOptions>(
      "ims",
      "iterative modulo scheduling (Rau, MICRO 1994): smallest II it can place, from "
      "max(ResMII, RecMII) up",
      {ProblemKind::kModulo}, imsOptionTable(), heuristic::heuristicFigureTable(), runIms));
  registry.add(minimizing(
      makeMethod<heuristic::BalancedStagesOptions>(
          "balanced",
          "GS-Schedule's greedy balanced cut: a topological order cut into D stages of the "
          "smallest capacity that fits (stage problems; -O refine=true refines it)",
          {ProblemKind::kStages}, balancedOptionTable(), heuristic::heuristicFigureTable(),
          runBalanced),
      {{ProblemKind::kStages, ProblemObjective::kStageCost}}));
  registry.add(makeMethod<heuristic::ForceDirectedOptions>(
      "fds",
      "force-directed scheduling (Paulin and Knight 1989): time-constrained at the horizon "
      "(peak memory or units), force-directed list scheduling for the latency",
      {ProblemKind::kLatency, ProblemKind::kLatencyBounded}, forceDirectedOptionTable(),
      heuristic::heuristicFigureTable(), runForceDirected));
}

}  // namespace gaus
