// The Twill search: Algorithm 1 of Soi et al. (OSDI'26, arXiv 2512.18134), with the guards of
// TWILL.md section 4:
//     for II = MII, MII + 1, ...:
//       M = modulo MILP at II (modulo_milp.cpp); if infeasible, next II
//       for L = LEN(M) while ceil(L / II) is unchanged:
//         if SMT(II, L) (twill_smt.cpp) is satisfiable, return (II, L, schedule, warps)
//
// The steps (members of TwillSearch): prepareProblem (the warps option, the input check),
// normalizeIfLarge, boundIi (MII and the II range), adoptStart and probeStart (a start schedule
// as the first check and the incumbent), searchIis and tryIi (the loops above),
// explainNoSolution (which families block every II), finishSolution (minimizations, roles, the
// explanation, raw cycles, verification, keepStartIfBetter) and finishWithStart (only the start).
//
// Departures and additions:
// - Guards the paper lacks: II stops at an upper bound (option max_ii, default the serial
//   non-overlapped II of modulo_milp.hpp, at which one iteration runs alone); every MILP and
//   SMT call has a time limit and a timeout is reported as such (the answer is then "feasible",
//   never "optimal"); every attempt is logged with (II, L, status, seconds); when no II up to
//   the bound is satisfiable, the message names the constraint families of the unsat cores.
// - One SMT model per II, built at its stage limit; each L is an assumption on it, so Z3 keeps
//   what it learned from one L to the next (twill_smt.hpp; SAT is monotone in L). The L are
//   tried in Algorithm 1's order, or (latency_search=bisect) the bound, the stage limit, then
//   bisection between them.
// - The MILP only bounds L from below: it has a 10 s limit per II, and when it stops without
//   proving L minimal the SMT starts from the larger of its bound and the critical path at II
//   (smaller L might be SAT); when it stops without any schedule, the II is still decided by
//   the SMT, with the stage limit taken from that bound.
// - `extraStages` lets the inner loop go past the paper's ceil(L / II) bound; and an II whose L
//   loop ends UNSAT gets one more check at the serial latency with spill costs (goBeyondStages),
//   so an II whose schedules need more stages than the MILP's is neither skipped nor called
//   infeasible.
// - After SAT (beyond the paper, TWILL.md "Going beyond the paper"): minimize the warps used,
//   then the cross-warp edges, by iterated SAT with a cardinality bound on the same model; and
//   optionally explain the answer (twill_explain.cpp).
// - Costs are normalized first when they are large (cost_normalization.hpp); the answer is then
//   mapped back to raw cycles and is optimal only in normalized units.
// - A start schedule (`--init`, adoptStart) is the first check: its (II, L) in the units solved
//   (phase "probe"). A satisfiable probe, or the start itself when it verifies, is an incumbent:
//   the II loop stops at its II and, there, tries only the L below its L, so the search proves
//   from below what the incumbent is worth; on a timeout the incumbent is the answer.

#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/memory_limit.hpp>
#include <gaus/core/registry.hpp>
#include <gaus/exact/twill.hpp>

#include "start_schedule.hpp"
#include "twill_explain.hpp"
#include "twill_smt.hpp"

