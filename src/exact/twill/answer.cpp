// The answer of a Twill call (search.hpp): the found (II, L) with its warps minimized, its roles
// and explanation, mapped back to raw cycles and verified against the raw problem, with the
// status and message that say what is proven; and, last of every call, the Result's objective,
// bound and figures from what the search found.

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/exact/exact_figures.hpp>

#include "search.hpp"

namespace gaus::exact::detail {

void setRawAnswer(const SearchSetup& setup, Schedule raw, TwillSolution& solution) {
  const Graph& graph = *setup.problem.graph;
  Result& result = solution.result;
  result.schedule = std::move(raw);
  const std::int32_t ii = *result.schedule->ii;
  const Cycle latency = scheduleLatency(graph, result.schedule->start);
  solution.twill.latency = latency;
  solution.twill.stages = stageCount(result.schedule->start, latency, ii);
  solution.twill.assignment.buffers = bufferUsage(graph, *result.schedule);
  VerifyOptions verifyOptions;
  verifyOptions.strategy = setup.options.strategy;
  result.verification = verify(setup.problem, *result.schedule, verifyOptions);
}

namespace {

// How far the minimality proof reaches: the II below the first tried are below MII or the
// warp-aware RecMII (refuted for every L); each II tried is refuted for every L or only up to
// its last L (IiFailure::everyLatency). The failure with the smallest such L limits the proof.
void setIiProof(const IiLoop& loop, TwillIiBound& bound) {
  bound.proof = IiProof::kNone;
  bound.provenWithinLatency.reset();
  bound.provenWithinStages.reset();
  if (!bound.provenMinimal) return;
  const IiFailure* limiting = nullptr;
  for (const IiFailure& failure : loop.failures) {
    if (failure.everyLatency) continue;
    if (!limiting || failure.lastLatency < limiting->lastLatency) limiting = &failure;
  }
  if (!limiting) {
    bound.proof = IiProof::kEveryLength;
    return;
  }
  bound.proof = IiProof::kWithinStageCount;
  bound.provenWithinLatency = limiting->lastLatency;
  bound.provenWithinStages =
      static_cast<std::int32_t>((limiting->lastLatency + limiting->ii - 1) / limiting->ii);
}

}  // namespace

void answerWithFound(const SearchSetup& setup, Found found, bool fromIncumbent, const IiLoop& loop,
                     const StartOutcome& start, TwillSolution& solution) {
  const Graph& graph = *setup.work.graph;
  // The start itself has no model to minimize on or to explain with.
  if (found.model) minimizeAssignment(setup, found, start, solution);
  const Schedule& schedule = found.schedule;
  TwillIiBound& bound = solution.twill.iiBound;
  // The incumbent's II is minimal when every smaller II was tried and refuted.
  bound.provenMinimal = loop.conclusive() && (!fromIncumbent || loop.firstUntriedIi >= found.ii);
  setIiProof(loop, bound);
  if (!setup.normalized) solution.twill.latencyLowerBound = found.latencyLowerBound;
  TwillAssignment& assignment = solution.twill.assignment;
  assignment.roles = warpRoles(graph, *setup.work.machine, schedule);
  assignment.warpsUsed = countWarpsUsed(schedule);
  assignment.crossWarpEdges = countCrossWarpEdges(graph, schedule);
  if (setup.options.explain.enabled && found.model) {
    const Deadline explainBy = beforeTeardown(setup, heldModels(start.incumbent, &found));
    const ExplainContext context{setup.work,    found,         assignment.roles,
                                 loop.failures, setup.options, explainBy};
    solution.twill.explanation = explain(context, solution);
  }

  if (setup.normalized) {
    solution.twill.units.normalizedSchedule = schedule;
    setRawAnswer(setup, toRawSchedule(*setup.normalized, schedule), solution);
  } else {
    setRawAnswer(setup, schedule, solution);
  }
  Result& result = solution.result;
  if (!result.verification->ok()) {
    result.call = CallStatus::kError;
    result.message = "the Twill schedule fails verification (model and verifier disagree): " +
                     result.verification->summary();
    return;
  }
  const bool optimal = bound.provenMinimal && !setup.normalized;
  result.status = optimal ? ModelStatus::kOptimal : ModelStatus::kFeasible;
  if (fromIncumbent && loop.outOfTime) {
    result.status = ModelStatus::kTimeout;
    result.message = fmt::format(
        "total time limit {}s reached before every (II, L) below the incumbent's was decided; "
        "the answer is the incumbent{}",
        setup.options.search.timeLimitSeconds.value_or(0.0),
        bound.provenMinimal ? " (II proven minimal, L not)" : "");
  } else if (!bound.provenMinimal) {
    result.message =
        loop.refusal ? fmt::format("II not proven minimal: {}", loop.refusal->message)
        : fromIncumbent && loop.firstUntriedIi < found.ii
            ? fmt::format(
                  "II not proven minimal: max_ii stops the search below the incumbent's II {}",
                  found.ii)
            : "II not proven minimal: a check at a smaller II timed out";
  } else if (setup.normalized) {
    result.message =
        fmt::format("II minimal in normalized units (1 unit = {} cycles)", setup.timeUnit());
  }
  keepStartIfBetter(setup, start, solution);
}

void publishFigures(TwillSolution& solution) {
  namespace f = figures;
  Result& result = solution.result;
  const TwillFindings& twill = solution.twill;
  result.objectiveName = "ii";
  if (const auto ii = solution.ii()) result.objective = *ii;
  // A start that replaced the answer at a smaller II leaves nothing proven.
  const IiProof proof = twill.iiBound.provenMinimal ? twill.iiBound.proof : IiProof::kNone;
  const bool everyLength = proof == IiProof::kEveryLength && solution.ii();
  // The MII and the proof of minimality hold in the units solved: with normalized costs they
  // are figures, and no raw lower bound is claimed here (the method adds the raw MII).
  // The bound on II is the best one proven: the answer's II where it is proven minimal for
  // every L, else the larger of the MII and the warp-aware RecMII (both hold for every L), so
  // that lower_bound, its gap and ii_proven_optimal say the same. L is proven least (the
  // objective being II, then L) where II is proven minimal for every L and no smaller L has a
  // schedule at it.
  if (!twill.units.normalization) {
    result.bounds.lowerBound =
        everyLength ? static_cast<double>(*solution.ii())
                    : static_cast<double>(std::max(twill.iiBound.mii, twill.iiBound.warpRecMii));
    result.bounds.lowerBoundArgument =
        everyLength ? "every smaller II refuted for every L"
        : twill.iiBound.warpRecMii > twill.iiBound.mii
            ? fmt::format("warp-aware RecMII {}", twill.iiBound.warpRecMii)
            : "";
    result.bounds.latencyProvenOptimal =
        everyLength && twill.latencyLowerBound && twill.latency == twill.latencyLowerBound;
  } else {
    result.figures.set(f::kNormalizedMii, static_cast<double>(twill.iiBound.mii));
    result.figures.set(f::kNormalizedIiProven, twill.iiBound.provenMinimal ? 1.0 : 0.0);
    result.figures.set(f::kTimeUnit, static_cast<double>(twill.units.timeUnit));
  }
  result.bounds.iiProvenOptimal = result.status == ModelStatus::kOptimal;
  double milpSeconds = 0.0;
  double smtSeconds = 0.0;
  double minimizeSeconds = 0.0;
  double explainSeconds = 0.0;
  for (const Attempt& attempt : result.attempts) {
    if (attempt.phase == "milp" || attempt.phase == "smt" || attempt.phase == "probe") {
      ++result.stats.solverCalls;
    }
    if (attempt.phase == "milp") {
      milpSeconds += attempt.seconds;
    } else if (attempt.phase == "smt" || attempt.phase == "probe") {
      smtSeconds += attempt.seconds;
    } else if (attempt.phase.starts_with("minimize")) {
      minimizeSeconds += attempt.seconds;
    } else if (attempt.phase == "explain") {
      explainSeconds += attempt.seconds;
    }
  }
  result.figures.set(f::kMilpSeconds, milpSeconds);
  result.figures.set(f::kSmtSeconds, smtSeconds);
  result.figures.set(f::kMinimizeSeconds, minimizeSeconds);
  result.figures.set(f::kExplainSeconds, explainSeconds);
  if (twill.latency) result.figures.set(f::kLatency, static_cast<double>(*twill.latency));
  if (twill.stages) result.figures.set(f::kStages, *twill.stages);
  if (result.schedule) {
    const TwillAssignment& assignment = twill.assignment;
    result.figures.set(f::kWarpsUsed, assignment.warpsUsed);
    result.figures.set(f::kWarpsProvenMinimal, assignment.warpsProvenMinimal ? 1.0 : 0.0);
    result.figures.set(f::kCrossWarpEdges, assignment.crossWarpEdges);
    result.figures.set(f::kCrossEdgesProvenMinimal, assignment.crossEdgesProvenMinimal ? 1.0 : 0.0);
    result.figures.set(f::kRoles, static_cast<double>(assignment.roles.size()));
  }
  result.figures.set(f::kWarpRecMii, static_cast<double>(twill.iiBound.warpRecMii));
  // L's own bound, where II is proven for every L (a better answer has the same II).
  if (everyLength && twill.latencyLowerBound) {
    result.figures.set(f::kLatencyLowerBound, static_cast<double>(*twill.latencyLowerBound));
  }
  result.figures.set(f::kIiProvenEveryLength, proof == IiProof::kEveryLength ? 1.0 : 0.0);
  if (proof == IiProof::kWithinStageCount) {
    result.figures.set(f::kIiProofLatency, static_cast<double>(*twill.iiBound.provenWithinLatency));
    result.figures.set(f::kIiProofStages, *twill.iiBound.provenWithinStages);
  }
  if (twill.firstSmtScheduleSeconds) {
    result.figures.set(f::kFirstSmtScheduleSeconds, *twill.firstSmtScheduleSeconds);
  }
  if (!twill.explanation.text.empty()) {
    result.notes.emplace_back("explanation", twill.explanation.text);
  }
}

}  // namespace gaus::exact::detail
