// GS-Schedule's stage assignment (Liu et al., "Differentiable Combinatorial Scheduling at
// Scale", ICML 2024; benchmarks/gs-schedule-icml24-rw/README.md; formulation A of GauS) as a
// MILP, the exact reference for method `balanced` and GauS on stage problems.
//
// The model, for D stages, ops v with weight w_v and distance-0 edges u -> v with comm c_uv:
// - a binary y[v][s] for s in 0..D-2, "v is in stage s or earlier" (y[v][D-1] = 1). It is the
//   assignment x[v][s] = y[v][s] - y[v][s-1] written cumulatively, and v's stage is
//   s_v = sum_s (1 - y[v][s]);
// - y[v][s] <= y[v][s+1]: the stages form a prefix;
// - y[v][s] <= y[u][s] for every edge u -> v and every s: s_u <= s_v, one row per stage;
// - P >= sum_v w_v (y[v][s] - y[v][s-1]) for every stage s: P is at least the peak stage weight;
// - minimize ratio x P + sum_uv c_uv sum_s (y[u][s] - y[v][s]), where the inner sum is
//   s_v - s_u, the stage boundaries the edge crosses (core/stage_objective.hpp counts exactly
//   these, weighted by comm). The objective is exactly the one the verifier's figures compute.
//
// Why per-stage precedence rows rather than the compact sum_s s x[u][s] <= sum_s s x[v][s]:
// summed over s, the per-stage rows give the compact row, but not the other way round. A
// fractional solution may meet the one weighted row while placing more of v than of u in the
// early stages; the per-stage rows forbid it, so every LP after branching is at least as tight.
// At the root both are equally weak: y[v][s] = (s + 1) / D for every op spreads each op evenly,
// meets every row with equal stage weights total / D and no crossings, so the root LP bound is
// ratio x total / D, the trivial bound. The cumulative form writes each per-stage precedence row
// with two nonzeros (x would need 2 (s + 1)). What the bound gains comes from branching and from
// P's lower bound (core's peakStageWeightLowerBound: the largest weight, the ceiling of the
// average when the weights are integers, P then integer too).
//
// The start is GS-Schedule's greedy balanced cut refined by the stage refinement (or the
// initial schedule when better): the solver's first incumbent, and the answer when it finds nothing
// better. When the start meets the bound no model is built.

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include <fmt/format.h>

#include <gaus/core/deadline.hpp>
#include <gaus/core/stage_objective.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/exact/exact_figures.hpp>
#include <gaus/exact/stage_milp.hpp>
#include <gaus/heuristic/balanced_stages.hpp>
#include <gaus/heuristic/stage_refinement.hpp>
#include <gaus/milp/milp_model.hpp>

namespace gaus::exact {

namespace {

double objectiveOf(const Problem& problem, const Schedule& schedule) {
  return gsScheduleObjective(stageFigures(*problem.graph, schedule), problem.stageRatio);
}

bool integralWeights(const Graph& graph) {
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (graph.weight(op) != std::floor(graph.weight(op))) return false;
  }
  return true;
}

// Every objective value is an integer when the weights, the comm weights and the ratio are:
// The solver's bound can then be rounded up.
bool integralObjective(const Problem& problem) {
  const Graph& graph = *problem.graph;
  if (problem.stageRatio != std::floor(problem.stageRatio) || !integralWeights(graph)) return false;
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeComm(e) != std::floor(graph.edgeComm(e))) return false;
  }
  return true;
}

// The distance-0 edges as distinct (source, target) pairs: a repeated pair adds its comm to
// the objective each time but needs its precedence rows once.
std::vector<std::pair<OpId, OpId>> precedencePairs(const Graph& graph) {
  std::set<std::pair<OpId, OpId>> pairs;
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeDistance(e) != 0) continue;
    pairs.emplace(graph.edgeSource(e), graph.edgeTarget(e));
  }
  return {pairs.begin(), pairs.end()};
}

std::int64_t weightedOps(const Graph& graph) {
  std::int64_t count = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) count += graph.weight(op) != 0.0 ? 1 : 0;
  return count;
}

