#include <algorithm>

#include <catch2/catch.hpp>

#include <gaus/heuristic/heuristic_figures.hpp>
#include <gaus/heuristic/methods.hpp>
#include <gaus/methods/registry.hpp>

#include "heuristic_fixtures.hpp"

using namespace gaus;

namespace {

MethodRegistry heuristicRegistry() {
  MethodRegistry registry;
  registerHeuristicMethods(registry);
  return registry;
}

std::string optionValue(const Result& result, const std::string& name) {
  for (const auto& [key, value] : result.options) {
    if (key == name) return value;
  }
  return "<absent>";
}

}  // namespace

TEST_CASE("registry: list, ims, balanced and fds are registered with documented options",
          "[heuristic][methods]") {
  const MethodRegistry registry = heuristicRegistry();
  CHECK(registry.names() == std::vector<std::string>{"balanced", "fds", "ims", "list"});
  const MethodInfo* list = registry.find("list");
  REQUIRE(list);
  CHECK(list->kinds ==
        std::vector<ProblemKind>{ProblemKind::kLatency, ProblemKind::kLatencyBounded});
  CHECK(list->options.size() == 4);  // priority, tie_break, refine, time_limit
  const MethodInfo* ims = registry.find("ims");
  REQUIRE(ims);
  CHECK(ims->kinds == std::vector<ProblemKind>{ProblemKind::kModulo});
  CHECK(ims->options.size() == 5);  // ii, budget_factor, max_ii, placement, time_limit
}

TEST_CASE("registry: list on the toy graph, verified, with bounds and echoed options",
          "[heuristic][methods]") {
  // One iteration of the toy: S:0, P:1, O:2 (TC free again at 2); latency 3 = critical path
  // S -> P -> O, so the result is proven optimal.
  const MethodRegistry registry = heuristicRegistry();
  const auto toy = test::toyFlashAttention();
  const Result result = registry.run("list", toy.problem(ProblemKind::kLatency), {});
  INFO(result.message);
  REQUIRE(result.status == ModelStatus::kOptimal);
  CHECK(result.verified());
  CHECK(result.objectiveName == "latency");
  CHECK(result.objective == 3.0);
  CHECK(result.bounds.lowerBound == 3.0);
  CHECK(result.bounds.latencyProvenOptimal);
  CHECK(optionValue(result, "priority") == "height");
  CHECK(optionValue(result, "tie_break") == "successors");
}

TEST_CASE("registry: list on a latency-bounded problem meets D or says why not",
          "[heuristic][methods]") {
  const MethodRegistry registry = heuristicRegistry();
  const auto toy = test::toyFlashAttention();
  const Result within = registry.run("list", toy.problem(ProblemKind::kLatencyBounded, 3), {});
  CHECK(within.status == ModelStatus::kOptimal);
  CHECK(within.verified());
  // D = 2 is below the critical path 3: no schedule exists, and the message says so.
  const Result below = registry.run("list", toy.problem(ProblemKind::kLatencyBounded, 2), {});
  CHECK(below.status == ModelStatus::kInfeasible);
  CHECK_FALSE(below.schedule);
  CHECK_THAT(below.message, Catch::Contains("list schedule latency 3 exceeds the horizon D=2") &&
                                Catch::Contains("critical path (3 cycles)"));
}

TEST_CASE("registry: list within D on a graph with mems reports the peak and B's bound",
          "[heuristic][methods]") {
  // x (mem 3) feeds p and q (mem 2 each), which feed z; latencies 1, D = 4. List scheduling
  // starts each op as soon as it can: x 0, p 1, q 1, z 2, peaking at 4 (p and q at 1). The
  // per-cycle min cut is 3 (the hand-computed diamond of test_cut_bound.cpp: at t = 1 the
  // cheapest started set is {x}), but every schedule peaks at 4: p and q have both started by
  // s_z - 1 and are both live then. The Lagrangian bound over the four cycles sees it (weights on
  // the cycles where p and q may meet), so list's 4 is proven optimal.
  GraphBuilder builder("diamond");
  const OpId x = builder.addOp("x", 1);
  const OpId p = builder.addOp("p", 1);
  const OpId q = builder.addOp("q", 1);
  const OpId z = builder.addOp("z", 1);
  builder.setMem(x, 3);
  builder.setMem(p, 2);
  builder.setMem(q, 2);
  builder.addEdge(x, p);
  builder.addEdge(x, q);
  builder.addEdge(p, z);
  builder.addEdge(q, z);
  auto graph = std::move(builder).build();
  REQUIRE(graph.ok());
  Problem problem = test::problemOf(*graph, Machine{}, ProblemKind::kLatencyBounded);
  problem.horizon = 4;
  const Result result = heuristicRegistry().run("list", problem, {});
  REQUIRE(result.verified());
  CHECK(result.objectiveName == "peak_memory");
  CHECK(result.objective == 4.0);
  CHECK(result.bounds.lowerBound == 4.0);
  CHECK(result.bounds.lowerBoundArgument == "Lagrangian over cycles 0-3");
  CHECK(result.status == ModelStatus::kOptimal);
  CHECK(result.figures.get(heuristic::figures::kLatency) == 3.0);
  // At D = 3 every op is fixed: the same schedule, and the bound meets it.
  problem.horizon = 3;
  const Result fixed = heuristicRegistry().run("list", problem, {});
  CHECK(fixed.objective == 4.0);
  CHECK(fixed.bounds.lowerBound == 4.0);
  CHECK(fixed.status == ModelStatus::kOptimal);
}

