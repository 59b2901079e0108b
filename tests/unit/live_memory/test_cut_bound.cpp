// The min-cut bound on peak live memory (core/live_memory_bound.hpp) against brute force on tiny
// random graphs: it equals the per-cycle minimum over every predecessor-closed set between
// must(t) and may(t), and never exceeds the smallest peak of any schedule within the horizon.

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/core/gap.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/live_memory/bound.hpp>
#include <gaus/live_memory/cut_bound.hpp>

#include "live_memory_reference.hpp"
#include "toy_graphs.hpp"

using namespace gaus;

namespace {

// A random DAG and a horizon `slack` cycles beyond its critical path.
struct RandomCase {
  Graph graph;
  Cycle horizon = 0;
};

RandomCase randomCase(std::mt19937_64& random, std::int32_t ops, bool halves, Cycle slack) {
  Graph graph = test::randomDag(random, ops, halves, 0.35);
  const auto order = topologicalOrder(graph);
  REQUIRE(order.ok());
  const Cycle horizon = criticalPathLength(graph, asapTimes(graph, *order)) + slack;
  return {std::move(graph), horizon};
}

struct Windows {
  std::vector<Cycle> asap;
  std::vector<Cycle> alap;
};

Windows windowsOf(const Graph& graph, Cycle horizon) {
  const auto order = topologicalOrder(graph);
  REQUIRE(order.ok());
  Windows windows{asapTimes(graph, *order), {}};
  auto alap = alapTimes(graph, *order, horizon);
  REQUIRE(alap.ok());
  windows.alap = std::move(alap).value();
  return windows;
}

// max over t of min over the predecessor-closed P with must(t) <= P <= may(t) of the mem of
// the values in P with a reader outside P: every subset of the ops, tried.
double bruteForceCutMax(const Graph& graph, Cycle horizon) {
  const Windows windows = windowsOf(graph, horizon);
  const OpId ops = graph.numOps();
  double best = 0.0;
  for (Cycle t = 0; t < horizon; ++t) {
    double least = 1e300;
    for (std::uint32_t set = 0; set < (1U << ops); ++set) {
      const auto in = [set](OpId op) { return ((set >> op) & 1U) != 0; };
      bool admissible = true;
      for (OpId op = 0; op < ops && admissible; ++op) {
        if (windows.alap[op] <= t && !in(op)) admissible = false;
        if (windows.asap[op] > t && in(op)) admissible = false;
      }
      for (EdgeId e = 0; e < graph.numEdges() && admissible; ++e) {
        if (in(graph.edgeTarget(e)) && !in(graph.edgeSource(e))) admissible = false;
      }
      if (!admissible) continue;
      double live = 0.0;
      for (OpId op = 0; op < ops; ++op) {
        if (!in(op)) continue;
        const auto outs = graph.outEdges(op);
        if (std::any_of(outs.begin(), outs.end(),
                        [&](EdgeId e) { return !in(graph.edgeTarget(e)); })) {
          live += graph.mem(op);
        }
      }
      least = std::min(least, live);
    }
    best = std::max(best, least);
  }
  return best;
}

// The smallest peak live memory over every schedule within the horizon (each op in its
// [ASAP, ALAP] window, every edge's delay met), with the verifier's metrics.
double bruteForceOptimum(const Graph& graph, Cycle horizon) {
  const Machine machine;
  double best = 1e300;
  test::forEachSchedule(graph, horizon, [&](const std::vector<Cycle>& start) {
    best = std::min(
        best,
        computeMetrics(graph, machine, Schedule{start, std::nullopt, std::nullopt}).peakLiveMemory);
  });
  return best;
}

}  // namespace

