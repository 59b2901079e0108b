// Iterative modulo scheduling, after B. R. Rau, "Iterative Modulo Scheduling: An Algorithm for
// Software Pipelining Loops", Proc. MICRO-27, 1994, pp. 63-74.
//
// The algorithm (paper sections 3 and 4):
// - MII = max(ResMII, RecMII); II starts there and grows by one after each failed attempt.
// - One attempt at a fixed II (the paper's IterativeSchedule): every op gets the priority HeightR,
//   the longest path to the end over edges weighted delay - distance * II. Repeatedly take the
//   unscheduled op of highest priority, compute Estart from its scheduled predecessors, and
//   look for a slot in [Estart, Estart + II - 1] (II consecutive cycles cover every residue)
//   where its reservation fits the modulo reservation table. With no such slot the op is forced
//   in at Estart, or one cycle after its previous placement when that was at or after Estart (so
//   that a re-placed op does not undo the same placement forever); the ops it then conflicts
//   with in the table are evicted. After placing, scheduled successors (and predecessors) whose
//   dependences it violates are evicted too. Evicted ops return to the unscheduled set.
// - Each attempt may take BudgetRatio x |V| placements (budgetFactor here); past that it fails.
//
// Where this code departs from the paper:
// - Reservation tables of several blocks, several cycles and several units per resource
//   (ReservationRun): the paper's examples reserve single slots. When a forced placement
//   overfills a residue, only as many ops are evicted as needed for it to fit, lowest priority
//   first, instead of every op that holds the slot.
// - The paper's START and STOP pseudo-ops are implicit: Estart is at least 0, and HeightR of an
//   op is at least its own duration (its edge to STOP).
// - Ties in priority go to the op earlier in topological order (distance-0 edges), which the
//   paper leaves open; with equal HeightR a producer goes before its consumer.
// - II steps: the paper adds one cycle after each failed II. Where II is in the thousands of
//   cycles (Triton dumps, occupancies of hundreds of cycles) that means hundreds of failed
//   attempts of O(budget x II) each, so past II = 1024 the step is II / 1024 (0.1%), and when an
//   II succeeds after such a step the skipped IIs are tried in order first. An II below a
//   skipped one can be missed only when IMS fails at a larger II but would succeed at a smaller.
// - Termination: the paper raises II without a stated limit. Here II stops at the II of the
//   non-overlapped schedule (iterative_modulo_scheduler.hpp), which is legal at that II, so the
//   search always ends and, with the default bound, always returns a schedule.
// - Slot placement (ImsPlacement): the paper's rule lets a zero-slack recurrence chase itself
//   around the table: each op of the cycle finds its first free slot a little after its Estart,
//   evicts the next op of the cycle, and when the free slots repeat every II the pattern repeats
//   every lap, until the budget ends (seen on the Triton Flash-Attention loop). The
//   successor-bounded rule also caps the slot by the op's scheduled successors and otherwise
//   forces it in at Estart, evicting resource holders instead. Neither rule dominates on the
//   shared MachSuite loops and on random loops, so by default each II is tried with the paper's
//   rule and then with the bounded one.
// - An attempt whose op does not fit the empty table by itself (a block folded modulo II onto
//   its own residues beyond the capacity) fails at once instead of spending its budget.

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/heuristic/iterative_modulo_scheduler.hpp>
#include <gaus/heuristic/list_scheduler.hpp>
#include <gaus/heuristic/modulo_reservation_table.hpp>
#include <gaus/heuristic/reservation_runs.hpp>

#include "priorities.hpp"

