// One attempt of iterative modulo scheduling at a fixed II: IterativeSchedule of B. R. Rau,
// "Iterative Modulo Scheduling: An Algorithm for Software Pipelining Loops", Proc. MICRO-27,
// 1994, pp. 63-74, section 3.
//
// Every op gets the priority HeightR, the longest path to the end over edges weighted
// delay - distance * II. Repeatedly take the unscheduled op of highest priority, compute Estart
// from its scheduled predecessors, and look for a slot in [Estart, Estart + II - 1] (II
// consecutive cycles cover every residue) where its reservation fits the modulo reservation
// table. With no such slot the op is forced in at Estart, or one cycle after its previous
// placement when that was at or after Estart (so that a re-placed op does not undo the same
// placement forever); the ops it then conflicts with in the table are evicted. After placing,
// scheduled successors (and predecessors) whose dependences it violates are evicted too. Evicted
// ops return to the unscheduled set. Past BudgetRatio x |V| placements the attempt fails.
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
// - Slot placement (ImsPlacement): besides the paper's rule, the successor-bounded rule also
//   caps the slot by the op's scheduled successors and otherwise forces it in at Estart,
//   evicting resource holders instead (iterative_modulo_scheduler.hpp says why).
// - An attempt whose op does not fit the empty table by itself (a block folded modulo II onto
//   its own residues beyond the capacity) fails at once instead of spending its budget.

#include "ims_attempt.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/heuristic/modulo_reservation_table.hpp>
#include <gaus/heuristic/reservation_runs.hpp>

#include "priorities.hpp"

namespace gaus::heuristic::detail {

namespace {

constexpr Cycle kUnscheduled = std::numeric_limits<Cycle>::min();

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
    auto height = heightsToEnd(graph_, topoOrder_, ii_);
    if (!height) return Error{height.error()};
    std::vector<double> byHeight(static_cast<std::size_t>(opCount));
    std::vector<double> byTopoPosition(static_cast<std::size_t>(opCount));
    for (OpId op = 0; op < opCount; ++op) byHeight[op] = -static_cast<double>((*height)[op]);
    for (std::size_t k = 0; k < topoOrder_.size(); ++k) {
      byTopoPosition[topoOrder_[k]] = static_cast<double>(k);
    }
    order_ = orderByKeys(byHeight, byTopoPosition);
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

}  // namespace

AttemptOutcome scheduleAtIi(const Graph& graph, const Machine& machine,
                            const std::vector<OpId>& topoOrder, std::int32_t ii,
                            ImsPlacement placement, std::int64_t budget,
                            const std::function<bool()>& shouldStop) {
  IiAttempt attempt(graph, machine, topoOrder, ii, placement);
  return attempt.run(budget, shouldStop);
}

}  // namespace gaus::heuristic::detail
