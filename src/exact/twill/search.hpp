// Internal to the Twill search (search.cpp runs the steps in order): the values one step hands
// to the next, and the steps' entry points, one file each:
//   setup.cpp     the problem as solved (warps, the input check, normalization, the II range)
//   start.cpp     a start schedule: the incumbent and its probe; the start as the answer
//   ii_search.cpp the II loop of Algorithm 1 (tryIi returns the II's outcome as a value)
//   models.cpp    the SMT model of an (II, L) within memory_limit and the time left
//   minimize.cpp  after SAT: fewest warps, then fewest cross-warp edges
//   answer.cpp    the found (II, L) as the call's answer, and the figures it publishes
//   explain.cpp   what binds II, why roles were split, what blocks every II
// The state of the search is what the II loop carries from one II to the next (IiLoop); the
// rest is read-only (SearchSetup, StartOutcome) or the answer being written (TwillSolution).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/deadline.hpp>
#include <gaus/core/expected.hpp>
#include <gaus/exact/twill.hpp>

#include "smt_model.hpp"

namespace gaus::exact::detail {

// One line of the attempt log as a step makes it: the core record and, for an infeasible SMT
// check, the families of its unsat core.
struct TwillAttempt {
  Attempt record;
  std::vector<TwillFamily> blocking;

  // The record with the blocking families added to its detail, as Result::attempts holds it.
  Attempt withBlocking() const;
};

// Appends an attempt to the answer's log (Result::attempts and the blocking families).
void logAttempt(TwillSolution& solution, TwillAttempt attempt);
// logAttempt, and the attempt shown as progress.
void record(TwillSolution& solution, TwillAttempt attempt, const TwillOptions& options);
// The log line of one SMT check.
TwillAttempt smtAttempt(std::string phase, std::int32_t ii, Cycle latency, const SmtAnswer& answer,
                        std::string detail = {});

struct IiRange {
  std::int32_t first = 1;
  std::int32_t last = 1;
};

// What every step reads and none changes.
struct SearchSetup {
  Problem problem;  // as asked: raw cycles, kModuloWarp, the warps option applied
  Problem work;     // as solved: normalized when the costs are large
  std::optional<NormalizedProblem> normalized;
  const TwillOptions& options;
  IiRange iis;  // the fixed II, or MII up to max_ii (default the serial non-overlapped II)
  SmtModelOptions modelOptions;
  Deadline deadline;  // the call's time_limit, from its start (its elapsedSeconds: the call's)