namespace gaus::heuristic {

namespace {

constexpr Cycle kUnscheduled = std::numeric_limits<Cycle>::min();
// Largest modulo reservation table (limited resources x II cells, 8 bytes each) an attempt
// allocates: 1 GiB.
constexpr std::int64_t kMaxTableCells = std::int64_t{1} << 27;
// A failed II is followed by II + max(1, II / kIiStepDivisor).
constexpr std::int64_t kIiStepDivisor = 1024;

struct AttemptOutcome {
  bool scheduled = false;
  bool stopped = false;     // the deadline or the cancel flag ended it
  bool iiRuledOut = false;  // no placement rule can succeed at this II (an op overfills it alone)
  std::vector<Cycle> start;
  std::int64_t steps = 0;
  std::int64_t evictions = 0;
  std::string failure;  // why it did not schedule every op
};

// One attempt at a fixed II: the paper's IterativeSchedule.
class IiAttempt {
 public:
  IiAttempt(const Graph& graph, const Machine& machine, const std::vector<OpId>& topoOrder,
            std::int32_t ii, ImsPlacement placement)
      : graph_(graph),
        machine_(machine),
        topoOrder_(topoOrder),
        ii_(ii),
        placement_(placement),
        runs_(machine, ii),
        table_(machine, ii) {}

  AttemptOutcome run(std::int64_t budget, const std::function<bool()>& shouldStop) {
    AttemptOutcome outcome;
    if (auto prepared = prepare(); !prepared) {
      outcome.failure = prepared.error();
      outcome.iiRuledOut = true;
      return outcome;
    }
    const OpId opCount = graph_.numOps();
    while (scheduledCount_ < opCount && outcome.steps < budget) {
      if ((outcome.steps & 1023) == 0 && shouldStop()) {
        outcome.stopped = true;
        outcome.failure = "stopped by the time limit or a cancel request";
        break;
      }
      ++outcome.steps;
      std::pop_heap(unscheduled_.begin(), unscheduled_.end(), std::greater<>());
      const OpId op = order_[unscheduled_.back()];
      unscheduled_.pop_back();
      const Cycle earliest = earliestStart(op);
      std::optional<Cycle> slot;
      if (placement_ == ImsPlacement::kRau) {
        slot = table_.earliestFit(runs_.runsOf(op), earliest, earliest + ii_ - 1);
      } else if (const Cycle latest = latestStart(op); latest >= earliest) {
        slot = table_.earliestFit(runs_.runsOf(op), earliest, std::min(earliest + ii_ - 1, latest));
      }
      if (!slot) {
        slot = lastTime_[op] == kUnscheduled || earliest > lastTime_[op] ? earliest
                                                                         : lastTime_[op] + 1;
        evictResourceConflicts(op, *slot);
      }
      place(op, *slot);
      evictDependenceConflicts(op);
    }
    outcome.evictions = evictions_;
    if (scheduledCount_ < opCount) {
      if (outcome.failure.empty()) {
        outcome.failure = fmt::format("budget of {} steps ran out with {} of {} ops placed", budget,
                                      scheduledCount_, opCount);
      }
      return outcome;
    }
    // Shift so that the earliest op starts at 0 (residues rotate together, so the table and
    // every dependence stay satisfied).
    const Cycle first = *std::min_element(time_.begin(), time_.end());
    for (Cycle& t : time_) t -= first;
    outcome.scheduled = true;
    outcome.start = std::move(time_);
    return outcome;
  }

