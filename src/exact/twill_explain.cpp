// Explaining a Twill answer (beyond the paper; TWILL.md "Going beyond the paper": which unit or
// recurrence binds II, which constraint forced a warp split).
// - What binds II: at II = MII, the unit of ResMII or the recurrence of RecMII. Above MII, every
//   smaller II failed: either the modulo MILP proved no modulo schedule (resources and
//   recurrences together), or every L of the stage range was UNSAT; for the latter the SMT is
//   asked again at the largest L with a deletion-minimized unsat core, whose families are what
//   forbids that II.
// - Why ops were split across warps: for each pair of warp roles, the SMT is asked at the
//   answer's (II, L) with the ops of both roles forced onto one warp set; an UNSAT answer with a
//   minimized core names the families that forbid merging them, a SAT answer says the split
//   was a free choice.

#include "twill_explain.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <gaus/core/analysis.hpp>

namespace gaus::exact::detail {

std::string familyList(const std::vector<TwillFamily>& families) {
  std::string text;
  for (TwillFamily family : families) {
    if (!text.empty()) text += ", ";
    text += toString(family);
  }
  return text;
}

TwillAttempt smtAttempt(std::string phase, std::int32_t ii, Cycle latency, const SmtAnswer& answer,
                        std::string detail) {
  TwillAttempt attempt;
  attempt.record.phase = std::move(phase);
  attempt.record.ii = ii;
  attempt.record.latency = latency;
  attempt.record.status = answer.status;
  attempt.record.seconds = answer.seconds;
  attempt.record.detail = std::move(detail);
  if (attempt.record.detail.empty()) attempt.record.detail = answer.reason;
  if (answer.notBuilt) {
    attempt.record.detail += (attempt.record.detail.empty() ? "" : "; ") +
                             std::string("model not built: the model ") + *answer.notBuilt;
  }
  attempt.blocking = answer.core;
  return attempt;
}

SmtAnswer explainFailure(const Problem& problem, std::int32_t ii, Cycle latency,
                         const TwillOptions& options, const Deadline& deadline, std::string detail,
                         std::vector<TwillAttempt>& attempts) {
  SmtModelOptions modelOptions;
  modelOptions.breakSymmetry = options.breakSymmetry;
  SmtQuery query;
  query.families = options.families;
  query.timeLimitSeconds = std::min(options.explainTimeLimitSeconds, deadline.remainingSeconds());
  query.wantCore = true;
  query.minimizeCore = true;
  SmtAnswer answer = checkOnce(problem, ii, latency, modelOptions, query);
  attempts.push_back(smtAttempt("explain", ii, latency, answer, std::move(detail)));
  return answer;
}

namespace {

std::string roleName(const WarpRole& role, std::size_t index) {
  return fmt::format("role {} (warps {}, {})", index, formatWarpSet(role.warps), role.units);
}

std::string iiBinding(const Problem& problem, std::int32_t ii) {
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;
  const ResMii resMii = computeResMii(graph, machine);
  const RecMii recMii = computeRecMii(graph);
  const std::int64_t mii = std::max(resMii.value, recMii.value);
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

TwillExplanation explain(const ExplainContext& context, std::vector<TwillAttempt>& attempts) {
  TwillExplanation explanation;
  const TwillOptions& options = context.options;
  explanation.iiBinding = iiBinding(context.problem, context.ii);
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
                         context.deadline, "why this II fails", attempts);
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
      query.families = options.families;
      query.restrictions.sameWarpSet.push_back(group);
      query.timeLimitSeconds =
          std::min(options.explainTimeLimitSeconds, context.deadline.remainingSeconds());
      query.wantCore = true;
      query.minimizeCore = true;
      const SmtAnswer answer = context.model.check(query);
      attempts.push_back(smtAttempt("explain", context.ii, context.latency, answer,
                                    fmt::format("merge roles {} and {}", a, b)));
      split.merged = answer.status;
      split.blocking = answer.core;
      if (answer.status == ModelStatus::kInfeasible) {
        note(split.blocking);
        text += fmt::format(
            "\n{} and {} cannot share a warp set at II={}, L={}: {}", roleName(roles[a], a),
            roleName(roles[b], b), context.ii, context.latency,
            split.blocking.empty() ? std::string("warp count") : familyList(split.blocking));
      } else if (answer.status == ModelStatus::kFeasible) {
        text += fmt::format("\n{} and {} could share a warp set (the split is a free choice)",
                            roleName(roles[a], a), roleName(roles[b], b));
      } else {
        text += fmt::format("\n{} and {}: merging undecided within {}s ({})", roleName(roles[a], a),
                            roleName(roles[b], b), options.explainTimeLimitSeconds,
                            toString(answer.status));
      }
      explanation.splits.push_back(split);
    }
  }
  explanation.text = std::move(text) + familyMeanings(named);
  return explanation;
}

}  // namespace gaus::exact::detail