namespace gaus::exact {

std::string_view describe(TwillFamily family) {
  switch (family) {
    case TwillFamily::kDependence:
      return "every edge's delay is met: t(v) + distance II >= t(u) + delay";
    case TwillFamily::kCapacity:
      return "no unit is reserved beyond its capacity at any residue";
    case TwillFamily::kMemory:
      return "the buffers of live values fit each memory's capacity";
    case TwillFamily::kWarpUniqueness:
      return "each op runs on exactly min_warps warps of the machine's count";
    case TwillFamily::kVariableLatency:
      return "variable-latency ops (asynchronous loads) run alone on the variable-latency warp";
    case TwillFamily::kRegisterLimit:
      return "the registers of values live on a warp stay within the per-warp limit";
    case TwillFamily::kSpillDelay:
      return "an edge between two warps also waits for the producer's spill cost";
    case TwillFamily::kBlockingConcurrency:
      return "an op with a blocking input issues when no other op of its warp is executing";
  }
  return "unknown";
}

Attempt TwillAttempt::withBlocking() const {
  Attempt attempt = record;
  if (!blocking.empty()) {
    attempt.detail += (attempt.detail.empty() ? "" : "; ") + std::string("blocked by ") +
                      detail::familyList(blocking);
  }
  return attempt;
}

namespace {

using detail::IiFailure;
using detail::SmtAnswer;
using detail::SmtQuery;
using detail::TwillSmtModel;

// A schedule in the units solved at (ii, latency), with the model it satisfies at that L (none
// for a start schedule that the model did not produce).
struct Found {
  std::int32_t ii = 0;
  Cycle latency = 0;
  Schedule schedule;
  std::unique_ptr<TwillSmtModel> model;
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

// A deadline `reserve` seconds before `deadline` (none when it has none): what the work before
// a teardown may use.
Deadline earlierBy(const Deadline& deadline, double reserve) {
  const auto left = deadline.remainingLimit();
  return Deadline(left ? std::optional<double>(std::max(0.0, *left - reserve)) : std::nullopt);
}

constexpr std::string_view kStartNote = "initial schedule";

// Appends an attempt to the log and shows it as progress.
void record(TwillSolution& solution, TwillAttempt attempt, const TwillOptions& options) {
  if (options.progress) options.progress("twill: " + attempt.describe());
  solution.attempts.push_back(std::move(attempt));
}

// Iterated SAT with a decreasing cardinality bound (warps used, then cross-warp edges), each
// step within minimize_time_limit and what `deadline` leaves.
void minimizeAssignment(const Problem& problem, Found& found, const TwillOptions& options,
                        const Deadline& deadline, TwillSolution& solution) {
  const Graph& graph = *problem.graph;
  std::int32_t warps = detail::countWarpsUsed(found.schedule);
  auto step = [&](const char* phase, detail::SmtRestrictions restrictions) -> SmtAnswer {
    SmtQuery query;
    query.families = options.families;
    query.restrictions = std::move(restrictions);
    query.timeLimitSeconds =
        std::min(options.minimizeTimeLimitSeconds, deadline.remainingSeconds());
    SmtAnswer answer = found.model->check(query);
    std::string detail;
    if (query.restrictions.maxWarpsUsed) {
      detail = fmt::format("warps <= {}", *query.restrictions.maxWarpsUsed);
    }
    if (query.restrictions.maxCrossWarpEdges) {
      detail += fmt::format("{}cross-warp edges <= {}", detail.empty() ? "" : ", ",
                            *query.restrictions.maxCrossWarpEdges);
    }
    TwillAttempt attempt = detail::smtAttempt(phase, found.ii, found.latency, answer, detail);
    record(solution, std::move(attempt), options);
    return answer;
  };

  if (options.minimizeWarps) {
    solution.warpsProvenMinimal = false;
    while (warps > 1 && !deadline.expired()) {
      detail::SmtRestrictions bound;
      bound.maxWarpsUsed = warps - 1;
      SmtAnswer answer = step("minimize-warps", bound);
      if (answer.status == ModelStatus::kFeasible) {
        found.schedule = *answer.schedule;
        warps = detail::countWarpsUsed(found.schedule);
        continue;
      }
      solution.warpsProvenMinimal = answer.status == ModelStatus::kInfeasible;
      break;
    }
    if (warps <= 1) solution.warpsProvenMinimal = true;
  }
  if (options.minimizeCrossWarpEdges) {
    std::int32_t crossing = detail::countCrossWarpEdges(graph, found.schedule);
    solution.crossEdgesProvenMinimal = crossing == 0;
    while (crossing > 0 && !deadline.expired()) {
      detail::SmtRestrictions bound;
      if (options.minimizeWarps) bound.maxWarpsUsed = warps;
      bound.maxCrossWarpEdges = crossing - 1;
      SmtAnswer answer = step("minimize-cross-edges", bound);
      if (answer.status == ModelStatus::kFeasible) {
        found.schedule = *answer.schedule;
        crossing = detail::countCrossWarpEdges(graph, found.schedule);
        solution.crossEdgesProvenMinimal = crossing == 0;
        continue;
      }
      solution.crossEdgesProvenMinimal = answer.status == ModelStatus::kInfeasible;
      break;
    }
  }
}

// The latency of one iteration run serially with every cross-warp cost paid: ops one after
// another, each waiting out its duration, its distance-0 out-delays and its spill cost. The L at
// which goBeyondStages asks whether an II refuted within the MILP's stages has schedules at all.
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

// The most frequent families over the cores of a range of attempts, for the final message.
std::string blockingSummary(const std::vector<TwillAttempt>& attempts, std::int32_t fromIi) {
  std::map<TwillFamily, int> frequency;
  int unsat = 0;
  for (const auto& attempt : attempts) {
    const Attempt& record = attempt.record;
    if (record.phase != "smt" || record.ii.value_or(0) < fromIi ||
        record.status != ModelStatus::kInfeasible) {
      continue;
    }
    ++unsat;
    for (TwillFamily family : attempt.blocking) ++frequency[family];
  }
  if (unsat == 0) return "no SMT check reached (every II failed the modulo MILP)";
  std::vector<std::pair<int, TwillFamily>> ranked;
  for (const auto& [family, count] : frequency) ranked.emplace_back(count, family);
  std::sort(ranked.rbegin(), ranked.rend());
  std::string text;
  for (const auto& [count, family] : ranked) {
    text += fmt::format("{}{} (in {} of {} unsat cores)", text.empty() ? "" : ", ",
                        toString(family), count, unsat);
  }
  return text.empty() ? "the latency bound alone (no family in the cores)" : text;
}

// Names the families that block the last (II, L) tried, by a deletion-minimized unsat core
// (the cores of the search are not minimized, so they tend to list every family involved),
// followed by how often each family appeared in the search's cores.
std::string minimalBlockers(const Problem& problem, const std::vector<IiFailure>& failures,
                            const TwillOptions& options, const Deadline& deadline,
                            std::vector<TwillAttempt>& attempts) {
  const std::string frequency =
      blockingSummary(attempts, failures.empty() ? 0 : failures.front().ii);
  const IiFailure* last = nullptr;
  for (const auto& failure : failures) {
    if (!failure.moduloInfeasible && failure.lastLatency > 0) last = &failure;
  }
  if (last == nullptr) return "every II failed the modulo MILP (resources and recurrences)";
  const SmtAnswer answer =
      detail::explainFailure(problem, last->ii, last->lastLatency, options, deadline,
                             "minimal core of the last check", attempts);
  if (answer.status != ModelStatus::kInfeasible) {
    return "blocking constraint families: " + frequency;
  }
  return fmt::format(
      "at II={}, L={} the constraint families {} together admit no schedule (minimal unsat "
      "core); over the search: {}",
      last->ii, last->lastLatency,
      answer.core.empty() ? std::string("(none: L is too short)") : detail::familyList(answer.core),
      frequency);
}

// The search, step by step. Each step returns false when it has ended the search (the solution
// then holds the status and message).
class TwillSearch {
 public:
  TwillSearch(const Problem& input, const TwillOptions& options)
      : input_(input),
        options_(options),
        begin_(std::chrono::steady_clock::now()),
        deadline_(options.totalTimeLimitSeconds) {}

  TwillSolution run() {
    if (prepareProblem() && normalizeIfLarge() && boundIi()) {
      adoptStart();
      if (searchIis()) {
        if (!found_ && incumbent_) {
          found_ = std::move(incumbent_);
          answerIsIncumbent_ = true;
        }
        if (found_) {
          finishSolution();
        } else if (verifiedStart_) {
          finishWithStart();
        } else {
          explainNoSolution();
        }
      }
    }
    solution_.seconds = secondsSince(begin_);
    return std::move(solution_);
  }

 private:
  // Ends the search on `message`: a failed call (bad options or input, a model refused for its
  // size, a MILP error), unless a status was proven first (ResMII or RecMII infeasible).
  bool fail(std::string message) {
    solution_.message = std::move(message);
    if (solution_.status == ModelStatus::kUnknown) solution_.call = CallStatus::kError;
    return false;
  }

