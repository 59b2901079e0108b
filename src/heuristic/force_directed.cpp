// Force-directed scheduling: P. G. Paulin and J. P. Knight, "Force-Directed Scheduling for the
// Behavioral Synthesis of ASIC's", IEEE Trans. CAD 8(6):661-679, 1989. Method "fds".
//
// Latency-bounded problems (horizon D): the paper's time-constrained FDS. Every op starts in its
// time frame [ASAP, ALAP] at D (edge delays and durations included) with uniform probability.
// A distribution graph (DG) sums those probabilities per cycle; the force of narrowing an op's
// frame is the change of sum_t DG(t) x(t) it causes, where x is what the op adds to the DG. The
// force of fixing an op at a step is its self force plus the forces on the direct predecessors
// and successors whose frames the step narrows. The op and step of least force are fixed, the
// frames are updated (ASAP forward, ALAP backward, transitively), and so on until every op is
// fixed. Two distribution graphs:
// - resources (the paper's): per resource, the expected units in use per cycle, an op adding its
//   whole reservation table;
// - memory (formulation B, peak live memory): the expected live weight per cycle,
//   sum_v mem_v F_v(t) (1 - prod over readers r of F_r(t)), F being the frames' cumulative
//   distributions, since a value is live from its op's start until its last reader starts
//   (core's liveInterval); GauS's E[live_v(t)] (GAUS.md) with uniform frames. Narrowing op k's
//   frame changes the terms of k's value and of the values k reads.
// FDS ignores capacities: where the machine limits a resource and the FDS starts overflow it,
// the list scheduler legalizes them, the FDS starts serving as priorities and release times (as
// GauS's legalization passes its means), and the result says so, or that it misses D.
//
// Latency problems (the latency under resources): the paper's force-directed list scheduling,
// a list scheduler that fills cycle after cycle, rather than the time-constrained FDS at a bound
// taken from a list schedule. The latency bound starts at the critical path; at each cycle the
// ready ops are placed where their reservations fit, those whose deferral has the largest force
// first (ops without mobility before all); an op that does not fit is deferred (its frame starts
// a cycle later), and where it has no mobility left the bound grows by one cycle and every frame
// with it. The forces use the resource distribution graphs.
//
// Cost. The force of narrowing a frame to any sub-frame is read in O(1) from prefix sums of the
// op's profile (what a unit of start probability costs at each step or cycle), so an op's
// forces over its whole frame of width W cost O(W) per profile, the op's and its open
// neighbours' (the paper's sums, taken term by term, cost O(W^2) per op: ForceSums::kDirect,
// which the tests hold the prefix sums to). The memory profile reads, per cycle, products of
// the readers' distributions; a value with many readers keeps them per cycle
// (reader_products.hpp), so a select line read by 256 ops does not make each of its readers'
// forces 256 times dearer. A time-constrained run costs about (ops + edges) x frame width per
// round of evaluations, and the lazy heap below bounds the rounds.
//
// Departures from the paper:
// - Lazy forces (the default): the op to fix comes from a heap of each op's least force, and an
//   entry is recomputed when it reaches the top after the frames or distribution graph cycles it
//   reads changed. The paper recomputes every force at each step (O(n^2 D) work), which takes
//   minutes beyond a few hundred ops; an op whose force fell since its last evaluation may wait
//   in the heap. Option lazy=false recomputes, after each fix, every force whose inputs changed,
//   and so picks as the paper does; on the EPFL circuits it is no better and up to 100 times
//   slower (docs/benchmarks.md).
// - A bound on the recomputations of a fix (max_recomputations, default 64): after that many
//   stale forces recomputed without a fix, the least of those fresh forces is fixed, though a
//   stale force still in the heap is lower. Without it, ops in many alike components (45
//   copies of a circuit side by side) recompute each other after every fix, since each fix
//   raises the distribution graph where the others start: the work grows with the square of the
//   copies. The bound never binds on the 11 EPFL circuits at D = list latency (the figure
//   bounded_picks, which counts the fixes it made, is 0 on each).
// - The memory distribution graph is this project's; the paper has the resource graphs only.
// - Ties (equal forces) go to the earliest step, then to the smaller op id: runs repeat exactly.
//   Sums in another order (prefix sums, kept products) may break a tie of the direct sums by
//   rounding; on the tests' random graphs they never did (test_force_directed.cpp).
// - Time limit: the ops not fixed when it runs out start at their ASAP within their frames
//   (legal, since the frames stay consistent), or, in list scheduling, are ranked by height.
//   The clock is read during the first round of evaluations too.

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <string>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/deadline.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/core/problem_kinds.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/heuristic/force_directed.hpp>
#include <gaus/heuristic/heuristic_figures.hpp>
#include <gaus/heuristic/list_scheduler.hpp>
#include <gaus/heuristic/reservation_runs.hpp>
#include <gaus/live_memory/bound.hpp>
#include <gaus/live_memory/refinement.hpp>