 private:
  Status prepare() {
    const OpId opCount = graph_.numOps();
    runs_.addGraph(graph_);
    for (OpId op = 0; op < opCount; ++op) {
      if (auto overfull = describeOverfullRun(runs_.runsOf(op), machine_, graph_.opName(op), ii_)) {
        return Error{*overfull};
      }
    }
    auto height = detail::heightsToEnd(graph_, topoOrder_, ii_);
    if (!height) return Error{height.error()};
    std::vector<double> byHeight(static_cast<std::size_t>(opCount));
    std::vector<double> byTopoPosition(static_cast<std::size_t>(opCount));
    for (OpId op = 0; op < opCount; ++op) byHeight[op] = -static_cast<double>((*height)[op]);
    for (std::size_t k = 0; k < topoOrder_.size(); ++k) {
      byTopoPosition[topoOrder_[k]] = static_cast<double>(k);
    }
    order_ = detail::orderByKeys(byHeight, byTopoPosition);
    rank_.resize(static_cast<std::size_t>(opCount));
    for (std::size_t k = 0; k < order_.size(); ++k) rank_[order_[k]] = static_cast<std::int32_t>(k);

    // Ops holding each resource, lowest priority first: the order in which forced placements
    // evict them.
    holderOffset_.assign(static_cast<std::size_t>(machine_.numResources()) + 1, 0);
    for (OpId op = 0; op < opCount; ++op) {
      forEachResource(op, [&](ResourceId r) { ++holderOffset_[r + 1]; });
    }
    for (std::size_t r = 1; r < holderOffset_.size(); ++r) holderOffset_[r] += holderOffset_[r - 1];
    holders_.resize(static_cast<std::size_t>(holderOffset_.back()));
    std::vector<std::int64_t> cursor(holderOffset_.begin(), holderOffset_.end() - 1);
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      forEachResource(*it, [&](ResourceId r) { holders_[cursor[r]++] = *it; });
    }

    time_.assign(static_cast<std::size_t>(opCount), kUnscheduled);
    lastTime_.assign(static_cast<std::size_t>(opCount), kUnscheduled);
    unscheduled_.resize(static_cast<std::size_t>(opCount));
    for (std::size_t k = 0; k < unscheduled_.size(); ++k) {
      unscheduled_[k] = static_cast<std::int32_t>(k);
    }
    std::make_heap(unscheduled_.begin(), unscheduled_.end(), std::greater<>());
    return Done{};
  }

  // Calls visit(r) once per resource the op's runs hold.
  template <typename Visit>
  void forEachResource(OpId op, Visit visit) const {
    const auto runs = runs_.runsOf(op);
    for (std::size_t i = 0; i < runs.size(); ++i) {
      bool seen = false;
      for (std::size_t j = 0; j < i && !seen; ++j) seen = runs[j].resource == runs[i].resource;
      if (!seen) visit(runs[i].resource);
    }
  }

  Cycle earliestStart(OpId op) const {
    Cycle earliest = 0;
    for (EdgeId e : graph_.inEdges(op)) {
      const OpId source = graph_.edgeSource(e);
      if (source == op || time_[source] == kUnscheduled) continue;
      earliest = std::max(
          earliest, time_[source] + graph_.edgeDelay(e) - Cycle{graph_.edgeDistance(e)} * ii_);
    }
    return earliest;
  }

  // The latest start its scheduled successors allow (max Cycle when none is scheduled).
  Cycle latestStart(OpId op) const {
    Cycle latest = std::numeric_limits<Cycle>::max();
    for (EdgeId e : graph_.outEdges(op)) {
      const OpId target = graph_.edgeTarget(e);
      if (target == op || time_[target] == kUnscheduled) continue;
      latest = std::min(latest,
                        time_[target] - graph_.edgeDelay(e) + Cycle{graph_.edgeDistance(e)} * ii_);
    }
    return latest;
  }

  bool holds(OpId op, ResourceId resource, std::int32_t residue) const {
    for (const auto& run : runs_.runsOf(op)) {
      if (run.resource != resource) continue;
      if (table_.residueOf(residue - time_[op] - run.offset) < run.length) return true;
    }
    return false;
  }