  // The problem as asked: kModuloWarp, the option `warps` applied to a copy of the machine, and
  // the input check.
  bool prepareProblem() {
    problem_ = input_;
    problem_.kind = ProblemKind::kModuloWarp;
    if (options_.warps) {
      if (*options_.warps < 1 || *options_.warps > kMaxWarps) {
        return fail(fmt::format("warps must be in 1..{}, got {}", kMaxWarps, *options_.warps));
      }
      auto machine = std::make_shared<Machine>(*problem_.machine);
      machine->warps = *options_.warps;
      if (machine->variableLatencyWarp && *machine->variableLatencyWarp >= machine->warps) {
        return fail(fmt::format("warps={} leaves out the variable-latency warp {} of machine '{}'",
                                machine->warps, *machine->variableLatencyWarp, machine->name));
      }
      problem_.machine = std::move(machine);
    }
    if (const auto errors = problem_.check(); !errors.empty()) return fail(errors.front());
    return true;
  }

  // Normalized costs when they are large (cost_normalization.hpp): the search then runs on
  // work_ in normalized units.
  bool normalizeIfLarge() {
    work_ = problem_;
    auto normalize = shouldNormalize(problem_, options_.normalization);
    if (!normalize) return fail(normalize.error());
    if (!*normalize) return true;
    // Its MILPs share the time limit too (three solves at most).
    NormalizationOptions normalization = options_.normalization;
    normalization.timeLimitSeconds =
        std::min(normalization.timeLimitSeconds, deadline_.remainingSeconds() / 3.0);
    auto made = normalizeProblem(problem_, normalization);
    if (!made) return fail(made.error());
    normalized_ = std::move(made).value();
    work_ = normalized_->problem;
    solution_.normalization = normalized_->normalization;
    solution_.timeUnit = normalized_->timeUnit;
    return true;
  }

  // MII and what binds it, and the II range: the fixed II, or MII up to max-ii (default the
  // serial non-overlapped II).
  bool boundIi() {
    const Graph& graph = *work_.graph;
    const Machine& machine = *work_.machine;
    const ResMii resMii = computeResMii(graph, machine);
    const RecMii recMii = computeRecMii(graph);
    if (resMii.infeasible || recMii.infeasible) {
      solution_.status = ModelStatus::kInfeasible;
      return fail(resMii.infeasible ? *resMii.infeasible : *recMii.infeasible);
    }
    solution_.resMii = resMii.value;
    solution_.recMii = recMii.value;
    solution_.mii = std::max(resMii.value, recMii.value);
    solution_.miiReason = describeIiBound(graph, machine, resMii, recMii);

    firstIi_ = work_.ii ? *work_.ii : static_cast<std::int32_t>(solution_.mii);
    firstUntriedIi_ = firstIi_;
    lastIi_ = firstIi_;
    if (!work_.ii) {
      lastIi_ = options_.maxIi ? static_cast<std::int32_t>(std::max<std::int64_t>(
                                     1, *options_.maxIi / solution_.timeUnit))
                               : std::max(firstIi_, serialNonOverlappedIi(graph));
    }
    modelOptions_.breakSymmetry = options_.breakSymmetry;
    return true;
  }

  // Why a start schedule cannot be used for this problem, in raw cycles; nothing when it fits.
  // It need not verify: a modulo schedule without warps (ilp's) is still a probe.
  std::optional<std::string> whyStartDoesNotFit(const Schedule& start) const {
    const Graph& graph = *problem_.graph;
    if (static_cast<std::int64_t>(start.start.size()) != graph.numOps()) {
      return fmt::format("it has {} starts for {} ops", start.start.size(), graph.numOps());
    }
    if (!start.ii) return std::string("it is not a modulo schedule (no II)");
    if (problem_.ii && *start.ii != *problem_.ii) {
      return fmt::format("its II {} differs from the fixed II {}", *start.ii, *problem_.ii);
    }
    const std::int64_t resMii = computeResMii(graph, *problem_.machine).value;
    const std::int64_t recMii = computeRecMii(graph).value;
    if (*start.ii < std::max(resMii, recMii)) {
      return fmt::format("its II {} is below MinII {} (ResMII {}, RecMII {})", *start.ii,
                         std::max(resMii, recMii), resMii, recMii);
    }
    return std::nullopt;
  }

  // The start schedule (TwillOptions::initialSchedule): checked against the problem as asked,
  // kept as the answer of last resort when it verifies, an incumbent in the units solved when
  // it maps onto them exactly, and probed there. Never ends the search; the note says what
  // became of it.
  void adoptStart() {
    if (options_.initialSchedule == nullptr) return;
    const Schedule& start = *options_.initialSchedule;
    const std::string& origin = options_.initialScheduleOrigin;
    if (const auto unfit = whyStartDoesNotFit(start)) {
      solution_.notes.emplace_back(kStartNote, fmt::format("ignored ({}): {}", origin, *unfit));
      return;
    }
    const Cycle rawLatency = scheduleLatency(*problem_.graph, start.start);
    std::string text =
        fmt::format("the start came from {}: II {}, L {}", origin, *start.ii, rawLatency);
    const VerificationReport report = verify(problem_, start);
    if (report.ok()) {
      verifiedStart_ = start;
      text += "; it verifies (the answer if nothing better is found)";
      auto inUnits = detail::initialInUnits(work_, start, solution_.timeUnit);
      if (inUnits) {
        const Cycle latency = scheduleLatency(*work_.graph, inUnits->start);
        const std::int32_t ii = *inUnits->ii;
        incumbent_ = Found{ii, latency, std::move(inUnits).value(), nullptr};
      } else {
        text += fmt::format(", in raw cycles only: in normalized units {}", inUnits.error());
      }
    } else {
      text += fmt::format("; it does not verify ({} violations; first: {}), so it is only a probe",
                          report.totalViolations,
                          report.violations.empty() ? "" : report.violations.front().message);
    }
    text += probeStart(*start.ii, rawLatency);
    if (incumbent_) {
      text += fmt::format("; the search tries II up to {} and, at {}, L below {}", incumbent_->ii,
                          incumbent_->ii, incumbent_->latency);
    }
    solution_.notes.emplace_back(kStartNote, std::move(text));
  }

