// Iterative modulo scheduling, after B. R. Rau, "Iterative Modulo Scheduling: An Algorithm for
// Software Pipelining Loops", Proc. MICRO-27, 1994, pp. 63-74.
//
// The algorithm (paper sections 3 and 4):
// - MII = max(ResMII, RecMII); II starts there and grows by one after each failed attempt.
// - One attempt at a fixed II is the paper's IterativeSchedule (ims_attempt.cpp): ops in HeightR
//   order placed on a modulo reservation table, evicting the ops they conflict with, within a
//   budget of BudgetRatio x |V| placements (budgetFactor here).
//
// The search, step by step (each a member of ImsSearch below):
//   rejectUnschedulable  inputs no II can schedule (distance-0 cycle, capacity 0, RecMII)
//   boundIi              MII, what binds it, the fixed II and max_ii against it
//   prepareFallback      the non-overlapped schedule: the last II tried and the last resort
//   searchIis            II = MII, MII + 1, ... each with the placement rules asked for
//   endWithoutAttempt    the non-overlapped schedule, or a timeout saying what to raise
//
// Where the search departs from the paper (the attempt's departures are in ims_attempt.cpp):
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

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/deadline.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/heuristic/heuristic_figures.hpp>
#include <gaus/heuristic/iterative_modulo_scheduler.hpp>
#include <gaus/heuristic/list_scheduler.hpp>
#include <gaus/heuristic/modulo_reservation_table.hpp>
#include <gaus/heuristic/reservation_runs.hpp>

#include "ims_attempt.hpp"

namespace gaus::heuristic {

namespace {

// Largest modulo reservation table (limited resources x II cells, 8 bytes each) an attempt
// allocates: 1 GiB.
constexpr std::int64_t kMaxTableCells = std::int64_t{1} << 27;
// A failed II is followed by II + max(1, II / kIiStepDivisor).
constexpr std::int64_t kIiStepDivisor = 1024;
// The largest II a schedule holds.
constexpr std::int64_t kLargestIi = std::numeric_limits<std::int32_t>::max();

Result infeasible(std::string message) {
  Result result;
  result.status = ModelStatus::kInfeasible;
  result.objectiveName = "ii";
  result.message = std::move(message);
  return result;
}

// The search over II. Each step returns the final result when it ends the search.
class ImsSearch {
 public:
  ImsSearch(const Problem& problem, const ImsOptions& options, const RunContext& context)
      : problem_(problem),
        graph_(*problem.graph),
        machine_(*problem.machine),
        options_(options),
        context_(context),
        facts_(problem.facts()),
        deadline_(options.timeLimitSeconds),
        shouldStop_([this] { return deadline_.expired() || context_.cancelled(); }) {}

  Result run() {
    if (auto rejected = rejectUnschedulable()) return *rejected;
    if (auto rejected = boundIi()) return *rejected;
    if (auto failed = prepareFallback()) return *failed;
    if (auto found = searchIis()) return *found;
    return endWithoutAttempt();
  }

 private:
  // Inputs no II can schedule: kInfeasible at once.
  std::optional<Result> rejectUnschedulable() {
    const auto& topo = facts_->order();
    if (!topo) return infeasible("ims: " + topo.error());
    const ResMii& resMii = facts_->resMii();
    if (resMii.infeasible) {
      return infeasible("ims: " + *resMii.infeasible + ": no II is feasible");
    }
    ReservationRunBuilder absolute(machine_, std::nullopt);
    absolute.addGraph(graph_);
    for (OpId op = 0; op < graph_.numOps(); ++op) {
      if (auto overfull =
              describeOverfullRun(absolute.runsOf(op), machine_, graph_.opName(op), std::nullopt)) {
        return infeasible("ims: " + *overfull);
      }
    }
    if (const RecMii& recMii = facts_->recMii(); recMii.infeasible) {
      return infeasible("ims: " + *recMii.infeasible);
    }
    return std::nullopt;
  }

  // MII and what binds it (the result's lower bound), and the fixed II and max_ii against it.
  std::optional<Result> boundIi() {
    mii_ = std::max<std::int64_t>(facts_->mii().value, 1);
    result_.objectiveName = "ii";
    result_.bounds.lowerBound = static_cast<double>(mii_);
    result_.bounds.mii = facts_->mii();
    const std::string& reason = facts_->mii().reason;

    if (problem_.ii && options_.ii && *problem_.ii != *options_.ii) {
      return errorResult(fmt::format("ims: the problem fixes II={} but the option ii={}",
                                     *problem_.ii, *options_.ii));
    }
    if (problem_.ii) fixedIi_ = *problem_.ii;
    if (options_.ii) fixedIi_ = *options_.ii;
    if (fixedIi_ && *fixedIi_ < 1) {
      return errorResult(fmt::format("ims: II={} must be positive", *fixedIi_));
    }
    if (mii_ > kLargestIi) {
      return errorResult(fmt::format("ims: MII={} ({}) exceeds the largest II a schedule holds, {}",
                                     mii_, reason, kLargestIi));
    }
    if (fixedIi_ && *fixedIi_ < mii_) {
      Result below = infeasible(
          fmt::format("ims: II={} is below the lower bound MII={}: {}", *fixedIi_, mii_, reason));
      below.bounds = result_.bounds;
      below.figures = result_.figures;
      return below;
    }
    if (options_.maxIi && *options_.maxIi < mii_) {
      return errorResult(
          fmt::format("ims: max_ii={} is below the lower bound MII={} ({}); raise max_ii",
                      *options_.maxIi, mii_, reason));
    }
    return std::nullopt;
  }

