// A start schedule in the Twill search (TwillOptions::start: `gaus schedule --init`,
// raw cycles; docs/exact.md "Warm starts"). Before the II loop it is checked against the
// problem as asked, kept as the answer of last resort when it verifies, an incumbent in the
// units solved when it maps onto them exactly, and probed there: the SMT check at its (II, L)
// (phase "probe"), whose schedule is the incumbent when satisfiable. After the loop it is the
// answer when the search found nothing of its own, or when it beats the search's answer.

#include <array>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/problem_facts.hpp>

#include "../start_schedule.hpp"
#include "search.hpp"

namespace gaus::exact::detail {

namespace {

constexpr std::string_view kStartNote = "initial schedule";

// Why a start schedule cannot be used for this problem, in raw cycles; nothing when it fits.
// It need not verify: a modulo schedule without warps (ilp's) is still a probe.
std::optional<std::string> whyStartDoesNotFit(const Problem& problem, const Schedule& start) {
  const Graph& graph = *problem.graph;
  if (static_cast<std::int64_t>(start.start.size()) != graph.numOps()) {
    return fmt::format("it has {} starts for {} ops", start.start.size(), graph.numOps());
  }
  if (!start.ii) return std::string("it is not a modulo schedule (no II)");
  if (problem.ii && *start.ii != *problem.ii) {
    return fmt::format("its II {} differs from the fixed II {}", *start.ii, *problem.ii);
  }
  const auto facts = problem.facts();
  const MiiBound& mii = facts->mii();
  if (*start.ii < mii.value) {
    return fmt::format("its II {} is below MinII {} (ResMII {}, RecMII {})", *start.ii, mii.value,
                       mii.resMii, mii.recMii);
  }
  return std::nullopt;
}

// The SMT check at the start's (II, L) in the units solved; a satisfiable one becomes the
// incumbent (with its warps and its model) unless the start itself is better there. Returns
// what it gave, for the note. Normalized, both are rounded up: a normalized (II', L') stands
// for (II' x unit, L' x unit) raw cycles, so the probe asks for no less than the start has.
std::string probeStart(const SearchSetup& setup, std::int32_t rawIi, Cycle rawLatency,
                       StartOutcome& start, TwillSolution& solution) {
  const std::int64_t unit = setup.timeUnit();
  const auto ii = static_cast<std::int32_t>((rawIi + unit - 1) / unit);
  const Cycle latency = (rawLatency + unit - 1) / unit;
  std::string text;
  if (unit > 1) {
    text = fmt::format("; probe in normalized units (1 unit = {} cycles, rounded up)", unit);
  }
  if (ii < setup.iis.first) {
    return text + fmt::format("; no probe: II {} is below the first II {} of the search", ii,
                              setup.iis.first);
  }
  if (setup.deadline.expired()) return text + "; no probe: the time limit was reached before it";
  std::optional<Found>& incumbent = start.incumbent;
  BuiltModel built = buildModel(setup, ii, latency, heldModels(incumbent), solution);
  if (!built.model) {
    start.refusal = std::move(built.refusal);
    return text + "; no probe: " + start.refusal->message;
  }
  std::unique_ptr<TwillSmtModel> model = std::move(built.model);
  model->setLatency(latency);
  SmtQuery query = searchQuery(setup, *model, heldModels(incumbent));
  query.wantCore = true;
  SmtAnswer answer = model->check(query);
  record(solution, smtAttempt("probe", ii, latency, answer, ""), setup.options);
  text += fmt::format("; probe at II {}, L {}: ", ii, latency);
  if (answer.status == ModelStatus::kFeasible) {
    noteSmtSchedule(setup, solution);
    const Cycle found = scheduleLatency(*setup.work.graph, answer.schedule->start);
    // On a tie the model's schedule wins: the minimizations and the explanation need it.
    if (!incumbent || found <= incumbent->latency) {
      model->setLatency(found);
      incumbent = Found{ii, found, std::move(answer.schedule).value(), std::move(model)};
    }
    return text + fmt::format("SAT, L {} on {} warp(s): the incumbent", found,
                              countWarpsUsed(incumbent->schedule));
  }
  if (answer.status == ModelStatus::kInfeasible) {
    text += "UNSAT";
    if (!answer.core.empty()) text += " (blocked by " + familyList(answer.core) + ")";
    // Only where the start is a schedule of the units solved does UNSAT contradict it.
    if (incumbent && unit == 1) {
      text += "; twill's model is stricter than the verifier here (memory_model=buffers?)";
    }
    return text;
  }
  return text + fmt::format("{} after {:.3f}s, no schedule of twill's model from it",
                            statusText(CallStatus::kOk, answer.status), answer.seconds);
}

}  // namespace

StartOutcome adoptStart(const SearchSetup& setup, TwillSolution& solution) {
  StartOutcome outcome;
  if (setup.options.start.schedule == nullptr) return outcome;
  const Schedule& start = *setup.options.start.schedule;
  const std::string& origin = setup.options.start.origin;
  if (const auto unfit = whyStartDoesNotFit(setup.problem, start)) {
    solution.result.notes.emplace_back(kStartNote, fmt::format("ignored ({}): {}", origin, *unfit));
    return outcome;
  }
  const Cycle rawLatency = scheduleLatency(*setup.problem.graph, start.start);
  std::string text =
      fmt::format("the start came from {}: II {}, L {}", origin, *start.ii, rawLatency);
  VerifyOptions verifyOptions;
  verifyOptions.strategy = setup.options.strategy;  // a start must follow the strategy too
  const VerificationReport report = verify(setup.problem, start, verifyOptions);
  if (report.ok()) {
    outcome.verifiedStart = start;
    text += "; it verifies (the answer if nothing better is found)";
    auto inUnits = initialInUnits(setup.work, start, setup.timeUnit());
    if (inUnits) {
      const Cycle latency = scheduleLatency(*setup.work.graph, inUnits->start);
      const std::int32_t ii = *inUnits->ii;
      outcome.incumbent = Found{ii, latency, std::move(inUnits).value(), nullptr};
    } else {
      text += fmt::format(", in raw cycles only: in normalized units {}", inUnits.error());
    }
  } else {
    text += fmt::format("; it does not verify ({} violations; first: {}), so it is only a probe",
                        report.totalViolations,
                        report.violations.empty() ? "" : report.violations.front().message);
  }
  text += probeStart(setup, *start.ii, rawLatency, outcome, solution);
  if (outcome.incumbent) {
    text += fmt::format("; the search tries II up to {} and, at {}, L below {}",
                        outcome.incumbent->ii, outcome.incumbent->ii, outcome.incumbent->latency);
  }
  solution.result.notes.emplace_back(kStartNote, std::move(text));
  return outcome;
}

void useStart(const SearchSetup& setup, const Schedule& start, TwillSolution& solution) {
  solution.twill.units.normalizedSchedule.reset();
  setRawAnswer(setup, start, solution);
  const Graph& graph = *setup.problem.graph;
  TwillAssignment& assignment = solution.twill.assignment;
  assignment.roles = warpRoles(graph, *setup.problem.machine, start);
  assignment.warpsUsed = countWarpsUsed(start);
  assignment.crossWarpEdges = countCrossWarpEdges(graph, start);
  assignment.warpsProvenMinimal = false;
  assignment.crossEdgesProvenMinimal = false;
}

// Twill's order of objectives: raw II, then L, then warps used, then cross-warp edges. With
// normalized costs the start need not be a schedule of the rounded-up normalized problem, so its
// II or L can beat the answer's in raw cycles; at the same (II, L) the answer can be the probe's
// schedule with the warps still to minimize when the time ran out (the start may already have
// fewer).
void keepStartIfBetter(const SearchSetup& setup, const StartOutcome& start,
                       TwillSolution& solution) {
  if (!start.verifiedStart) return;
  const Schedule& verified = *start.verifiedStart;
  const Graph& graph = *setup.problem.graph;
  const std::array<Cycle, 4> ours{*verified.ii, scheduleLatency(graph, verified.start),
                                  countWarpsUsed(verified), countCrossWarpEdges(graph, verified)};
  const TwillAssignment& assignment = solution.twill.assignment;
  const std::array<Cycle, 4> answer{*solution.ii(), *solution.twill.latency, assignment.warpsUsed,
                                    assignment.crossWarpEdges};
  if (ours >= answer) return;
  Result& result = solution.result;
  result.message += fmt::format(
      "{}the start (II {}, L {}, {} warps, {} cross-warp edges) beats the search's answer (II "
      "{}, "
      "L {}, {} warps, {} cross-warp edges) and is returned instead",
      result.message.empty() ? "" : "; ", ours[0], ours[1], ours[2], ours[3], answer[0], answer[1],
      answer[2], answer[3]);
  const bool sameIi = ours[0] == answer[0];
  useStart(setup, verified, solution);
  // At the same II the search's proof covers the start; at a smaller one nothing is proven.
  if (!sameIi) {
    solution.twill.iiBound.provenMinimal = false;
    if (result.status == ModelStatus::kOptimal) result.status = ModelStatus::kFeasible;
  }
}

// Normalized costs, a start off the time unit's grid or a probe that was not satisfiable leave
// the search without a schedule of its own.
void answerWithStart(const SearchSetup& setup, const IiLoop& loop, const StartOutcome& start,
                     TwillSolution& solution) {
  useStart(setup, *start.verifiedStart, solution);
  solution.twill.iiBound.provenMinimal = false;
  const bool settled = !loop.outOfTime && loop.conclusive();
  // A search ended by a model refused for memory was not stopped by time: the start is a
  // verified schedule, nothing more is claimed.
  const bool refusedForMemory = loop.refusal && !loop.refusal->forTime;
  const bool timedOut = loop.outOfTime || (!loop.conclusive() && !refusedForMemory);
  Result& result = solution.result;
  result.status = timedOut ? ModelStatus::kTimeout : ModelStatus::kFeasible;
  result.message = fmt::format(
      "{}; the answer is the start (II {}, L {})",
      settled        ? fmt::format("no schedule of the normalized problem for II in [{}, {}]",
                                   setup.iis.first, setup.iis.last)
      : loop.refusal ? fmt::format("the search ended without a schedule of its own ({})",
                                   loop.refusal->message)
                     : std::string("the search ended (time limit or timed-out checks) without a "
                                   "schedule of its own"),
      *solution.ii(), *solution.twill.latency);
}

}  // namespace gaus::exact::detail