  // The SMT check at the start's (II, L) in the units solved; a satisfiable one becomes the
  // incumbent (with its warps and its model) unless the start itself is better there. Returns
  // what it gave, for the note. Normalized, both are rounded up: a normalized (II', L') stands
  // for (II' x unit, L' x unit) raw cycles, so the probe asks for no less than the start has.
  std::string probeStart(std::int32_t rawIi, Cycle rawLatency) {
    const std::int64_t unit = solution_.timeUnit;
    const auto ii = static_cast<std::int32_t>((rawIi + unit - 1) / unit);
    const Cycle latency = (rawLatency + unit - 1) / unit;
    std::string text;
    if (unit > 1) {
      text = fmt::format("; probe in normalized units (1 unit = {} cycles, rounded up)", unit);
    }
    if (ii < firstIi_) {
      return text +
             fmt::format("; no probe: II {} is below the first II {} of the search", ii, firstIi_);
    }
    if (deadline_.expired()) return text + "; no probe: the time limit was reached before it";
    BuiltModel built = buildModel(ii, latency);
    if (!built.model) {
      refusedModel_ = std::move(built.refusal);
      return text + "; no probe: " + refusedModel_->message;
    }
    std::unique_ptr<TwillSmtModel> model = std::move(built.model);
    model->setLatency(latency);
    SmtQuery query = searchQuery(*model);
    query.wantCore = true;
    SmtAnswer answer = model->check(query);
    record(solution_, detail::smtAttempt("probe", ii, latency, answer, ""), options_);
    text += fmt::format("; probe at II {}, L {}: ", ii, latency);
    if (answer.status == ModelStatus::kFeasible) {
      noteSmtSchedule();
      const Cycle found = scheduleLatency(*work_.graph, answer.schedule->start);
      // On a tie the model's schedule wins: the minimizations and the explanation need it.
      if (!incumbent_ || found <= incumbent_->latency) {
        model->setLatency(found);
        incumbent_ = Found{ii, found, std::move(answer.schedule).value(), std::move(model)};
      }
      return text + fmt::format("SAT, L {} on {} warp(s): the incumbent", found,
                                detail::countWarpsUsed(incumbent_->schedule));
    }
    if (answer.status == ModelStatus::kInfeasible) {
      text += "UNSAT";
      if (!answer.core.empty()) text += " (blocked by " + detail::familyList(answer.core) + ")";
      // Only where the start is a schedule of the units solved does UNSAT contradict it.
      if (incumbent_ && unit == 1) {
        text += "; twill's model is stricter than the verifier here (memory_model=buffers?)";
      }
      return text;
    }
    return text + fmt::format("{} after {:.3f}s, no schedule of twill's model from it",
                              statusText(CallStatus::kOk, answer.status), answer.seconds);
  }

  // The SMT model at (ii, latency), or why not (the log has the refusal): its estimated size,
  // with the models the search still holds (the incumbent's, the one found), is above
  // memory_limit; or it cannot be built, loaded into Z3 and torn down in the time left, the
  // teardown of the models held set aside (TwillSmtModel::buildWithin). The model grows with
  // L x ops and with II x reserved cycles (docs/exact.md, "The SMT model's size"), and so does
  // the time to build and load it ("Time limits and model size").
  BuiltModel buildModel(std::int32_t ii, Cycle latency) {
    const detail::SmtModelSize size =
        detail::estimateSmtModelSize(work_, ii, latency, modelOptions_);
    std::int64_t held = 0;
    for (const std::optional<Found>* kept : {&incumbent_, &found_}) {
      if (*kept && (*kept)->model) held += (*kept)->model->estimatedSize().bytes();
    }
    const std::string what = fmt::format(
        "the SMT model at II={}, L={} ({} Boolean variables, {} literals{})", ii, latency,
        size.booleans, size.literals,
        held > 0 ? fmt::format("; with {} of models the search holds", formatBytes(held))
                 : std::string());
    std::optional<ModelRefusal> refusal;
    if (auto refused = refuseAboveMemoryLimit(
            what, size.bytes() + held, options_.milp.memoryLimitBytes,
            normalized_ ? "lower -O normalize_sum, which shrinks II and L in the units solved"
                        : "normalize the costs (-O normalize=on), which shrinks II and L in the "
                          "units solved",
            "ims or gaus with --kind modulo, which assigns no warps")) {
      refusal = ModelRefusal{std::move(refused).value(), false};
    } else {
      auto model = TwillSmtModel::buildWithin(work_, ii, latency, modelOptions_,
                                              earlierBy(deadline_, heldTeardownSeconds()), size);
      if (model) return BuiltModel{std::move(model).value(), std::nullopt};
      refusal =
          ModelRefusal{fmt::format("{} {} (time_limit {}s): raise time_limit", what, model.error(),
                                   options_.totalTimeLimitSeconds.value_or(0.0)),
                       true};
    }
    SmtAnswer notBuilt;
    notBuilt.status = refusal->forTime ? ModelStatus::kTimeout : ModelStatus::kUnknown;
    record(solution_,
           detail::smtAttempt("smt", ii, latency, notBuilt, "model not built: " + refusal->message),
           options_);
    return BuiltModel{nullptr, std::move(refusal)};
  }

  // Seconds to tear down the models the search holds (the incumbent's, the one found) and
  // `checked` when it is another: the time the work before the call returns must leave.
  double heldTeardownSeconds(const TwillSmtModel* checked = nullptr) const {
    double seconds = 0.0;
    std::vector<const TwillSmtModel*> held{checked};
    for (const std::optional<Found>* kept : {&incumbent_, &found_}) {
      if (*kept) held.push_back((*kept)->model.get());
    }
    std::sort(held.begin(), held.end());
    held.erase(std::unique(held.begin(), held.end()), held.end());
    for (const TwillSmtModel* model : held) {
      if (model != nullptr) seconds += model->estimatedSize().cost().teardown;
    }
    return seconds;
  }

  // A check of the search (probe, (II, L), the rebuilt model) on `model`: the families asked
  // for, within the per-check limit and the time left less the teardown of the models held.
  SmtQuery searchQuery(const TwillSmtModel& model) const {
    SmtQuery query;
    query.families = options_.families;
    query.timeLimitSeconds =
        std::min(options_.smtTimeLimitSeconds,
                 earlierBy(deadline_, heldTeardownSeconds(&model)).remainingSeconds());
    return query;
  }

  void noteSmtSchedule() {
    if (!solution_.firstSmtScheduleSeconds) {
      solution_.firstSmtScheduleSeconds = secondsSince(begin_);
    }
  }

