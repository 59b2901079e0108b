// The problem the Twill search solves (search.hpp: setUpSearch): kModuloWarp with the options
// `warps` and `warp_issue` applied to a copy of the machine, the input check, normalized costs when
// they are large (cost_normalization.hpp), MII and what binds it, and the II range.

#include <algorithm>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/problem_facts.hpp>

#include "../modulo_bounds.hpp"
#include "search.hpp"

namespace gaus::exact {

void describeTwillMachine(Machine& machine, const TwillOptions& options) {
  if (options.search.warps) machine.warps = *options.search.warps;
  // One instruction stream per warp: the machine's width, or one op per cycle.
  if (options.smt.warpIssue) machine.warpIssueWidth = machine.warpIssueWidth.value_or(1);
}

}  // namespace gaus::exact

namespace gaus::exact::detail {

namespace {

// The problem as asked: kModuloWarp, the options `warps` and `warp_issue` applied to a copy of
// the machine unless it has them already (the registry describes the machine before the method
// runs: withMachineOptions; the problem then keeps its facts), and the input check; or why it
// cannot be solved.
Expected<Problem> problemAsAsked(const Problem& input, const TwillOptions& options) {
  Problem problem = input;
  problem.kind = ProblemKind::kModuloWarp;
  if (options.search.warps && (*options.search.warps < 1 || *options.search.warps > kMaxWarps)) {
    return Error{fmt::format("warps must be in 1..{}, got {}", kMaxWarps, *options.search.warps)};
  }
  const Machine& given = *problem.machine;
  const bool described = (!options.search.warps || given.warps == *options.search.warps) &&
                         (!options.smt.warpIssue || given.warpIssueWidth);
  if (!described) {
    auto machine = std::make_shared<Machine>(given);
    describeTwillMachine(*machine, options);
    problem.machine = std::move(machine);
  }
  const Machine& machine = *problem.machine;
  if (options.search.warps && machine.variableLatencyWarp &&
      *machine.variableLatencyWarp >= machine.warps) {
    return Error{fmt::format("warps={} leaves out the variable-latency warp {} of machine '{}'",
                             machine.warps, *machine.variableLatencyWarp, machine.name)};
  }
  if (const auto errors = problem.check(); !errors.empty()) return Error{errors.front()};
  return withFacts(std::move(problem));
}

// Normalized costs when they are large (nothing when they are not, or when the mapping shrinks
// no cost: costs that fit the sum bound map to themselves, and the raw problem is solved; `kept`
// says so), within a third of the time left each of its MILPs (three solves at most).
Expected<std::optional<NormalizedProblem>> normalizeIfLarge(const Problem& problem,
                                                            const TwillOptions& options,
                                                            const Deadline& deadline,
                                                            std::string& kept) {
  auto normalize = shouldNormalize(problem, options.normalization);
  if (!normalize) return Error{normalize.error()};
  if (!*normalize) return std::optional<NormalizedProblem>();
  NormalizationOptions normalization = options.normalization;
  normalization.call = options.milp.call;
  normalization.call.deadline = deadline;
  normalization.solveSeconds =
      std::min(normalization.solveSeconds, deadline.remainingSeconds() / 3.0);
  auto made = normalizeProblem(problem, normalization);
  if (!made) return Error{made.error()};
  if (!made->normalization.shrinksSomeCost()) {
    kept = fmt::format(
        "{}: the raw costs are kept (they fit the sum bound U={}; normalization "
        "never scales a cost up)",
        made->normalization.describe(), normalization.sumBound);
    return std::optional<NormalizedProblem>();
  }
  return std::optional<NormalizedProblem>(std::move(made).value());
}

}  // namespace

void failCall(TwillSolution& solution, std::string message) {
  solution.result.message = std::move(message);
  if (solution.result.status == ModelStatus::kUnknown) solution.result.call = CallStatus::kError;
}

namespace {

// The serial non-overlapped II when every edge crosses warps: a strategy can force cross-warp
// edges that the free problem's bound (serialNonOverlappedIi) does not pay. One iteration run
// serially with every spill cost (serialLatencyWithSpills), then each loop-carried edge's delay
// and spill cost on top, so the next iteration's ops wait out every carried value.
std::int32_t spilledIi(const Problem& problem) {
  const Graph& graph = *problem.graph;
  Cycle carried = 0;
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeDistance(e) == 0) continue;
    carried = std::max<Cycle>(carried, graph.edgeDelay(e) + graph.spillCost(graph.edgeSource(e)));
  }
  return static_cast<std::int32_t>(std::min<Cycle>(
      kMaxInputValue, std::max<Cycle>(1, serialLatencyWithSpills(graph) + carried)));
}

