#include <catch2/catch.hpp>

#include <gaus/core/graph.hpp>
#include <gaus/core/instance.hpp>
#include <gaus/core/problem.hpp>

#include "toy_graphs.hpp"

using namespace gaus;

TEST_CASE("graph builder fills CSR adjacency in edge order", "[core][graph]") {
  GraphBuilder builder("g");
  const OpId a = builder.addOp("a", 2);
  const OpId b = builder.addOp("b", 1);
  const OpId c = builder.addOp("c", 1);
  builder.addEdge(a, c);     // delay defaults to latency(a) = 2
  builder.addEdge(a, b, 5);  // explicit delay
  builder.addEdge(b, c, 0, 1);
  auto graph = std::move(builder).build();
  REQUIRE(graph.ok());
  CHECK(graph->numOps() == 3);
  CHECK(graph->numEdges() == 3);
  CHECK(graph->edgeDelay(0) == 2);
  CHECK(graph->edgeDelay(1) == 5);
  CHECK(graph->edgeDistance(2) == 1);
  CHECK(graph->hasLoopCarriedEdges());
  REQUIRE(graph->outEdges(a).size() == 2);
  CHECK(graph->outEdges(a)[0] == 0);
  CHECK(graph->outEdges(a)[1] == 1);
  REQUIRE(graph->inEdges(c).size() == 2);
  CHECK(graph->inEdges(c)[0] == 0);
  CHECK(graph->inEdges(c)[1] == 2);
  CHECK(graph->findOp("b") == b);
  CHECK_FALSE(graph->findOp("zz").has_value());
}

TEST_CASE("duration is the larger of latency and reservation length", "[core][graph]") {
  GraphBuilder builder;
  const OpId a = builder.addOp("a", 1);
  builder.addReservation(a, {0, 2, 3, 1});  // busy during offsets 2..4 -> length 5
  const OpId b = builder.addOp("b", 7);
  builder.addReservation(b, {0, 0, 1, 1});
  auto graph = std::move(builder).build();
  REQUIRE(graph.ok());
  CHECK(graph->reservationLength(a) == 5);
  CHECK(graph->duration(a) == 5);
  CHECK(graph->duration(b) == 7);
}

TEST_CASE("edges out of a streaming op have delay 0", "[core][graph]") {
  GraphBuilder builder;
  OpAttributes load;
  load.name = "load";
  load.latency = 500;
  load.streaming = true;
  load.variableLatency = true;
  const OpId l = builder.addOp(load);
  const OpId m = builder.addOp("mma", 10);
  builder.addEdge(l, m, 500, 0);
  auto graph = std::move(builder).build();
  REQUIRE(graph.ok());
  CHECK(graph->edgeDelay(0) == 0);
  CHECK(graph->hasWarpAnnotations());
}

TEST_CASE("graph builder rejects malformed input with names", "[core][graph]") {
  SECTION("edge to a missing op") {
    GraphBuilder builder;
    builder.addOp("a", 1);
    builder.addEdge(0, 3);
    auto graph = std::move(builder).build();
    REQUIRE_FALSE(graph.ok());
    CHECK_THAT(graph.error(), Catch::Contains("does not exist"));
  }
  SECTION("negative latency") {
    GraphBuilder builder;
    builder.addOp("neg", -1);
    auto graph = std::move(builder).build();
    REQUIRE_FALSE(graph.ok());
    CHECK_THAT(graph.error(), Catch::Contains("op 'neg'") && Catch::Contains("negative latency"));
  }
  SECTION("negative delay") {
    GraphBuilder builder;
    builder.addOp("a", 1);
    builder.addOp("b", 1);
    builder.addEdge(0, 1, -3);
    auto graph = std::move(builder).build();
    REQUIRE_FALSE(graph.ok());
    CHECK_THAT(graph.error(), Catch::Contains("negative delay -3"));
  }
  SECTION("duplicate names") {
    GraphBuilder builder;
    builder.addOp("x", 1);
    builder.addOp("x", 1);
    auto graph = std::move(builder).build();
    REQUIRE_FALSE(graph.ok());
    CHECK_THAT(graph.error(), Catch::Contains("duplicate op name 'x'"));
  }
}

