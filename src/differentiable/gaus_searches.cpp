// The searches of GAUS.md "Formulations", each returning its Result as a value (gaus_run.hpp
// says what they share; gaus_scheduler.cpp, which runs them, says what each does):
// - searchLatency (L): the horizon searched from outside, D = latency - 1 while attempts succeed;
// - optimizeAtHorizon (A and B): one attempt at the given horizon, minimizing the objective,
//   every legalized schedule refined;
// - searchModulo (C): the same search over II, or one attempt at a given II.
// With the helpers they share: the start, the candidates' legalization and scoring, attempts.
// The searches over D and II run rounds (latencyRound, moduloRound): each takes the state the
// previous round left and returns the next one (descending_search.hpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <mutex>
#include <random>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/live_memory_bound.hpp>
#include <gaus/core/stage_objective.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/differentiable/gaus_figures.hpp>
#include <gaus/heuristic/balanced_stages.hpp>
#include <gaus/heuristic/iterative_modulo_scheduler.hpp>
#include <gaus/heuristic/list_scheduler.hpp>
#include <gaus/heuristic/memory_refinement.hpp>
#include <gaus/heuristic/stage_refinement.hpp>
#include <gaus/milp/live_memory_model.hpp>
#include <gaus/milp/live_memory_windows.hpp>

#include "descending_search.hpp"
#include "formulation.hpp"
#include "gaus_run.hpp"
#include "initialization.hpp"
#include "legalization.hpp"
#include "window_distribution.hpp"

namespace gaus::differentiable {

namespace {

bool useReleaseTimes(const RunSetup& setup) {
  if (setup.options.releaseTimes == "on") return true;
  if (setup.options.releaseTimes == "off") return false;
  return setup.formulation == Formulation::kStageWeight ||
         setup.formulation == Formulation::kPeakMemory;
}

// Option horizon_search: "auto" bisects gaps wider than 32 cycles (or II steps).
SearchStrategy searchStrategy(const RunSetup& setup, double gap) {
  if (setup.options.horizonSearch == "linear") return SearchStrategy::kLinear;
  if (setup.options.horizonSearch == "bisect") return SearchStrategy::kBisect;
  return gap > 32 ? SearchStrategy::kBisect : SearchStrategy::kLinear;
}

bool verified(const Problem& problem, const Schedule& schedule) {
  VerifyOptions options;
  options.maxMessages = 0;
  options.metrics = false;
  return verify(problem, schedule, options).ok();
}

std::vector<Cycle> alapAt(const RunSetup& setup, Cycle horizon) {
  auto alap = alapTimes(setup.graph, setup.order, horizon);
  return alap ? std::move(alap).value() : setup.asap;
}

// The record of where a run starts: its latency when known, and from what.
Attempt startAttempt(ModelStatus status, std::optional<double> latency, std::string detail) {
  Attempt attempt;
  attempt.phase = "start";
  attempt.status = status;
  if (latency) attempt.latency = static_cast<std::int64_t>(*latency);
  attempt.detail = std::move(detail);
  return attempt;
}

// The record of one attempt at horizon D: feasible when it legalized a schedule within D. A
// failure proves nothing (the optimizer stopped, the problem may still be feasible).
Attempt horizonAttempt(const AttemptOutcome& outcome, Cycle horizon, double seconds) {
  Attempt attempt;
  attempt.phase = "horizon";
  attempt.horizon = horizon;
  attempt.status = outcome.succeeded ? ModelStatus::kFeasible : ModelStatus::kUnknown;
  attempt.seconds = seconds;
  attempt.detail =
      fmt::format("{} after {} updates", outcome.succeeded ? "legal" : "no legal schedule within D",
                  outcome.updates);
  return attempt;
}

// The legal schedule a run starts from: the caller's when it verifies, else the heuristic's when
// it verifies (list scheduling may overrun a horizon), else none. Why a start was passed over
// goes to `attempts`.
std::optional<Schedule> startSchedule(const RunSetup& setup, std::vector<Attempt>& attempts) {
  if (setup.givenSchedule != nullptr) {
    if (verified(setup.problem, *setup.givenSchedule)) return *setup.givenSchedule;
    attempts.push_back(startAttempt(ModelStatus::kUnknown, std::nullopt,
                                    "the given schedule does not verify: used as mu only"));
  }
  if (setup.problem.isModulo()) {
    heuristic::ImsOptions ims;
    ims.ii = setup.problem.ii;
    Result imsResult = heuristic::iterativeModuloSchedule(setup.problem, ims);
    if (imsResult.schedule && verified(setup.problem, *imsResult.schedule)) {
      return std::move(imsResult.schedule);
    }
    attempts.push_back(startAttempt(
        ModelStatus::kUnknown, std::nullopt,
        fmt::format("iterative modulo scheduling gave no legal start ({})", imsResult.message)));
    return std::nullopt;
  }
  auto list = setup.listScheduler->schedule();
  if (list && verified(setup.problem, *list)) return std::move(list).value();
  return std::nullopt;
}

double latencyOf(const RunSetup& setup, const Schedule& schedule) {
  return static_cast<double>(scheduleLatency(setup.graph, schedule.start));
}

// The formulation's objective of a legal schedule (C: the secondary objective at its II).
double objectiveOf(const RunSetup& setup, const Schedule& schedule) {
  switch (setup.formulation) {
    case Formulation::kStageWeight:
      return stageObjective(setup.graph, schedule, setup.options.alpha);
    case Formulation::kPeakMemory:
      return computeMetrics(setup.graph, *setup.problem.machine, schedule).peakLiveMemory;
    case Formulation::kModulo:
      if (setup.moduloObjective == ModuloObjective::kMemory) {
        return computeMetrics(setup.graph, *setup.problem.machine, schedule).peakLiveMemory;
      }
      return latencyOf(setup, schedule);
    default:
      return latencyOf(setup, schedule);
  }
}

// A legal schedule as a candidate: verified and scored, or nullopt when it does not verify.
std::optional<Candidate> scoredCandidate(const RunSetup& setup, const Problem& problem,
                                         Schedule schedule) {
  if (!verified(problem, schedule)) return std::nullopt;
  const double objective = objectiveOf(setup, schedule);
  return Candidate{std::move(schedule), objective, nullptr};
}

// Means for the first attempt (option init): the given schedule, the start schedule (squeezed
// into the horizon) or the ASAP/ALAP midpoint. "auto" is the given schedule if any, else the
// midpoint for A and B (GAUS.md) and the start schedule for L and C (list or iterative modulo
// scheduling; "What to expect").
StartingPoint firstStartingPoint(const RunSetup& setup, const Schedule* start,
                                 const std::vector<Cycle>& alap) {
  Initialization init = setup.options.initialization;
  if (init == Initialization::kAuto) {
    const bool boundedHorizon = setup.formulation == Formulation::kStageWeight ||
                                setup.formulation == Formulation::kPeakMemory;
    init = setup.givenSchedule != nullptr ? Initialization::kGiven
           : boundedHorizon               ? Initialization::kAsapAlap
                                          : Initialization::kList;
  }
  if (init == Initialization::kGiven && setup.givenSchedule != nullptr) {
    return scheduleStart(*setup.givenSchedule, setup.asap, alap, setup.options);
  }
  if (init == Initialization::kList && start != nullptr) {
    return scheduleStart(*start, setup.asap, alap, setup.options);
  }
  return midpointStart(setup.asap, alap, setup.options);
}

// B: the attempt's best schedule, improved by what the candidates bring and by exact windows
// (docs/gaus.md, "Splicing candidates" and "Exact windows"):
// - every other candidate lends it regions (heuristic::LiveMemoryRefiner::splice): on a large
//   graph the peak sits in a few clusters of cycles far apart, candidates at the same peak
//   differ in which of them are high, and the keep-the-best rule alone never gets past the
//   peak of the refined start;
// - at a local optimum of the refinement, windows around its peak clusters are re-solved
//   exactly (milp::LiveMemoryWindowSearch, option `windows`), and what they lower is refined
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
  };