  std::int64_t timeUnit() const { return normalized ? normalized->timeUnit : 1; }
};

// The latency of one iteration run serially with every cross-warp cost paid: ops one after
// another, each waiting out its duration, its distance-0 out-delays and its spill cost. The L at
// which goBeyondStages asks whether an II refuted within the MILP's stages has schedules at all.
Cycle serialLatencyWithSpills(const Graph& graph);

// The problem as solved, its MII (in the answer's bound and figures) and the II range; nothing
// when the search ends before it starts (a bad option or input, ResMII or RecMII infeasible,
// normalization failed): the answer then says why.
std::optional<SearchSetup> setUpSearch(const Problem& input, const TwillOptions& options,
                                       Deadline deadline, TwillSolution& solution);

// Ends the call on `message`: a failed call (bad options or input, a model refused for its
// size, a MILP error), unless a status was proven first (ResMII or RecMII infeasible).
void failCall(TwillSolution& solution, std::string message);

// A schedule in the units solved at (ii, latency), with the model it satisfies at that L (none
// for a start schedule that the model did not produce).
struct Found {
  std::int32_t ii = 0;
  Cycle latency = 0;
  Schedule schedule;
  std::unique_ptr<TwillSmtModel> model;
  // No schedule at this II has a smaller L: `latency` itself where every L from the II's bound
  // on L (the MILP's, or the critical path at II) up to it was refuted conclusively, so that L
  // is the least there; else that bound. Unset where the search knows none.
  std::optional<Cycle> latencyLowerBound = std::nullopt;
};

// Why the search has no model at an (II, L): its estimated size is above memory_limit, or it
// cannot be built, loaded into Z3 and torn down in the time left (TwillSmtModel::buildWithin).
// The first is a statement about the machine (a larger II needs no smaller a model), the second
// about the clock.
struct ModelRefusal {
  std::string message;
  bool forTime = false;
};

// The model built at an (II, L), or why it was not.
struct BuiltModel {
  std::unique_ptr<TwillSmtModel> model;
  std::optional<ModelRefusal> refusal;  // set when `model` is not
};

// The models the search holds while it builds or checks another (the incumbent's, the one
// found): their memory counts against memory_limit, their teardown against the time left.
std::vector<const TwillSmtModel*> heldModels(const std::optional<Found>& incumbent,
                                             const Found* found = nullptr);

// A deadline `reserve` seconds before `deadline` (none when it has none): what the work before
// a teardown may use.
Deadline earlierBy(const Deadline& deadline, double reserve);

// Seconds to tear down `held` and `checked` when it is another: the time the work before the
// call returns must leave.
double teardownSeconds(const std::vector<const TwillSmtModel*>& held,
                       const TwillSmtModel* checked = nullptr);

// The deadline less the teardown of `held`.
Deadline beforeTeardown(const SearchSetup& setup, const std::vector<const TwillSmtModel*>& held);

// The SMT model at (ii, latency), or why not (the log has the refusal): its estimated size, with
// the models held, is above memory_limit; or it cannot be built, loaded into Z3 and torn down in
// the time left, the teardown of the models held set aside (TwillSmtModel::buildWithin). The
// model grows with L x ops and with II x reserved cycles (docs/exact.md, "The SMT model's
// size"), and so does the time to build and load it ("Time limits and model size").
BuiltModel buildModel(const SearchSetup& setup, std::int32_t ii, Cycle latency,
                      const std::vector<const TwillSmtModel*>& held, TwillSolution& solution);

// A check of the search (probe, (II, L), the rebuilt model) on `model`: the families asked for,
// within the per-check limit and the time left less the teardown of `held` and `model`.
SmtQuery searchQuery(const SearchSetup& setup, const TwillSmtModel& model,
                     const std::vector<const TwillSmtModel*>& held);

// Notes the first schedule of the SMT model (TwillFindings::firstSmtScheduleSeconds).
void noteSmtSchedule(const SearchSetup& setup, TwillSolution& solution);

// What a start schedule (TwillOptions::start) gave before the II loop.
struct StartOutcome {
  // The best (II, L) known before the search, in the units solved: the start when it maps onto
  // them and verifies, or the probe's schedule.
  std::optional<Found> incumbent;
  std::optional<Schedule> verifiedStart;  // the start, raw cycles, when it verifies
  std::optional<ModelRefusal> refusal;    // the probe's model, refused
};

// The start schedule: checked against the problem as asked, kept as the answer of last resort
// when it verifies, an incumbent in the units solved when it maps onto them exactly, and
// probed there. Never ends the search; the note says what became of it.
StartOutcome adoptStart(const SearchSetup& setup, TwillSolution& solution);

// Why every II below the answer failed, as the search recorded it.
struct IiFailure {
  std::int32_t ii = 0;
  bool moduloInfeasible = false;  // the MILP proved no modulo schedule
  std::string milpDetail;
  Cycle firstLatency = 0, lastLatency = 0;  // the L range the SMT tried
  bool conclusive = true;                   // no timeout
  // Refuted for every L: the MILP's proof (no modulo schedule at any L), every L refuted up to
  // an L that suffices at this II (warpLatencyBound), or the relaxation without registers and
  // memory refuted at its own such L (refutedWithoutLifetimesAt).
  bool everyLatency = false;
  std::optional<Cycle> refutedWithoutLifetimesAt;
};

// What the II loop carries from one II to the next, and what it ended with.
struct IiLoop {
  std::vector<IiFailure> failures;      // the II tried without an answer, in order
  std::int32_t firstUntriedIi = 1;      // every II below this one was tried
  std::optional<ModelRefusal> refusal;  // the last model refused (memory or time)
  bool outOfTime = false;               // the time limit stopped a step
  std::optional<Found> found;           // the satisfiable (II, L) that ended the loop

