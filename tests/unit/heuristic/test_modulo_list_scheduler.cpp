// Modulo list scheduling (heuristic/modulo_list_scheduler.hpp) on hand-made loops, each expected
// schedule derived in the comment beside it, and greedy balanced stages on a small DAG.
#include <catch2/catch.hpp>

#include <gaus/core/verify.hpp>
#include <gaus/heuristic/balanced_stages.hpp>
#include <gaus/heuristic/modulo_list_scheduler.hpp>

#include "heuristic_fixtures.hpp"

using namespace gaus;
using namespace gaus::heuristic;

TEST_CASE("modulo list: the toy loop at II 2 in key order, with release times, and below ResMII",
          "[heuristic][modulo-list]") {
  const Instance toy = test::toyFlashAttention();
  const Problem problem = toy.problem(ProblemKind::kModulo, std::nullopt, 2);
  ModuloListOptions options;
  options.priorityKey = {0, 1, 2};
  // S at 0 (TC residue 0), P at 1 (EXP), O ready at 2 clashes with S on TC (residue 0) and
  // moves to 3; O -> O (delay 1, distance 1) holds at II 2.
  const auto inOrder = moduloListSchedule(*toy.graph, *toy.machine, 2, options);
  REQUIRE(inOrder.ok());
  CHECK(inOrder->start == std::vector<Cycle>{0, 1, 3});
  CHECK(inOrder->ii == 2);
  CHECK(verify(problem, *inOrder).ok());
  // P released at 2: O ready at 3, TC residue 1 is free: the paper's M = {S:0, P:2, O:3}.
  options.releaseTime = {0, 2, 0};
  const auto released = moduloListSchedule(*toy.graph, *toy.machine, 2, options);
  REQUIRE(released.ok());
  CHECK(released->start == std::vector<Cycle>{0, 2, 3});
  // II 1 < ResMII 2: O fits at no residue once S holds the only one.
  const auto tooShort = moduloListSchedule(*toy.graph, *toy.machine, 1, {});
  REQUIRE_FALSE(tooShort.ok());
  CHECK_THAT(tooShort.error(), Catch::Contains("O fits at no residue at II=1"));
}

TEST_CASE("modulo list: a loop-carried edge to an op placed earlier is repaired by a second pass",
          "[heuristic][modulo-list]") {
  // a and b share the one ALU; b -> a has delay 2 and distance 1, so at II 2 it needs
  // t(a) >= t(b). ASAP at II 2 is 0 for both. Pass 1 (a first): a:0, b finds residue 0 taken and
  // goes to 1, which breaks b -> a; a's bound becomes 1. Pass 2: a:1, b:0 holds every edge.
  GraphBuilder builder("repair");
  const OpId a = builder.addOp("a", 1);
  const OpId b = builder.addOp("b", 1);
  builder.addReservation(a, {0, 0, 1, 1});
  builder.addReservation(b, {0, 0, 1, 1});
  builder.addEdge(b, a, 2, 1);
  const Instance instance = test::makeInstance(std::move(builder), test::aluMulMachine());
  ModuloListOptions options;
  options.priorityKey = {0, 1};
  const auto schedule = moduloListSchedule(*instance.graph, *instance.machine, 2, options);
  REQUIRE(schedule.ok());
  CHECK(schedule->start == std::vector<Cycle>{1, 0});
  CHECK(verify(instance.problem(ProblemKind::kModulo, std::nullopt, 2), *schedule).ok());
}

TEST_CASE("greedy balanced stages: the smallest capacity that cuts the order into D chunks",
          "[heuristic][balanced]") {
  // Weights 4, 2, 2, 4 along a chain (edges of delay 0): total 12, so 2 stages need a capacity
  // of at least 6, and 6 cuts {a, b} | {c, d}. One stage holds everything.
  GraphBuilder builder("chain");
  for (const char* name : {"a", "b", "c", "d"}) builder.addOp(name, 1);
  const double weights[] = {4, 2, 2, 4};
  for (OpId op = 0; op < 4; ++op) builder.setWeight(op, weights[op]);
  for (OpId op = 0; op < 3; ++op) builder.addEdge(op, op + 1, 0, 0);
  auto graph = std::move(builder).build();
  REQUIRE(graph.ok());
  const auto two = greedyBalancedStages(*graph, 2);
  REQUIRE(two.ok());
  CHECK(two->start == std::vector<Cycle>{0, 0, 1, 1});
  const auto one = greedyBalancedStages(*graph, 1);
  REQUIRE(one.ok());
  CHECK(one->start == std::vector<Cycle>{0, 0, 0, 0});
}