  LiveMemoryIncumbent(const RunSetup& setup, Cycle horizon, const RunState& state)
      : setup_(setup), horizon_(horizon), state_(state) {}

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
          return state_.outOfTime() || (sliced && Clock::now() >= sliceEnd);
        },
        !sliced);
  }

  // The worker's slice of the incumbent's work: the incumbent, verified and scored, unfinished
  // while work is left.
  std::optional<Candidate> resume(const StopRequest& stop) override {
    std::lock_guard<std::mutex> lock(mutex_);
    Absorbed absorbed = advance(std::nullopt, stop, true);
    if (absorbed.improved || !refiner_) return std::move(absorbed.improved);
    std::optional<Candidate> incumbent =
        scoredCandidate(setup_, setup_.problem, refiner_->result().schedule);
    if (incumbent && absorbed.unfinished) incumbent->unfinished = shared_from_this();
    return incumbent;
  }

  Figures figures() {
    std::lock_guard<std::mutex> lock(mutex_);
    Figures total{splicedRegions_, spliceImprovements_, 0, 0};
    if (windows_) {
      total.windowSolves = windows_->figures().solves;
      total.windowImprovements = windows_->figures().improvements;
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

  // With mutex_ held: takes `donor` and the waiting ones, refines, solves windows (when
  // `windowsNow`; after windows that lowered something, refines and solves again), and returns
  // the incumbent when its objective fell (unfinished while work is left).
  Absorbed advance(std::optional<Donor> donor, const std::function<bool()>& stop, bool windowsNow) {
    while (!stop()) {
      if (!donor) donor = nextWaiting();
      if (!donor) break;
      take(*donor, stop);
      donor.reset();
    }
    if (donor) leaveWaiting(std::move(*donor));  // `stop` came first: for a later slice
    if (!refiner_) return {};
    bool finished = false;
    while (true) {
      finished = refiner_->run(stop);
      const bool windowsLeft = setup_.options.windows && !windowsDone_;
      if (!finished || !windowsLeft || !windowsNow) {
        finished = finished && !windowsLeft;
        break;
      }
      if (!windows_) {
        milp::LiveMemoryWindowOptions windowOptions;
        windowOptions.solver = setup_.options.solver;
        windows_ = std::make_unique<milp::LiveMemoryWindowSearch>(
            setup_.graph, horizon_, refiner_->result().schedule, windowOptions);
      } else if (windowsStale_) {
        windows_->restart(refiner_->result().schedule);
      }
      windowsStale_ = false;
      const std::int64_t keptBefore = windows_->figures().improvements;
      const bool windowsFinished = windows_->run(stop, state_.remainingSeconds());
      if (windows_->figures().improvements > keptBefore) {
        replace(windows_->schedule());  // refined again from there, then windows again
        finished = false;
        if (stop()) break;
        continue;
      }
      windowsDone_ = windowsFinished;
      finished = windowsFinished;
      break;
    }
    Absorbed absorbed;
    absorbed.unfinished = !finished || hasWaiting();
    if (!(refiner_->peak() < objective_)) return absorbed;
    std::optional<Candidate> incumbent =
        scoredCandidate(setup_, setup_.problem, refiner_->result().schedule);
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
    if (!refiner_ || candidate.objective < objective_) {
      if (!donor.done) return;  // the worker refines it first; it comes back when done
      replace(candidate.schedule);
      objective_ = candidate.objective;
      splicedSinceFall_ = false;
      return;
    }
    if (!setup_.options.splice) return;
    if (const std::int64_t regions = refiner_->splice(candidate.schedule, stop)) {
      splicedRegions_ += regions;
      splicedSinceFall_ = true;
      dropWindows();
    }
  }

  // A new incumbent schedule: refined from scratch, its windows not yet tried.
  void replace(const Schedule& schedule) {
    dropWindows();
    refiner_ = std::make_unique<heuristic::LiveMemoryRefiner>(setup_.graph, horizon_, schedule);
  }

  // The schedule changed: the window search goes on from it when the refinement is done.
  void dropWindows() {
    windowsStale_ = true;
    windowsDone_ = false;
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
  const RunState& state_;
  std::mutex mutex_;  // held while the incumbent changes
  std::unique_ptr<heuristic::LiveMemoryRefiner> refiner_;
  std::unique_ptr<milp::LiveMemoryWindowSearch> windows_;
  bool windowsDone_ = false;   // every window around the current peak tried, none lowered it
  bool windowsStale_ = false;  // the window search holds an older schedule
  // Of the incumbent as last scored (one taken whole: its donor's).
  double objective_ = std::numeric_limits<double>::infinity();
  bool splicedSinceFall_ = false;
  std::int64_t splicedRegions_ = 0;
  std::int64_t spliceImprovements_ = 0;  // the window counts are windows_'s own
  std::mutex waitingMutex_;
  std::deque<Donor> waiting_;  // donors left by rows that found the incumbent busy
};

// B's refinement of one legal schedule as work that a time slice may cut and a later slice go on
// with (heuristic::LiveMemoryRefiner keeps its place). The worker resumes it while its
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
  heuristic::LiveMemoryRefiner refiner_;
  LiveMemoryIncumbent* incumbent_;
};

// The refinement of a legal schedule for the formulation's objective, until `stop`. A: peak +
// alpha x communication, i.e. the stage refinement's ratio x peak + communication with ratio =
// 1 / alpha (cut by `stop`, it returns what it reached). B: peak live memory, resumable, its
// schedules offered to `splicer` when there is one.
std::optional<Candidate> refinedCandidate(const RunSetup& setup, const Schedule& legal,
                                          Cycle horizon, const StopRequest& stop,
                                          LiveMemoryIncumbent* splicer) {
  if (setup.formulation == Formulation::kPeakMemory) {
    return std::make_shared<LiveMemoryRefinementInProgress>(setup, legal, horizon, splicer)
        ->resume(stop);
  }
  heuristic::StageRefinementOptions refinement;
  refinement.ratio = setup.options.alpha > 0.0 ? 1.0 / setup.options.alpha : 1.0e12;
  refinement.stop = stop;
  return scoredCandidate(setup, setup.problem,
                         heuristic::refineStages(setup.graph, horizon, legal, refinement).schedule);
}

// Refinement ignores reservations: it applies where no op reserves a limited resource.

// B's exact bound (docs/gaus.md, "The exact bound on small problems"): where the whole graph's
// live-memory model (milp::LiveMemoryModel, every op moving in its ASAP/ALAP window) is small,
// it is solved in a share of the time left, from the best start as CBC's first incumbent. Its
// bound lifts the mandatory lifetimes' (on ctrl at D = 11: 31, the optimum, where they give 5),
// so that a search at the optimum says so and ends, and its schedule is taken when it is
// better. Resources are left out: the model is then a relaxation, its bound still holds, and
// its schedule is taken only when it verifies. The threshold, in nonzeros as estimated before
// the model is built (LiveMemoryModel::estimateSize), measured with CBC at D = the list
// latency (docs/benchmarks.md): ctrl's model (23,000) is proven in 1.2 s; int2float's (62,000)
// and router's (450,000) end 60 s with no bound above the mandatory lifetimes', so their share
// would be spent in vain.
constexpr std::int64_t kExactModelMaxNonzeros = 40'000;
constexpr double kExactShare = 0.25;
// Without a time limit the share is unbounded: the solve then stops here.
constexpr double kExactMaxSeconds = 60.0;

struct ExactPeakMemory {
  std::optional<Schedule> schedule;
  std::optional<double> bound;
};

ExactPeakMemory solveWholeGraphExactly(const RunSetup& setup, Cycle horizon,
                                       const std::vector<Cycle>& alap, const Schedule* start,
                                       double floor, double seconds,
                                       std::vector<Attempt>& attempts) {
  milp::LiveMemoryModelInput input;
  input.graph = &setup.graph;
  input.horizon = horizon;
  input.start = start ? std::span<const Cycle>(start->start) : std::span<const Cycle>(setup.asap);
  for (OpId op = 0; op < setup.graph.numOps(); ++op) {
    input.moving.push_back({op, setup.asap[op], alap[op]});
  }
  input.peakFloor = floor;
  const milp::ModelSize size = milp::LiveMemoryModel::estimateSize(input);
  if (size.nonzeros > kExactModelMaxNonzeros || seconds <= 0.0) return {};
  milp::LiveMemoryModel model(input);
  if (start) model.model().setStart(model.encode(start->start));
  const milp::MilpSolution solution = model.model().solve(std::min(seconds, kExactMaxSeconds));
  Attempt attempt;
  attempt.phase = "exact";
  attempt.horizon = horizon;
  attempt.seconds = solution.seconds;
  attempt.status = solution.hasSolution() && solution.status == ModelStatus::kOptimal
                       ? ModelStatus::kOptimal
                       : solution.status;
  ExactPeakMemory exact;
  if (solution.call == CallStatus::kOk) {
    exact.bound = model.boundOf(solution);
    if (solution.hasSolution() && !solution.values.empty()) {
      Schedule schedule;
      schedule.start = model.decode(solution);
      if (verified(setup.problem, schedule)) exact.schedule = std::move(schedule);
    }
  }
  attempt.bound = exact.bound;
  attempt.detail =
      fmt::format("whole-graph live-memory MILP, {} variables, {} rows, CBC {}",
                  model.model().numVariables(), model.model().numRows(), solution.statusWithNote());
  attempts.push_back(std::move(attempt));
  return exact;
}

// The means with Gaussian noise of `roundingNoise` steps. The noise is drawn from the run's seed
// and the means themselves (64 of them, spread over the ops), so that rows and offers differ and
// a synchronous run stays a function of its seed.
std::vector<double> perturbedMeans(const std::vector<double>& mu, const GausOptions& options) {
  std::uint64_t seed = options.seed;
  const std::size_t stride = std::max<std::size_t>(mu.size() / 64, 1);
  for (std::size_t i = 0; i < mu.size(); i += stride) {
    seed = seed * 0x100000001b3ULL ^ std::hash<double>{}(mu[i]);
  }
  std::mt19937_64 random(seed);
  std::normal_distribution<double> noise(0.0, options.roundingNoise);
  std::vector<double> perturbed(mu);
  for (double& value : perturbed) value += noise(random);
  return perturbed;
}

// `alap`, given with the horizon of A and B: the latest starts at D. Their release times are
// round(mu_i) clamped into [ASAP_i, ALAP_i], so that where no resource is limited the list
// schedule is each op at max(its release, its producers' finish), which never passes D; a mean
// outside its window would otherwise push its successors past D, and the fallback without
// release times would throw away the means' shape.
std::optional<Candidate> legalizeAcyclicCandidate(const RunSetup& setup,
                                                  const std::vector<double>& mu,
                                                  std::optional<Cycle> horizon,
                                                  const std::vector<Cycle>* alap,
                                                  const StopRequest& stop,
                                                  LiveMemoryIncumbent* splicer = nullptr) {
  std::vector<Cycle> rounded =
      roundedStarts(setup.options.roundingNoise > 0.0 ? perturbedMeans(mu, setup.options) : mu);
  const std::vector<double> priority(rounded.begin(), rounded.end());
  const bool release = useReleaseTimes(setup);
  if (release && alap != nullptr) {
    for (std::size_t op = 0; op < rounded.size(); ++op) {
      rounded[op] = std::clamp(rounded[op], setup.asap[op], std::max(setup.asap[op], (*alap)[op]));
    }
  }
  auto schedule = legalizeAcyclic(*setup.listScheduler, priority, release ? &rounded : nullptr);
  if (!schedule) return std::nullopt;
  // With release times the schedule may overrun the horizon where plain priority would not.
  if (horizon && release && latencyOf(setup, *schedule) > static_cast<double>(*horizon)) {
    schedule = legalizeAcyclic(*setup.listScheduler, priority, nullptr);
    if (!schedule) return std::nullopt;
  }
  if (horizon && latencyOf(setup, *schedule) > static_cast<double>(*horizon)) return std::nullopt;
  // The refinement assumes a legal schedule, so a list schedule that is not one is dropped here
  // rather than refined; unrefined, scoredCandidate verifies it (once: at 10M ops a verification
  // is seconds).
  if (setup.refine && horizon) {
    if (!verified(setup.problem, *schedule)) return std::nullopt;
    return refinedCandidate(setup, *schedule, *horizon, stop, splicer);
  }
  return scoredCandidate(setup, setup.problem, std::move(schedule).value());
}

}  // namespace