  // Every II tried failed conclusively.
  bool conclusive() const;
};

// Algorithm 1: II upward until an (II, L) is satisfiable, the range or the time ends; with an
// incumbent, up to its II. An error ends it (the answer then says why).
std::optional<IiLoop> searchIis(const SearchSetup& setup, const StartOutcome& start,
                                TwillSolution& solution);

// After SAT, on the model of `found`: the fewest warps, then the fewest cross-warp edges, by
// iterated SAT with a decreasing cardinality bound, each step within minimize_time_limit and
// what `deadline` leaves. First rebuilds the model at exactly the found (II, L), so that the
// answer depends on the (II, L) found, not on the path to it.
void minimizeAssignment(const SearchSetup& setup, Found& found, const StartOutcome& start,
                        TwillSolution& solution);

// The found (II, L) as the answer: warps and cross-warp edges minimized, roles, the
// explanation, the schedule in raw cycles and verified against the raw problem, the status; a
// verified start that beats it replaces it. `fromIncumbent`: the search never beat the
// incumbent.
void answerWithFound(const SearchSetup& setup, Found found, bool fromIncumbent, const IiLoop& loop,
                     const StartOutcome& start, TwillSolution& solution);
// No schedule in the units solved, but a start that verifies in raw cycles: the start is the
// answer.
void answerWithStart(const SearchSetup& setup, const IiLoop& loop, const StartOutcome& start,
                     TwillSolution& solution);
// The answer's figures, from its raw schedule, and its verification against the raw problem.
void setRawAnswer(const SearchSetup& setup, Schedule raw, TwillSolution& solution);
// The verified start, as it is, is the answer: roles and warps from its own assignment.
void useStart(const SearchSetup& setup, const Schedule& start, TwillSolution& solution);
// The verified start replaces the answer when it is better in twill's order of objectives.
void keepStartIfBetter(const SearchSetup& setup, const StartOutcome& start,
                       TwillSolution& solution);
// The Result's objective, bound, figures and solver calls from what the search found: the last
// step of every call.
void publishFigures(TwillSolution& solution);

// No satisfiable (II, L): a timeout, or infeasible with the families that block it.
void answerWithoutSchedule(const SearchSetup& setup, const IiLoop& loop, const StartOutcome& start,
                           TwillSolution& solution);

struct ExplainContext {
  const Problem& problem;  // in the units solved
  const Found& found;      // the answer's (II, L), schedule and model (built at that L)
  const std::vector<WarpRole>& roles;
  const std::vector<IiFailure>& failures;
  const TwillOptions& options;
  // The call's, less the teardown of the models it holds: each query gets at most what is left.
  const Deadline& deadline;
};

// What binds II (ResMII, RecMII or the warp constraints, with the blocking families of every
// failed II) and, for every pair of warp roles, whether and why they cannot share a warp set.
// Logs its solver calls in the answer.
TwillExplanation explain(const ExplainContext& context, TwillSolution& solution);

// Why (ii, latency) is UNSAT: a fresh model checked with a deletion-minimized core within
// options.explain.timeLimitSeconds and what `deadline` leaves, building the model included (a
// model that cannot be built in that time is not: the answer is then kTimeout); the check is
// logged in the answer with `detail`.
SmtAnswer explainFailure(const Problem& problem, std::int32_t ii, Cycle latency,
                         const TwillOptions& options, const Deadline& deadline, std::string detail,
                         TwillSolution& solution);

}  // namespace gaus::exact::detail