  // Frees every residue the op's runs need at `start`, evicting holders of the overfull ones.
  void evictResourceConflicts(OpId op, Cycle start) {
    for (const auto& run : runs_.runsOf(op)) {
      const std::int64_t room = table_.capacity(run.resource) - run.units;
      const auto usage = table_.usage(run.resource);  // follows the evictions below
      const std::int64_t holderEnd = holderOffset_[run.resource + 1];
      std::int32_t residue = table_.residueOf(start + run.offset);
      for (Cycle k = 0; k < run.length; ++k) {
        std::int64_t holder = holderOffset_[run.resource];
        while (usage[residue] > room && holder < holderEnd) {
          const OpId victim = holders_[holder++];
          if (victim != op && time_[victim] != kUnscheduled &&
              holds(victim, run.resource, residue)) {
            evict(victim);
          }
        }
        residue = residue + 1 == ii_ ? 0 : residue + 1;
      }
    }
  }

  void evictDependenceConflicts(OpId op) {
    const Cycle t = time_[op];
    for (EdgeId e : graph_.outEdges(op)) {
      const OpId target = graph_.edgeTarget(e);
      if (target == op || time_[target] == kUnscheduled) continue;
      if (time_[target] < t + graph_.edgeDelay(e) - Cycle{graph_.edgeDistance(e)} * ii_) {
        evict(target);
      }
    }
    for (EdgeId e : graph_.inEdges(op)) {
      const OpId source = graph_.edgeSource(e);
      if (source == op || time_[source] == kUnscheduled) continue;
      if (t < time_[source] + graph_.edgeDelay(e) - Cycle{graph_.edgeDistance(e)} * ii_) {
        evict(source);
      }
    }
  }

  void place(OpId op, Cycle start) {
    table_.reserve(runs_.runsOf(op), start);
    time_[op] = start;
    lastTime_[op] = start;
    ++scheduledCount_;
  }

  void evict(OpId op) {
    table_.release(runs_.runsOf(op), time_[op]);
    time_[op] = kUnscheduled;
    unscheduled_.push_back(rank_[op]);
    std::push_heap(unscheduled_.begin(), unscheduled_.end(), std::greater<>());
    --scheduledCount_;
    ++evictions_;
  }

  const Graph& graph_;
  const Machine& machine_;
  const std::vector<OpId>& topoOrder_;
  std::int32_t ii_;
  ImsPlacement placement_;  // kRau or kSuccessorBounded
  ReservationRunBuilder runs_;
  ModuloReservationTable table_;
  std::vector<OpId> order_;  // by priority: HeightR descending
  std::vector<std::int32_t> rank_;
  std::vector<std::int64_t> holderOffset_;  // CSR per resource into holders_
  std::vector<OpId> holders_;
  std::vector<Cycle> time_;
  std::vector<Cycle> lastTime_;            // the paper's PrevScheduleTime
  std::vector<std::int32_t> unscheduled_;  // min-heap of ranks
  OpId scheduledCount_ = 0;
  std::int64_t evictions_ = 0;
};

std::string namesOnCycle(const Graph& graph, const std::vector<OpId>& ops) {
  std::string text;
  const std::size_t shown = std::min<std::size_t>(ops.size(), 8);
  for (std::size_t i = 0; i < shown; ++i) text += (i ? " -> " : "") + graph.opName(ops[i]);
  if (shown < ops.size()) text += fmt::format(" -> ... ({} ops)", ops.size());
  if (!ops.empty()) text += " -> " + graph.opName(ops.front());
  return text;
}

// What bounds II from below, e.g. "ResMII (TC) = 2 >= RecMII (cycle O -> O) = 1".
std::string describeMii(const Graph& graph, const Machine& machine, const ResMii& resMii,
                        const RecMii& recMii) {
  const std::string res =
      resMii.binding
          ? fmt::format("ResMII ({}) = {}", machine.resources[*resMii.binding].name, resMii.value)
          : fmt::format("ResMII = {} (no limited resource in use)", resMii.value);
  const std::string rec = recMii.value > 0
                              ? fmt::format("RecMII (cycle {}) = {}",
                                            namesOnCycle(graph, recMii.bindingCycle), recMii.value)
                              : std::string("RecMII = 0 (no recurrence)");
  if (recMii.value > resMii.value) return fmt::format("{} > {}", rec, res);
  return fmt::format("{} >= {}", res, rec);
}

// The II at which one list-scheduled iteration, repeated without overlap, is legal.
Cycle nonOverlappedIi(const Graph& graph, const Schedule& schedule) {
  Cycle ii = 1;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    ii = std::max(ii, schedule.start[op] + graph.duration(op));
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    const Cycle distance = graph.edgeDistance(e);
    if (distance == 0) continue;
    const Cycle gap = schedule.start[graph.edgeSource(e)] + graph.edgeDelay(e) -
                      schedule.start[graph.edgeTarget(e)];
    if (gap > 0) ii = std::max(ii, (gap + distance - 1) / distance);
  }
  return ii;
}