  // The largest L at `ii` that could beat the incumbent: below its L at its II (no larger II is
  // tried).
  Cycle latencyCapAt(std::int32_t ii) const {
    if (incumbent_ && ii == incumbent_->ii) return incumbent_->latency - 1;
    return std::numeric_limits<Cycle>::max();
  }

  // Algorithm 1: II upward until an (II, L) is satisfiable (found_), the range or the time ends;
  // with an incumbent, up to its II. False when an error ended it.
  bool searchIis() {
    const std::int32_t lastTried = incumbent_ ? std::min(lastIi_, incumbent_->ii) : lastIi_;
    for (std::int32_t ii = firstIi_; ii <= lastTried && !found_; ++ii) {
      if (deadline_.expired()) {
        outOfTime_ = true;
        break;
      }
      if (!tryIi(ii)) return false;
      firstUntriedIi_ = ii + 1;
      if (endedByRefusal_) break;
    }
    return true;
  }

  // One II: the modulo MILP for a lower bound on L, then the SMT model of this II, checked at
  // that bound, at the stage limit and, when the limit is SAT and the bound is not, bisected in
  // between (SAT is monotone in L, twill_smt.hpp). False when the search must end on an error.
  bool tryIi(std::int32_t ii) {
    ModuloMilpOptions milp = options_.milp;
    milp.timeLimitSeconds = std::min(
        milp.timeLimitSeconds, earlierBy(deadline_, heldTeardownSeconds()).remainingSeconds());
    // The incumbent is a modulo schedule at its II: CBC's start there.
    if (incumbent_ && ii == incumbent_->ii) milp.initialStart = incumbent_->schedule.start;
    const ModuloAttempt modulo = solveModuloAtIi(work_, ii, milp);
    {
      TwillAttempt attempt{modulo.record(), {}};
      // The log of the search says why a II is not settled; an optimal one needs no reason.
      attempt.record.detail =
          modulo.status == ModelStatus::kOptimal ? modulo.formulation : modulo.detail;
      record(solution_, std::move(attempt), options_);
    }
    IiFailure failure;
    failure.ii = ii;
    if (modulo.call == CallStatus::kError) return fail(modulo.detail);
    const bool incumbentIi = incumbent_ && ii == incumbent_->ii;
    if (incumbentIi && deadline_.expired()) {
      outOfTime_ = true;
      return true;
    }
    if (modulo.status == ModelStatus::kInfeasible || deadline_.expired()) {
      failure.moduloInfeasible = modulo.status == ModelStatus::kInfeasible;
      failure.milpDetail = modulo.detail;
      failure.conclusive = failure.moduloInfeasible;
      outOfTime_ = outOfTime_ || !failure.conclusive;
      conclusive_ = conclusive_ && failure.conclusive;
      failures_.push_back(failure);
      return true;
    }
    // L's lower bound: the MILP's L when proven minimal, else the best of its bound and the
    // critical path at this II. The stage limit of Algorithm 1 comes from the MILP's L; when
    // the MILP stopped without a schedule, from the bound (goBeyondStages covers the rest).
    const Cycle firstLatency =
        modulo.status == ModelStatus::kOptimal
            ? *modulo.latency
            : std::max(modulo.latencyLowerBound.value_or(0), criticalPathAtIi(ii));
    const Cycle stageBase = modulo.latency.value_or(firstLatency);
    const Cycle stageLimit =
        std::max(firstLatency, ((stageBase + ii - 1) / ii + options_.extraStages) * ii);
    // At the incumbent's II only a smaller L can beat it; none when the bound reaches its L.
    const Cycle latencyCap = latencyCapAt(ii);
    if (firstLatency > latencyCap) return true;
    const Cycle upper = std::min(stageLimit, latencyCap);
    failure.firstLatency = firstLatency;
    failure.lastLatency = upper;
    BuiltModel built = buildModel(ii, upper);
    if (!built.model) {
      // A larger II needs no smaller a model, and the time left only shrinks: the search ends
      // here. Refused for memory, on the start when there is one (its answer then says the II
      // is not proven), else as a failed call; refused for time, as a timeout.
      const bool forTime = built.refusal->forTime;
      refusedModel_ = std::move(built.refusal);
      if (!forTime && !incumbent_ && !verifiedStart_) return fail(refusedModel_->message);
      outOfTime_ = outOfTime_ || forTime;
      failure.conclusive = false;
      conclusive_ = false;
      failures_.push_back(failure);
      endedByRefusal_ = true;
      return true;
    }
    std::unique_ptr<TwillSmtModel> model = std::move(built.model);
    if (options_.latencySearch == LatencySearch::kAscending) {
      for (Cycle latency = firstLatency; latency <= upper; ++latency) {
        const auto status = checkAt(*model, ii, latency, "", failure);
        if (!status) break;
        if (*status == ModelStatus::kFeasible) {
          model->setLatency(latency);
          found_ = Found{ii, latency, *lastSchedule_, std::move(model)};
          return true;
        }
      }
    } else {
      const auto atBound = checkAt(*model, ii, firstLatency, "", failure);
      if (atBound == ModelStatus::kFeasible) {
        found_ = Found{ii, firstLatency, *lastSchedule_, std::move(model)};
        return true;
      }
      if (atBound && upper > firstLatency &&
          checkAt(*model, ii, upper, "", failure) == ModelStatus::kFeasible) {
        bisectLatency(std::move(model), ii, firstLatency, upper, "", failure);
        return true;
      }
    }
    if (!outOfTime_ && upper == stageLimit) goBeyondStages(ii, stageLimit, latencyCap, failure);
    if (found_) return true;
    // The incumbent's II has a schedule: not a failed II, whatever its smaller L gave.
    if (incumbentIi) return true;
    conclusive_ = conclusive_ && failure.conclusive;
    failures_.push_back(failure);
    return true;
  }

  // The length of the longest dependence path at this II (modulo ASAP times): a lower bound on
  // L that needs no solver.
  Cycle criticalPathAtIi(std::int32_t ii) const {
    const auto earliest = moduloAsapTimes(*work_.graph, ii);
    return earliest ? scheduleLatency(*work_.graph, *earliest) : 0;
  }