TEST_CASE("a copied graph finds ops by name in its own storage", "[core][graph]") {
  Graph copy;
  {
    const auto instance = test::chainOfFour();
    copy = *instance.graph;
  }
  CHECK(copy.findOp("c") == 2);
}

TEST_CASE("problem check names every input error", "[core][problem]") {
  SECTION("capacity 0 resource that an op needs") {
    Machine machine;
    machine.addResource("MUL", 0);
    GraphBuilder builder;
    const OpId op = builder.addOp("mul3", 2);
    builder.addReservation(op, {0, 0, 2, 1});
    const auto instance = test::makeInstance(std::move(builder), machine);
    const auto errors = instance.problem(ProblemKind::kLatency).check();
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0], Catch::Contains("mul3") && Catch::Contains("MUL") &&
                              Catch::Contains("capacity is 0"));
  }
  SECTION("empty graph") {
    const auto instance = test::makeInstance(GraphBuilder("empty"), Machine{});
    const auto errors = instance.problem(ProblemKind::kLatency).check();
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0], Catch::Contains("empty"));
  }
  SECTION("zero-distance cycle") {
    GraphBuilder builder;
    builder.addOp("x", 1);
    builder.addOp("y", 1);
    builder.addEdge(0, 1);
    builder.addEdge(1, 0);
    const auto instance = test::makeInstance(std::move(builder), Machine{});
    const auto errors = instance.problem(ProblemKind::kModulo).check();
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0], Catch::Contains("x -> y -> x") || Catch::Contains("y -> x -> y"));
  }
  SECTION("warp groups: every aligned group holds the variable-latency warp") {
    // Two ops on 4 warps of a 5-warp machine whose warp 0 runs the loads: the only aligned group
    // of 4 is {0..3}, closed to them, so they can run nowhere (one error for the size, naming
    // the first op); 8 warps open {4..7}.
    GraphBuilder builder("groups");
    builder.setMinWarps(builder.addOp("softmax", 1), 4);
    builder.setMinWarps(builder.addOp("rescale", 1), 4);
    Machine machine;
    machine.name = "five";
    machine.warps = 5;
    machine.variableLatencyWarp = 0;
    const auto instance = test::makeInstance(std::move(builder), machine);
    const auto errors = instance.problem(ProblemKind::kModuloWarp).check();
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0], Catch::Contains("op softmax needs an aligned group of 4 warps") &&
                              Catch::Contains("holds the variable-latency warp 0") &&
                              Catch::Contains("at least 8 warps"));
    Machine eight = machine;
    eight.warps = 8;
    CHECK(rebindMachine(instance, eight)->problem(ProblemKind::kModuloWarp).check().empty());
  }
  SECTION("latency-bounded without a horizon") {
    const auto instance = test::chainOfFour();
    const auto errors = instance.problem(ProblemKind::kLatencyBounded).check();
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0], Catch::Contains("horizon"));
  }
  SECTION("well-formed toy problem") {
    CHECK(test::toyFlashAttention().problem(ProblemKind::kModulo).check().empty());
  }
}

TEST_CASE("rebinding a machine maps resources by name", "[core][instance]") {
  const auto toy = test::toyFlashAttention();
  Machine wider;
  wider.name = "wider";
  wider.addResource("EXP", 2);
  wider.addResource("TC", 2);
  const auto rebound = rebindMachine(toy, wider);
  REQUIRE(rebound.ok());
  const Graph& graph = *rebound->graph;
  CHECK(rebound->machine->resources[graph.reservation(0)[0].resource].name == "TC");
  CHECK(rebound->machine->resources[graph.reservation(1)[0].resource].name == "EXP");

  Machine missing;
  missing.name = "tc-only";
  missing.addResource("TC", 1);
  const auto failed = rebindMachine(toy, missing);
  REQUIRE_FALSE(failed.ok());
  CHECK_THAT(failed.error(), Catch::Contains("no resource 'EXP'") && Catch::Contains("op 'P'"));
}
