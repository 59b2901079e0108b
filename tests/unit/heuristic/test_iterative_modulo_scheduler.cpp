#include <algorithm>

#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/core/random_graph.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/heuristic/heuristic_figures.hpp>
#include <gaus/heuristic/iterative_modulo_scheduler.hpp>

#include "heuristic_fixtures.hpp"

using namespace gaus;
using namespace gaus::heuristic;

namespace {

double extra(const Result& result, const Figure& figure) {
  const auto value = result.figures.get(figure);
  if (!value) FAIL("result has no figure " << figure.name);
  return value.value_or(0);
}

// a (ALU, latency 2) -> b (MUL, latency 3) -> c (ALU, latency 1) -> a with distance 1.
// RecMII = (2 + 3 + 1) / 1 = 6; ResMII = 2 (a and c share the one ALU).
Instance recurrenceBound() {
  Machine machine = test::aluMulMachine();
  const ResourceId alu = 0;
  const ResourceId mul = 1;
  GraphBuilder builder("recurrence");
  const OpId a = builder.addOp("a", 2);
  builder.addReservation(a, {alu, 0, 1, 1});
  const OpId b = builder.addOp("b", 3);
  builder.addReservation(b, {mul, 0, 1, 1});
  const OpId c = builder.addOp("c", 1);
  builder.addReservation(c, {alu, 0, 1, 1});
  builder.addEdge(a, b);
  builder.addEdge(b, c);
  builder.addEdge(c, a, std::nullopt, 1);
  return test::makeInstance(std::move(builder), std::move(machine));
}

// Loop bodies of several shapes: HLS-like typed ops with multi-cycle occupancy and many back
// edges; zero-latency unlimited glue ops; Triton-like ops with latencies and occupancies in the
// hundreds of cycles on single units (II in the thousands).
RandomGraphOptions loopShape(int shape, std::int32_t ops, std::uint64_t seed) {
  RandomGraphOptions options;
  options.ops = ops;
  options.seed = seed;
  switch (shape % 4) {
    case 0:
      options.averageDegree = 2;
      options.opTypes = {{"ALU", 1, 2, 1, 2, 2.0}, {"MUL", 2, 4, 2, 1, 1.0}};
      options.backEdges = 3;
      options.maxDistance = 2;
      break;
    case 1:
      options.averageDegree = 1.6;
      options.maxIdSpan = 8;
      options.opTypes = {{"mem_read", 2, 2, 1, 2, 1.0},
                         {"fp_plus", 16, 16, 1, 4, 1.0},
                         {"fp_mult", 13, 13, 1, 4, 1.0},
                         {"glue", 0, 0, 0, std::nullopt, 2.0}};
      options.backEdges = ops / 3;
      break;
    case 2:
      options.layered = true;
      options.layers = std::max(2, ops / 5);
      options.averageDegree = 2;
      options.opTypes = {{"ADD", 1, 1, 0, 1, 3.0}, {"DIV", 8, 12, 4, 1, 0.3}};
      options.backEdges = 6;
      options.maxDistance = 3;
      break;
    default:
      options.averageDegree = 1.4;
      options.opTypes = {{"TC", 500, 900, 256, 1, 1.0},
                         {"TMA", 556, 556, 96, 1, 1.0},
                         {"CUDA", 1, 845, 64, 1, 2.0},
                         {"SFU", 8, 570, 32, 1, 0.5}};
      options.backEdges = 4;
      break;
  }
  return options;
}

}  // namespace

TEST_CASE("ims: toy Flash-Attention gets II 2 (ResMII 2 on TC, RecMII 1)", "[heuristic][ims]") {
  // HeightR at II 2: O = 1 (its self-edge weighs 1 - 2 = -1), P = 1 + 1 = 2, S = 1 + 2 = 3, so
  // S, P, O. S at 0 (TC residue 0); P at its Estart 1; O's Estart is 2, whose TC residue 0 is
  // S's, so O goes to 3. Length 4, 2 stages.
  const auto toy = test::toyFlashAttention();
  const Problem problem = toy.problem(ProblemKind::kModulo);
  const Result result = iterativeModuloSchedule(problem);
  REQUIRE(result.status == ModelStatus::kFeasible);
  REQUIRE(result.schedule);
  CHECK(result.schedule->ii == 2);
  CHECK(result.schedule->start == std::vector<Cycle>{0, 1, 3});
  CHECK(result.objective == 2.0);
  CHECK(result.bounds.lowerBound == 2.0);
  CHECK(result.bounds.iiProvenOptimal);
  REQUIRE(result.bounds.mii);
  CHECK_THAT(result.bounds.mii->reason,
             Catch::StartsWith("ResMII (TC) = 2 >= RecMII (cycle O -> O) = 1"));
  CHECK(result.bounds.mii->value == 2);
  CHECK(result.bounds.mii->resMii == 2);
  CHECK(result.bounds.mii->recMii == 1);
  CHECK(extra(result, heuristic::figures::kLatency) == 4);
  CHECK(extra(result, heuristic::figures::kStages) == 2);
  const auto report = verify(problem, *result.schedule);
  INFO(report.summary());
  CHECK(report.ok());
}