  // The non-overlapped schedule: one list-scheduled iteration, the termination bound and the
  // answer of last resort; then the range of II to search and the budget per attempt.
  std::optional<Result> prepareFallback() {
    auto oneIteration = listSchedule(problem_);
    if (!oneIteration) return errorResult("ims: " + oneIteration.error());
    oneIteration_ = std::move(oneIteration).value();
    // Capped to what a schedule holds; past the cap the fallback is not offered.
    fallbackIi_ = std::min(std::max<Cycle>(nonOverlappedIi(graph_, oneIteration_.start), mii_),
                           kLargestIi + 1);
    result_.figures.set(figures::kNonOverlappedIi, static_cast<double>(fallbackIi_));
    fallbackMeetsHorizon_ =
        !problem_.horizon || scheduleLatency(graph_, oneIteration_.start) <= *problem_.horizon;

    firstIi_ = fixedIi_.value_or(mii_);
    lastIi_ = fixedIi_ ? *fixedIi_
                       : std::min(options_.maxIi ? std::int64_t{*options_.maxIi} : fallbackIi_,
                                  kLargestIi);
    budget_ = static_cast<std::int64_t>(
        std::ceil(options_.budgetFactor * static_cast<double>(graph_.numOps())));
    return std::nullopt;
  }

  // II grows by one after a failure, as in the paper, while one cycle is at least 1/1024 of II;
  // beyond that (II in the thousands of cycles, Triton dumps) by II / 1024, and a success after
  // such a step is refined by trying the skipped IIs in order.
  std::optional<Result> searchIis() {
    std::optional<std::int64_t> lastFailed;
    for (std::int64_t ii = firstIi_; ii <= lastIi_ && cutShort_.empty();) {
      if (auto start = tryIi(ii)) {
        if (lastFailed) {
          for (std::int64_t skipped = *lastFailed + 1; skipped < ii && cutShort_.empty();
               ++skipped) {
            if (auto earlier = tryIi(skipped)) return scheduled(std::move(*earlier), skipped);
          }
        }
        return scheduled(std::move(*start), ii);
      }
      lastFailed = ii;
      if (ii == lastIi_) break;
      ii = std::min(lastIi_, ii + std::max<std::int64_t>(1, ii / kIiStepDivisor));
    }
    return std::nullopt;
  }