// ---------------------------------------------------------------- L: search over the horizon
namespace {

// What the latency search carries from one horizon to the next.
struct LatencySearchState {
  Candidate best;             // the best legal schedule so far: the start, at first
  bool firstAttempt = false;  // the next attempt is the first: its means follow option init
};

// One attempt at `horizon` from `state`: success when it legalizes a schedule within D. A
// candidate between D and the best known is kept even when the attempt fails.
SearchRound<LatencySearchState> latencyRound(const RunSetup& setup, Engine& engine,
                                             const LatencySearchState& state,
                                             std::int64_t horizon) {
  const Candidate& best = state.best;
  const std::vector<Cycle> alap = alapAt(setup, horizon);
  const WindowGeometry geometry = makeWindowGeometry(horizon, setup.options);
  const FormulationModel model(setup.problem, Formulation::kLatency, ModuloObjective::kNone,
                               setup.options, geometry, std::nullopt, 1.0, setup.settings);
  AttemptRules rules;
  rules.legalize = [&setup](const std::vector<double>& mu, const StopRequest& stop) {
    return legalizeAcyclicCandidate(setup, mu, std::nullopt, nullptr, stop);
  };
  rules.objectiveToBeat = best.objective;
  rules.success = [horizon](const Candidate& c) { return c.objective <= horizon; };
  engine.worker.beginAttempt(std::move(rules));
  AttemptSpec spec;
  spec.model = &model;
  spec.start = state.firstAttempt ? firstStartingPoint(setup, &best.schedule, alap)
                                  : scheduleStart(best.schedule, setup.asap, alap, setup.options);
  if (setup.options.mixedStarts) {
    spec.alternateStart = midpointStart(setup.asap, alap, setup.options);
  }
  spec.restartFrom = [&](const Candidate& candidate) {
    return scheduleStart(candidate.schedule, setup.asap, alap, setup.options);
  };
  spec.bestLegalSoFar = best.objective;
  const double began = engine.state.elapsedSeconds();
  AttemptOutcome outcome = runAttempt(spec, setup.options, setup.settings, engine.state,
                                      engine.worker, engine.trace, engine.random);
  SearchRound<LatencySearchState> round{{best, false}, {}, std::nullopt};
  round.attempt = horizonAttempt(outcome, horizon, engine.state.elapsedSeconds() - began);
  if (outcome.succeeded) round.attempt.latency = static_cast<std::int64_t>(outcome.best->objective);
  if (outcome.best && outcome.best->objective < best.objective) round.next.best = *outcome.best;
  if (outcome.succeeded) round.reached = static_cast<std::int64_t>(round.next.best.objective);
  return round;
}

}  // namespace

