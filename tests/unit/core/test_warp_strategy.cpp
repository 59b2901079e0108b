// Warp strategies (core warp_strategy.hpp): where placeStrategy puts roles, what it refuses, and
// the rules strategyViolations and the verifier's family `strategy` check.
#include <catch2/catch.hpp>

#include <gaus/core/verify.hpp>
#include <gaus/core/warp_strategy.hpp>

#include "toy_graphs.hpp"

using namespace gaus;

namespace {

// FA4's shape: 16 warps of which 13 is the variable-latency warp; two softmax ops and a
// correction op on warp groups (min_warps 4), an MMA and a load on one warp each.
Instance fa4Shape() {
  Machine machine;
  machine.name = "fa4_shape";
  machine.warps = 16;
  machine.variableLatencyWarp = 13;
  GraphBuilder builder("fa4_shape");
  for (const char* name : {"softmax0", "softmax1", "correction"}) {
    builder.setMinWarps(builder.addOp(name, 1), 4);
  }
  builder.addOp("mma", 1);
  builder.setVariableLatency(builder.addOp("load", 1), true);
  return test::makeInstance(std::move(builder), std::move(machine));
}

StrategyRole role(std::string name, std::int32_t warps, std::vector<OpId> ops,
                  std::optional<std::int32_t> first = std::nullopt) {
  return StrategyRole{std::move(name), warps, first, std::move(ops), {}, {}};
}

}  // namespace

TEST_CASE("placeStrategy: FA4's roles land on FA4's warps", "[core][strategy]") {
  // Larger roles first, aligned to their ops' groups: softmax0 0-3, softmax1 4-7, correction
  // 8-11; the load role first of all (it must hold warp 13); then the one-warp roles in file
  // order on the free warps from 12: mma 12, epilogue 14. FA4's own numbering (its forward
  // kernel: softmax 0-7, correction 8-11, MMA 12, load 13, epilogue 14).
  const Instance instance = fa4Shape();
  WarpStrategy strategy{
      "fa4",
      {role("mma", 1, {3}), role("softmax0", 4, {0}), role("softmax1", 4, {1}),
       role("correction", 4, {2}), role("load", 1, {4}), role("epilogue", 1, {})}};
  const auto placed = placeStrategy(strategy, *instance.graph, *instance.machine);
  INFO((placed ? std::string() : placed.error()));
  REQUIRE(placed);
  std::vector<std::int32_t> first;
  for (const auto& r : placed->roles) first.push_back(*r.firstWarp);
  CHECK(first == std::vector<std::int32_t>{12, 0, 4, 8, 13, 14});
  CHECK(placed->warpsHeld() == 15);
  CHECK_FALSE(placed->constrainsTimes());
}

TEST_CASE("placeStrategy: what cannot hold is refused with its reason", "[core][strategy]") {
  const Instance instance = fa4Shape();
  const Graph& graph = *instance.graph;
  const Machine& machine = *instance.machine;
  auto refusal = [&](std::vector<StrategyRole> roles) {
    const auto placed = placeStrategy(WarpStrategy{"bad", std::move(roles)}, graph, machine);
    REQUIRE_FALSE(placed);
    return placed.error();
  };
  CHECK_THAT(refusal({role("a", 4, {0}), role("b", 4, {0})}),
             Catch::Contains("op 'softmax0' is in role 'a' and in role 'b'"));
  CHECK_THAT(refusal({role("small", 2, {0})}),
             Catch::Contains("op 'softmax0' needs 4 warps (min_warps) and role 'small' has 2"));
  CHECK_THAT(
      refusal({role("shifted", 4, {0}, 2)}),
      Catch::Contains("role 'shifted' starts at warp 2") && Catch::Contains("multiple of 4"));
  CHECK_THAT(refusal({role("a", 4, {0}, 0), role("b", 4, {1}, 0)}),
             Catch::Contains("overlaps another role"));
  CHECK_THAT(refusal({role("huge", 17, {})}), Catch::Contains("the roles hold 17 warps"));
  // Four warp groups fit 16 warps only if none avoids warp 13: the fourth finds no range.
  CHECK_THAT(
      refusal({role("g0", 4, {0}), role("g1", 4, {1}), role("g2", 4, {2}), role("g3", 4, {})}),
      Catch::Contains("role 'g3' (4 warps, aligned to 1)"));
  StrategyRole staged = role("staged", 1, {3});
  staged.stages = {{0, 1}};
  CHECK_THAT(refusal({staged}), Catch::Contains("the stages of role 'staged' name op 'softmax0'"));
}

TEST_CASE("strategyViolations and the verifier's family strategy", "[core][strategy]") {
  // Toy FA on two warps: S and O in role tc (warp 0), P in role exp (warp 1), with S at stage 0
  // and O after S. The schedule S:0, P:1, O:3 at II 2 with S, O on warp 0 and P on warp 1
  // follows it; moving P to warp 0 breaks the role, O to stage 2 its stage rule, and O before
  // S the order (each one violation, named).
  Instance instance = test::toyFlashAttention();
  Machine machine = *instance.machine;
  machine.warps = 2;
  instance.machine = std::make_shared<const Machine>(machine);
  const Graph& graph = *instance.graph;
  const OpId s = *graph.findOp("S"), p = *graph.findOp("P"), o = *graph.findOp("O");
  StrategyRole tc = role("tc", 1, {s, o});
  tc.order = {s, o};
  tc.stages = {{o, 1}};
  auto placed =
      placeStrategy(WarpStrategy{"toy", {tc, role("exp", 1, {p})}}, graph, *instance.machine);
  REQUIRE(placed);
  const WarpStrategy& strategy = *placed;
  CHECK(strategy.constrainsTimes());
  Schedule schedule;
  schedule.ii = 2;
  schedule.start = {0, 1, 3};
  schedule.warps = std::vector<WarpSet>{1, 2, 1};
  CHECK(strategyViolations(graph, strategy, schedule).empty());

  Schedule wrongWarp = schedule;
  wrongWarp.warps = std::vector<WarpSet>{1, 1, 1};  // P on warp 0
  const auto warpBroken = strategyViolations(graph, strategy, wrongWarp);
  REQUIRE(warpBroken.size() == 2);  // P outside its role, and inside role tc
  CHECK(warpBroken[0] == "op 'P' of role 'exp' runs on warps {0} of role 'tc'");
  CHECK(warpBroken[1] == "op 'P' of role 'exp' runs on warps {0}, outside the role's {1}");

  Schedule lateO = schedule;
  lateO.start[o] = 5;
  const auto stageBroken = strategyViolations(graph, strategy, lateO);
  REQUIRE(stageBroken.size() == 1);
  CHECK_THAT(stageBroken[0], Catch::Contains("op 'O' of role 'tc' starts at 5, stage 2"));

  const Problem problem = instance.problem(ProblemKind::kModuloWarp);
  VerifyOptions options;
  options.strategy = &strategy;
  CHECK(verify(problem, schedule, options).ok());
  const auto report = verify(problem, lateO, options);
  CHECK(report.count(ConstraintFamily::kStrategy) == 1);
  // Without the strategy the same schedule is only the problem's: no strategy family.
  CHECK(verify(problem, lateO).count(ConstraintFamily::kStrategy) == 0);
}
