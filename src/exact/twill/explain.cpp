// Explaining a Twill answer (beyond the paper; TWILL.md "Going beyond the paper": which unit or
// recurrence binds II, which constraint forced a warp split), and the families that block every
// II when there is no answer.
// - What binds II: at II = MII, the unit of ResMII or the recurrence of RecMII. Above MII, every
//   smaller II failed: either the modulo MILP proved no modulo schedule (resources and
//   recurrences together), or every L of the stage range was UNSAT; for the latter the SMT is
//   asked again at the largest L with a deletion-minimized unsat core, whose families are what
//   forbids that II.
// - Why ops were split across warps: for each pair of warp roles, the SMT is asked at the
//   answer's (II, L) with the ops of both roles forced onto one warp set; an UNSAT answer with a
//   minimized core names the families that forbid merging them, a SAT answer says the split
//   was a free choice.
// - No answer: the families of a deletion-minimized core at the last (II, L) tried, and how
//   often each family appeared in the search's cores.

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/enum_names.hpp>
#include <gaus/core/option_table.hpp>
#include <gaus/core/problem_facts.hpp>

#include "search.hpp"

namespace gaus::exact {

// What each family requires, in a sentence (--explain, docs/exact.md).
constexpr auto kTwillFamilyDescriptions = makeEnumNames<TwillFamily>({
    {TwillFamily::kDependence, "every edge's delay is met: t(v) + distance II >= t(u) + delay"},
    {TwillFamily::kCapacity, "no unit is reserved beyond its capacity at any residue"},
    {TwillFamily::kMemory, "the buffers of live values fit each memory's capacity"},
    {TwillFamily::kWarpUniqueness,
     "each op runs on exactly min_warps warps of the machine's count"},
    {TwillFamily::kVariableLatency,
     "variable-latency ops (asynchronous loads) run alone on the variable-latency warp"},
    {TwillFamily::kRegisterLimit,
     "the registers of values live on a warp stay within the per-warp limit"},
    {TwillFamily::kSpillDelay,
     "an edge between two warps also waits for the producer's spill cost"},
    {TwillFamily::kBlockingConcurrency,
     "an op with a blocking input issues when no other op of its warp is executing"},
    {TwillFamily::kWarpIssue,
     "a warp executes at most its issue width of ops per cycle (one instruction stream)"},
    {TwillFamily::kRegisterFile,
     "the warp groups' registers (setmaxnreg: the most their warps' values hold at once) fit "
     "the SM's register file"},
    {TwillFamily::kStrategy,
     "the ops of the given warp strategy's roles run on their roles' warps (at their stages, in "
     "their order)"},
});

std::string_view describe(TwillFamily family) {
  return kTwillFamilyDescriptions.name(family);
}

std::string familyList(const std::vector<TwillFamily>& families) {
  std::vector<std::string_view> names;
  for (TwillFamily family : families) names.push_back(toString(family));
  return option_text::listChoices(names, ", ");
}

}  // namespace gaus::exact