#include "force_model.hpp"
#include "force_search.hpp"
#include "resource_timeline.hpp"

namespace gaus::heuristic {

namespace {

using detail::distributionTooLarge;
using detail::ForceModel;
using detail::ForceRun;
using detail::Neighbour;
using detail::NeighbourLists;

// Progress lines at most once a second, and the stop test.
class Pace {
 public:
  Pace(const Deadline& deadline, const RunContext& context)
      : deadline_(deadline), context_(context) {}
  bool stop() const { return deadline_.expired() || context_.cancelled(); }
  const std::atomic<bool>* cancel() const { return context_.cancel; }
  void report(OpId done, OpId total) {
    const double now = deadline_.elapsedSeconds();
    if (now < nextReport_) return;
    nextReport_ = now + 1.0;
    context_.report(fmt::format("fds: {} of {} ops fixed, {:.1f}s", done, total, now));
  }

 private:
  const Deadline& deadline_;
  const RunContext& context_;
  double nextReport_ = 1.0;
};

// The force-directed list scheduling of a latency problem.
Expected<ForceRun> forceDirectedList(const Graph& graph, const Machine& machine,
                                     const std::vector<OpId>& topo, Pace& pace) {
  auto heights = heightsToEnd(graph, topo);
  if (!heights) return Error{"fds: " + heights.error()};
  const std::vector<Cycle>& height = *heights;
  const std::vector<Cycle> initialAsap = asapTimes(graph, topo);
  Cycle bound = criticalPathLength(graph, initialAsap);
  const auto opCount = static_cast<std::size_t>(graph.numOps());
  ForceModel model(graph, machine, false);
  const auto framesAt = [&](Cycle latencyBound, std::vector<Cycle> asap,
                            const std::vector<char>& placed) {
    std::vector<Cycle> alap(opCount);
    for (std::size_t op = 0; op < opCount; ++op) {
      alap[op] = placed[op] ? asap[op] : std::max(asap[op], latencyBound - height[op]);
    }
    model.reset(std::move(asap), std::move(alap));
  };
  std::vector<char> placed(opCount, 0);
  framesAt(bound, initialAsap, placed);

  ReservationRunBuilder runs(machine, std::nullopt);
  runs.addGraph(graph);
  detail::ResourceTimeline timeline(machine);
  const NeighbourLists predecessors(graph, false);
  const NeighbourLists successors(graph, true);
  std::vector<std::size_t> waitingFor(opCount);
  std::vector<OpId> ready;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    waitingFor[op] = predecessors.size(op);
    if (waitingFor[op] == 0) ready.push_back(op);
  }
  ForceRun run;
  run.start.assign(opCount, 0);
  std::size_t placedCount = 0;
  bool forcesOn = true;
  std::vector<OpId> deferred;
  Cycle cycle = 0;
  while (placedCount < opCount) {
    if (forcesOn && pace.stop()) forcesOn = false;
    pace.report(static_cast<OpId>(placedCount), graph.numOps());
    deferred.clear();
    // Ops placed at this cycle may free others at the same cycle (edges of delay 0).
    std::vector<char> triedNow(opCount, 0);
    while (true) {
      struct Candidate {
        OpId op;
        bool urgent;   // no mobility left: deferring it stretches the bound
        double force;  // of deferring it by a cycle
      };
      std::vector<Candidate> batch;
      for (OpId op : ready) {
        if (triedNow[op] || model.asap(op) > cycle) continue;
        triedNow[op] = 1;
        const bool urgent = model.alap(op) <= cycle;
        const double force =
            urgent || !forcesOn ? 0.0 : model.narrowingForce(op, cycle + 1, model.alap(op));
        batch.push_back({op, urgent, force});
      }
      if (batch.empty()) break;
      std::sort(batch.begin(), batch.end(), [&](const Candidate& a, const Candidate& b) {
        if (a.urgent != b.urgent) return a.urgent;
        if (a.force != b.force) return a.force > b.force;
        if (height[a.op] != height[b.op]) return height[a.op] > height[b.op];
        return a.op < b.op;
      });
      for (const Candidate& candidate : batch) {
        const auto opRuns = runs.runsOf(candidate.op);
        if (timeline.earliestFit(opRuns, cycle) != cycle) {
          deferred.push_back(candidate.op);
          continue;
        }
        if (auto reserved = timeline.reserve(opRuns, cycle); !reserved) {
          return Error{"fds: " + reserved.error()};
        }
        run.start[candidate.op] = cycle;
        placed[candidate.op] = 1;
        ++placedCount;
        model.narrow(candidate.op, cycle, cycle);
        for (const Neighbour& next : successors.of(candidate.op)) {
          if (--waitingFor[next.op] == 0) ready.push_back(next.op);
        }
      }
      std::erase_if(ready, [&](OpId op) { return placed[op] != 0; });
    }
    if (!deferred.empty()) {
      const bool stretch = std::any_of(deferred.begin(), deferred.end(),
                                       [&](OpId op) { return model.alap(op) <= cycle; });
      if (stretch) {
        // Paulin and Knight: an op without mobility that must wait lengthens the schedule by a
        // cycle, which widens every open frame.
        ++bound;
        if (auto tooLarge = distributionTooLarge(bound, machine.numResources())) {
          return Error{*tooLarge};
        }
        std::vector<Cycle> asap = model.asaps();
        for (OpId op : deferred) asap[op] = cycle + 1;
        for (OpId op : topo) {
          for (const Neighbour& next : successors.of(op)) {
            asap[next.op] = std::max(asap[next.op], asap[op] + next.delay);
          }
        }
        for (std::size_t op = 0; op < opCount; ++op) {
          bound = std::max(bound, asap[op] + height[op]);
        }
        framesAt(bound, std::move(asap), placed);
      } else {
        for (OpId op : deferred) model.narrow(op, cycle + 1, model.alap(op));
      }
    }
    // The next cycle where a ready op may start.
    Cycle next = std::numeric_limits<Cycle>::max();
    for (OpId op : ready) next = std::min(next, model.asap(op));
    cycle = std::max(cycle + 1, next == std::numeric_limits<Cycle>::max() ? cycle + 1 : next);
    if (!forcesOn) run.unforced = static_cast<std::int64_t>(opCount - placedCount);
  }
  run.evaluations = model.evaluations();
  return run;
}

Result latencyBounded(const Problem& problem, const ForceDirectedOptions& options,
                      const ListScheduler& lister, Pace& pace) {
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;
  const Cycle horizon = *problem.horizon;
  Result result;
  const auto facts = problem.facts();
  const std::vector<Cycle>& asap = facts->asap();
  const auto& alap = facts->alap();
  if (!alap) {
    result.status = ModelStatus::kInfeasible;
    result.message = "fds: " + alap.error();
    return result;
  }
  // auto: the problem's objective (peak memory where it asks for that, as by default on a graph
  // whose values have a size; core's preferredObjectives).
  bool memory = options.objective == ForceObjective::kMemory;
  if (options.objective == ForceObjective::kAuto) {
    memory = askedObjective(problem) == ProblemObjective::kPeakMemory;
  }
  detail::ForceSearchOptions search;
  search.memory = memory;
  search.lazy = options.lazyForces;
  search.maxRecomputations = options.maxRecomputations;
  ForceRun run = detail::timeConstrainedForces(
      graph, machine, search, asap, *alap, [&pace] { return pace.stop(); },
      [&pace](OpId fixed, OpId total) { pace.report(fixed, total); });
  result.figures.set(figures::kForceEvaluations, static_cast<double>(run.evaluations));
  result.figures.set(figures::kBoundedPicks, static_cast<double>(run.boundedPicks));
  result.figures.set(figures::kOpsPlacedAtLimit, static_cast<double>(run.unforced));
  if (run.unforced > 0) {
    result.notes.emplace_back(
        "time limit",
        fmt::format("the time limit ran out with {} of {} ops not fixed by force; they start at "
                    "their ASAP within their frames",
                    run.unforced, graph.numOps()));
  }
  Schedule schedule;
  schedule.start = std::move(run.start);
  const bool limited = facts->usesLimitedResource();
  if (limited && !verify(problem, schedule).ok()) {
    // FDS balances the units but does not count them: the list scheduler places the ops in the
    // order of their FDS starts, never earlier (release times); should that miss D, in that
    // order without release times; then by height with the FDS starts breaking ties; and last
    // in list's own order, which meets D wherever the method list does.
    ListSchedulerOptions inFdsOrder;
    inFdsOrder.priority = ListPriority::kCustom;
    inFdsOrder.tieBreak = ListPriority::kAlap;
    inFdsOrder.customKey.assign(schedule.start.begin(), schedule.start.end());
    ListSchedulerOptions released = inFdsOrder;
    released.releaseTime = schedule.start;
    ListSchedulerOptions byHeight = inFdsOrder;
    byHeight.priority = ListPriority::kHeight;
    byHeight.tieBreak = ListPriority::kCustom;
    const std::pair<const ListSchedulerOptions*, const char*> attempts[] = {
        {&released, "in the order of their FDS starts, none earlier than its FDS start"},
        {&inFdsOrder, "in the order of their FDS starts (with release times it missed D)"},
        {&byHeight, "by height, ties broken by the FDS starts (in their order it missed D)"},
        {nullptr, "in list's own order (every order of the FDS starts missed D)"},
    };
    std::optional<Schedule> legal;
    for (const auto& [listOptions, how] : attempts) {
      auto listed = lister.schedule(listOptions != nullptr ? *listOptions : ListSchedulerOptions{});
      if (!listed) return errorResult(listed.error());
      if (scheduleLatency(graph, listed->start) > horizon) continue;
      legal = std::move(listed).value();
      result.notes.emplace_back(
          "legalization",
          fmt::format("the FDS starts exceed a resource's capacity; list scheduling placed the "
                      "ops {}",
                      how));
      break;
    }
    if (!legal) {
      result.status = ModelStatus::kUnknown;
      result.message = fmt::format(
          "fds: the FDS schedule needs more units than the machine has, and list scheduling in "
          "its order, by height or in list's order exceeds the horizon D={}; an exact method "
          "may still meet D",
          horizon);
      return result;
    }
    schedule = std::move(*legal);
  }
  if (memory && options.refine && !limited) {
    live_memory::RefinementOptions refinement;
    refinement.stop = [&pace] { return pace.stop(); };
    live_memory::Refinement refined = live_memory::refine(graph, horizon, schedule, refinement);
    result.figures.set(figures::kRefinementMoves, static_cast<double>(refined.moves));
    schedule = std::move(refined.schedule);
  }
  const ScheduleMetrics metrics = computeMetrics(graph, machine, schedule);
  result.figures.set(figures::kLatency, static_cast<double>(metrics.latency));
  result.status = ModelStatus::kFeasible;
  result.schedule = std::move(schedule);
  if (memory) {
    result.objectiveName = std::string(toString(ProblemObjective::kPeakMemory));
    result.objective = metrics.peakLiveMemory;
    // B's bound as every method reports it (and status optimal where the peak meets it).
    if (options.reportBound) {
      live_memory::reportBound(problem, result, live_memory::boundDeadline(options.timeLimitSeconds),
                               pace.cancel());
    }
  } else {
    // The time-constrained FDS's aim: the units the schedule keeps busy at once, over all
    // resources.
    result.objectiveName = "resource_units";
    double units = 0.0;
    for (std::int64_t peak : metrics.peakUsage) units += static_cast<double>(peak);
    result.objective = units;
  }
  return result;
}

Result latency(const Problem& problem, const std::vector<OpId>& topo, Pace& pace) {
  const Graph& graph = *problem.graph;
  auto run = forceDirectedList(graph, *problem.machine, topo, pace);
  if (!run) return errorResult(run.error());
  Result result;
  result.objectiveName = "latency";
  result.figures.set(figures::kForceEvaluations, static_cast<double>(run->evaluations));
  result.figures.set(figures::kOpsPlacedAtLimit, static_cast<double>(run->unforced));
  if (run->unforced > 0) {
    result.notes.emplace_back("time limit",
                              fmt::format("the time limit ran out with {} of {} ops to place; they "
                                          "were placed by height, without forces",
                                          run->unforced, graph.numOps()));
  }
  Schedule schedule;
  schedule.start = std::move(run->start);
  const Cycle length = scheduleLatency(graph, schedule.start);
  // The lower bounds list reports: the critical path and the busiest resource.
  const auto facts = problem.facts();
  const Cycle criticalPath = facts->criticalPath();
  const ResMii& resourceBound = facts->resMii();
  const Cycle lowerBound = std::max(criticalPath, resourceBound.binding ? resourceBound.value : 0);
  result.figures.set(figures::kLatency, static_cast<double>(length));
  result.figures.set(figures::kCriticalPath, static_cast<double>(criticalPath));
  result.bounds.lowerBound = static_cast<double>(lowerBound);
  result.bounds.latencyProvenOptimal = length == lowerBound;
  result.objective = static_cast<double>(length);
  result.status = length == lowerBound ? ModelStatus::kOptimal : ModelStatus::kFeasible;
  result.schedule = std::move(schedule);
  return result;
}

}  // namespace