Result searchLatency(const RunSetup& setup, Engine& engine) {
  Result result;
  const ResMii resMii = computeResMii(setup.graph, *setup.problem.machine);
  const double lowerBound = static_cast<double>(std::max<Cycle>(setup.criticalPath, resMii.value));
  result.bounds.lowerBound = lowerBound;
  std::optional<Schedule> start = startSchedule(setup, result.attempts);
  if (!start) return errorResult("list scheduling found no start schedule for the latency search");
  const Candidate first{*start, latencyOf(setup, *start), nullptr};
  result.attempts.push_back(startAttempt(ModelStatus::kFeasible, first.objective,
                                         setup.givenSchedule ? "given" : "list scheduling"));
  SearchEnd<LatencySearchState> search = descendingSearch(
      static_cast<std::int64_t>(lowerBound), static_cast<std::int64_t>(first.objective),
      searchStrategy(setup, first.objective - lowerBound), LatencySearchState{first, true},
      [&](const LatencySearchState& state, std::int64_t horizon) {
        return latencyRound(setup, engine, state, horizon);
      },
      [&engine] { return engine.state.exhausted(); });
  for (Attempt& attempt : search.attempts) result.attempts.push_back(std::move(attempt));
  const Candidate& best = search.last.best;
  result.schedule = best.schedule;
  result.objective = best.objective;
  result.objectiveName = "latency";
  result.bounds.latencyProvenOptimal = best.objective <= lowerBound;
  result.status =
      result.bounds.latencyProvenOptimal ? ModelStatus::kOptimal : ModelStatus::kFeasible;
  return result;
}

