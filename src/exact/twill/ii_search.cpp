// The II loop of the Twill search (Algorithm 1; search.cpp has the overview): II upward from
// the first of the range, each II tried by tryIi, which returns what the II gave as a value
// (IiOutcome); the loop carries from one II to the next only the failures so far, the first II
// not tried, the last model refused and whether time ran out (IiLoop).
//
// At one II: the modulo MILP for a lower bound on L, then the SMT model of this II, checked at
// that bound, at the stage limit and, when the limit is SAT and the bound is not, bisected in
// between (SAT is monotone in L, smt_model.hpp); an II whose L loop ends UNSAT gets checks
// beyond the MILP's stages (goBeyondStages).

#include <algorithm>
#include <limits>

#include <gaus/core/analysis.hpp>

#include "../modulo_bounds.hpp"
#include "search.hpp"

namespace gaus::exact::detail {

namespace {

// What one II gave.
struct IiOutcome {
  std::optional<Found> found;           // a satisfiable (II, L): the loop ends with it
  std::optional<IiFailure> failure;     // the II refuted or left undecided
  std::optional<ModelRefusal> refusal;  // the last model refused at this II
  bool outOfTime = false;               // the time limit stopped a step of this II
  bool endsSearch = false;              // its first model was refused: no larger II can do
  std::optional<std::string> error;     // a MILP call failed: the search ends on it
};

// The length of the longest dependence path at this II (modulo ASAP times): a lower bound on
// L that needs no solver.
Cycle criticalPathAtIi(const Graph& graph, std::int32_t ii) {
  const auto earliest = moduloAsapTimes(graph, ii);
  return earliest ? scheduleLatency(graph, *earliest) : 0;
}

// An L that suffices at `ii` for `graph` (warpLatencyBound), or none. Its argument moves ops
// earlier and keeps their warps, so it holds under a strategy that only fixes warps; a strategy
// that fixes stages or an order of starts could be broken by the moves, and has none.
std::optional<Cycle> sufficientLatency(const SearchSetup& setup, const Graph& graph,
                                       std::int32_t ii) {
  const WarpStrategy* strategy = setup.options.strategy;
  if (strategy != nullptr && strategy->constrainsTimes()) return std::nullopt;
  return warpLatencyBound(graph, *setup.work.machine, ii, setup.options.smt.families);
}

// The checks of one II, on the models built for it.
class IiTrial {
 public:
  IiTrial(const SearchSetup& setup, std::int32_t ii, const std::optional<Found>& incumbent,
          TwillSolution& solution)
      : setup_(setup),
        ii_(ii),
        incumbent_(incumbent),
        solution_(solution),
        sufficientLatency_(sufficientLatency(setup, *setup.work.graph, ii)) {}

  // One SMT check of the model at L, logged; nothing when the time is out. A check that is
  // neither SAT nor UNSAT makes the II's failure inconclusive.
  std::optional<SmtAnswer> checkAt(TwillSmtModel& model, Cycle latency, std::string_view note,
                                   IiOutcome& outcome) {
    if (setup_.deadline.expired()) {
      outcome.outOfTime = true;
      outcome.failure->conclusive = false;
      return std::nullopt;
    }
    model.setLatency(latency);
    SmtQuery query = searchQuery(setup_, model, heldModels(incumbent_));
    query.wantCore = true;
    SmtAnswer answer = model.check(query);
    const bool latencyTooShort = answer.status == ModelStatus::kInfeasible && answer.core.empty();
    record(solution_,
           smtAttempt("smt", ii_, latency, answer,
                      latencyTooShort ? "L alone is too short" : std::string(note)),
           setup_.options);
    if (answer.status == ModelStatus::kFeasible) {
      noteSmtSchedule(setup_, solution_);
    } else if (answer.status != ModelStatus::kInfeasible) {
      outcome.failure->conclusive = false;
    }
    return answer;
  }

  // The smallest satisfiable L in (unsat, sat], `sat` being satisfiable with `best`, by
  // bisection on the II's model. A check that times out counts as not satisfiable, so L may
  // then be above the least.
  Found bisectLatency(std::unique_ptr<TwillSmtModel> model, Cycle unsat, Cycle sat, Schedule best,
                      std::string_view note, IiOutcome& outcome) {
    while (sat - unsat > 1) {
      const Cycle middle = unsat + (sat - unsat) / 2;
      auto answer = checkAt(*model, middle, note, outcome);
      if (!answer) break;
      if (answer->status == ModelStatus::kFeasible) {
        sat = middle;
        best = std::move(answer->schedule).value();
      } else {
        unsat = middle;
      }
    }
    model->setLatency(sat);
    Found found{ii_, sat, std::move(best), std::move(model)};
    found.latencyLowerBound =
        sat - unsat == 1 && outcome.failure->conclusive ? sat : outcome.failure->firstLatency;
    return found;
  }