  // One II with each placement rule the options ask for; the start times when one succeeds.
  // Sets cutShort_ when the search must end.
  std::optional<std::vector<Cycle>> tryIi(std::int64_t ii) {
    if (shouldStop_()) {
      cutShort_ = "time limit or cancel request";
      return std::nullopt;
    }
    if (ModuloReservationTable::cellCount(machine_, ii) > kMaxTableCells) {
      cutShort_ = fmt::format("at II={} the modulo reservation table would exceed {} cells", ii,
                              kMaxTableCells);
      return std::nullopt;
    }
    ++attempts_;
    // kBoth: the paper's placement first, the successor-bounded one at the same II if it fails.
    for (ImsPlacement placement : {ImsPlacement::kRau, ImsPlacement::kSuccessorBounded}) {
      if (options_.placement != ImsPlacement::kBoth && options_.placement != placement) continue;
      const auto attemptStart = std::chrono::steady_clock::now();
      detail::AttemptOutcome outcome =
          detail::scheduleAtIi(graph_, machine_, *facts_->order(), static_cast<std::int32_t>(ii),
                               placement, budget_, shouldStop_);
      ++result_.stats.solverCalls;
      result_.stats.iterations += outcome.steps;
      evictions_ += outcome.evictions;
      Attempt record;
      record.phase = fmt::format("{} placement", toString(placement));
      record.ii = ii;
      record.seconds = secondsSince(attemptStart);
      if (!outcome.scheduled) {
        // Running out of steps proves nothing about the II; an op that overfills it alone does.
        record.status = outcome.iiRuledOut ? ModelStatus::kInfeasible : ModelStatus::kTimeout;
        record.detail = fmt::format("{}; {} evictions", outcome.failure, outcome.evictions);
        note(std::move(record));
        if (outcome.stopped) cutShort_ = "time limit or cancel request";
        if (outcome.stopped || outcome.iiRuledOut) break;
        continue;
      }
      const Cycle latency = scheduleLatency(graph_, outcome.start);
      record.latency = latency;
      if (problem_.horizon && latency > *problem_.horizon) {
        record.status = ModelStatus::kUnknown;
        record.detail = fmt::format("scheduled, but its length exceeds D={}", *problem_.horizon);
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
  }

  // No attempt placed every op: the non-overlapped schedule where it is allowed, else a timeout
  // that says what to raise.
  Result endWithoutAttempt() {
    const std::string searched =
        cutShort_.empty() ? fmt::format(
                                "ims found no schedule of II in [{}, {}] within the budget "
                                "of {} steps per II",
                                firstIi_, lastIi_, budget_)
                          : fmt::format("ims stopped early ({}) after {} II attempts from II={}",
                                        cutShort_, attempts_, firstIi_);
    const std::int64_t fallbackAt = fixedIi_.value_or(fallbackIi_);
    if (fallbackMeetsHorizon_ && fallbackAt >= fallbackIi_ && fallbackAt <= lastIi_) {
      result_.status = cutShort_.empty() ? ModelStatus::kFeasible : ModelStatus::kTimeout;
      result_.message =
          fmt::format("{}; returned the non-overlapped schedule at II={}{}", searched, fallbackAt,
                      cutShort_.empty() ? " (raise budget_factor to search harder)" : "");
      return finish(oneIteration_, fallbackAt);
    }
    result_.status = ModelStatus::kTimeout;
    if (!fallbackMeetsHorizon_) {
      result_.message = fmt::format(
          "{}; one iteration alone takes {} cycles in the list schedule, "
          "more than D={}",
          searched, scheduleLatency(graph_, oneIteration_.start), *problem_.horizon);
    } else {
      result_.message = fmt::format(
          "{}; raise budget_factor, or {} (a non-overlapped schedule "
          "exists at II={})",
          searched, fixedIi_ ? "the fixed II" : "max_ii", fallbackIi_);
    }
    return std::move(result_);
  }

  Result scheduled(std::vector<Cycle> start, std::int64_t ii) {
    result_.status = ModelStatus::kFeasible;
    Schedule schedule;
    schedule.start = std::move(start);
    return finish(std::move(schedule), ii);
  }

  Result finish(Schedule schedule, std::int64_t ii) {
    schedule.ii = static_cast<std::int32_t>(ii);
    const Cycle latency = scheduleLatency(graph_, schedule.start);
    result_.objective = static_cast<double>(ii);
    result_.bounds.iiProvenOptimal = ii == mii_;
    result_.figures.set(figures::kAttempts, static_cast<double>(attempts_));
    result_.figures.set(figures::kEvictions, static_cast<double>(evictions_));
    result_.figures.set(figures::kLatency, static_cast<double>(latency));
    result_.figures.set(figures::kStages,
                        static_cast<double>(stageCount(schedule.start, latency, ii)));
    result_.schedule = std::move(schedule);
    return std::move(result_);
  }

  void note(Attempt attempt) {
    context_.report(attempt.describe());
    result_.attempts.push_back(std::move(attempt));
  }

  const Problem& problem_;
  const Graph& graph_;
  const Machine& machine_;
  const ImsOptions& options_;
  const RunContext& context_;
  const std::shared_ptr<const ProblemFacts> facts_;  // the problem's order and MII
  const Deadline deadline_;
  const std::function<bool()> shouldStop_;
  Result result_;
  std::int64_t mii_ = 1;
  std::optional<std::int64_t> fixedIi_;
  Schedule oneIteration_;  // the non-overlapped schedule's one iteration
  Cycle fallbackIi_ = 1;
  bool fallbackMeetsHorizon_ = true;
  std::int64_t firstIi_ = 1;
  std::int64_t lastIi_ = 1;
  std::int64_t budget_ = 0;
  std::int64_t attempts_ = 0;
  std::int64_t evictions_ = 0;
  std::string cutShort_;  // why the search ended before lastIi_, if it did
};

}  // namespace

Result iterativeModuloSchedule(const Problem& problem, const ImsOptions& options,
                               const RunContext& context) {
  if (!problem.graph || !problem.machine) {
    return errorResult("ims: the problem has no graph or no machine");
  }
  if (problem.graph->numOps() == 0) return errorResult("ims: the graph has no ops");
  if (options.budgetFactor <= 0) {
    return errorResult(
        fmt::format("ims: budget_factor must be positive, got {}", options.budgetFactor));
  }
  return ImsSearch(problem, options, context).run();
}

}  // namespace gaus::heuristic
