// Formulation B (GAUS.md "Formulations"): peak live memory, minimized at the given horizon by the
// shared attempt (at_horizon_search.hpp). Its own parts (docs/gaus.md says why):
// - scale: the start's peak;
// - bound: the min-cut bound (core/live_memory_bound.hpp), lifted on small problems by the whole
//   graph's live-memory MILP, whose schedule becomes the start when it is better;
// - refinement: single-op moves for peak live memory (live_memory::Refiner), resumable
//   across the worker's time slices;
// - incumbent: LiveMemoryIncumbent, which splices the candidates' regions into the best schedule
//   and re-solves windows around its peak exactly (options splice and windows);
// - figures: the splices' and the windows' counts.
#include <algorithm>
#include <chrono>
#include <deque>
#include <limits>
#include <mutex>

#include <fmt/format.h>

#include <gaus/core/verify.hpp>
#include <gaus/differentiable/gaus_figures.hpp>
#include <gaus/heuristic/force_directed.hpp>
#include <gaus/live_memory/bound.hpp>
#include <gaus/live_memory/exact_solve.hpp>
#include <gaus/live_memory/improvement.hpp>
#include <gaus/live_memory/lagrangian_bound.hpp>
#include <gaus/live_memory/refinement.hpp>

#include "at_horizon_search.hpp"
#include "search_support.hpp"

namespace gaus::differentiable {

namespace {

double peakMemoryOf(const RunSetup& setup, const Schedule& schedule) {
  return computeMetrics(setup.graph, *setup.problem.machine, schedule).peakLiveMemory;
}

// B: the attempt's best schedule, improved by what the candidates bring and by exact windows
// (docs/gaus.md, "Splicing candidates" and "Exact windows"):
// - every other candidate lends it regions (live_memory::Refiner::splice): on a large
//   graph the peak sits in a few clusters of cycles far apart, candidates at the same peak
//   differ in which of them are high, and the keep-the-best rule alone never gets past the
//   peak of the refined start;
// - at a local optimum of the refinement, windows around its peak clusters are re-solved
//   exactly (live_memory::MilpWindowSearch, option `windows`), and what they lower is refined
//   again.
// Shared by the rows the worker legalizes side by side: a row that finds it busy leaves its
// candidate to the row holding it (the latest kWaitingDonors are kept). Its own work, when a
// slice cut it, is unfinished work the worker resumes like a candidate's refinement.
class LiveMemoryIncumbent final : public UnfinishedRefinement,
                                  public std::enable_shared_from_this<LiveMemoryIncumbent> {
 public:
  struct Absorbed {
    std::optional<Candidate> improved;  // the incumbent, when the candidate lowered it
    bool unfinished = false;            // work is left for the worker (resume())
  };
  struct Figures {
    std::int64_t splicedRegions = 0;
    std::int64_t spliceImprovements = 0;  // falls of the objective after splices
    std::int64_t windowSolves = 0;
    std::int64_t windowImprovements = 0;  // windows kept
    live_memory::CutWindowFigures cutWindows;
  };

  LiveMemoryIncumbent(const RunSetup& setup, Cycle horizon, const RunBudget& budget)
      : setup_(setup), horizon_(horizon), budget_(budget) {}

  // A legal, scored candidate: it becomes the incumbent when it beats it (once its own
  // refinement is `done`: until then the worker refines it and it only lends regions), or gives
  // the incumbent its regions; then the incumbent is refined in a time slice of its own
  // (asynchronous mode: one more slice per row; its windows wait for the worker's own slices,
  // resume(), which alternate with offers, since a window's solve may take seconds).
  Absorbed absorb(const Candidate& candidate, bool done) {
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) {
      leaveWaiting({candidate, done});
      return {};
    }
    const Clock::time_point sliceEnd =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(setup_.options.refineSliceSeconds));
    const bool sliced = setup_.options.legalization == LegalizationMode::kAsync;
    return advance(
        Donor{candidate, done},
        [this, sliced, sliceEnd] {
          return budget_.outOfTime() || (sliced && Clock::now() >= sliceEnd);
        },
        !sliced);
  }