  // Beyond the paper: Algorithm 1 stops at the MILP's stage count, but a cross-warp edge's
  // spill cost can need one stage more, so an II refuted there may still have schedules (the
  // cross-method check found loops called infeasible, or a larger II called minimal;
  // tests/data/crosscheck/). The L that decides it (at most `latencyCap`, the largest L that
  // could beat the incumbent) is the L that suffices at this II when there is one, else the
  // serial latency with spill costs and residue waits; the checks gallop towards it from the
  // stage limit, one II more, two, four, ..., each on a model built at its own L, since the
  // model grows with L and so does the time of a check (the FA Blackwell ablation with spill
  // cost 64: SAT at L 1408 in 87 s, at L 96 in 3 s; the stand-in's L 36 on a model built at its
  // serial latency: over 60 s, on its own 0.1 s).
  // UNSAT up to that latency leaves the II refuted; the first SAT bisects L down to the last
  // UNSAT on that step's model. The refutation holds for every L only where an L suffices at
  // this II (warpLatencyBound: no register or memory family can bind); elsewhere the answer
  // says it holds up to the L checked (IiFailure::everyLatency, TwillIiBound::proof).
  void goBeyondStages(Cycle stageLimit, Cycle latencyCap, IiOutcome& outcome) {
    const Graph& graph = *setup_.work.graph;
    // An L that suffices at this II (warpLatencyBound), when there is one, decides, and only it
    // proves the II for every L: the serial latency can be below it (a loop-carried edge's
    // spill is not in the serial windows). Without one, the serial latency, where each op may
    // also wait up to II - 1 cycles for a free residue of the modulo table.
    const Cycle serialLatency =
        serialLatencyWithSpills(graph) + static_cast<Cycle>(graph.numOps()) * (ii_ - 1);
    const Cycle decidingLatency = std::min(latencyCap, sufficientLatency_.value_or(serialLatency));
    if (decidingLatency <= stageLimit) return;
    constexpr std::string_view kNote = "beyond the MILP's stages";
    Cycle unsat = stageLimit;
    for (Cycle step = ii_;; step *= 2) {
      if (setup_.deadline.expired()) {
        outcome.outOfTime = true;
        outcome.failure->conclusive = false;
        return;
      }
      const Cycle latency = std::min(decidingLatency, stageLimit + step);
      BuiltModel built = buildModel(setup_, ii_, latency, heldModels(incumbent_), solution_);
      if (!built.model) {
        // Undecided at this II; the next II starts from a model at its own stage limit, which
        // may fit the time (or memory) left.
        outcome.refusal = std::move(built.refusal);
        outcome.failure->conclusive = false;
        return;
      }
      std::unique_ptr<TwillSmtModel> model = std::move(built.model);
      auto answer = checkAt(*model, latency, kNote, outcome);
      if (answer && answer->status == ModelStatus::kFeasible) {
        outcome.found = bisectLatency(std::move(model), unsat, latency,
                                      std::move(answer->schedule).value(), kNote, outcome);
        return;
      }
      if (!answer || answer->status != ModelStatus::kInfeasible) return;
      unsat = latency;
      outcome.failure->lastLatency = latency;
      if (latency == decidingLatency) return;
    }
  }