// ------------------------------------------------------------ A and B: one attempt at horizon D
Result optimizeAtHorizon(const RunSetup& setup, Engine& engine) {
  const Problem& problem = setup.problem;
  Result result;
  const Cycle horizon = *problem.horizon;
  if (horizon < setup.criticalPath) {
    // A proven answer about a well-formed problem, not a failed call.
    result.status = ModelStatus::kInfeasible;
    result.message = fmt::format(
        "horizon D={} is shorter than the critical path ({} cycles): no schedule exists; "
        "raise --horizon",
        horizon, setup.criticalPath);
    return result;
  }
  const std::vector<Cycle> alap = alapAt(setup, horizon);
  std::optional<Schedule> start = startSchedule(setup, result.attempts);
  // The starts: list scheduling (or the given schedule) and, for A, GS-Schedule's greedy
  // balanced cut (a stage schedule wherever the edges' delays are 0 and the ops' durations 1;
  // elsewhere it may not verify and is left out). The best of them is the first "best"; where
  // refinement applies, each start's refinement is the attempt's first work for the worker.
  std::vector<std::pair<Schedule, std::string>> starts;
  if (start) starts.emplace_back(*start, setup.givenSchedule ? "given" : "list scheduling");
  if (setup.formulation == Formulation::kStageWeight && setup.givenSchedule == nullptr) {
    if (auto cut = heuristic::greedyBalancedStages(setup.graph, horizon);
        cut && verified(problem, *cut)) {
      starts.emplace_back(std::move(cut).value(), "greedy balanced cut");
    }
  }
  std::optional<Candidate> best;
  std::string startName;
  for (const auto& [schedule, name] : starts) {
    const double objective = objectiveOf(setup, schedule);
    if (!best || objective < best->objective) {
      best = Candidate{schedule, objective, nullptr};
      startName = name;
    }
  }
  // Without a legal start, the list schedule still gives the memory scale and, for init=list,
  // the means (squeezed into the horizon).
  if (!start) {
    if (auto list = setup.listScheduler->schedule()) start = std::move(list).value();
  }

  double scale = 1.0;
  if (setup.formulation == Formulation::kStageWeight) {
    const double bound = peakStageWeightLowerBound(setup.graph, horizon);
    if (problem.kind != ProblemKind::kStages) result.bounds.lowerBound = bound;
    scale = bound > 0 ? bound : 1.0;
  } else if (start) {
    const double peak = computeMetrics(setup.graph, *problem.machine, *start).peakLiveMemory;
    scale = peak > 0 ? peak : 1.0;
  }
  if (setup.formulation == Formulation::kPeakMemory) {
    // The min-cut bound, within a tenth of the time limit: the search stops at it.
    reportPeakMemoryBound(problem, result, peakMemoryBoundSeconds(setup.options.timeLimitSeconds));
    const ExactPeakMemory exact =
        solveWholeGraphExactly(setup, horizon, alap, best ? &best->schedule : nullptr,
                               result.bounds.lowerBound.value_or(0.0),
                               kExactShare * engine.state.remainingSeconds(), result.attempts);
    if (exact.bound) {
      result.bounds.lowerBound = std::max(result.bounds.lowerBound.value_or(0.0), *exact.bound);
    }
    if (exact.schedule) {
      const double objective = objectiveOf(setup, *exact.schedule);
      if (!best || objective < best->objective) {
        best = Candidate{*exact.schedule, objective, nullptr};
        startName = "exact model";
      }
    }
  }
  // A schedule at the lower bound is optimal: the search ends there, and does not start when
  // a start is there already.
  const std::optional<double> bound = result.bounds.lowerBound;
  const auto atBound = [bound](const Candidate& candidate) {
    return bound && candidate.objective <= *bound + 1e-9 * std::max(1.0, std::abs(*bound));
  };
  // The attempt's closures refer to it: endAttempt() (in runAttempt, or below) comes first.
  std::shared_ptr<LiveMemoryIncumbent> memoryIncumbent;
  if (setup.refine && setup.formulation == Formulation::kPeakMemory &&
      (setup.options.splice || setup.options.windows)) {
    memoryIncumbent = std::make_shared<LiveMemoryIncumbent>(setup, horizon, engine.state);
  }
  LiveMemoryIncumbent* const improving = memoryIncumbent.get();
  AttemptRules rules;
  rules.legalize = [&setup, horizon, &alap, improving](const std::vector<double>& mu,
                                                       const StopRequest& stop) {
    return legalizeAcyclicCandidate(setup, mu, horizon, &alap, stop, improving);
  };
  if (best) rules.objectiveToBeat = best->objective;
  if (bound) rules.success = atBound;
  engine.worker.beginAttempt(std::move(rules));
  // Each start is refined to its local optimum (or the time limit) before the first Adam step,
  // in both legalization modes, and the best refined one is the attempt's first "best": the
  // rule that GauS at a budget is never worse than its start + refinement (max_steps=0) at the
  // same budget (docs/gaus.md, "Never worse than its start"). It is also the alternate start of
  // the batch.
  if (setup.refine && !(best && atBound(*best))) {
    for (const auto& [schedule, name] : starts) {
      engine.worker.runFirst([&setup, &schedule, horizon, improving](const StopRequest& stop) {
        return refinedCandidate(setup, schedule, horizon, stop, improving);
      });
    }
  }
  std::optional<Candidate> refinedStart = engine.worker.best();
  if (refinedStart) startName += ", refined";
  const std::optional<Candidate>& first = refinedStart ? refinedStart : best;
  result.attempts.push_back(
      first ? startAttempt(ModelStatus::kFeasible, std::nullopt,
                           fmt::format("objective {:.10g} ({})", first->objective, startName))
            : startAttempt(ModelStatus::kUnknown, std::nullopt,
                           "list scheduling exceeds the horizon"));

  const WindowGeometry geometry = makeWindowGeometry(horizon, setup.options);
  const FormulationModel model(problem, setup.formulation, ModuloObjective::kNone, setup.options,
                               geometry, std::nullopt, scale, setup.settings);
  AttemptSpec spec;
  spec.model = &model;
  spec.start = firstStartingPoint(setup, start ? &*start : nullptr, alap);
  if (setup.options.mixedStarts && first) {
    spec.alternateStart = scheduleStart(first->schedule, setup.asap, alap, setup.options);
  }
  spec.restartFrom = [&](const Candidate& candidate) {
    return scheduleStart(candidate.schedule, setup.asap, alap, setup.options);
  };
  if (first) spec.bestLegalSoFar = first->objective;
  const double began = engine.state.elapsedSeconds();
  AttemptOutcome outcome;
  if (!first || !atBound(*first)) {
    outcome = runAttempt(spec, setup.options, setup.settings, engine.state, engine.worker,
                         engine.trace, engine.random);
  } else {
    outcome.best = engine.worker.endAttempt();
  }
  Attempt attempt = horizonAttempt(outcome, horizon, engine.state.elapsedSeconds() - began);
  const bool improved = outcome.best && (!first || outcome.best->objective < first->objective);
  attempt.status = outcome.best || best ? ModelStatus::kFeasible : ModelStatus::kUnknown;
  attempt.detail = fmt::format(
      "{} after {} updates in {} rounds",
      improved ? fmt::format("improved to {:.10g}", outcome.best->objective) : "no improvement",
      outcome.updates, outcome.rounds);
  result.attempts.push_back(std::move(attempt));
  if (outcome.best) best = std::move(outcome.best);
  if (memoryIncumbent) {
    const LiveMemoryIncumbent::Figures work = memoryIncumbent->figures();
    if (setup.options.splice) {
      result.figures.set(figures::kSplicedRegions, static_cast<double>(work.splicedRegions));
      result.figures.set(figures::kSpliceImprovements,
                         static_cast<double>(work.spliceImprovements));
    }
    if (setup.options.windows) {
      result.figures.set(figures::kWindowSolves, static_cast<double>(work.windowSolves));
      result.figures.set(figures::kWindowImprovements,
                         static_cast<double>(work.windowImprovements));
    }
  }
  result.objectiveName =
      setup.formulation == Formulation::kStageWeight ? "stage_objective" : "peak_memory";
  if (!best) {
    result.status = ModelStatus::kTimeout;
    result.message = fmt::format(
        "no legal schedule at D={} found in {:.1f}s; raise "
        "time_limit or patience, or the horizon",
        horizon, engine.state.elapsedSeconds());
    return result;
  }
  result.schedule = best->schedule;
  if (problem.kind == ProblemKind::kStages) {
    // GS-Schedule's scale: ratio x peak + communication, bound ratio x LB.
    reportStageObjective(problem, best->schedule, result);
    return result;
  }
  result.objective = best->objective;
  if (setup.formulation == Formulation::kStageWeight) {
    const StageFigures stage = stageFigures(setup.graph, best->schedule);
    result.figures.set(figures::kPeakStageWeight, stage.peakStageWeight);
    result.figures.set(figures::kCommunication, stage.communication);
  }
  result.status = atBound(*best) ? ModelStatus::kOptimal : ModelStatus::kFeasible;
  return result;
}