namespace gaus::exact::detail {

SmtAnswer explainFailure(const Problem& problem, std::int32_t ii, Cycle latency,
                         const TwillOptions& options, const Deadline& deadline, std::string detail,
                         TwillSolution& solution) {
  const SmtModelOptions modelOptions = modelOptionsOf(options);
  SmtQuery query;
  query.families = options.smt.families;
  query.timeLimitSeconds = std::min(options.explain.timeLimitSeconds, deadline.remainingSeconds());
  query.wantCore = true;
  query.minimizeCore = true;
  SmtAnswer answer = checkOnce(problem, ii, latency, modelOptions, query);
  logAttempt(solution, smtAttempt("explain", ii, latency, answer, std::move(detail)));
  return answer;
}

namespace {

std::string roleName(const WarpRole& role, std::size_t index) {
  return fmt::format("role {} (warps {}, {})", index, formatWarpSet(role.warps), role.units);
}

std::string iiBinding(const Problem& problem, std::int32_t ii) {
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;
  const auto facts = problem.facts();
  const ResMii& resMii = facts->resMii();
  const RecMii& recMii = facts->recMii();
  const std::int64_t mii = facts->mii().value;
  if (ii > mii) {
    return fmt::format(
        "warp constraints: II={} is above MII={} (ResMII={}, RecMII={}); every "
        "smaller II failed as listed",
        ii, mii, resMii.value, recMii.value);
  }
  if (resMii.value >= recMii.value && resMii.binding) {
    std::int64_t demand = 0;
    for (OpId op = 0; op < graph.numOps(); ++op) {
      for (const auto& block : graph.reservation(op)) {
        if (block.resource == *resMii.binding) {
          demand += static_cast<std::int64_t>(block.units) * block.length;
        }
      }
    }
    const Resource& unit = machine.resources[*resMii.binding];
    std::string text = fmt::format(
        "ResMII: unit {} is busy {} unit-cycles per iteration at capacity {}, so "
        "II >= {}",
        unit.name, demand, unit.capacity.value_or(0), resMii.value);
    if (recMii.value == resMii.value) {
      text += fmt::format("; the recurrence through {} needs II >= {} as well",
                          describeRecurrence(graph, recMii.bindingCycle), recMii.value);
    }
    return text;
  }
  return fmt::format("RecMII: the recurrence through {} needs II >= {}",
                     describeRecurrence(graph, recMii.bindingCycle), recMii.value);
}

// A "where" block giving the meaning of every family named, each once, in the order of the enum.
std::string familyMeanings(const std::vector<TwillFamily>& named) {
  std::string text;
  for (TwillFamily family : kAllTwillFamilies) {
    if (std::find(named.begin(), named.end(), family) == named.end()) continue;
    text += fmt::format("\n  {}: {}", toString(family), describe(family));
  }
  return text.empty() ? text : "\nwhere" + text;
}

}  // namespace

TwillExplanation explain(const ExplainContext& context, TwillSolution& solution) {
  TwillExplanation explanation;
  const TwillOptions& options = context.options;
  const Found& found = context.found;
  explanation.iiBinding = iiBinding(context.problem, found.ii);
  std::string text = "II: " + explanation.iiBinding;
  std::vector<TwillFamily> named;  // every family the explanation names
  const auto note = [&named](const std::vector<TwillFamily>& core) {
    named.insert(named.end(), core.begin(), core.end());
  };

  for (const IiFailure& failure : context.failures) {
    std::string reason;
    if (failure.moduloInfeasible || failure.lastLatency == 0) {
      reason = failure.milpDetail.empty() ? "no modulo schedule" : failure.milpDetail;
    } else {
      const SmtAnswer answer =
          explainFailure(context.problem, failure.ii, failure.lastLatency, options,
                         context.deadline, "why this II fails", solution);
      if (answer.status == ModelStatus::kInfeasible) {
        note(answer.core);
        reason = fmt::format(
            "every L in [{}, {}] is UNSAT; at L={} the blocking families are: {}",
            failure.firstLatency, failure.lastLatency, failure.lastLatency,
            answer.core.empty() ? std::string("none (L too short)") : familyList(answer.core));
      } else {
        reason = fmt::format("L in [{}, {}] not satisfiable within the time limits ({} at L={})",
                             failure.firstLatency, failure.lastLatency, toString(answer.status),
                             failure.lastLatency);
      }
    }
    if (failure.refutedWithoutLifetimesAt) {
      reason += fmt::format(
          "; without registers and memory no schedule at L={}, an L that suffices there: no "
          "schedule at any L",
          *failure.refutedWithoutLifetimesAt);
    }
    if (!failure.conclusive) reason += " (not conclusive: a check timed out)";
    explanation.iiFailures.emplace_back(failure.ii, reason);
    text += fmt::format("\nII={} fails: {}", failure.ii, reason);
  }

  const auto& roles = context.roles;
  const Graph& graph = *context.problem.graph;
  if (roles.size() == 1) {
    text += fmt::format("\nall ops run on warps {}: nothing forces a split",
                        formatWarpSet(roles.front().warps));
  }
  for (std::size_t a = 0; a < roles.size(); ++a) {
    for (std::size_t b = a + 1; b < roles.size(); ++b) {
      RoleSplitReason split;
      split.firstRole = a;
      split.secondRole = b;
      std::vector<OpId> group = roles[a].ops;
      group.insert(group.end(), roles[b].ops.begin(), roles[b].ops.end());
      const bool sameSize = std::all_of(group.begin(), group.end(), [&](OpId op) {
        return graph.minWarps(op) == graph.minWarps(group.front());
      });
      if (!sameSize) {
        text += fmt::format("\n{} and {}: ops need different numbers of warps (min_warps)",
                            roleName(roles[a], a), roleName(roles[b], b));
        explanation.splits.push_back(split);
        continue;
      }
      SmtQuery query;
      query.families = options.smt.families;
      query.restrictions.sameWarpSet.push_back(group);
      query.timeLimitSeconds =
          std::min(options.explain.timeLimitSeconds, context.deadline.remainingSeconds());
      query.wantCore = true;
      query.minimizeCore = true;
      const SmtAnswer answer = found.model->check(query);
      logAttempt(solution, smtAttempt("explain", found.ii, found.latency, answer,
                                      fmt::format("merge roles {} and {}", a, b)));
      split.merged = answer.status;
      split.blocking = answer.core;
      if (answer.status == ModelStatus::kInfeasible) {
        note(split.blocking);
        text += fmt::format(
            "\n{} and {} cannot share a warp set at II={}, L={}: {}", roleName(roles[a], a),
            roleName(roles[b], b), found.ii, found.latency,
            split.blocking.empty() ? std::string("warp count") : familyList(split.blocking));
      } else if (answer.status == ModelStatus::kFeasible) {
        text += fmt::format("\n{} and {} could share a warp set (the split is a free choice)",
                            roleName(roles[a], a), roleName(roles[b], b));
      } else {
        text += fmt::format("\n{} and {}: merging undecided within {}s ({})", roleName(roles[a], a),
                            roleName(roles[b], b), options.explain.timeLimitSeconds,
                            toString(answer.status));
      }
      explanation.splits.push_back(split);
    }
  }
  explanation.text = std::move(text) + familyMeanings(named);
  return explanation;
}

namespace {

// The most frequent families over the cores of the SMT checks from II `fromIi` on, for the
// final message.
std::string blockingSummary(const TwillSolution& solution, std::int32_t fromIi) {
  std::map<TwillFamily, int> frequency;
  int unsat = 0;
  const std::vector<Attempt>& attempts = solution.result.attempts;
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    const Attempt& attempt = attempts[i];
    if (attempt.phase != "smt" || attempt.ii.value_or(0) < fromIi ||
        attempt.status != ModelStatus::kInfeasible) {
      continue;
    }
    ++unsat;
    for (TwillFamily family : solution.twill.blocking[i]) ++frequency[family];
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
                            TwillSolution& solution) {
  const std::string frequency =
      blockingSummary(solution, failures.empty() ? 0 : failures.front().ii);
  const IiFailure* last = nullptr;
  for (const auto& failure : failures) {
    if (!failure.moduloInfeasible && failure.lastLatency > 0) last = &failure;
  }
  if (last == nullptr) return "every II failed the modulo MILP (resources and recurrences)";
  const SmtAnswer answer = explainFailure(problem, last->ii, last->lastLatency, options, deadline,
                                          "minimal core of the last check", solution);
  if (answer.status != ModelStatus::kInfeasible) {
    return "blocking constraint families: " + frequency;
  }
  return fmt::format(
      "at II={}, L={} the constraint families {} together admit no schedule (minimal unsat "
      "core); over the search: {}",
      last->ii, last->lastLatency,
      answer.core.empty() ? std::string("(none: L is too short)") : familyList(answer.core),
      frequency);
}

}  // namespace

void answerWithoutSchedule(const SearchSetup& setup, const IiLoop& loop, const StartOutcome& start,
                           TwillSolution& solution) {
  Result& result = solution.result;
  const double limit = setup.options.search.timeLimitSeconds.value_or(0.0);
  result.status =
      (loop.outOfTime || !loop.conclusive()) ? ModelStatus::kTimeout : ModelStatus::kInfeasible;
  if (loop.outOfTime) {
    result.message =
        loop.refusal && loop.refusal->forTime
            ? fmt::format("total time limit {}s reached before a satisfiable (II, L): {}", limit,
                          loop.refusal->message)
            : fmt::format(
                  "total time limit {}s reached before a satisfiable (II, L); raise time_limit",
                  limit);
    return;
  }
  const std::string blockers =
      minimalBlockers(setup.work, loop.failures, setup.options,
                      beforeTeardown(setup, heldModels(start.incumbent)), solution);
  result.message =
      fmt::format("no modulo schedule with a warp assignment for II in [{}, {}]{}; {}",
                  setup.iis.first, setup.iis.last,
                  loop.conclusive() ? ""
                  : loop.refusal ? fmt::format(" (some II not decided: {})", loop.refusal->message)
                                 : std::string(" (some checks timed out: raise smt_time_limit)"),
                  blockers);
}

}  // namespace gaus::exact::detail