  // Beyond the paper, for an II left without a schedule where registers or memory could bind,
  // so that no L suffices for the problem itself: its relaxation without them
  // (withoutLifetimeCosts) has a schedule whenever the problem has one, and an L that suffices
  // (warpLatencyBound). One UNSAT check of the relaxation at that L refutes the II for every L,
  // whatever the checks of the problem gave. It runs last at the II, since the checks beyond the
  // stages may still find a schedule, and within half the time left, so that a model too large
  // or a check that times out leaves the next II the other half, as the search had before.
  void refuteWithoutLifetimes(IiOutcome& outcome) {
    IiFailure& failure = *outcome.failure;
    if (failure.everyLatency || setup_.deadline.expired()) return;
    if (sufficientLatency_) return;  // the problem has an L of its own: goBeyondStages used it
    SearchSetup relaxed = setup_;
    relaxed.work.graph = std::make_shared<const Graph>(withoutLifetimeCosts(*setup_.work.graph));
    const auto latency = sufficientLatency(setup_, *relaxed.work.graph, ii_);
    if (!latency) return;
    if (const auto left = setup_.deadline.remainingLimit()) {
      relaxed.deadline = earlierBy(setup_.deadline, *left / 2);
    }
    const auto held = heldModels(incumbent_);
    BuiltModel built = buildModel(relaxed, ii_, *latency, held, solution_);
    if (!built.model) return;
    built.model->setLatency(*latency);
    const SmtAnswer answer = built.model->check(searchQuery(relaxed, *built.model, held));
    record(solution_,
           smtAttempt("smt", ii_, *latency, answer,
                      "without registers and memory, at an L that suffices"),
           setup_.options);
    if (answer.status != ModelStatus::kInfeasible) return;
    failure.everyLatency = true;
    failure.conclusive = true;
    failure.refutedWithoutLifetimesAt = *latency;
    // The II no longer rests on a model that was not built.
    outcome.refusal.reset();
  }

  // The II: the modulo MILP for a lower bound on L, then the SMT model of this II.
  IiOutcome run(const StartOutcome& start) {
    IiOutcome outcome;
    const TwillOptions& options = setup_.options;
    ModuloMilpOptions milp = options.milp;
    milp.call.deadline = beforeTeardown(setup_, heldModels(incumbent_));
    const bool incumbentIi = incumbent_ && ii_ == incumbent_->ii;
    // The incumbent is a modulo schedule at its II: the solver's start there.
    if (incumbentIi) milp.initialStart = incumbent_->schedule.start;
    const ModuloAttempt modulo = solveModuloAtIi(setup_.work, ii_, milp);
    {
      TwillAttempt attempt{modulo.record(), {}};
      // The log of the search says why a II is not settled; an optimal one needs no reason.
      attempt.record.detail =
          modulo.status == ModelStatus::kOptimal ? modulo.formulation : modulo.detail;
      record(solution_, std::move(attempt), options);
    }
    if (modulo.call == CallStatus::kError) {
      outcome.error = modulo.detail;
      return outcome;
    }
    if (incumbentIi && setup_.deadline.expired()) {
      outcome.outOfTime = true;
      return outcome;
    }
    IiFailure& failure = outcome.failure.emplace();
    failure.ii = ii_;
    if (modulo.status == ModelStatus::kInfeasible || setup_.deadline.expired()) {
      failure.moduloInfeasible = modulo.status == ModelStatus::kInfeasible;
      // The MILP's windows lose no schedule (existenceLatencyBound): refuted for every L.
      failure.everyLatency = failure.moduloInfeasible;
      failure.milpDetail = modulo.detail;
      failure.conclusive = failure.moduloInfeasible;
      outcome.outOfTime = !failure.conclusive;
      return outcome;
    }
    // L's lower bound: the MILP's L when proven minimal, else the best of its bound and the
    // critical path at this II. The stage limit of Algorithm 1 comes from the MILP's L; when
    // the MILP stopped without a schedule, from the bound (goBeyondStages covers the rest).
    const Cycle firstLatency = modulo.status == ModelStatus::kOptimal
                                   ? *modulo.latency
                                   : std::max(modulo.latencyLowerBound.value_or(0),
                                              criticalPathAtIi(*setup_.work.graph, ii_));
    const Cycle stageBase = modulo.latency.value_or(firstLatency);
    const Cycle stageLimit =
        std::max(firstLatency, ((stageBase + ii_ - 1) / ii_ + options.search.extraStages) * ii_);
    // At the incumbent's II only a smaller L can beat it; none when the bound reaches its L.
    const Cycle latencyCap =
        incumbentIi ? incumbent_->latency - 1 : std::numeric_limits<Cycle>::max();
    if (firstLatency > latencyCap) {
      outcome.failure.reset();
      return outcome;
    }
    const Cycle upper = std::min(stageLimit, latencyCap);
    failure.firstLatency = firstLatency;
    failure.lastLatency = upper;
    BuiltModel built = buildModel(setup_, ii_, upper, heldModels(incumbent_), solution_);
    if (!built.model) {
      // A larger II needs no smaller a model, and the time left only shrinks: the search ends
      // here. Refused for memory, on the start when there is one (its answer then says the II
      // is not proven), else as a failed call; refused for time, as a timeout.
      const bool forTime = built.refusal->forTime;
      if (!forTime && !incumbent_ && !start.verifiedStart) {
        outcome.error = built.refusal->message;
        return outcome;
      }
      outcome.refusal = std::move(built.refusal);
      outcome.outOfTime = forTime;
      failure.conclusive = false;
      outcome.endsSearch = true;
      return outcome;
    }
    std::unique_ptr<TwillSmtModel> model = std::move(built.model);
    if (options.search.latencySearch == LatencySearch::kAscending) {
      for (Cycle latency = firstLatency; latency <= upper; ++latency) {
        auto answer = checkAt(*model, latency, "", outcome);
        if (!answer) break;
        if (answer->status == ModelStatus::kFeasible) {
          model->setLatency(latency);
          outcome.found =
              Found{ii_, latency, std::move(answer->schedule).value(), std::move(model)};
          // From firstLatency, L's lower bound, every smaller L was refuted, unless one timed out.
          outcome.found->latencyLowerBound = failure.conclusive ? latency : firstLatency;
          break;
        }
      }
    } else {
      auto atBound = checkAt(*model, firstLatency, "", outcome);
      if (atBound && atBound->status == ModelStatus::kFeasible) {
        outcome.found =
            Found{ii_, firstLatency, std::move(atBound->schedule).value(), std::move(model)};
        outcome.found->latencyLowerBound = firstLatency;  // L's lower bound holds a schedule
      } else if (atBound && upper > firstLatency) {
        auto atLimit = checkAt(*model, upper, "", outcome);
        if (atLimit && atLimit->status == ModelStatus::kFeasible) {
          outcome.found = bisectLatency(std::move(model), firstLatency, upper,
                                        std::move(atLimit->schedule).value(), "", outcome);
        }
      }
    }
    if (!outcome.found && !outcome.outOfTime && upper == stageLimit) {
      goBeyondStages(stageLimit, latencyCap, outcome);
    }
    // Found, or the incumbent's II, which has a schedule: not a failed II, whatever its smaller
    // L gave.
    if (outcome.found || incumbentIi) {
      outcome.failure.reset();
      return outcome;
    }
    if (failure.conclusive) {
      failure.everyLatency = sufficientLatency_ && failure.lastLatency >= *sufficientLatency_;
    }
    refuteWithoutLifetimes(outcome);
    return outcome;
  }