  // The worker's slice of the incumbent's work: the incumbent, verified and scored, unfinished
  // while work is left.
  std::optional<Candidate> resume(const StopRequest& stop) override {
    std::lock_guard<std::mutex> lock(mutex_);
    Absorbed absorbed = advance(std::nullopt, stop, true);
    if (absorbed.improved || !improvement_) return std::move(absorbed.improved);
    std::optional<Candidate> incumbent =
        scoredCandidate(setup_, setup_.problem, improvement_->schedule());
    if (incumbent && absorbed.unfinished) incumbent->unfinished = shared_from_this();
    return incumbent;
  }

  Figures figures() {
    std::lock_guard<std::mutex> lock(mutex_);
    Figures total{splicedRegions_, spliceImprovements_, 0, 0, {}};
    if (improvement_) {
      total.windowSolves = improvement_->windowFigures().solves;
      total.windowImprovements = improvement_->windowFigures().improvements;
      total.cutWindows = improvement_->cutWindowFigures();
    }
    return total;
  }

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr std::size_t kWaitingDonors = 8;

  struct Donor {
    Candidate candidate;
    bool done = true;  // its own refinement ended (else it may only lend regions)
  };

  // With mutex_ held: takes `donor` and the waiting ones, runs the improvement step (its windows
  // when `windowsNow`), and returns the incumbent when its objective fell (unfinished while work
  // is left).
  Absorbed advance(std::optional<Donor> donor, const std::function<bool()>& stop, bool windowsNow) {
    while (!stop()) {
      if (!donor) donor = nextWaiting();
      if (!donor) break;
      take(*donor, stop);
      donor.reset();
    }
    if (donor) leaveWaiting(std::move(*donor));  // `stop` came first: for a later slice
    if (!improvement_) return {};
    const bool finished = improvement_->run(stop, windowsNow, budget_.remainingSeconds());
    Absorbed absorbed;
    absorbed.unfinished = !finished || hasWaiting();
    if (!(improvement_->peak() < objective_)) return absorbed;
    std::optional<Candidate> incumbent =
        scoredCandidate(setup_, setup_.problem, improvement_->schedule());
    if (!incumbent || !(incumbent->objective < objective_)) return absorbed;
    // A fall with no splice since the last one is the refinement's or the windows' alone.
    spliceImprovements_ += splicedSinceFall_ ? 1 : 0;
    splicedSinceFall_ = false;
    objective_ = incumbent->objective;
    if (absorbed.unfinished) incumbent->unfinished = shared_from_this();
    absorbed.improved = std::move(incumbent);
    return absorbed;
  }

  // A better donor whose refinement ended becomes the incumbent; any other lends regions.
  void take(const Donor& donor, const std::function<bool()>& stop) {
    const Candidate& candidate = donor.candidate;
    if (!improvement_ || candidate.objective < objective_) {
      if (!donor.done) return;  // the worker refines it first; it comes back when done
      if (improvement_) {
        improvement_->replace(candidate.schedule);
      } else {
        live_memory::ImprovementOptions options;
        options.windows = setup_.options.windows;
        options.windowOptions.solver = setup_.options.solver;
        improvement_ = std::make_unique<live_memory::Improvement>(setup_.problem.facts(),
                                                                  candidate.schedule, options);
      }
      objective_ = candidate.objective;
      splicedSinceFall_ = false;
      return;
    }
    if (!setup_.options.splice) return;
    if (const std::int64_t regions = improvement_->splice(candidate.schedule, stop)) {
      splicedRegions_ += regions;
      splicedSinceFall_ = true;
    }
  }

  void leaveWaiting(Donor donor) {
    std::lock_guard<std::mutex> guard(waitingMutex_);
    waiting_.push_back(std::move(donor));
    if (waiting_.size() > kWaitingDonors) waiting_.pop_front();
  }

  std::optional<Donor> nextWaiting() {
    std::lock_guard<std::mutex> guard(waitingMutex_);
    if (waiting_.empty()) return std::nullopt;
    Donor next = std::move(waiting_.front());
    waiting_.pop_front();
    return next;
  }

  bool hasWaiting() {
    std::lock_guard<std::mutex> guard(waitingMutex_);
    return !waiting_.empty();
  }