// The model of the file comment, variables y[v][s] at v x (D - 1) + s, then P.
class StageModel {
 public:
  StageModel(const Graph& graph, Cycle stages, double ratio, double peakLowerBound)
      : ops_(graph.numOps()), stages_(stages) {
    const Cycle cuts = stages_ - 1;
    // Each op's cost per y[v][s]: + comm of its out-edges, - comm of its in-edges (the edge
    // u -> v costs c (sum_s y[u][s] - sum_s y[v][s])).
    std::vector<double> crossingCost(static_cast<std::size_t>(ops_), 0.0);
    for (EdgeId e = 0; e < graph.numEdges(); ++e) {
      if (graph.edgeDistance(e) != 0) continue;
      crossingCost[graph.edgeSource(e)] += graph.edgeComm(e);
      crossingCost[graph.edgeTarget(e)] -= graph.edgeComm(e);
    }
    for (OpId op = 0; op < ops_; ++op) {
      for (Cycle s = 0; s < cuts; ++s) model_.addVariable(0, 1, true, crossingCost[op]);
    }
    peak_ = model_.addVariable(peakLowerBound, 1e30, integralWeights(graph), ratio);

    for (OpId op = 0; op < ops_; ++op) {
      for (Cycle s = 0; s + 1 < cuts; ++s) {
        milp::LinearExpression row;
        row.add(y(op, s), 1.0);
        row.add(y(op, s + 1), -1.0);
        model_.addLessEqual(row, 0.0);
      }
    }
    for (const auto& [source, target] : precedencePairs(graph)) {
      for (Cycle s = 0; s < cuts; ++s) {
        milp::LinearExpression row;
        row.add(y(target, s), 1.0);
        row.add(y(source, s), -1.0);
        model_.addLessEqual(row, 0.0);
      }
    }
    double total = 0.0;
    for (OpId op = 0; op < ops_; ++op) total += graph.weight(op);
    for (Cycle s = 0; s < stages_; ++s) {
      // Stage s holds y[v][s] - y[v][s-1] of each op; the last stage's y is the constant 1.
      milp::LinearExpression row;
      for (OpId op = 0; op < ops_; ++op) {
        const double weight = graph.weight(op);
        if (weight == 0.0) continue;
        if (s < cuts) row.add(y(op, s), weight);
        if (s > 0) row.add(y(op, s - 1), -weight);
      }
      row.add(peak_, -1.0);
      model_.addLessEqual(row, s == cuts ? -total : 0.0);
    }
  }

  // The nonzeros the constructor writes, counted without building the model.
  static milp::ModelSize estimateSize(const Graph& graph, Cycle stages) {
    const std::int64_t cuts = std::max<Cycle>(stages - 1, 0);
    const std::int64_t ops = graph.numOps();
    const auto pairs = static_cast<std::int64_t>(precedencePairs(graph).size());
    milp::ModelSize size;
    size.variables = ops * cuts + 1;
    size.nonzeros = 2 * ops * std::max<std::int64_t>(cuts - 1, 0) + 2 * pairs * cuts +
                    2 * weightedOps(graph) * cuts + stages;
    return size;
  }

  milp::MilpModel& model() { return model_; }

  std::vector<double> encode(const Schedule& schedule, double peak) const {
    std::vector<double> values(static_cast<std::size_t>(model_.numVariables()), 0.0);
    for (OpId op = 0; op < ops_; ++op) {
      for (Cycle s = 0; s + 1 < stages_; ++s) values[y(op, s)] = schedule.start[op] <= s ? 1 : 0;
    }
    values[peak_] = std::max(peak, model_.lowerBound(peak_));
    return values;
  }

  Schedule decode(const milp::MilpSolution& solution) const {
    Schedule schedule;
    schedule.start.assign(static_cast<std::size_t>(ops_), 0);
    for (OpId op = 0; op < ops_; ++op) {
      for (Cycle s = 0; s + 1 < stages_; ++s) {
        schedule.start[op] += solution.integerValue(y(op, s)) == 0 ? 1 : 0;
      }
    }
    return schedule;
  }

 private:
  milp::VariableId y(OpId op, Cycle stage) const {
    return static_cast<milp::VariableId>(static_cast<std::int64_t>(op) * (stages_ - 1) + stage);
  }

  OpId ops_;
  Cycle stages_;
  milp::MilpModel model_;
  milp::VariableId peak_ = 0;
};

// The start: the refined greedy cut, or the initial schedule when it verifies and is better.
Expected<Schedule> startSchedule(const Problem& problem, const StageMilpOptions& options,
                                 Result& result) {
  const Graph& graph = *problem.graph;
  const Cycle stages = *problem.horizon;
  auto cut = heuristic::greedyBalancedStages(graph, stages);
  if (!cut) return Error{cut.error()};
  heuristic::StageRefinementOptions refinement;
  refinement.ratio = problem.stageRatio;
  const Deadline refinementDeadline = options.call.deadline.share(options.refinementShare);
  refinement.stop = [&] { return refinementDeadline.expired(); };
  Schedule start = heuristic::refineStages(graph, stages, *cut, refinement).schedule;
  const double refinedObjective = objectiveOf(problem, start);
  const Schedule* given = options.call.initialSchedule;
  const std::string_view origin = options.call.initialScheduleOrigin;
  if (given != nullptr) {
    const VerificationReport report = verify(problem, *given);
    if (!report.ok()) {
      result.notes.emplace_back(
          "initial schedule",
          fmt::format("ignored ({}): it does not verify: {}", origin, report.summary()));
    } else {
      const double initialObjective = objectiveOf(problem, *given);
      const bool initialIsBetter = initialObjective < refinedObjective;
      result.notes.emplace_back(
          "initial schedule",
          fmt::format(
              "{} has objective {}, the refined balanced cut {}: the {} is the solver's start",
              origin, initialObjective, refinedObjective, initialIsBetter ? "first" : "second"));
      if (initialIsBetter) start = *given;
    }
  }
  return start;
}

}  // namespace