TEST_CASE("ims: a recurrence binds II (RecMII 6 > ResMII 2)", "[heuristic][ims]") {
  // HeightR at II 6: c = 1, b = 3 + 1 = 4, a = 2 + 4 = 6. a at 0, b at 2, c at 5 (ALU residue 5
  // is free); the back edge needs t(a) + 6 >= t(c) + 1, i.e. 6 >= 6.
  const auto loop = recurrenceBound();
  const Problem problem = loop.problem(ProblemKind::kModulo);
  const Result result = iterativeModuloSchedule(problem);
  REQUIRE(result.status == ModelStatus::kFeasible);
  REQUIRE(result.schedule);
  CHECK(result.schedule->ii == 6);
  CHECK(result.schedule->start == std::vector<Cycle>{0, 2, 5});
  CHECK(result.bounds.iiProvenOptimal);
  REQUIRE(result.bounds.mii);
  CHECK_THAT(result.bounds.mii->reason,
             Catch::StartsWith("RecMII (cycle ") && Catch::Contains("= 6 > ResMII (ALU) = 2"));
  CHECK(verify(problem, *result.schedule).ok());
}

TEST_CASE("ims: a fixed II is used as given, and one below MII is infeasible", "[heuristic][ims]") {
  const auto toy = test::toyFlashAttention();
  ImsOptions options;
  options.ii = 3;
  const Problem problem = toy.problem(ProblemKind::kModulo);
  const Result atThree = iterativeModuloSchedule(problem, options);
  REQUIRE(atThree.schedule);
  CHECK(atThree.schedule->ii == 3);
  CHECK_FALSE(atThree.bounds.iiProvenOptimal);
  CHECK(verify(problem, *atThree.schedule).ok());

  options.ii = 1;
  const Result atOne = iterativeModuloSchedule(problem, options);
  CHECK(atOne.status == ModelStatus::kInfeasible);
  CHECK_FALSE(atOne.schedule);
  CHECK_THAT(atOne.message,
             Catch::Contains("II=1 is below the lower bound MII=2") && Catch::Contains("TC"));
}

TEST_CASE("ims: an op whose wrapped block overfills its resource skips that II",
          "[heuristic][ims]") {
  // One op holds 2 units of R (capacity 3) for 4 cycles: ResMII = ceil(8 / 3) = 3. At II 3 the
  // block wraps once plus one cycle, 4 units on one residue > 3, so II 3 is impossible; at II 4
  // it holds 2 units on every residue.
  Machine machine;
  machine.name = "wide";
  const ResourceId r = machine.addResource("R", 3);
  GraphBuilder builder("wrap");
  const OpId w = builder.addOp("w", 4);
  builder.addReservation(w, {r, 0, 4, 2});
  const auto instance = test::makeInstance(std::move(builder), std::move(machine));
  const Problem problem = instance.problem(ProblemKind::kModulo);
  const Result result = iterativeModuloSchedule(problem);
  REQUIRE(result.schedule);
  CHECK(result.schedule->ii == 4);
  CHECK(result.bounds.lowerBound == 3.0);
  CHECK_FALSE(result.bounds.iiProvenOptimal);
  // One attempt at II 3, proven infeasible: no placement rule is tried once an op cannot fit
  // by itself.
  REQUIRE(result.attempts.size() == 2);
  const Attempt& first = result.attempts.front();
  CHECK(first.ii == 3);
  CHECK(first.phase == "rau placement");
  CHECK(first.status == ModelStatus::kInfeasible);
  CHECK_THAT(first.detail, Catch::Contains("op w alone needs 4 units of resource R"));
  CHECK(verify(problem, *result.schedule).ok());
}

TEST_CASE("ims: a resource of capacity 0 that an op needs is infeasible at once",
          "[heuristic][ims]") {
  const auto instance = test::zeroCapacityLoop();
  const Result result = iterativeModuloSchedule(instance.problem(ProblemKind::kModulo));
  CHECK(result.status == ModelStatus::kInfeasible);
  CHECK_FALSE(result.schedule);
  CHECK_THAT(result.message, Catch::Contains("op x needs 1 unit(s) of resource NONE") &&
                                 Catch::Contains("capacity is 0"));
}

TEST_CASE("ims: when the budget runs out everywhere, the non-overlapped schedule is returned",
          "[heuristic][ims]") {
  // budget_factor 0.5 allows ceil(1.5) = 2 placements for 3 ops: every attempt fails. The list
  // schedule of one iteration is S:0, P:1, O:2 (TC is free again at 2), length 3; the back edge
  // O -> O needs II >= 2 + 1 - 2 = 1. So the non-overlapped II is 3.
  const auto toy = test::toyFlashAttention();
  const Problem problem = toy.problem(ProblemKind::kModulo);
  ImsOptions options;
  options.budgetFactor = 0.5;
  const Result fallback = iterativeModuloSchedule(problem, options);
  REQUIRE(fallback.status == ModelStatus::kFeasible);
  REQUIRE(fallback.schedule);
  CHECK(fallback.schedule->ii == 3);
  CHECK(fallback.schedule->start == std::vector<Cycle>{0, 1, 2});
  CHECK(extra(fallback, heuristic::figures::kNonOverlappedIi) == 3);
  CHECK(extra(fallback, heuristic::figures::kAttempts) == 2);  // II 2 and 3
  CHECK_THAT(fallback.message, Catch::Contains("non-overlapped schedule at II=3"));
  CHECK(verify(problem, *fallback.schedule).ok());

  // Below the non-overlapped II nothing is guaranteed: kTimeout, saying what to raise.
  options.maxIi = 2;
  const Result capped = iterativeModuloSchedule(problem, options);
  CHECK(capped.status == ModelStatus::kTimeout);
  CHECK_FALSE(capped.schedule);
  CHECK_THAT(capped.message, Catch::Contains("raise budget_factor, or max_ii") &&
                                 Catch::Contains("exists at II=3"));
}