Cycle latencyOf(const Graph& graph, const std::vector<Cycle>& start) {
  Cycle latency = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    latency = std::max(latency, start[op] + graph.duration(op));
  }
  return latency;
}

Result infeasible(std::string message) {
  Result result;
  result.status = ModelStatus::kInfeasible;
  result.objectiveName = "ii";
  result.message = std::move(message);
  return result;
}

}  // namespace

Result iterativeModuloSchedule(const Problem& problem, const ImsOptions& options,
                               const RunContext& context) {
  if (!problem.graph || !problem.machine) {
    return errorResult("ims: the problem has no graph or no machine");
  }
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;
  if (graph.numOps() == 0) return errorResult("ims: the graph has no ops");
  if (options.budgetFactor <= 0) {
    return errorResult(
        fmt::format("ims: budget_factor must be positive, got {}", options.budgetFactor));
  }

  // Inputs no II can schedule.
  const auto topo = topologicalOrder(graph);
  if (!topo) return infeasible("ims: " + topo.error());
  const ResMii resMii = computeResMii(graph, machine);
  if (resMii.infeasible) return infeasible("ims: " + *resMii.infeasible + ": no II is feasible");
  {
    ReservationRunBuilder absolute(machine, std::nullopt);
    absolute.addGraph(graph);
    for (OpId op = 0; op < graph.numOps(); ++op) {
      if (auto overfull =
              describeOverfullRun(absolute.runsOf(op), machine, graph.opName(op), std::nullopt)) {
        return infeasible("ims: " + *overfull);
      }
    }
  }
  const RecMii recMii = computeRecMii(graph);
  if (recMii.infeasible) return infeasible("ims: " + *recMii.infeasible);

  const std::int64_t mii = std::max<std::int64_t>({resMii.value, recMii.value, 1});
  Result result;
  result.objectiveName = "ii";
  result.bounds.lowerBound = static_cast<double>(mii);
  result.bounds.iiBoundReason = describeMii(graph, machine, resMii, recMii);
  result.extra = {{"res_mii", static_cast<double>(resMii.value)},
                  {"rec_mii", static_cast<double>(recMii.value)},
                  {"mii", static_cast<double>(mii)}};

  std::optional<std::int64_t> fixedIi;
  if (problem.ii && options.ii && *problem.ii != *options.ii) {
    return errorResult(
        fmt::format("ims: the problem fixes II={} but the option ii={}", *problem.ii, *options.ii));
  }
  if (problem.ii) fixedIi = *problem.ii;
  if (options.ii) fixedIi = *options.ii;
  if (fixedIi && *fixedIi < 1) {
    return errorResult(fmt::format("ims: II={} must be positive", *fixedIi));
  }
  constexpr std::int64_t kLargestIi = std::numeric_limits<std::int32_t>::max();
  if (mii > kLargestIi) {
    return errorResult(fmt::format("ims: MII={} ({}) exceeds the largest II a schedule holds, {}",
                                   mii, result.bounds.iiBoundReason, kLargestIi));
  }
  if (fixedIi && *fixedIi < mii) {
    Result below = infeasible(fmt::format("ims: II={} is below the lower bound MII={}: {}",
                                          *fixedIi, mii, result.bounds.iiBoundReason));
    below.bounds = result.bounds;
    below.extra = result.extra;
    return below;
  }
  if (options.maxIi && *options.maxIi < mii) {
    return errorResult(
        fmt::format("ims: max_ii={} is below the lower bound MII={} ({}); raise max_ii",
                    *options.maxIi, mii, result.bounds.iiBoundReason));
  }

  // The non-overlapped schedule: the termination bound and the answer of last resort.
  auto oneIteration = listSchedule(problem);
  if (!oneIteration) return errorResult("ims: " + oneIteration.error());
  // Capped to what a schedule holds; past the cap the fallback is not offered.
  const Cycle fallbackIi =
      std::min(std::max<Cycle>(nonOverlappedIi(graph, *oneIteration), mii), kLargestIi + 1);
  result.extra.emplace_back("non_overlapped_ii", static_cast<double>(fallbackIi));
  const bool fallbackMeetsHorizon =
      !problem.horizon || latencyOf(graph, oneIteration->start) <= *problem.horizon;

  const std::int64_t firstIi = fixedIi.value_or(mii);
  const std::int64_t lastIi =
      fixedIi ? *fixedIi
              : std::min(options.maxIi ? std::int64_t{*options.maxIi} : fallbackIi, kLargestIi);
  const auto budget = static_cast<std::int64_t>(
      std::ceil(options.budgetFactor * static_cast<double>(graph.numOps())));
  const Deadline deadline(options.timeLimitSeconds);
  const std::function<bool()> shouldStop = [&] {
    return deadline.expired() || context.cancelled();
  };

  std::int64_t attempts = 0;
  std::int64_t evictions = 0;
  std::string cutShort;  // why the search ended before lastIi, if it did
  auto finish = [&](Schedule schedule, std::int64_t ii) {
    schedule.ii = static_cast<std::int32_t>(ii);
    const Cycle latency = latencyOf(graph, schedule.start);
    result.objective = static_cast<double>(ii);
    result.bounds.iiProvenOptimal = ii == mii;
    result.extra.emplace_back("attempts", static_cast<double>(attempts));
    result.extra.emplace_back("evictions", static_cast<double>(evictions));
    result.extra.emplace_back("latency", static_cast<double>(latency));
    result.extra.emplace_back("stages", static_cast<double>((latency + ii - 1) / ii));
    result.schedule = std::move(schedule);
    return result;
  };
  auto note = [&](Attempt attempt) {
    context.report(attempt.describe());
    result.attempts.push_back(std::move(attempt));
  };

  // One II with each placement rule the options ask for; the start times when one succeeds.
  // Sets cutShort when the search must end.
  auto tryIi = [&](std::int64_t ii) -> std::optional<std::vector<Cycle>> {
    if (shouldStop()) {
      cutShort = "time limit or cancel request";
      return std::nullopt;
    }
    if (ModuloReservationTable::cellCount(machine, ii) > kMaxTableCells) {
      cutShort = fmt::format("at II={} the modulo reservation table would exceed {} cells", ii,
                             kMaxTableCells);
      return std::nullopt;
    }
    ++attempts;
    // kBoth: the paper's placement first, the successor-bounded one at the same II if it fails.
    for (ImsPlacement placement : {ImsPlacement::kRau, ImsPlacement::kSuccessorBounded}) {
      if (options.placement != ImsPlacement::kBoth && options.placement != placement) continue;
      IiAttempt attempt(graph, machine, *topo, static_cast<std::int32_t>(ii), placement);
      const auto attemptStart = std::chrono::steady_clock::now();
      AttemptOutcome outcome = attempt.run(budget, shouldStop);
      ++result.stats.solverCalls;
      result.stats.iterations += outcome.steps;
      evictions += outcome.evictions;
      Attempt record;
      record.phase = fmt::format("{} placement", toString(placement));
      record.ii = ii;
      record.seconds = secondsSince(attemptStart);
      if (!outcome.scheduled) {
        // Running out of steps proves nothing about the II; an op that overfills it alone does.
        record.status = outcome.iiRuledOut ? ModelStatus::kInfeasible : ModelStatus::kTimeout;
        record.detail = fmt::format("{}; {} evictions", outcome.failure, outcome.evictions);
        note(std::move(record));
        if (outcome.stopped) cutShort = "time limit or cancel request";
        if (outcome.stopped || outcome.iiRuledOut) break;
        continue;
      }
      const Cycle latency = latencyOf(graph, outcome.start);
      record.latency = latency;
      if (problem.horizon && latency > *problem.horizon) {
        record.status = ModelStatus::kUnknown;
        record.detail = fmt::format("scheduled, but its length exceeds D={}", *problem.horizon);
        note(std::move(record));
        continue;
      }
      record.status = ModelStatus::kFeasible;
      record.detail =
          fmt::format("scheduled in {} steps, {} evictions", outcome.steps, outcome.evictions);
      note(std::move(record));
      return std::move(outcome.start);
    }
    return std::nullopt;
  };
  auto scheduled = [&](std::vector<Cycle> start, std::int64_t ii) {
    result.status = ModelStatus::kFeasible;
    Schedule schedule;
    schedule.start = std::move(start);
    return finish(std::move(schedule), ii);
  };

  // II grows by one after a failure, as in the paper, while one cycle is at least 1/1024 of II;
  // beyond that (II in the thousands of cycles, Triton dumps) by II / 1024, and a success after
  // such a step is refined by trying the skipped IIs in order.
  std::optional<std::int64_t> lastFailed;
  for (std::int64_t ii = firstIi; ii <= lastIi && cutShort.empty();) {
    if (auto start = tryIi(ii)) {
      if (lastFailed) {
        for (std::int64_t skipped = *lastFailed + 1; skipped < ii && cutShort.empty(); ++skipped) {
          if (auto earlier = tryIi(skipped)) return scheduled(std::move(*earlier), skipped);
        }
      }
      return scheduled(std::move(*start), ii);
    }
    lastFailed = ii;
    if (ii == lastIi) break;
    ii = std::min(lastIi, ii + std::max<std::int64_t>(1, ii / kIiStepDivisor));
  }

  // No attempt placed every op: the non-overlapped schedule, where it is allowed.
  const std::string searched =
      cutShort.empty() ? fmt::format(
                             "ims found no schedule of II in [{}, {}] within the budget "
                             "of {} steps per II",
                             firstIi, lastIi, budget)
                       : fmt::format("ims stopped early ({}) after {} II attempts from II={}",
                                     cutShort, attempts, firstIi);
  const std::int64_t fallbackAt = fixedIi.value_or(fallbackIi);
  if (fallbackMeetsHorizon && fallbackAt >= fallbackIi && fallbackAt <= lastIi) {
    result.status = cutShort.empty() ? ModelStatus::kFeasible : ModelStatus::kTimeout;
    result.message =
        fmt::format("{}; returned the non-overlapped schedule at II={}{}", searched, fallbackAt,
                    cutShort.empty() ? " (raise budget_factor to search harder)" : "");
    return finish(*oneIteration, fallbackAt);
  }
  result.status = ModelStatus::kTimeout;
  if (!fallbackMeetsHorizon) {
    result.message = fmt::format(
        "{}; one iteration alone takes {} cycles in the list schedule, "
        "more than D={}",
        searched, latencyOf(graph, oneIteration->start), *problem.horizon);
  } else {
    result.message = fmt::format(
        "{}; raise budget_factor, or {} (a non-overlapped schedule "
        "exists at II={})",
        searched, fixedIi ? "the fixed II" : "max_ii", fallbackIi);
  }
  return result;
}

}  // namespace gaus::heuristic