Result solveStageMilp(const Problem& problem, const StageMilpOptions& options) {
  const milp::MilpCall& call = options.call;
  const Graph& graph = *problem.graph;
  if (!problem.horizon || *problem.horizon < 1) {
    return errorResult("stage MILP: the stage problem needs a horizon D >= 1 (--horizon)");
  }
  const Cycle stages = *problem.horizon;
  Result result;
  auto start = startSchedule(problem, options, result);
  if (!start) return errorResult("stage MILP: no start schedule: " + start.error());
  reportStageObjective(problem, *start, result);
  result.schedule = *start;
  const double trivialBound = *result.bounds.lowerBound;
  if (result.status == ModelStatus::kOptimal) {
    result.notes.emplace_back("stage MILP", "not built: the start meets the bound");
    return result;
  }

  const double peakLowerBound = peakStageWeightLowerBound(graph, stages);
  if (auto refused = call.refusal(
          fmt::format("the stage MILP ({} ops x {} stages)", graph.numOps(), stages),
          StageModel::estimateSize(graph, stages),
          "the model grows with ops x stages: use method balanced -O refine=true or gaus on "
          "graphs this large")) {
    return errorResult(*refused);
  }
  StageModel model(graph, stages, problem.stageRatio, peakLowerBound);
  if (call.useStart) {
    model.model().setStart(model.encode(*start, stageFigures(graph, *start).peakStageWeight));
  }
  result.figures.set(figures::kVariables, static_cast<double>(model.model().numVariables()));
  result.figures.set(figures::kRows, static_cast<double>(model.model().numRows()));

  milp::MilpSolution solution;
  solution.status = ModelStatus::kTimeout;
  if (!call.deadline.expired()) solution = call.solve(model.model());
  result.stats.solverCalls += 1;
  result.stats.iterations = solution.nodes;
  Attempt attempt;
  attempt.phase = "milp";
  attempt.seconds = solution.seconds;
  attempt.detail = fmt::format("{} ops x {} stages, {} variables, {} rows, {} {}", graph.numOps(),
                               stages, model.model().numVariables(), model.model().numRows(),
                               milp::toString(call.solver), solution.statusWithNote());
  if (solution.call == CallStatus::kError) {
    return errorResult(
        fmt::format("stage MILP: {} failed ({})", milp::toString(call.solver), solution.note));
  }
  if (solution.hasSolution()) {
    Schedule solved = model.decode(solution);
    // The verifier's objective decides, not the solver's: its incumbent is never worse than its
    // start, but a rounding of its values could be.
    if (verify(problem, solved).ok() &&
        objectiveOf(problem, solved) < objectiveOf(problem, *start)) {
      reportStageObjective(problem, solved, result);
      result.schedule = std::move(solved);
    }
  }
  double bound = trivialBound;
  if (solution.status == ModelStatus::kOptimal) {
    // The solver proved that nothing is below its incumbent, which is the result or ties with it.
    bound = *result.objective;
  } else if (solution.bound) {
    const double solverBound =
        integralObjective(problem) ? std::ceil(*solution.bound - 1e-6) : *solution.bound;
    bound = std::max(bound, solverBound);
  }
  result.bounds.lowerBound = std::min(bound, *result.objective);
  if (*result.objective <= *result.bounds.lowerBound) {
    result.status = ModelStatus::kOptimal;
  } else {
    result.status =
        solution.status == ModelStatus::kTimeout ? ModelStatus::kTimeout : ModelStatus::kFeasible;
    result.message = fmt::format(
        "stage objective {} not proven optimal (lower bound {}){}", *result.objective,
        *result.bounds.lowerBound,
        solution.status == ModelStatus::kTimeout ? "; the time limit stopped the solver" : "");
  }
  attempt.status = result.status;
  attempt.bound = result.bounds.lowerBound;
  result.attempts.push_back(std::move(attempt));
  return result;
}

}  // namespace gaus::exact