  const RunSetup& setup_;
  Cycle horizon_;
  const RunBudget& budget_;
  std::mutex mutex_;  // held while the incumbent changes
  std::unique_ptr<live_memory::Improvement> improvement_;
  // Of the incumbent as last scored (one taken whole: its donor's).
  double objective_ = std::numeric_limits<double>::infinity();
  bool splicedSinceFall_ = false;
  std::int64_t splicedRegions_ = 0;
  std::int64_t spliceImprovements_ = 0;  // the window counts are the improvement's own
  std::mutex waitingMutex_;
  std::deque<Donor> waiting_;  // donors left by rows that found the incumbent busy
};

// B's refinement of one legal schedule as work that a time slice may cut and a later slice go on
// with (live_memory::Refiner keeps its place). The worker resumes it while its
// candidate is the incumbent. With an incumbent (B), each schedule it reaches is offered to it,
// and what the incumbent made better is returned instead.
class LiveMemoryRefinementInProgress final
    : public UnfinishedRefinement,
      public std::enable_shared_from_this<LiveMemoryRefinementInProgress> {
 public:
  LiveMemoryRefinementInProgress(const RunSetup& setup, const Schedule& legal, Cycle horizon,
                                 LiveMemoryIncumbent* incumbent)
      : setup_(setup), refiner_(setup.graph, horizon, legal), incumbent_(incumbent) {}

  std::optional<Candidate> resume(const StopRequest& stop) override {
    const bool done = refiner_.run(stop);
    std::optional<Candidate> candidate =
        scoredCandidate(setup_, setup_.problem, refiner_.result().schedule);
    if (!candidate) return candidate;
    if (incumbent_ == nullptr) {
      if (!done) candidate->unfinished = shared_from_this();
      return candidate;
    }
    // What the incumbent returns is strictly better than this candidate, since it was no worse.
    LiveMemoryIncumbent::Absorbed absorbed = incumbent_->absorb(*candidate, done);
    if (absorbed.improved) return std::move(absorbed.improved);
    // This refinement goes on first; once it is done, the incumbent's work left.
    if (!done) {
      candidate->unfinished = shared_from_this();
    } else if (absorbed.unfinished) {
      candidate->unfinished = incumbent_->shared_from_this();
    }
    return candidate;
  }

 private:
  const RunSetup& setup_;
  live_memory::Refiner refiner_;
  LiveMemoryIncumbent* incumbent_;
};

// B's exact bound (docs/gaus.md, "The exact bound on small problems"): where the whole graph's
// peak-memory MILP (live_memory/exact_solve.hpp, every op moving in its ASAP/ALAP window) is
// small, it is solved in a share of the time left, from the best start as the solver's first
// incumbent, with option `solver` and the run's cancel flag. Its bound lifts the mandatory
// lifetimes' (on ctrl at D = 11: 31, the optimum, where they give 5), so that a search at the
// optimum says so and ends, and its schedule is taken when it is better. The threshold, in
// nonzeros as estimated before the model is built, measured with CBC at D = the list latency
// (docs/benchmarks.md): ctrl's model (23,000) is proven in 1.2 s; int2float's (62,000) and
// router's (450,000) end 60 s with no bound above the mandatory lifetimes', so their share would
// be spent in vain.
constexpr std::int64_t kExactModelMaxNonzeros = 40'000;
constexpr double kExactShare = 0.25;
// Without a time limit the share is unbounded: the solve then stops here.
constexpr double kExactMaxSeconds = 60.0;

struct ExactPeakMemory {
  std::optional<Schedule> schedule;
  std::optional<double> bound;
};