  // One SMT check of the II's model at L, logged; a satisfiable one leaves its schedule in
  // lastSchedule_. Nothing when the time is out; a check that is neither SAT nor UNSAT makes the
  // II's failure inconclusive.
  std::optional<ModelStatus> checkAt(TwillSmtModel& model, std::int32_t ii, Cycle latency,
                                     std::string_view note, IiFailure& failure) {
    if (deadline_.expired()) {
      outOfTime_ = true;
      failure.conclusive = false;
      return std::nullopt;
    }
    model.setLatency(latency);
    SmtQuery query = searchQuery(model);
    query.wantCore = true;
    SmtAnswer answer = model.check(query);
    const bool latencyTooShort = answer.status == ModelStatus::kInfeasible && answer.core.empty();
    TwillAttempt attempt = detail::smtAttempt(
        "smt", ii, latency, answer, latencyTooShort ? "L alone is too short" : std::string(note));
    record(solution_, std::move(attempt), options_);
    if (answer.status == ModelStatus::kFeasible) {
      noteSmtSchedule();
      lastSchedule_ = std::move(answer.schedule);
    } else if (answer.status != ModelStatus::kInfeasible) {
      failure.conclusive = false;
    }
    return answer.status;
  }

  // The smallest satisfiable L in (unsat, sat], sat being satisfiable (its schedule in
  // lastSchedule_), by bisection on the II's model; found_ gets it. A check that times out
  // counts as not satisfiable, so L may then be above the least.
  void bisectLatency(std::unique_ptr<TwillSmtModel> model, std::int32_t ii, Cycle unsat, Cycle sat,
                     std::string_view note, IiFailure& failure) {
    Schedule best = *lastSchedule_;
    while (sat - unsat > 1) {
      const Cycle middle = unsat + (sat - unsat) / 2;
      const auto status = checkAt(*model, ii, middle, note, failure);
      if (!status) break;
      if (*status == ModelStatus::kFeasible) {
        sat = middle;
        best = *lastSchedule_;
      } else {
        unsat = middle;
      }
    }
    model->setLatency(sat);
    found_ = Found{ii, sat, std::move(best), std::move(model)};
  }

  // Beyond the paper: Algorithm 1 stops at the MILP's stage count, but a cross-warp edge's spill
  // cost can need one stage more, so an II refuted there may still have schedules (the
  // differential check found loops called infeasible, or a larger II called minimal;
  // tests/data/differential/). The serial latency with spill costs and residue waits (at most
  // `latencyCap`, the largest L that could beat the incumbent) is the L that decides it; the
  // checks gallop towards it from the stage limit, one II more, two, four, ..., each on a
  // model built at its own L, since the model grows with L and so does the time of a check
  // (the FA Blackwell ablation with spill cost 64: SAT at L 1408 in 87 s, at L 96 in 3 s; the
  // stand-in's L 36 on a model built at its serial latency: over 60 s, on its own 0.1 s).
  // UNSAT up to that latency leaves the II refuted; the first SAT bisects L down to the last
  // UNSAT on that step's model.
  void goBeyondStages(std::int32_t ii, Cycle stageLimit, Cycle latencyCap, IiFailure& failure) {
    // Each op may also wait up to II - 1 cycles for a free residue of the modulo table.
    const Cycle serialLatency =
        std::min(latencyCap, serialLatencyWithSpills(*work_.graph) +
                                 static_cast<Cycle>(work_.graph->numOps()) * (ii - 1));
    if (serialLatency <= stageLimit) return;
    constexpr std::string_view kNote = "beyond the MILP's stages";
    Cycle unsat = stageLimit;
    for (Cycle step = ii;; step *= 2) {
      if (deadline_.expired()) {
        outOfTime_ = true;
        failure.conclusive = false;
        return;
      }
      const Cycle latency = std::min(serialLatency, stageLimit + step);
      BuiltModel built = buildModel(ii, latency);
      if (!built.model) {
        // Undecided at this II; the next II starts from a model at its own stage limit, which
        // may fit the time (or memory) left.
        refusedModel_ = std::move(built.refusal);
        failure.conclusive = false;
        return;
      }
      std::unique_ptr<TwillSmtModel> model = std::move(built.model);
      const auto status = checkAt(*model, ii, latency, kNote, failure);
      if (status == ModelStatus::kFeasible) {
        bisectLatency(std::move(model), ii, unsat, latency, kNote, failure);
        return;
      }
      if (status != ModelStatus::kInfeasible) return;
      unsat = latency;
      failure.lastLatency = latency;
      if (latency == serialLatency) return;
    }
  }

  // The schedule returned depends on the (II, L) found, not on the path to it: the model the
  // search found it on was built at a stage limit that comes from a time-capped MILP (so from
  // the machine's load), and Z3's first model, which the minimizations start from and which
  // decides which of the equally good assignments they return, depends on the model. So the
  // minimizations run on a model built at exactly (II, L); if its check does not answer SAT in
  // time, the search's model and schedule stay.
  void rebuildAtFoundLatency() {
    if (found_->model->builtLatency() == found_->latency || deadline_.expired()) return;
    BuiltModel built = buildModel(found_->ii, found_->latency);
    if (!built.model) return;
    std::unique_ptr<TwillSmtModel> model = std::move(built.model);
    SmtAnswer answer = model->check(searchQuery(*model));
    record(solution_,
           detail::smtAttempt("smt", found_->ii, found_->latency, answer,
                              "on a model built at this L, for the minimizations"),
           options_);
    if (answer.status != ModelStatus::kFeasible) return;
    found_->schedule = std::move(answer.schedule).value();
    found_->model = std::move(model);
  }

  // No satisfiable (II, L): a timeout, or infeasible with the families that block it.
  void explainNoSolution() {
    solution_.status =
        (outOfTime_ || !conclusive_) ? ModelStatus::kTimeout : ModelStatus::kInfeasible;
    if (outOfTime_) {
      solution_.message =
          refusedModel_ && refusedModel_->forTime
              ? fmt::format("total time limit {}s reached before a satisfiable (II, L): {}",
                            options_.totalTimeLimitSeconds.value_or(0.0), refusedModel_->message)
              : fmt::format(
                    "total time limit {}s reached before a satisfiable (II, L); raise time_limit",
                    options_.totalTimeLimitSeconds.value_or(0.0));
    } else {
      solution_.message = fmt::format(
          "no modulo schedule with a warp assignment for II in [{}, {}]{}; {}", firstIi_, lastIi_,
          conclusive_     ? ""
          : refusedModel_ ? fmt::format(" (some II not decided: {})", refusedModel_->message)
                          : std::string(" (some checks timed out: raise smt_time_limit)"),
          minimalBlockers(work_, failures_, options_, earlierBy(deadline_, heldTeardownSeconds()),
                          solution_.attempts));
    }
  }