// Whether the strategy's warp rules alone admit no assignment: warp uniqueness, the
// variable-latency warp and a strategy without stages or orders read only the warp literals,
// whose domain no II or L changes, so one UNSAT check of those three families refutes every II
// (a role placed on the load warp that holds a fixed-latency op, say). The answer is then
// infeasible, with the deletion-minimal core in its message.
bool strategyFailsAtEveryIi(const SearchSetup& setup, TwillSolution& solution) {
  const WarpStrategy* strategy = setup.options.strategy;
  if (strategy == nullptr || strategy->constrainsTimes()) return false;
  const TwillFamilySet& asked = setup.options.smt.families;
  if (!asked.has(TwillFamily::kStrategy)) return false;
  SmtQuery query;
  for (TwillFamily family : kAllTwillFamilies) {
    const bool warpsOnly = family == TwillFamily::kWarpUniqueness ||
                           family == TwillFamily::kVariableLatency ||
                           family == TwillFamily::kStrategy;
    if (!warpsOnly || !asked.has(family)) query.families = query.families.without(family);
  }
  query.timeLimitSeconds =
      std::min(setup.options.smt.timeLimitSeconds, setup.deadline.remainingSeconds());
  query.wantCore = true;
  query.minimizeCore = true;
  const Graph& graph = *setup.work.graph;
  Cycle latency = 1;
  for (OpId op = 0; op < graph.numOps(); ++op)
    latency = std::max<Cycle>(latency, graph.duration(op));
  const SmtAnswer answer =
      checkOnce(setup.work, setup.iis.first, latency, setup.modelOptions, query);
  logAttempt(solution, smtAttempt("smt", setup.iis.first, latency, answer,
                                  "the strategy's warp rules alone (no II or L changes them)"));
  if (answer.status != ModelStatus::kInfeasible) return false;
  solution.result.status = ModelStatus::kInfeasible;
  failCall(solution,
           fmt::format("the strategy admits no warp assignment at any II: the constraint families "
                       "{} together are unsatisfiable whatever the start times (minimal unsat "
                       "core)",
                       familyList(answer.core)));
  return true;
}

}  // namespace

std::optional<SearchSetup> setUpSearch(const Problem& input, const TwillOptions& options,
                                       Deadline deadline, TwillSolution& solution) {
  auto problem = problemAsAsked(input, options);
  if (!problem) {
    failCall(solution, problem.error());
    return std::nullopt;
  }
  std::string keptRawCosts;
  auto normalized = normalizeIfLarge(*problem, options, deadline, keptRawCosts);
  if (!normalized) {
    failCall(solution, normalized.error());
    return std::nullopt;
  }
  if (!keptRawCosts.empty()) solution.result.notes.emplace_back("normalized costs", keptRawCosts);
  SearchSetup setup{*problem, *problem, std::move(normalized).value(), options, {}, {}, deadline};
  if (setup.normalized) {
    // The search runs on `work` in normalized units.
    setup.work = setup.normalized->problem;
    const CostNormalization& normalization = setup.normalized->normalization;
    std::string text = normalization.describe();
    for (const auto& warning : normalization.warnings) text += "\n" + warning;
    solution.result.notes.emplace_back("normalized costs", std::move(text));
    solution.twill.units.normalization = normalization;
    solution.twill.units.timeUnit = setup.normalized->timeUnit;
  }

  // MII and what binds it, and the II range: the fixed II, or MII up to max_ii (default the
  // serial non-overlapped II).
  const Graph& graph = *setup.work.graph;
  const Machine& machine = *setup.work.machine;
  const auto facts = setup.work.facts();
  const ResMii& resMii = facts->resMii();
  const RecMii& recMii = facts->recMii();
  if (resMii.infeasible || recMii.infeasible) {
    solution.result.status = ModelStatus::kInfeasible;
    failCall(solution, resMii.infeasible ? *resMii.infeasible : *recMii.infeasible);
    return std::nullopt;
  }
  TwillIiBound& bound = solution.twill.iiBound;
  bound.resMii = resMii.value;
  bound.recMii = recMii.value;
  bound.mii = facts->mii().value;
  MiiBound mii = facts->mii();
  // No II below the warp-aware RecMII has a schedule at any L: the search starts there.
  const RecMii warpRecMii = computeWarpAwareRecMii(graph, machine, options.smt.families);
  bound.warpRecMii = warpRecMii.value;
  const std::int64_t firstIi = std::max(bound.mii, bound.warpRecMii);
  if (bound.warpRecMii > bound.mii) {
    const std::string cycle = warpRecMii.bindingCycle.empty()
                                  ? std::string()
                                  : " on " + describeRecurrence(graph, warpRecMii.bindingCycle);
    mii.reason +=
        fmt::format("; warp-aware RecMII{} (spill costs paid where warp sets must differ) = {}",
                    cycle, bound.warpRecMii);
  }
  solution.result.bounds.mii = std::move(mii);

  setup.iis.first = setup.work.ii ? *setup.work.ii : static_cast<std::int32_t>(firstIi);
  setup.iis.last = setup.iis.first;
  if (!setup.work.ii) {
    setup.iis.last = options.search.maxIi
                         ? static_cast<std::int32_t>(
                               std::max<std::int64_t>(1, *options.search.maxIi / setup.timeUnit()))
                         : std::max(setup.iis.first, serialNonOverlappedIi(setup.work));
    if (options.strategy != nullptr && !options.search.maxIi) {
      setup.iis.last = std::max(setup.iis.last, spilledIi(setup.work));
    }
  }
  setup.modelOptions = modelOptionsOf(options);
  if (strategyFailsAtEveryIi(setup, solution)) return std::nullopt;
  return setup;
}

}  // namespace gaus::exact::detail