Result forceDirectedSchedule(const Problem& problem, const ForceDirectedOptions& options,
                             const RunContext& context) {
  const Deadline deadline(options.timeLimitSeconds);
  if (!problem.graph || !problem.machine) return errorResult("fds: the problem has no graph");
  const Graph& graph = *problem.graph;
  if (options.maxOps && graph.numOps() > *options.maxOps) {
    return errorResult(fmt::format(
        "fds: {} ops exceed max_ops={}; use list (-O refine=true for peak memory) or gaus, or "
        "raise max_ops",
        graph.numOps(), *options.maxOps));
  }
  // Checks the input as the list scheduler does (units beyond a capacity, cycles), and gives
  // the legalization.
  auto lister = ListScheduler::prepare(problem);
  if (!lister) return errorResult(lister.error());
  const auto facts = problem.facts();
  const auto& topo = facts->order();
  if (!topo) return errorResult("fds: " + topo.error());
  Pace pace(deadline, context);
  if (problem.kind == ProblemKind::kLatencyBounded) {
    if (!problem.horizon) return errorResult("fds: a latency-bounded problem needs a horizon");
    // The memory graph has one row; the resource graphs one per resource (checked for both).
    if (auto tooLarge = distributionTooLarge(*problem.horizon, problem.machine->numResources())) {
      return errorResult(*tooLarge);
    }
    return latencyBounded(problem, options, *lister, pace);
  }
  // Force-directed list scheduling ends near the list schedule's latency.
  auto listed = lister->schedule();
  if (!listed) return errorResult(listed.error());
  if (auto tooLarge = distributionTooLarge(scheduleLatency(graph, listed->start),
                                           problem.machine->numResources())) {
    return errorResult(*tooLarge);
  }
  return latency(problem, *topo, pace);
}

}  // namespace gaus::heuristic