  // The found (II, L): warps and cross-warp edges minimized, roles, the explanation, the schedule
  // mapped back to raw cycles and verified against the raw problem, and the status.
  void finishSolution() {
    const Graph& graph = *work_.graph;
    // The start itself has no model to minimize on or to explain with.
    if (found_->model) {
      rebuildAtFoundLatency();
      minimizeAssignment(work_, *found_, options_, earlierBy(deadline_, heldTeardownSeconds()),
                         solution_);
    }
    const Schedule& schedule = found_->schedule;
    // The incumbent's II is minimal when every smaller II was tried and refuted.
    solution_.iiProvenMinimal =
        conclusive_ && (!answerIsIncumbent_ || firstUntriedIi_ >= found_->ii);
    solution_.roles = warpRoles(graph, *work_.machine, schedule);
    solution_.warpsUsed = detail::countWarpsUsed(schedule);
    solution_.crossWarpEdges = detail::countCrossWarpEdges(graph, schedule);
    if (options_.explain && found_->model) {
      const Deadline explainBy = earlierBy(deadline_, heldTeardownSeconds());
      const detail::ExplainContext context{work_,          found_->ii, found_->latency,
                                           *found_->model, schedule,   solution_.roles,
                                           failures_,      options_,   explainBy};
      solution_.explanation = detail::explain(context, solution_.attempts);
    }

    if (normalized_) {
      solution_.normalizedSchedule = schedule;
      setRawAnswer(toRawSchedule(*normalized_, schedule));
    } else {
      setRawAnswer(schedule);
    }
    if (!solution_.verification->ok()) {
      solution_.call = CallStatus::kError;
      solution_.message = "the Twill schedule fails verification (model and verifier disagree): " +
                          solution_.verification->summary();
      return;
    }
    const bool optimal = solution_.iiProvenMinimal && !normalized_;
    solution_.status = optimal ? ModelStatus::kOptimal : ModelStatus::kFeasible;
    if (answerIsIncumbent_ && outOfTime_) {
      solution_.status = ModelStatus::kTimeout;
      solution_.message = fmt::format(
          "total time limit {}s reached before every (II, L) below the incumbent's was decided; "
          "the answer is the incumbent{}",
          options_.totalTimeLimitSeconds.value_or(0.0),
          solution_.iiProvenMinimal ? " (II proven minimal, L not)" : "");
    } else if (!solution_.iiProvenMinimal) {
      solution_.message =
          refusedModel_ ? fmt::format("II not proven minimal: {}", refusedModel_->message)
          : answerIsIncumbent_ && firstUntriedIi_ < found_->ii
              ? fmt::format(
                    "II not proven minimal: max_ii stops the search below the incumbent's II {}",
                    found_->ii)
              : "II not proven minimal: a check at a smaller II timed out";
    } else if (normalized_) {
      solution_.message =
          fmt::format("II minimal in normalized units (1 unit = {} cycles)", solution_.timeUnit);
    }
    keepStartIfBetter();
  }

  // The answer's figures from its raw schedule, and its verification against the raw problem.
  void setRawAnswer(Schedule raw) {
    solution_.schedule = std::move(raw);
    solution_.ii = solution_.schedule->ii;
    solution_.latency = scheduleLatency(*problem_.graph, solution_.schedule->start);
    solution_.stages =
        static_cast<std::int32_t>((*solution_.latency + *solution_.ii - 1) / *solution_.ii);
    solution_.buffers = bufferUsage(*problem_.graph, *solution_.schedule);
    solution_.verification = verify(problem_, *solution_.schedule);
  }

  // The verified start replaces the answer when it is better in twill's order of objectives:
  // raw II, then L, then warps used, then cross-warp edges. With normalized costs the start need
  // not be a schedule of the rounded-up normalized problem, so its II or L can beat the answer's
  // in raw cycles; at the same (II, L) the answer can be the probe's schedule with the warps
  // still to minimize when the time ran out (the start may already have fewer).
  void keepStartIfBetter() {
    if (!verifiedStart_) return;
    const Graph& graph = *problem_.graph;
    const std::array<Cycle, 4> start{*verifiedStart_->ii,
                                     scheduleLatency(graph, verifiedStart_->start),
                                     detail::countWarpsUsed(*verifiedStart_),
                                     detail::countCrossWarpEdges(graph, *verifiedStart_)};
    const std::array<Cycle, 4> answer{*solution_.ii, *solution_.latency, solution_.warpsUsed,
                                      solution_.crossWarpEdges};
    if (start >= answer) return;
    solution_.message += fmt::format(
        "{}the start (II {}, L {}, {} warps, {} cross-warp edges) beats the search's answer (II "
        "{}, "
        "L {}, {} warps, {} cross-warp edges) and is returned instead",
        solution_.message.empty() ? "" : "; ", start[0], start[1], start[2], start[3], answer[0],
        answer[1], answer[2], answer[3]);
    const bool sameIi = start[0] == answer[0];
    useStart();
    // At the same II the search's proof covers the start; at a smaller one nothing is proven.
    if (!sameIi) {
      solution_.iiProvenMinimal = false;
      if (solution_.status == ModelStatus::kOptimal) solution_.status = ModelStatus::kFeasible;
    }
  }

  // The verified start, as it is, is the answer: roles and warps from its own assignment.
  void useStart() {
    solution_.normalizedSchedule.reset();
    setRawAnswer(*verifiedStart_);
    const Graph& graph = *problem_.graph;
    solution_.roles = warpRoles(graph, *problem_.machine, *verifiedStart_);
    solution_.warpsUsed = detail::countWarpsUsed(*verifiedStart_);
    solution_.crossWarpEdges = detail::countCrossWarpEdges(graph, *verifiedStart_);
    solution_.warpsProvenMinimal = false;
    solution_.crossEdgesProvenMinimal = false;
  }

