// The stage objective of latency-bounded problems and its lower bound (core/stage_objective.hpp),
// on hand-made graphs with the figures computed beside them.
#include <catch2/catch.hpp>

#include <gaus/core/stage_objective.hpp>

using namespace gaus;

namespace {

// a (weight 5) -> b (weight 3, comm 1 on the edge), c (weight 4) alone.
Graph threeOps(double weightOfA) {
  GraphBuilder builder("three");
  const OpId a = builder.addOp("a", 1);
  const OpId b = builder.addOp("b", 1);
  const OpId c = builder.addOp("c", 1);
  builder.setWeight(a, weightOfA);
  builder.setWeight(b, 3);
  builder.setWeight(c, 4);
  builder.setEdgeComm(builder.addEdge(a, b, 0, 0), 1.0);
  auto graph = std::move(builder).build();
  if (!graph) throw std::runtime_error(graph.error());
  return std::move(graph).value();
}

}  // namespace

TEST_CASE("stage figures: peak stage weight and crossed stage boundaries", "[core][stage]") {
  const Graph graph = threeOps(5);
  Schedule schedule;
  // Stages a:0, b:2, c:2: stage 2 holds 3 + 4 = 7 > 5; a -> b crosses 2 boundaries.
  schedule.start = {0, 2, 2};
  const StageFigures figures = stageFigures(graph, schedule);
  CHECK(figures.peakStageWeight == 7);
  CHECK(figures.communication == 2);
  CHECK(stageObjective(graph, schedule, 0.5) == 7 + 0.5 * 2);
  // GS-Schedule's scale: ratio 100 x peak + crossings.
  CHECK(gsScheduleObjective(figures, 100) == 702);
}

TEST_CASE("peak stage weight bound: ceiling of total / D for integer weights, else the share",
          "[core][stage]") {
  // Integer weights 5 + 3 + 4 = 12: over 5 stages the share 2.4 (at least 3 as an integer) is
  // below the largest weight 5; over 2 stages the share 6 binds.
  CHECK(peakStageWeightLowerBound(threeOps(5), 5) == 5);
  CHECK(peakStageWeightLowerBound(threeOps(5), 2) == 6);
  // Total 11 over 2 stages: 5.5 rounds up to 6 with integer weights.
  CHECK(peakStageWeightLowerBound(threeOps(4), 2) == 6);
  // Weights 4.5, 3, 4 (total 11.5) over 2 stages: no rounding, 5.75 is reachable in principle.
  CHECK(peakStageWeightLowerBound(threeOps(4.5), 2) == Approx(5.75));
}
