// After SAT, beyond the paper (TWILL.md "Going beyond the paper": valid warp assignments differ
// up to 3x in real performance): the fewest warps used, then the fewest cross-warp edges, by
// iterated SAT with a decreasing cardinality bound on the model of the (II, L) found.

#include <fmt/format.h>

#include "search.hpp"

namespace gaus::exact::detail {

namespace {

// The schedule returned depends on the (II, L) found, not on the path to it: the model the
// search found it on was built at a stage limit that comes from a time-capped MILP (so from
// the machine's load), and Z3's first model, which the minimizations start from and which
// decides which of the equally good assignments they return, depends on the model. So the
// minimizations run on a model built at exactly (II, L); if its check does not answer SAT in
// time, the search's model and schedule stay.
void rebuildAtFoundLatency(const SearchSetup& setup, Found& found, const StartOutcome& start,
                           TwillSolution& solution) {
  if (found.model->builtLatency() == found.latency || setup.deadline.expired()) return;
  const std::vector<const TwillSmtModel*> withFound = heldModels(start.incumbent, &found);
  BuiltModel built = buildModel(setup, found.ii, found.latency, withFound, solution);
  if (!built.model) return;
  std::unique_ptr<TwillSmtModel> model = std::move(built.model);
  SmtAnswer answer = model->check(searchQuery(setup, *model, withFound));
  record(solution,
         smtAttempt("smt", found.ii, found.latency, answer,
                    "on a model built at this L, for the minimizations"),
         setup.options);
  if (answer.status != ModelStatus::kFeasible) return;
  found.schedule = std::move(answer.schedule).value();
  found.model = std::move(model);
}

}  // namespace

void minimizeAssignment(const SearchSetup& setup, Found& found, const StartOutcome& start,
                        TwillSolution& solution) {
  rebuildAtFoundLatency(setup, found, start, solution);
  const Deadline deadline = beforeTeardown(setup, heldModels(start.incumbent, &found));
  const TwillOptions& options = setup.options;
  const Graph& graph = *setup.work.graph;
  TwillAssignment& assignment = solution.twill.assignment;
  std::int32_t warps = countWarpsUsed(found.schedule);
  auto step = [&](const char* phase, SmtRestrictions restrictions) -> SmtAnswer {
    SmtQuery query;
    query.families = options.smt.families;
    query.restrictions = std::move(restrictions);
    query.timeLimitSeconds =
        std::min(options.minimize.timeLimitSeconds, deadline.remainingSeconds());
    SmtAnswer answer = found.model->check(query);
    std::string detail;
    if (query.restrictions.maxWarpsUsed) {
      detail = fmt::format("warps <= {}", *query.restrictions.maxWarpsUsed);
    }
    if (query.restrictions.maxCrossWarpEdges) {
      detail += fmt::format("{}cross-warp edges <= {}", detail.empty() ? "" : ", ",
                            *query.restrictions.maxCrossWarpEdges);
    }
    record(solution, smtAttempt(phase, found.ii, found.latency, answer, detail), options);
    return answer;
  };

  if (options.minimize.warps) {
    assignment.warpsProvenMinimal = false;
    while (warps > 1 && !deadline.expired()) {
      SmtRestrictions bound;
      bound.maxWarpsUsed = warps - 1;
      SmtAnswer answer = step("minimize-warps", bound);
      if (answer.status == ModelStatus::kFeasible) {
        found.schedule = *answer.schedule;
        warps = countWarpsUsed(found.schedule);
        continue;
      }
      assignment.warpsProvenMinimal = answer.status == ModelStatus::kInfeasible;
      break;
    }
    if (warps <= 1) assignment.warpsProvenMinimal = true;
  }
  if (options.minimize.crossWarpEdges) {
    std::int32_t crossing = countCrossWarpEdges(graph, found.schedule);
    assignment.crossEdgesProvenMinimal = crossing == 0;
    while (crossing > 0 && !deadline.expired()) {
      SmtRestrictions bound;
      if (options.minimize.warps) bound.maxWarpsUsed = warps;
      bound.maxCrossWarpEdges = crossing - 1;
      SmtAnswer answer = step("minimize-cross-edges", bound);
      if (answer.status == ModelStatus::kFeasible) {
        found.schedule = *answer.schedule;
        crossing = countCrossWarpEdges(graph, found.schedule);
        assignment.crossEdgesProvenMinimal = crossing == 0;
        continue;
      }
      assignment.crossEdgesProvenMinimal = answer.status == ModelStatus::kInfeasible;
      break;
    }
  }
}

}  // namespace gaus::exact::detail
