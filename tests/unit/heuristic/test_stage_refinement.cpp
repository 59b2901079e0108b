// Method `balanced` (GS-Schedule's greedy cut) and the refinement of stage schedules
// (heuristic::refineStages): hand-computed cuts and objectives, and brute force over every stage
// assignment of small graphs.
#include <algorithm>
#include <limits>
#include <random>

#include <catch2/catch.hpp>

#include <gaus/core/random_graph.hpp>
#include <gaus/core/stage_objective.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/heuristic/balanced_stages.hpp>
#include <gaus/heuristic/methods.hpp>
#include <gaus/heuristic/stage_refinement.hpp>
#include <gaus/methods/registry.hpp>

#include "stage_graphs.hpp"

using namespace gaus;

namespace {

using test::stageGraphOf;
using test::StageGraphSpec;
using test::stageProblem;

bool legal(const Problem& problem, const std::vector<Cycle>& stages) {
  VerifyOptions options;
  options.maxMessages = 0;
  return verify(problem, Schedule{stages, std::nullopt, std::nullopt}, options).ok();
}

double objective(const Graph& graph, const std::vector<Cycle>& stages, double ratio) {
  return gsScheduleObjective(stageFigures(graph, Schedule{stages, std::nullopt, std::nullopt}),
                             ratio);
}

double squaredLoads(const Graph& graph, const std::vector<Cycle>& stages, Cycle count) {
  std::vector<double> load(static_cast<std::size_t>(count), 0.0);
  for (OpId op = 0; op < graph.numOps(); ++op) load[stages[op]] += graph.weight(op);
  double sum = 0.0;
  for (const double value : load) sum += value * value;
  return sum;
}

// Every neighbour under the refinement's move set (one op to another stage; two ops of positive
// weight in different stages exchanged) that is legal.
std::vector<std::vector<Cycle>> neighbours(const Problem& problem, const std::vector<Cycle>& at) {
  const Graph& graph = *problem.graph;
  std::vector<std::vector<Cycle>> result;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    for (Cycle stage = 0; stage < *problem.horizon; ++stage) {
      if (stage == at[op]) continue;
      auto moved = at;
      moved[op] = stage;
      if (legal(problem, moved)) result.push_back(moved);
    }
    for (OpId other = op + 1; other < graph.numOps(); ++other) {
      if (at[op] == at[other] || graph.weight(op) <= 0 || graph.weight(other) <= 0) continue;
      auto swapped = at;
      std::swap(swapped[op], swapped[other]);
      if (legal(problem, swapped)) result.push_back(swapped);
    }
  }
  return result;
}

MethodRegistry heuristicRegistry() {
  MethodRegistry registry;
  registerHeuristicMethods(registry);
  return registry;
}

}  // namespace

TEST_CASE("balanced: the greedy cut and its refinement by hand", "[heuristic][stages]") {
  // Four independent ops of weights 3, 3, 2, 2 in D = 2 stages: total 10, LB = 5. The cut of the
  // order x, y, z, w at capacity 5 would need three stages (x | y z | w), at 6 it takes two:
  // {x, y} = 6 | {z, w} = 4, objective 100 x 6 = 600. Swapping y (3) with z (2) evens the
  // stages to 5 | 5: 500, the lower bound, so the refined cut is optimal.
  const Graph graph = stageGraphOf({{3, 3, 2, 2}, {}, {}});
  const Problem problem = stageProblem(graph, 2, 100);
  const MethodRegistry registry = heuristicRegistry();

  const Result cut = registry.run("balanced", problem, {});
  REQUIRE(cut.verified());
  CHECK(cut.schedule->start == std::vector<Cycle>{0, 0, 1, 1});
  CHECK(*cut.objective == 600);
  CHECK(*cut.bounds.lowerBound == 500);
  CHECK(cut.status == ModelStatus::kFeasible);

  const Result refined = registry.run("balanced", problem, {{"refine", "true"}});
  REQUIRE(refined.verified());
  CHECK(*refined.objective == 500);
  CHECK(refined.status == ModelStatus::kOptimal);
}

TEST_CASE("balanced: a chain with communication, objective by hand", "[heuristic][stages]") {
  // a(4) -> b(2) -> c(2) -> d(4), only b -> c carries communication; D = 2, ratio 100. Stages
  // are non-decreasing along the chain, so a cut is a prefix: weights 4 | 8, 6 | 6 or 8 | 4.
  // The greedy cut at capacity 6 is {a, b} | {c, d}: peak 6, b -> c crosses one boundary:
  // 100 x 6 + 1 = 601; no schedule does better (peak 6 is the bound and needs exactly this cut).
  const Graph graph = stageGraphOf({{4, 2, 2, 4}, {{0, 1}, {1, 2}, {2, 3}}, {0, 1, 0}});
  const Problem problem = stageProblem(graph, 2, 100);
  const Result refined = heuristicRegistry().run("balanced", problem, {{"refine", "true"}});
  REQUIRE(refined.verified());
  CHECK(refined.schedule->start == std::vector<Cycle>{0, 0, 1, 1});
  CHECK(*refined.objective == 601);
  CHECK(*refined.bounds.lowerBound == 600);
}