TEST_CASE("the min-cut bound equals the brute-force per-cycle minimum over closed sets",
          "[live_memory][bound]") {
  // 300 graphs of 3-10 ops; with halves on every other case so that the flow is fractional.
  std::mt19937_64 random(41);
  std::int32_t aboveMandatory = 0;
  for (int instance = 0; instance < 300; ++instance) {
    const auto [graph, horizon] =
        randomCase(random, 3 + instance % 8, instance % 2 == 1, static_cast<Cycle>(instance % 4));
    const auto bound = live_memory::cutBound(graph, horizon);
    REQUIRE(bound.ok());
    INFO("instance " << instance << ", D=" << horizon);
    const double expected = bruteForceCutMax(graph, horizon);
    // With integer mems the bound is the brute-force value itself (an integer); with halves the
    // flow may differ from it by rounding only.
    CHECK(bound->value == Approx(expected).margin(1e-9));
    CHECK(bound->complete);
    CHECK(bound->mandatory <= bound->value + 1e-9);
    CHECK(bound->mandatory ==
          Approx(*live_memory::mandatoryLifetimeBound(graph, horizon)).margin(1e-9));
    if (bound->value > bound->mandatory + 1e-9) ++aboveMandatory;
  }
  // The cut is stronger than the mandatory lifetimes on a good share of these graphs: the
  // comparison above is not only between zeros.
  CHECK(aboveMandatory >= 30);
}

TEST_CASE("the min-cut bound never exceeds the brute-force optimum over every schedule",
          "[live_memory][bound]") {
  // 400 graphs of 3-6 ops with a slack of 0-2 cycles (every start vector is enumerated).
  std::mt19937_64 random(7);
  std::int32_t tight = 0;
  for (int instance = 0; instance < 400; ++instance) {
    const auto [graph, horizon] =
        randomCase(random, 3 + instance % 4, instance % 3 == 0, static_cast<Cycle>(instance % 3));
    const auto bound = live_memory::cutBound(graph, horizon);
    REQUIRE(bound.ok());
    const double optimum = bruteForceOptimum(graph, horizon);
    INFO("instance " << instance << ", D=" << horizon);
    CHECK(bound->value <= optimum + 1e-9);
    if (std::abs(bound->value - optimum) < 1e-9) ++tight;
  }
  // Not a vacuous bound: it meets the optimum on most of these small graphs.
  CHECK(tight >= 200);
}

TEST_CASE("the min-cut bound on a hand-computed diamond", "[live_memory][bound]") {
  // x (mem 3) feeds p and q (mem 2 each), which feed z; latencies 1, delays 1.
  GraphBuilder builder;
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
  // D = 3: every op is fixed (x 0, p 1, q 1, z 2); x is live at 0 (3), p and q at 1 (4): the
  // mandatory lifetimes already give the peak 4.
  const auto fixed = live_memory::cutBound(*graph, 3);
  REQUIRE(fixed.ok());
  CHECK(fixed->value == 4.0);
  CHECK(fixed->mandatory == 4.0);
  // D = 4: windows x [0, 1], p and q [1, 2], z [2, 3]; no lifetime is mandatory (x's ALAP 1 is
  // its readers' ASAP). At t = 1 x is started and z is not; the closed sets are {x} (x live: 3),
  // {x, p} and {x, q} (3 + 2) and {x, p, q} (p and q live: 4), so the cut is 3. t = 0 allows
  // P = {} and t = 2 allows every op (both 0). The bound is 3; the optimum is 4 (x 0, p 1, q 1,
  // z 2 peaks at 4 at t = 1; delaying q keeps x live beside p: 5).
  const auto slack = live_memory::cutBound(*graph, 4);
  REQUIRE(slack.ok());
  CHECK(slack->mandatory == 0.0);
  CHECK(slack->value == 3.0);
  CHECK(slack->peakCycle == Cycle{1});
  CHECK(bruteForceOptimum(*graph, 4) == 4.0);
}

TEST_CASE("a stopped min-cut search returns the bound so far, still valid",
          "[live_memory][bound]") {
  std::mt19937_64 random(3);
  for (int instance = 0; instance < 50; ++instance) {
    const auto [graph, horizon] = randomCase(random, 8, false, 2);
    const auto full = live_memory::cutBound(graph, horizon);
    const auto stopped = live_memory::cutBound(graph, horizon, [] { return true; });
    REQUIRE(full.ok());
    REQUIRE(stopped.ok());
    // Stopped before the first cut: the mandatory lifetimes, never above the full bound.
    CHECK(stopped->value == stopped->mandatory);
    CHECK(stopped->value <= full->value);
    CHECK(stopped->cyclesCut == 0);
    if (full->cyclesCut > 0) CHECK_FALSE(stopped->complete);
  }
}