TEST_CASE("ims: an expired time limit stops the search with the non-overlapped schedule",
          "[heuristic][ims]") {
  const auto toy = test::toyFlashAttention();
  ImsOptions options;
  options.timeLimitSeconds = 0.0;
  const Problem problem = toy.problem(ProblemKind::kModulo);
  const Result result = iterativeModuloSchedule(problem, options);
  CHECK(result.status == ModelStatus::kTimeout);
  REQUIRE(result.schedule);
  CHECK(result.schedule->ii == 3);
  CHECK(verify(problem, *result.schedule).ok());
}

TEST_CASE("ims: random loop bodies verify with MII <= II <= the non-overlapped II",
          "[heuristic][ims][property]") {
  int atMii = 0;
  int total = 0;
  double evictions = 0;
  for (int shape = 0; shape < 4; ++shape) {
    for (std::uint64_t seed = 1; seed <= 15; ++seed) {
      const std::int32_t ops = shape == 3 ? 12 + static_cast<std::int32_t>(seed) : 30 + 10 * shape;
      const Problem problem =
          test::randomProblem(loopShape(shape, ops, seed), ProblemKind::kModulo);
      const Result result = iterativeModuloSchedule(problem);
      INFO("shape " << shape << " seed " << seed << ": " << result.message);
      REQUIRE(result.status == ModelStatus::kFeasible);
      REQUIRE(result.schedule);
      const auto report = verify(problem, *result.schedule);
      INFO(report.summary());
      REQUIRE(report.ok());
      const Graph& graph = *problem.graph;
      const std::int64_t mii = std::max<std::int64_t>(
          {computeResMii(graph, *problem.machine).value, computeRecMii(graph).value, 1});
      const std::int32_t ii = *result.schedule->ii;
      CHECK(ii >= mii);
      CHECK(result.bounds.lowerBound == static_cast<double>(mii));
      CHECK(ii <= extra(result, heuristic::figures::kNonOverlappedIi));
      CHECK(result.bounds.iiProvenOptimal == (ii == mii));
      atMii += ii == mii ? 1 : 0;
      evictions += extra(result, heuristic::figures::kEvictions);
      ++total;
    }
  }
  // Some loops need evictions, so that path was exercised too.
  CHECK(evictions > 0);
  WARN("ims reached II = MII on " << atMii << " of " << total << " random loop bodies");
}

TEST_CASE("ims: a horizon on a modulo problem raises II until one iteration fits in D",
          "[heuristic][ims]") {
  // At II 2 the toy's schedule S:0 P:1 O:3 takes 4 cycles, over D = 3. At II 3, HeightR is again
  // S 3, P 2, O 1; S at 0, P at 1, O at its Estart 2 (TC residue 2 is free): length 3 = D.
  const auto toy = test::toyFlashAttention();
  const Problem problem = toy.problem(ProblemKind::kModulo, 3);
  const Result result = iterativeModuloSchedule(problem);
  REQUIRE(result.status == ModelStatus::kFeasible);
  REQUIRE(result.schedule);
  CHECK(result.schedule->ii == 3);
  CHECK(result.schedule->start == std::vector<Cycle>{0, 1, 2});
  CHECK_FALSE(result.bounds.iiProvenOptimal);
  const Attempt& first = result.attempts.front();
  CHECK(first.ii == 2);
  CHECK(first.latency == 4);
  CHECK(first.status == ModelStatus::kUnknown);
  CHECK_THAT(first.detail, Catch::Contains("exceeds D=3"));
  CHECK(verify(problem, *result.schedule).ok());
}

TEST_CASE("ims: larger loop bodies of every shape verify", "[heuristic][ims][property][.slow]") {
  for (int shape = 0; shape < 4; ++shape) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const std::int32_t ops = shape == 3 ? 150 : 1000;
      const Problem problem =
          test::randomProblem(loopShape(shape, ops, seed), ProblemKind::kModulo);
      const Result result = iterativeModuloSchedule(problem);
      INFO("shape " << shape << " seed " << seed << ": " << result.message);
      REQUIRE(result.schedule);
      const auto report = verify(problem, *result.schedule);
      INFO(report.summary());
      REQUIRE(report.ok());
      CHECK(*result.schedule->ii >= *result.bounds.lowerBound);
    }
  }
}