TEST_CASE("stage refinement against brute force: never worse, a local optimum of its move set",
          "[heuristic][stages]") {
  // Random graphs of 5 to 8 ops and 3 stages, weights in {0, 1, 2, 3, 5}, edges i -> j (i < j)
  // with probability 0.25, half of them comm edges, ratio 2 (so communication competes with
  // the peak). From the greedy cut and from a random legal assignment, the refinement must
  // return a legal assignment whose objective is at most the input's and at least the optimum
  // found by enumerating all 3^n assignments, and no legal neighbour under its move set may
  // lower (objective, sum of squared stage loads).
  std::mt19937 random(7);
  constexpr Cycle kStages = 3;
  constexpr double kRatio = 2.0;
  const double weightChoices[] = {0, 1, 2, 3, 5};
  int instances = 0;
  int atOptimum = 0;
  for (int round = 0; round < 60; ++round) {
    StageGraphSpec spec;
    const int ops = 5 + static_cast<int>(random() % 4);
    for (int op = 0; op < ops; ++op) spec.weights.push_back(weightChoices[random() % 5]);
    for (int i = 0; i < ops; ++i) {
      for (int j = i + 1; j < ops; ++j) {
        if (random() % 4 != 0) continue;
        spec.edges.emplace_back(i, j);
        spec.comm.push_back(static_cast<double>(random() % 2));
      }
    }
    const Graph graph = stageGraphOf(spec);
    const Problem problem = stageProblem(graph, kStages, kRatio);

    // Every legal assignment, by enumeration.
    std::vector<std::vector<Cycle>> legalAssignments;
    std::vector<Cycle> assignment(static_cast<std::size_t>(ops), 0);
    double optimum = std::numeric_limits<double>::infinity();
    while (true) {
      if (legal(problem, assignment)) {
        legalAssignments.push_back(assignment);
        optimum = std::min(optimum, objective(graph, assignment, kRatio));
      }
      int digit = 0;
      while (digit < ops && ++assignment[digit] == kStages) assignment[digit++] = 0;
      if (digit == ops) break;
    }
    REQUIRE_FALSE(legalAssignments.empty());

    const auto cut = heuristic::greedyBalancedStages(graph, kStages);
    REQUIRE(cut.ok());
    const std::vector<std::vector<Cycle>> inputs = {
        cut->start, legalAssignments[random() % legalAssignments.size()]};
    for (const auto& input : inputs) {
      INFO("round " << round << ", " << ops << " ops");
      REQUIRE(legal(problem, input));
      heuristic::StageRefinementOptions options;
      options.ratio = kRatio;
      const heuristic::StageRefinement refined = heuristic::refineStages(
          graph, kStages, Schedule{input, std::nullopt, std::nullopt}, options);
      const auto& result = refined.schedule.start;
      REQUIRE(legal(problem, result));
      const double value = objective(graph, result, kRatio);
      CHECK(value <= objective(graph, input, kRatio));
      CHECK(value >= optimum);
      CHECK(refined.localOptimum);
      const double squares = squaredLoads(graph, result, kStages);
      for (const auto& neighbour : neighbours(problem, result)) {
        const double neighbourValue = objective(graph, neighbour, kRatio);
        const bool lower =
            neighbourValue < value ||
            (neighbourValue == value && squaredLoads(graph, neighbour, kStages) < squares);
        CHECK_FALSE(lower);
      }
      ++instances;
      atOptimum += value == optimum;
    }
  }
  CHECK(instances == 120);
  // A local search need not reach the optimum; on these small graphs it does on most inputs:
  // 97 of the 120 with this seed (measured); the check leaves room for a change of move order.
  INFO("at the optimum on " << atOptimum << " of " << instances);
  CHECK(atOptimum >= 90);
}

TEST_CASE("stage refinement ends on fractional weights", "[heuristic][stages]") {
  // The GS-like graph of docs/random_graphs.md at 100 ops (real weights in [1000, 5000]): before
  // the squares change was computed without subtracting large squares, a move and its reverse
  // both seemed to lower them by rounding noise, and the refinement made 32,927 moves in 2 s
  // without ending. It now ends at a local optimum in a few dozen moves; the 10 s stop only
  // keeps a regression from hanging the suite.
  RandomGraphOptions options;
  options.ops = 100;
  options.averageDegree = 2.88;
  options.layered = true;
  options.layers = 15;
  options.maxLayerSpan = 3;
  options.weightedFraction = 0.4;
  options.minWeight = 1000;
  options.maxWeight = 5000;
  options.commFraction = 0.4;
  options.seed = 1;
  auto generated = generateRandomGraph(options);
  REQUIRE(generated.ok());
  auto graph = stageGraph(generated->graph);
  REQUIRE(graph.ok());
  constexpr Cycle kStages = 10;
  const auto cut = heuristic::greedyBalancedStages(*graph, kStages);
  REQUIRE(cut.ok());
  heuristic::StageRefinementOptions refinement;
  const Deadline deadline(10.0);
  refinement.stop = [&] { return deadline.expired(); };
  const heuristic::StageRefinement refined =
      heuristic::refineStages(*graph, kStages, *cut, refinement);
  CHECK(refined.localOptimum);
  CHECK(refined.moves + refined.swaps < 1000);
  const Problem problem = stageProblem(*graph, kStages, refinement.ratio);
  CHECK(verify(problem, refined.schedule).ok());
  CHECK(objective(*graph, refined.schedule.start, refinement.ratio) <=
        objective(*graph, cut->start, refinement.ratio));
}