TEST_CASE("registry: ims on the toy graph reports II, MII and what binds it",
          "[heuristic][methods]") {
  const MethodRegistry registry = heuristicRegistry();
  const auto toy = test::toyFlashAttention();
  const Result result = registry.run("ims", toy.problem(ProblemKind::kModulo), {});
  INFO(result.message);
  REQUIRE(result.status == ModelStatus::kFeasible);
  CHECK(result.verified());
  CHECK(result.objectiveName == "ii");
  CHECK(result.objective == 2.0);
  CHECK(result.bounds.iiProvenOptimal);
  REQUIRE(result.bounds.mii);
  CHECK_THAT(result.bounds.mii->reason, Catch::Contains("ResMII (TC) = 2"));
  CHECK(result.verification->metrics.stages == 2);
  CHECK(optionValue(result, "budget_factor") == "6");
  CHECK(optionValue(result, "ii") == "none");
  CHECK(optionValue(result, "max_ii") == "none");

  const Result fixed = registry.run("ims", toy.problem(ProblemKind::kModulo), {{"ii", "4"}});
  REQUIRE(fixed.schedule);
  CHECK(fixed.schedule->ii == 4);
  CHECK(optionValue(fixed, "ii") == "4");
}

TEST_CASE("registry: unknown options and bad values are rejected with a message",
          "[heuristic][methods]") {
  const MethodRegistry registry = heuristicRegistry();
  const auto toy = test::toyFlashAttention();
  const Result typo =
      registry.run("ims", toy.problem(ProblemKind::kModulo), {{"budget_factr", "3"}});
  CHECK(typo.failed());
  CHECK_THAT(typo.message,
             Catch::Contains("unknown option 'budget_factr'") && Catch::Contains("budget_factor"));
  const Result badPriority =
      registry.run("list", toy.problem(ProblemKind::kLatency), {{"priority", "fastest"}});
  CHECK(badPriority.failed());
  CHECK_THAT(
      badPriority.message,
      Catch::Contains("'priority' expects height, alap, mobility or successors, got 'fastest'"));
  const Result badIi = registry.run("ims", toy.problem(ProblemKind::kModulo), {{"ii", "0"}});
  CHECK(badIi.failed());
  CHECK_THAT(badIi.message, Catch::Contains("'ii' = 0 must be >= 1"));
  const Result badBudget =
      registry.run("ims", toy.problem(ProblemKind::kModulo), {{"budget_factor", "-1"}});
  CHECK(badBudget.failed());
  CHECK_THAT(badBudget.message, Catch::Contains("'budget_factor' = -1 must be > 0"));
}

TEST_CASE("registry: a resource of capacity 0 is a clear error through run(), not a hang",
          "[heuristic][methods]") {
  const auto instance = test::zeroCapacityLoop();
  const MethodRegistry registry = heuristicRegistry();
  for (const auto& [method, kind] :
       {std::pair{"ims", ProblemKind::kModulo}, std::pair{"list", ProblemKind::kLatency}}) {
    const Result result = registry.run(method, instance.problem(kind), {});
    INFO(method);
    CHECK(result.failed());
    CHECK_FALSE(result.schedule);
    CHECK_THAT(result.message, Catch::Contains("op x needs 1 unit(s) of resource NONE") &&
                                   Catch::Contains("capacity is 0"));
  }
}