ExactPeakMemory solveWholeGraphExactly(const RunSetup& setup, const RunBudget& budget,
                                       const Schedule* start, double floor,
                                       std::vector<Attempt>& attempts) {
  live_memory::WholeGraphOptions options;
  options.call.deadline = budget.deadline().share(kExactShare, kExactMaxSeconds);
  const std::int64_t nonzeros = live_memory::wholeGraphNonzeros(setup.problem);
  if (options.call.deadline.expired() || nonzeros > kExactModelMaxNonzeros) return {};
  budget.report(fmt::format("exact: the whole graph's live-memory MILP ({} nonzeros) with {}, "
                            "for up to {:.1f} s",
                            nonzeros, milp::toString(setup.options.solver),
                            options.call.deadline.remainingSeconds()));
  options.call.solver = setup.options.solver;
  options.call.cancel = budget.cancelFlag();
  options.call.maxNonzeros = kExactModelMaxNonzeros;
  const live_memory::WholeGraphSolve solve =
      live_memory::solveWholeGraph(setup.problem, start, floor, options);
  if (solve.refused) return {};
  Attempt attempt = solve.attempt;
  attempt.phase = "exact";
  attempt.status = solve.schedule && solve.status == ModelStatus::kOptimal ? ModelStatus::kOptimal
                                                                           : solve.status;
  attempt.detail = "whole-graph live-memory MILP, " + attempt.detail;
  attempts.push_back(std::move(attempt));
  ExactPeakMemory exact;
  if (solve.call == CallStatus::kOk) {
    exact.bound = solve.bound;
    exact.schedule = solve.schedule;
  }
  return exact;
}

// The Lagrangian start (live_memory/lagrangian_bound.hpp, lagrangianStart): the least-peak
// schedule among the minimum cuts over the whole horizon, within a share of the time left, as one
// more legal start to refine. On deep circuits it lies far below the refined list schedule
// (docs/benchmarks.md, "B's Lagrangian start"), where the optimizer's steps alone do not reach.
constexpr double kLagrangianStartShare = 0.15;
// FDS's share of the time limit (it ends in under 13 s on stand-ins of 57,000 ops, and in well
// under a second on the shared circuits, docs/benchmarks.md), and its seconds without a limit.
constexpr double kFdsStartShare = 0.1;
constexpr double kFdsStartSecondsWithoutLimit = 10.0;

void addLagrangianStart(const RunSetup& setup, const RunBudget& budget, Result& result,
                        HorizonStarts& starts) {
  const std::optional<double> bound = result.bounds.lowerBound;
  if (!setup.options.lagrangianStart ||
      (starts.best && bound && starts.best->objective <= *bound)) {
    return;
  }
  const Deadline share = budget.deadline().share(kLagrangianStartShare, kExactMaxSeconds);
  live_memory::LagrangianStartOptions options;
  options.stop = [&] { return share.expired() || budget.outOfTime(); };
  auto found = live_memory::lagrangianStart(*setup.problem.facts(), options);
  if (!found || !*found) return;
  Schedule schedule;
  schedule.start = std::move((*found)->start);
  const std::optional<Candidate> candidate = scoredCandidate(setup, setup.problem, schedule);
  if (!candidate) return;
  Attempt attempt;
  attempt.phase = "lagrangian";
  attempt.horizon = setup.problem.horizon;
  attempt.seconds = share.elapsedSeconds();
  attempt.status = ModelStatus::kFeasible;
  attempt.detail = fmt::format(
      "the least-peak schedule of {} minimum cuts over the whole horizon: "
      "{:.10g}",
      (*found)->cuts, candidate->objective);
  result.attempts.push_back(std::move(attempt));
  starts.legal.emplace_back(candidate->schedule, "Lagrangian cuts");
  if (!starts.best || candidate->objective < starts.best->objective) {
    starts.best = candidate;
    starts.bestName = "Lagrangian cuts";
  }
}

class PeakMemoryObjective final : public HorizonObjective {
 public:
  PeakMemoryObjective(const RunSetup& setup, const RunBudget& budget) {
    if (setup.refine && (setup.options.splice || setup.options.windows)) {
      incumbent_ = std::make_shared<LiveMemoryIncumbent>(setup, *setup.problem.horizon, budget);
    }
  }

  std::string_view name() const override { return toString(ProblemObjective::kPeakMemory); }