 private:
  const SearchSetup& setup_;
  const std::int32_t ii_;
  const std::optional<Found>& incumbent_;
  TwillSolution& solution_;
  // An L that suffices at this II (modulo_bounds.hpp), when the families allow one.
  const std::optional<Cycle> sufficientLatency_;
};

}  // namespace

Cycle serialLatencyWithSpills(const Graph& graph) {
  Cycle total = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    Cycle window = graph.duration(op);
    for (EdgeId e : graph.outEdges(op)) {
      if (graph.edgeDistance(e) != 0) continue;
      window = std::max<Cycle>(window, graph.edgeDelay(e) + graph.spillCost(op));
    }
    total += window;
  }
  return total;
}

bool IiLoop::conclusive() const {
  return std::all_of(failures.begin(), failures.end(),
                     [](const IiFailure& failure) { return failure.conclusive; });
}

std::optional<IiLoop> searchIis(const SearchSetup& setup, const StartOutcome& start,
                                TwillSolution& solution) {
  IiLoop loop;
  loop.firstUntriedIi = setup.iis.first;
  loop.refusal = start.refusal;
  const std::optional<Found>& incumbent = start.incumbent;
  const std::int32_t lastTried =
      incumbent ? std::min(setup.iis.last, incumbent->ii) : setup.iis.last;
  for (std::int32_t ii = setup.iis.first; ii <= lastTried && !loop.found; ++ii) {
    if (setup.deadline.expired()) {
      loop.outOfTime = true;
      break;
    }
    IiOutcome outcome = IiTrial(setup, ii, incumbent, solution).run(start);
    if (outcome.error) {
      failCall(solution, std::move(*outcome.error));
      return std::nullopt;
    }
    if (outcome.refusal) loop.refusal = std::move(outcome.refusal);
    loop.outOfTime = loop.outOfTime || outcome.outOfTime;
    if (outcome.failure) loop.failures.push_back(std::move(*outcome.failure));
    loop.found = std::move(outcome.found);
    loop.firstUntriedIi = ii + 1;
    if (outcome.endsSearch) break;
  }
  return loop;
}

}  // namespace gaus::exact::detail