// ------------------------------------------------------------------------ C: modulo schedules
namespace {

Cycle moduloHorizon(const RunSetup& setup, const Schedule& reference) {
  if (setup.problem.horizon) return *setup.problem.horizon;
  const double latency = latencyOf(setup, reference);
  return std::max<Cycle>(
      setup.criticalPath + 1,
      static_cast<Cycle>(std::ceil((1.0 + setup.options.horizonSlack) * latency)));
}

// One attempt at `ii`: candidates are modulo-legalized means scored by the secondary objective.
// `best`: the best legal schedule so far, if any.
AttemptOutcome attemptAtIi(const RunSetup& setup, Engine& engine, std::int32_t ii, Cycle horizon,
                           const Candidate* best, double scale, bool stopAtFirstLegal) {
  const std::vector<Cycle> alap = alapAt(setup, horizon);
  const WindowGeometry geometry = makeWindowGeometry(horizon, setup.options);
  const FormulationModel model(setup.problem, Formulation::kModulo, setup.moduloObjective,
                               setup.options, geometry, ii, scale, setup.settings);
  Problem atIi = setup.problem;
  atIi.ii = ii;
  AttemptRules rules;
  rules.legalize = [&](const std::vector<double>& mu,
                       const StopRequest&) -> std::optional<Candidate> {
    auto schedule = legalizeModulo(atIi, ii, roundedStarts(mu), alap, useReleaseTimes(setup));
    if (!schedule) return std::nullopt;
    return scoredCandidate(setup, atIi, std::move(schedule).value());
  };
  if (stopAtFirstLegal) {
    rules.success = [](const Candidate&) { return true; };
  } else if (best) {
    rules.objectiveToBeat = best->objective;
  }
  engine.worker.beginAttempt(std::move(rules));
  AttemptSpec spec;
  spec.model = &model;
  spec.start = !best              ? midpointStart(setup.asap, alap, setup.options)
               : stopAtFirstLegal ? scheduleStart(best->schedule, setup.asap, alap, setup.options)
                                  : firstStartingPoint(setup, &best->schedule, alap);
  if (setup.options.mixedStarts && best) {
    spec.alternateStart = midpointStart(setup.asap, alap, setup.options);
  }
  spec.restartFrom = [&](const Candidate& candidate) {
    return scheduleStart(candidate.schedule, setup.asap, alap, setup.options);
  };
  if (!stopAtFirstLegal && best) spec.bestLegalSoFar = best->objective;
  return runAttempt(spec, setup.options, setup.settings, engine.state, engine.worker, engine.trace,
                    engine.random);
}

// One attempt at `ii` below the II of `best`, the best legal schedule so far (what the search
// over II carries from one II to the next): success when it legalizes a schedule at that II.
SearchRound<Candidate> moduloRound(const RunSetup& setup, Engine& engine, const Candidate& best,
                                   std::int64_t ii) {
  const Cycle horizon = moduloHorizon(setup, best.schedule);
  const double scale = setup.moduloObjective == ModuloObjective::kLatency
                           ? static_cast<double>(horizon)
                           : std::max(objectiveOf(setup, best.schedule), 1e-9);
  const double began = engine.state.elapsedSeconds();
  AttemptOutcome outcome =
      attemptAtIi(setup, engine, static_cast<std::int32_t>(ii), horizon, &best, scale, true);
  Attempt attempt = horizonAttempt(outcome, horizon, engine.state.elapsedSeconds() - began);
  attempt.ii = ii;
  if (!outcome.succeeded) return {best, std::move(attempt), std::nullopt};
  const std::int64_t reached = *outcome.best->schedule.ii;
  return {std::move(outcome.best).value(), std::move(attempt), reached};
}

}  // namespace