  // Force-directed scheduling's schedule (the GauS paper's heuristic baseline), within a share
  // of the time limit: another basin for the refinement, and what keeps GauS at or below FDS.
  void addStarts(const RunSetup& setup, Cycle /*horizon*/,
                 std::vector<std::pair<Schedule, std::string>>& legal) const override {
    if (!setup.options.fdsStart) return;
    heuristic::ForceDirectedOptions options;
    options.objective = heuristic::ForceObjective::kMemory;
    options.reportBound = false;
    options.timeLimitSeconds = kFdsStartShare * setup.options.timeLimitSeconds.value_or(
                                                    kFdsStartSecondsWithoutLimit / kFdsStartShare);
    const Result fds = heuristic::forceDirectedSchedule(setup.problem, options);
    if (fds.schedule && verified(setup.problem, *fds.schedule)) {
      legal.emplace_back(*fds.schedule, "force-directed scheduling");
    }
  }

  double scaleAndBound(const RunSetup& setup, Cycle /*horizon*/, const std::vector<Cycle>& /*alap*/,
                       const RunMachinery& machinery, HorizonStarts& starts,
                       Result& result) const override {
    double scale = 1.0;
    if (starts.start) {
      const double peak = peakMemoryOf(setup, *starts.start);
      scale = peak > 0 ? peak : 1.0;
    }
    // Formulation B's bound, within a tenth of the time limit: the search stops at it.
    live_memory::reportBound(setup.problem, result,
                             live_memory::boundDeadline(setup.options.timeLimitSeconds),
                             machinery.budget.cancelFlag());
    const ExactPeakMemory exact = solveWholeGraphExactly(
        setup, machinery.budget, starts.best ? &starts.best->schedule : nullptr,
        result.bounds.lowerBound.value_or(0.0), result.attempts);
    if (exact.bound && *exact.bound > result.bounds.lowerBound.value_or(0.0)) {
      result.bounds.lowerBound = *exact.bound;
      result.bounds.lowerBoundArgument =
          fmt::format("{}'s dual bound on the whole graph", milp::toString(setup.options.solver));
    }
    if (exact.schedule) {
      const double objective = objectiveOf(setup, *exact.schedule);
      if (!starts.best || objective < starts.best->objective) {
        starts.best = Candidate{*exact.schedule, objective, nullptr};
        starts.bestName = "exact model";
      }
    }
    addLagrangianStart(setup, machinery.budget, result, starts);
    return scale;
  }

  // Resumable, its schedules offered to the incumbent when there is one.
  std::optional<Candidate> refine(const RunSetup& setup, const Schedule& legal, Cycle horizon,
                                  const StopRequest& stop) const override {
    return std::make_shared<LiveMemoryRefinementInProgress>(setup, legal, horizon, incumbent_.get())
        ->resume(stop);
  }

  void reportWork(const RunSetup& setup, Result& result) const override {
    if (!incumbent_) return;
    const LiveMemoryIncumbent::Figures work = incumbent_->figures();
    if (setup.options.splice) {
      result.figures.set(figures::kSplicedRegions, static_cast<double>(work.splicedRegions));
      result.figures.set(figures::kSpliceImprovements,
                         static_cast<double>(work.spliceImprovements));
    }
    if (setup.options.windows) {
      result.figures.set(figures::kWindowSolves, static_cast<double>(work.windowSolves));
      result.figures.set(figures::kWindowImprovements,
                         static_cast<double>(work.windowImprovements));
      result.figures.set(figures::kCutWindows, static_cast<double>(work.cutWindows.windows));
      result.figures.set(figures::kCutWindowCuts, static_cast<double>(work.cutWindows.cuts));
      result.figures.set(figures::kCutWindowImprovements,
                         static_cast<double>(work.cutWindows.improvements));
    }
  }

 private:
  // The attempt's closures refer to it: it outlives the attempt (optimizeAtHorizon).
  std::shared_ptr<LiveMemoryIncumbent> incumbent_;
};

Result searchPeakMemory(const RunSetup& setup, RunMachinery& machinery) {
  const PeakMemoryObjective objective(setup, machinery.budget);
  return optimizeAtHorizon(setup, machinery, objective);
}

}  // namespace

const FormulationPart& peakMemoryPart() {
  static const FormulationPart part{
      .objective = peakMemoryOf, .boundedHorizon = true, .search = searchPeakMemory};
  return part;
}

}  // namespace gaus::differentiable