TEST_CASE("live_memory::reportBound raises the bound, notes its cost and proves optimality",
          "[live_memory][bound]") {
  // A chain a -> b -> c with mem 2 on a and b, latencies 1, D = 3: every op is fixed, a live
  // at 0 and b at 1: peak 2, which the bound proves.
  GraphBuilder builder;
  const OpId a = builder.addOp("a", 1);
  const OpId b = builder.addOp("b", 1);
  const OpId c = builder.addOp("c", 1);
  builder.setMem(a, 2);
  builder.setMem(b, 2);
  builder.addEdge(a, b);
  builder.addEdge(b, c);
  auto graph = std::move(builder).build();
  REQUIRE(graph.ok());
  Problem problem;
  problem.graph = std::make_shared<const Graph>(std::move(graph).value());
  problem.machine = std::make_shared<const Machine>();
  problem.kind = ProblemKind::kLatencyBounded;
  problem.horizon = 3;

  Result result;
  result.schedule = Schedule{{0, 1, 2}, std::nullopt, std::nullopt};
  result.objective = 2.0;
  result.status = ModelStatus::kFeasible;
  result.bounds.lowerBound = 1.0;  // a weaker bound the method had: the larger one stays
  CHECK(live_memory::reportBound(problem, result, Deadline(1.0)) == 2.0);
  CHECK(result.bounds.lowerBound == 2.0);
  CHECK(result.status == ModelStatus::kOptimal);
  CHECK(resultGap(result) == 0.0);
  REQUIRE(result.notes.size() == 1);
  CHECK(result.notes[0].first == "bound");

  // A value above the bound stays feasible, with its gap (3 - 2) / 3.
  Result above;
  above.schedule = result.schedule;
  above.objective = 3.0;
  above.status = ModelStatus::kFeasible;
  above.bounds.lowerBound = 5.0;  // a stronger bound from the method itself is kept
  live_memory::reportBound(problem, above, Deadline(1.0));
  CHECK(above.bounds.lowerBound == 5.0);
  above.bounds.lowerBound = 2.0;
  CHECK(resultGap(above) == Approx(1.0 / 3.0));
}

TEST_CASE("the relative gap: (value - bound) / value, 0 at the bound, none without both",
          "[live_memory][bound]") {
  CHECK(relativeGap(39.0, 36.0) == Approx(3.0 / 39.0));
  CHECK(relativeGap(31.0, 31.0) == 0.0);
  CHECK(relativeGap(31.0, 31.0 - 1e-12) == 0.0);  // a floating-point solver's rounding
  CHECK_FALSE(relativeGap(std::nullopt, 3.0));
  CHECK_FALSE(relativeGap(3.0, std::nullopt));
  CHECK(relativeGap(0.0, 0.0) == 0.0);
  CHECK_FALSE(relativeGap(0.0, -1.0));
  CHECK(meetsBound(5.0, 5.0));
  CHECK_FALSE(meetsBound(5.0, 4.0));
}

TEST_CASE("mandatory lifetimes: the intervals every schedule keeps live", "[live_memory][bound]") {
  // x -> z and the chain y1 -> y2 -> y3 -> z, latency 1, mem 1 (x's mem 2), D = 4 = the
  // critical path. Every op is pinned except x (ASAP 0, ALAP 2). Live in every schedule: x over
  // [ALAP 2, ASAP(z) 3), y1 over [0, 1), y2 [1, 2), y3 [2, 3): 1, 1, 1 + 2 = 3 at cycle 2, which
  // the schedule with x at 2 reaches, so the bound is tight here. At D = 5 every ALAP grows by
  // one and z's ASAP stays 3: y1 [1, 1), y2 [2, 2), y3 [3, 3) are empty and x's [3, 3) too:
  // bound 0.
  const Graph graph = test::inputBesideChain(2.0);
  CHECK(*live_memory::mandatoryLifetimeBound(graph, 4) == 3.0);
  CHECK(*live_memory::mandatoryLifetimeBound(graph, 5) == 0.0);
  CHECK_FALSE(
      live_memory::mandatoryLifetimeBound(graph, 3).ok());  // shorter than the critical path
}
