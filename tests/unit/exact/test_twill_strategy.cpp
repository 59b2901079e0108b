// Twill under a given warp strategy (family strategy, core warp_strategy.hpp): a hand-worked
// recurrence whose split across roles costs spill delays, the search's (II, L) under strategies
// against enumeration of every schedule and warp assignment the verifier accepts with the
// strategy, an infeasible strategy named in the unsat core, and stages and orders as rules.
#include <algorithm>

#include <catch2/catch.hpp>

#include <gaus/core/verify.hpp>
#include <gaus/core/warp_strategy.hpp>
#include <gaus/exact/twill.hpp>

#include "brute_force.hpp"
#include "test_support.hpp"
#include "toy_graphs.hpp"

using namespace gaus;
using namespace gaus::exact;

namespace {

// a -> b (delay 1) and b -> a (delay 1, distance 1), spill cost 2 each, no units, on two warps.
// Free: a and b on one warp, RecMII = 1 + 1 = 2, so II 2; a at 0, b at 1, L 2.
// With a and b in two roles both edges cross warps and pay 2: the recurrence needs
// II >= (1 + 2) + (1 + 2) = 6, and at II 6 b starts 3 after a, so L = 3 + 1 = 4.
Instance spillRecurrence() {
  Machine machine;
  machine.name = "two_warps";
  machine.warps = 2;
  GraphBuilder builder("spill_recurrence");
  const OpId a = builder.addOp("a", 1);
  const OpId b = builder.addOp("b", 1);
  builder.setSpillCost(a, 2);
  builder.setSpillCost(b, 2);
  builder.addEdge(a, b, 1, 0);
  builder.addEdge(b, a, 1, 1);
  return test::makeInstance(std::move(builder), std::move(machine));
}

WarpStrategy placed(WarpStrategy strategy, const Instance& instance) {
  auto result = placeStrategy(std::move(strategy), *instance.graph, *instance.machine);
  INFO((result ? std::string() : result.error()));
  REQUIRE(result);
  return std::move(result).value();
}

TwillSolution solveUnder(const Instance& instance, const WarpStrategy* strategy) {
  TwillOptions options;
  options.strategy = strategy;
  options.search.timeLimitSeconds = test::timeLimit(60.0);
  const Problem problem = instance.problem(ProblemKind::kModuloWarp);
  TwillSolution solution = solveTwill(problem, options);
  INFO(solution.result.message);
  for (const auto& attempt : solution.result.attempts) UNSCOPED_INFO(attempt.describe());
  REQUIRE(solution.result.call == CallStatus::kOk);
  return solution;
}

bool blockedBy(const TwillSolution& solution, TwillFamily family) {
  for (const auto& families : solution.twill.blocking) {
    if (std::find(families.begin(), families.end(), family) != families.end()) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("twill --strategy: roles that split a recurrence raise II from 2 to 6, proven",
          "[exact][twill][strategy]") {
  const Instance instance = spillRecurrence();
  const TwillSolution free = solveUnder(instance, nullptr);
  REQUIRE(free.result.status == ModelStatus::kOptimal);
  CHECK(*free.ii() == 2);
  CHECK(*free.twill.latency == 2);

  const WarpStrategy strategy = placed(WarpStrategy{"split",
                                                    {{"first", 1, std::nullopt, {0}, {}, {}},
                                                     {"second", 1, std::nullopt, {1}, {}, {}}}},
                                       instance);
  const TwillSolution split = solveUnder(instance, &strategy);
  REQUIRE(split.result.status == ModelStatus::kOptimal);
  CHECK(*split.ii() == 6);
  CHECK(*split.twill.latency == 4);
  // II 2-5 are refuted for every L: no register or memory family can bind, so the L that
  // suffices at each II decides it (the strategy fixes warps only).
  CHECK(split.twill.iiBound.proof == IiProof::kEveryLength);
  CHECK(split.result.bounds.latencyProvenOptimal);
  CHECK(blockedBy(split, TwillFamily::kStrategy));
  REQUIRE(split.result.verification);
  CHECK(split.result.verification->ok());
  const auto& warps = *split.result.schedule->warps;
  CHECK(warps[0] != warps[1]);
}

TEST_CASE("twill --strategy: a role that puts a fixed-latency op on the load warp is infeasible",
          "[exact][twill][strategy]") {
  // load (variable latency) -> mma on two warps, warp 0 the variable-latency warp. The role
  // holding both is placed on warp 0 (it has a variable-latency op), and mma may not run there:
  // no II has a schedule, and the core names the strategy with variable-latency.
  Machine machine;
  machine.name = "load_warp";
  machine.warps = 2;
  machine.variableLatencyWarp = 0;
  GraphBuilder builder("load_then_mma");
  const OpId load = builder.addOp("load", 2);
  builder.setVariableLatency(load, true);
  const OpId mma = builder.addOp("mma", 1);
  builder.addEdge(load, mma, 2, 0);
  const Instance instance = test::makeInstance(std::move(builder), std::move(machine));
  const WarpStrategy strategy =
      placed(WarpStrategy{"together", {{"all", 1, std::nullopt, {load, mma}, {}, {}}}}, instance);
  REQUIRE(strategy.roles[0].firstWarp == 0);
  TwillOptions options;
  options.strategy = &strategy;
  options.search.maxIi = 3;
  options.search.timeLimitSeconds = test::timeLimit(60.0);
  const TwillSolution solution = solveTwill(instance.problem(ProblemKind::kModuloWarp), options);
  CHECK(solution.result.status == ModelStatus::kInfeasible);
  CHECK(blockedBy(solution, TwillFamily::kStrategy));
  CHECK(blockedBy(solution, TwillFamily::kVariableLatency));
  CHECK_THAT(solution.result.message, Catch::Contains("strategy"));
}

TEST_CASE("twill --strategy: II and L under a strategy match brute force on tiny loops",
          "[exact][twill][strategy]") {
  // Each tiny loop (two warps) with op 0 and op 1 in roles of their own (so on different warps),
  // and, for odd seeds, op 2 in op 0's role at stage 1: the search's II is proven minimal and
  // its L least at that II against every schedule and warp assignment that the verifier accepts
  // with the strategy, starts enumerated up to a generous L plus two IIs (the stage may push an
  // op that far).
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    INFO("seed " << seed);
    const Instance instance = test::tinyWarpLoop(seed);
    const Problem problem = instance.problem(ProblemKind::kModuloWarp);
    WarpStrategy strategy{
        "pair", {{"zero", 1, std::nullopt, {0}, {}, {}}, {"one", 1, std::nullopt, {1}, {}, {}}}};
    if (seed % 2 == 1) {
      strategy.roles[0].ops.push_back(2);
      strategy.roles[0].stages.emplace_back(2, 1);
    }
    strategy = placed(std::move(strategy), instance);
    const TwillSolution solution = solveUnder(instance, &strategy);
    VerifyOptions withStrategy;
    withStrategy.strategy = &strategy;
    REQUIRE(solution.result.status == ModelStatus::kOptimal);
    CHECK(verify(problem, *solution.result.schedule, withStrategy).ok());
    const std::int32_t ii = *solution.ii();
    const Cycle latency = *solution.twill.latency;
    for (std::int32_t smaller = 1; smaller < ii; ++smaller) {
      INFO("II " << smaller);
      const Cycle cap = test::generousLatency(*problem.graph, smaller) + 2 * smaller;
      CHECK_FALSE(test::bestWarpCounts(problem, smaller, cap, withStrategy));
    }
    CHECK_FALSE(test::bestWarpCounts(problem, ii, latency - 1, withStrategy));
    CHECK(test::bestWarpCounts(problem, ii, latency, withStrategy));
  }
}

TEST_CASE("SMT strategy: a stage and an order are rules of the model, as of the verifier",
          "[exact][twill][strategy]") {
  // Toy FA (S -> P -> O, II 2, L 4 free, one warp). Stage 1 for S moves it to [2, 3] and with
  // it P and O: L 4 is UNSAT (core strategy with dependence), L 6 SAT. The order O before S
  // contradicts S -> P -> O at every L: UNSAT with the core {dependence, strategy}.
  const Instance instance = test::toyFlashAttention();
  const Problem problem = instance.problem(ProblemKind::kModuloWarp);
  const Graph& graph = *instance.graph;
  const OpId s = *graph.findOp("S"), o = *graph.findOp("O");
  const WarpStrategy staged =
      placed(WarpStrategy{"staged", {{"all", 1, std::nullopt, {s}, {}, {{s, 1}}}}}, instance);
  TwillCheckOptions options;
  options.strategy = &staged;
  options.timeLimitSeconds = test::timeLimit(20.0);
  const TwillCheck late = checkTwill(problem, 2, 4, options);
  CHECK(late.status == ModelStatus::kInfeasible);
  CHECK(std::find(late.core.begin(), late.core.end(), TwillFamily::kStrategy) != late.core.end());
  const TwillCheck later = checkTwill(problem, 2, 6, options);
  REQUIRE(later.status == ModelStatus::kFeasible);
  CHECK(later.schedule->start[s] / 2 == 1);
  VerifyOptions verifyOptions;
  verifyOptions.strategy = &staged;
  CHECK(verify(problem, *later.schedule, verifyOptions).ok());

  const WarpStrategy reversed =
      placed(WarpStrategy{"reversed", {{"all", 1, std::nullopt, {s, o}, {o, s}, {}}}}, instance);
  options.strategy = &reversed;
  const TwillCheck never = checkTwill(problem, 2, 8, options);
  CHECK(never.status == ModelStatus::kInfeasible);
  std::vector<TwillFamily> core = never.core;
  std::sort(core.begin(), core.end());
  CHECK(core == std::vector<TwillFamily>{TwillFamily::kDependence, TwillFamily::kStrategy});
}