  // No schedule in the units solved, but a start that verifies in raw cycles (normalized costs,
  // a start off the time unit's grid, a probe that was not satisfiable): the start is the answer.
  void finishWithStart() {
    useStart();
    solution_.iiProvenMinimal = false;
    const bool settled = !outOfTime_ && conclusive_;
    // A search ended by a model refused for memory was not stopped by time: the start is a
    // verified schedule, nothing more is claimed.
    const bool refusedForMemory = refusedModel_ && !refusedModel_->forTime;
    const bool timedOut = outOfTime_ || (!conclusive_ && !refusedForMemory);
    solution_.status = timedOut ? ModelStatus::kTimeout : ModelStatus::kFeasible;
    solution_.message = fmt::format(
        "{}; the answer is the start (II {}, L {})",
        settled ? fmt::format("no schedule of the normalized problem for II in [{}, {}]", firstIi_,
                              lastIi_)
        : refusedModel_ ? fmt::format("the search ended without a schedule of its own ({})",
                                      refusedModel_->message)
                        : std::string("the search ended (time limit or timed-out checks) without a "
                                      "schedule of its own"),
        *solution_.ii, *solution_.latency);
  }

  const Problem& input_;
  const TwillOptions& options_;
  const std::chrono::steady_clock::time_point begin_;
  const Deadline deadline_;
  TwillSolution solution_;
  Problem problem_;  // as asked, raw cycles
  Problem work_;     // as solved: normalized when the costs are large
  std::optional<NormalizedProblem> normalized_;
  std::int32_t firstIi_ = 1;
  std::int32_t lastIi_ = 1;
  detail::SmtModelOptions modelOptions_;
  std::vector<IiFailure> failures_;
  std::optional<Found> found_;
  // The best (II, L) known before the search, in the units solved: the start when it maps onto
  // them and verifies, or the probe's schedule.
  std::optional<Found> incumbent_;
  std::optional<Schedule> verifiedStart_;  // the start, raw cycles, when it verifies
  bool answerIsIncumbent_ = false;         // found_ is the incumbent: the search never beat it
  std::int32_t firstUntriedIi_ = 1;        // the II loop tried every II below this one
  std::optional<Schedule> lastSchedule_;   // of the last satisfiable check
  bool conclusive_ = true;                 // every II below the current one failed conclusively
  bool outOfTime_ = false;
  std::optional<ModelRefusal> refusedModel_;  // the last model refused (memory or time)
  bool endedByRefusal_ = false;               // an II's first model was refused
};

}  // namespace

TwillSolution solveTwill(const Problem& input, const TwillOptions& options) {
  return TwillSearch(input, options).run();
}

TwillCheck checkTwill(const Problem& problem, std::int32_t ii, Cycle latency,
                      const TwillCheckOptions& options) {
  SmtQuery query;
  query.families = options.families;
  query.timeLimitSeconds = options.timeLimitSeconds;
  query.wantCore = true;
  query.minimizeCore = options.minimizeCore;
  SmtAnswer answer = detail::checkOnce(problem, ii, latency, {options.breakSymmetry}, query);
  TwillCheck check;
  check.status = answer.status;
  check.schedule = std::move(answer.schedule);
  check.core = std::move(answer.core);
  check.seconds = answer.seconds;
  return check;
}

Result toResult(const TwillSolution& solution) {
  Result result;
  result.call = solution.call;
  result.status = solution.status;
  result.message = solution.message;
  result.schedule = solution.schedule;
  result.objectiveName = "ii";
  if (solution.ii) result.objective = *solution.ii;
  // The MII and the proof of minimality hold in the units solved: with normalized costs they
  // go to the extra figures, and no raw lower bound is claimed here (the method adds the raw
  // MII).
  if (!solution.normalization) {
    result.bounds.lowerBound = static_cast<double>(solution.mii);
  } else {
    result.extra.emplace_back("normalized_mii", static_cast<double>(solution.mii));
    result.extra.emplace_back("normalized_ii_proven", solution.iiProvenMinimal ? 1.0 : 0.0);
  }
  result.bounds.iiProvenOptimal = solution.status == ModelStatus::kOptimal;
  result.bounds.iiBoundReason = solution.miiReason;
  for (const auto& attempt : solution.attempts) {
    result.attempts.push_back(attempt.withBlocking());
    const std::string& phase = attempt.record.phase;
    if (phase == "milp" || phase == "smt" || phase == "probe") {
      ++result.stats.solverCalls;
    }
  }
  if (solution.normalization) {
    std::string text = solution.normalization->describe();
    for (const auto& warning : solution.normalization->warnings) text += "\n" + warning;
    result.notes.emplace_back("normalized costs", text);
    result.extra.emplace_back("time_unit", static_cast<double>(solution.timeUnit));
  }
  if (solution.latency) {
    result.extra.emplace_back("latency", static_cast<double>(*solution.latency));
  }
  if (solution.stages) result.extra.emplace_back("stages", *solution.stages);
  if (solution.schedule) {
    result.extra.emplace_back("warps_used", solution.warpsUsed);
    result.extra.emplace_back("warps_proven_minimal", solution.warpsProvenMinimal ? 1.0 : 0.0);
    result.extra.emplace_back("cross_warp_edges", solution.crossWarpEdges);
    result.extra.emplace_back("cross_edges_proven_minimal",
                              solution.crossEdgesProvenMinimal ? 1.0 : 0.0);
    result.extra.emplace_back("roles", static_cast<double>(solution.roles.size()));
  }
  result.extra.emplace_back("mii", static_cast<double>(solution.mii));
  result.extra.emplace_back("res_mii", static_cast<double>(solution.resMii));
  result.extra.emplace_back("rec_mii", static_cast<double>(solution.recMii));
  if (solution.firstSmtScheduleSeconds) {
    result.extra.emplace_back("first_smt_schedule_seconds", *solution.firstSmtScheduleSeconds);
  }
  for (const auto& note : solution.notes) result.notes.push_back(note);
  if (!solution.explanation.text.empty()) {
    result.notes.emplace_back("explanation", solution.explanation.text);
  }
  return result;
}

}  // namespace gaus::exact
