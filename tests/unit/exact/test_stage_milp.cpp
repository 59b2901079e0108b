// The stage MILP (exact::solveStageMilp, method ilp on stage problems): brute force over every
// stage assignment of tiny random DAGs, a hand-computed instance at two ratios, the start it
// never falls behind, the initial schedule, the size guard, and every schedule verified.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <gaus/core/stage_objective.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/exact/exact_figures.hpp>
#include <gaus/exact/methods.hpp>
#include <gaus/exact/stage_milp.hpp>
#include <gaus/heuristic/methods.hpp>
#include <gaus/methods/registry.hpp>

#include "stage_graphs.hpp"
#include "test_support.hpp"

using namespace gaus;
using namespace gaus::exact;

namespace {

using test::stageGraphOf;
using test::StageGraphSpec;
using test::stageProblem;

double objectiveOf(const Problem& problem, const Schedule& schedule) {
  return gsScheduleObjective(stageFigures(*problem.graph, schedule), problem.stageRatio);
}

// The smallest objective over every assignment of stages 0..D-1 that the verifier accepts:
// shares nothing with the model but the objective's definition (core/stage_objective.hpp).
double bruteForceOptimum(const Problem& problem) {
  const OpId ops = problem.graph->numOps();
  const Cycle stages = *problem.horizon;
  VerifyOptions quiet;
  quiet.maxMessages = 0;
  Schedule schedule;
  schedule.start.assign(static_cast<std::size_t>(ops), 0);
  double best = std::numeric_limits<double>::infinity();
  while (true) {
    if (verify(problem, schedule, quiet).ok())
      best = std::min(best, objectiveOf(problem, schedule));
    OpId digit = 0;
    while (digit < ops && ++schedule.start[digit] == stages) schedule.start[digit++] = 0;
    if (digit == ops) break;
  }
  return best;
}

// A random DAG on `ops` ops (edges from lower to higher ids, each pair with probability 0.35):
// 40 % of the ops weightless, the others weight 1..9; half the edges comm 0, the others 1..3.
// The draws are reduced with %, not std:: distributions, so the instances are the same with
// every standard library.
Graph randomStageGraph(std::mt19937_64& random, OpId ops) {
  StageGraphSpec spec;
  for (OpId op = 0; op < ops; ++op) {
    spec.weights.push_back(random() % 10 < 4 ? 0.0 : static_cast<double>(1 + random() % 9));
  }
  for (OpId source = 0; source < ops; ++source) {
    for (OpId target = source + 1; target < ops; ++target) {
      if (random() % 100 >= 35) continue;
      spec.edges.emplace_back(source, target);
      spec.comm.push_back(random() % 2 == 0 ? 0.0 : static_cast<double>(1 + random() % 3));
    }
  }
  return stageGraphOf(spec);
}

bool sameValue(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

}  // namespace

TEST_CASE("stage MILP: the brute-force optimum on 300 tiny random DAGs", "[exact][stages]") {
  // Every stage assignment of 2-6 ops in 1-4 stages is enumerated; the MILP must reach the
  // smallest objective, prove it (status optimal, bound = value) and return a schedule the
  // verifier accepts. Ratios 100 (GS-Schedule's), 3, 1 and 0.5 (an objective that is not an
  // integer, whose bound is not rounded) trade the peak against the crossings differently.
  std::mt19937_64 random(41);
  const double ratios[] = {100.0, 3.0, 1.0, 0.5};
  int solvedByCbc = 0;
  for (int instance = 0; instance < 300; ++instance) {
    const auto ops = static_cast<OpId>(2 + random() % 5);
    const auto stages = static_cast<Cycle>(1 + random() % 4);
    const Problem problem =
        stageProblem(randomStageGraph(random, ops), stages, ratios[instance % 4]);
    const double expected = bruteForceOptimum(problem);
    StageMilpOptions options;
    // No deadline: no limit, the models are tiny.
    const Result result = solveStageMilp(problem, options);
    INFO(fmt::format("instance {}: {} ops, {} stages, ratio {}, brute force {}, {}", instance, ops,
                     stages, problem.stageRatio, expected, result.message));
    REQUIRE(result.schedule);
    CHECK(verify(problem, *result.schedule).ok());
    REQUIRE(result.objective);
    CHECK(sameValue(*result.objective, expected));
    CHECK(sameValue(objectiveOf(problem, *result.schedule), expected));
    CHECK(result.status == ModelStatus::kOptimal);
    REQUIRE(result.bounds.lowerBound);
    CHECK(*result.bounds.lowerBound <= expected + 1e-9);
    CHECK(sameValue(*result.bounds.lowerBound, expected));
    if (result.figures.get(exact::figures::kVariables)) ++solvedByCbc;
  }
  // The rest were proven by the start meeting the bound, without a model; the check makes sure
  // the model itself is exercised (76 of the 300 instances of this seed go to CBC).
  INFO(solvedByCbc << " of 300 instances went to CBC");
  CHECK(solvedByCbc >= 50);
}

TEST_CASE("stage MILP: a fork of two comm edges, by hand, at ratios 100 and 1", "[exact][stages]") {
  // a (weight 4) feeds b and c (weight 2 each) over comm edges, D = 2. a cannot follow b or c,
  // and a in stage 1 puts all three there (peak 8), so a is in stage 0 with k of {b, c}:
  //   k = 0: peak 4, 2 edges cross;  k = 1: peak 6, 1 crosses;  k = 2: peak 8, none crosses.
  // (or, at k = 2, every op in stage 1). The trivial bound is max(ceil(8 / 2), 4) = 4 x ratio.
  StageGraphSpec spec;
  spec.weights = {4, 2, 2};
  spec.edges = {{0, 1}, {0, 2}};
  SECTION("ratio 100, comm 1: k = 0 gives 400 + 2 = 402, above the trivial bound 400") {
    spec.comm = {1, 1};
    const Problem problem = stageProblem(stageGraphOf(spec), 2, 100.0);
    const Result result = solveStageMilp(problem);
    REQUIRE(result.objective);
    CHECK(*result.objective == 402);
    CHECK(result.status == ModelStatus::kOptimal);
    CHECK(result.bounds.lowerBound == 402);
    CHECK(result.figures.get(gaus::figures::kPeakStageWeight) == 4);
    CHECK(result.figures.get(gaus::figures::kCommunication) == 2);
    REQUIRE(result.schedule);
    CHECK(result.schedule->start == std::vector<Cycle>{0, 1, 1});
  }
  SECTION("ratio 1, comm 5 per edge (a crossing counts its comm): k = 2 gives 8 + 0") {
    // k = 0: 4 + 2 x 5 = 14; k = 1: 6 + 5 = 11; k = 2: 8.
    spec.comm = {5, 5};
    const Problem problem = stageProblem(stageGraphOf(spec), 2, 1.0);
    const Result result = solveStageMilp(problem);
    REQUIRE(result.objective);
    CHECK(*result.objective == 8);
    CHECK(result.status == ModelStatus::kOptimal);
    CHECK(result.bounds.lowerBound == 8);
    REQUIRE(result.schedule);
    // Any one stage for all three: 0 or 1.
    CHECK(result.schedule->start[1] == result.schedule->start[0]);
    CHECK(result.schedule->start[2] == result.schedule->start[0]);
  }
}

TEST_CASE("ilp on stage problems: verified, never worse than the refined balanced cut",
          "[exact][stages]") {
  // 40-op random DAGs in 5 stages, 1 s each: whatever CBC reaches, the answer starts from the
  // refined cut (balanced -O refine=true), so it is at most that; the registry verifies both.
  MethodRegistry registry;
  registerExactMethods(registry);
  registerHeuristicMethods(registry);
  std::mt19937_64 random(7);
  for (int instance = 0; instance < 3; ++instance) {
    const Problem problem = stageProblem(randomStageGraph(random, 40), 5, 100.0);
    const Result balanced = registry.run("balanced", problem, {{"refine", "true"}});
    const Result ilp = registry.run("ilp", problem, {{"time_limit", test::timeLimitText(1.0)}});
    INFO(fmt::format("instance {}: {}", instance, ilp.message));
    REQUIRE(balanced.verified());
    REQUIRE(ilp.verified());
    REQUIRE(balanced.objective);
    REQUIRE(ilp.objective);
    CHECK(*ilp.objective <= *balanced.objective);
    REQUIRE(ilp.bounds.lowerBound);
    CHECK(*ilp.bounds.lowerBound >= *balanced.bounds.lowerBound);
    CHECK(*ilp.bounds.lowerBound <= *ilp.objective);
  }
}

TEST_CASE(
    "stage MILP: an initial schedule that verifies is the start, one that does not is "
    "ignored",
    "[exact][stages]") {
  // The hand instance at ratio 1, comm 5 (optimum 8, every op in stage 0).
  StageGraphSpec spec{{4, 2, 2}, {{0, 1}, {0, 2}}, {5, 5}};
  const Problem problem = stageProblem(stageGraphOf(spec), 2, 1.0);
  StageMilpOptions options;
  SECTION("the optimum as --init: the start, proven by CBC") {
    const Schedule optimum{{0, 0, 0}, std::nullopt, std::nullopt};
    options.call.initialSchedule = &optimum;
    const Result result = solveStageMilp(problem, options);
    CHECK(result.objective == 8);
    CHECK(result.status == ModelStatus::kOptimal);
    REQUIRE_FALSE(result.notes.empty());
    CHECK_THAT(result.notes.front().second, Catch::Contains("--init has objective 8"));
  }
  SECTION("b before a breaks the edge a -> b: ignored, with the verifier's reason") {
    const Schedule illegal{{1, 0, 1}, std::nullopt, std::nullopt};
    options.call.initialSchedule = &illegal;
    const Result result = solveStageMilp(problem, options);
    CHECK(result.objective == 8);
    REQUIRE_FALSE(result.notes.empty());
    CHECK_THAT(result.notes.front().second, Catch::Contains("does not verify"));
  }
}

TEST_CASE("stage MILP: a model above max_nonzeros is refused, naming what to use instead",
          "[exact][stages]") {
  // Four ops in a chain a -> b -> c -> d, weights 1, comm 1, D = 3: the refined cut cannot meet
  // the bound 100 x ceil(4 / 3) = 200 without crossings, so the model is sized: 4 x 2 binaries
  // and P, beyond a limit of 10 nonzeros.
  StageGraphSpec spec{{1, 1, 1, 1}, {{0, 1}, {1, 2}, {2, 3}}, {1, 1, 1}};
  const Problem problem = stageProblem(stageGraphOf(spec), 3, 100.0);
  StageMilpOptions options;
  options.call.maxNonzeros = 10;
  const Result result = solveStageMilp(problem, options);
  CHECK(result.failed());
  CHECK_THAT(result.message, Catch::Contains("above max_nonzeros=10"));
  CHECK_THAT(result.message, Catch::Contains("balanced -O refine=true"));
}