Result searchModulo(const RunSetup& setup, Engine& engine) {
  const Problem& problem = setup.problem;
  Result result;
  const ResMii resMii = computeResMii(setup.graph, *problem.machine);
  const RecMii recMii = computeRecMii(setup.graph);
  if (resMii.infeasible || recMii.infeasible) {
    result = errorResult(resMii.infeasible ? *resMii.infeasible : *recMii.infeasible);
    result.status = ModelStatus::kInfeasible;
    return result;
  }
  const std::int64_t minIi = std::max<std::int64_t>({1, resMii.value, recMii.value});
  result.bounds.iiBoundReason = describeIiBound(setup.graph, *problem.machine, resMii, recMii);
  std::optional<Schedule> start = startSchedule(setup, result.attempts);
  std::optional<Candidate> best;
  if (start) best = Candidate{*start, objectiveOf(setup, *start), nullptr};
  if (best) {
    Attempt attempt = startAttempt(
        ModelStatus::kFeasible, std::nullopt,
        fmt::format("objective {:.10g} (iterative modulo scheduling)", best->objective));
    attempt.ii = *best->schedule.ii;
    result.attempts.push_back(std::move(attempt));
  } else {
    result.attempts.push_back(
        startAttempt(ModelStatus::kUnknown, std::nullopt, "no legal modulo schedule"));
  }

  const double startScale = best ? objectiveOf(setup, best->schedule) : 1.0;
  if (problem.ii) {
    // A fixed II: minimize the secondary objective.
    const Cycle horizon = best ? moduloHorizon(setup, best->schedule)
                               : problem.horizon.value_or(2 * setup.criticalPath + *problem.ii);
    const double scale = setup.moduloObjective == ModuloObjective::kLatency
                             ? static_cast<double>(horizon)
                             : std::max(startScale, 1e-9);
    const double began = engine.state.elapsedSeconds();
    AttemptOutcome outcome =
        attemptAtIi(setup, engine, *problem.ii, horizon, best ? &*best : nullptr, scale, false);
    Attempt attempt = horizonAttempt(outcome, horizon, engine.state.elapsedSeconds() - began);
    attempt.ii = *problem.ii;
    attempt.status = outcome.best || best ? ModelStatus::kFeasible : ModelStatus::kUnknown;
    attempt.detail = fmt::format(
        "{} after {} updates",
        outcome.best ? fmt::format("objective {:.10g}", outcome.best->objective) : "no improvement",
        outcome.updates);
    result.attempts.push_back(std::move(attempt));
    if (outcome.best) best = std::move(outcome.best);
    result.objectiveName =
        setup.moduloObjective == ModuloObjective::kMemory ? "peak_memory" : "latency";
  } else {
    // Search II downwards from the start's.
    result.bounds.lowerBound = static_cast<double>(minIi);
    if (best) {
      SearchEnd<Candidate> search = descendingSearch(
          minIi, *best->schedule.ii,
          searchStrategy(setup, static_cast<double>(*best->schedule.ii - minIi)), *best,
          [&](const Candidate& state, std::int64_t ii) {
            return moduloRound(setup, engine, state, ii);
          },
          [&engine] { return engine.state.exhausted(); });
      for (Attempt& attempt : search.attempts) result.attempts.push_back(std::move(attempt));
      best = std::move(search.last);
    }
    result.objectiveName = "ii";
  }
  if (!best) {
    result.status = ModelStatus::kTimeout;
    result.message = "no legal modulo schedule found; raise time_limit or patience";
    return result;
  }
  result.schedule = best->schedule;
  const std::int32_t ii = *best->schedule.ii;
  result.bounds.iiProvenOptimal = ii <= minIi;
  if (problem.ii) {
    result.objective = best->objective;
    result.status = ModelStatus::kFeasible;
  } else {
    result.objective = ii;
    result.status = ii <= minIi ? ModelStatus::kOptimal : ModelStatus::kFeasible;
  }
  result.figures.set(figures::kIi, ii);
  result.figures.set(figures::kLatency, latencyOf(setup, best->schedule));
  result.figures.set(figures::kMinIi, static_cast<double>(minIi));
  return result;
}

}  // namespace gaus::differentiable
