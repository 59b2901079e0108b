// Live memory from its definition, for tests of the peak-memory searches (formulation B):
// the per-cycle profile, the refinement's order on schedules, brute force over every start of
// a small graph, and random layered graphs with mem on every op.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/random_graph.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/heuristic/list_scheduler.hpp>

namespace gaus::test {

inline Problem boundedProblem(const Graph& graph, Cycle horizon, const Machine& machine = {}) {
  Problem problem;
  problem.graph = std::make_shared<const Graph>(graph);
  problem.machine = std::make_shared<const Machine>(machine);
  problem.kind = ProblemKind::kLatencyBounded;
  problem.horizon = horizon;
  return problem;
}

inline bool legal(const Problem& problem, const std::vector<Cycle>& start) {
  VerifyOptions options;
  options.maxMessages = 0;
  return verify(problem, Schedule{start, std::nullopt, std::nullopt}, options).ok();
}

// Live memory per cycle, from the definition (core's liveInterval: a value is live from its
// op's start until its last distance-0 reader starts), not from the refinement's bookkeeping.
inline std::vector<double> profileOf(const Graph& graph, const std::vector<Cycle>& start,
                                     Cycle horizon) {
  std::vector<double> live(static_cast<std::size_t>(horizon) + 1, 0.0);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    const LiveInterval interval =
        liveInterval(graph, Schedule{start, std::nullopt, std::nullopt}, op);
    for (Cycle t = interval.begin; t < interval.end; ++t) live[t] += graph.mem(op);
  }
  return live;
}

// The refinement's order on schedules: peak, then cycles at the peak, then the sum of squares.
struct Score {
  double peak = 0;
  std::int64_t atPeak = 0;
  double sumSquares = 0;
};

inline Score scoreOf(const Graph& graph, const std::vector<Cycle>& start, Cycle horizon) {
  const auto live = profileOf(graph, start, horizon);
  Score score;
  score.peak = *std::max_element(live.begin(), live.end());
  for (const double value : live) {
    score.atPeak += std::abs(value - score.peak) < 1e-9 ? 1 : 0;
    score.sumSquares += value * value;
  }
  return score;
}

inline bool lower(const Score& a, const Score& b) {
  if (a.peak < b.peak - 1e-9) return true;
  if (a.peak > b.peak + 1e-9) return false;
  if (a.atPeak != b.atPeak) return a.atPeak < b.atPeak;
  return a.sumSquares < b.sumSquares - 1e-9 * std::max(1.0, b.sumSquares);
}

// Smallest peak over every legal schedule: each op's start in [0, D - duration].
inline double bruteForcePeak(const Problem& problem) {
  const Graph& graph = *problem.graph;
  const Cycle horizon = *problem.horizon;
  std::vector<Cycle> start(static_cast<std::size_t>(graph.numOps()), 0);
  double best = 1e300;
  while (true) {
    if (legal(problem, start)) best = std::min(best, scoreOf(graph, start, horizon).peak);
    std::size_t digit = 0;
    while (digit < start.size() && ++start[digit] > horizon - graph.duration(OpId(digit))) {
      start[digit++] = 0;
    }
    if (digit == start.size()) return best;
  }
}

// A random layered graph with mem in [1, 3] on every op and latencies 1-2 on unlimited units.
inline RandomInstance layeredMemoryGraph(std::uint64_t seed, std::int32_t ops, double degree,
                                         std::int32_t layers, std::int32_t span) {
  RandomGraphOptions options;
  options.ops = ops;
  options.averageDegree = degree;
  options.layered = true;
  options.layers = layers;
  options.maxLayerSpan = span;
  options.opTypes = {{"ALU", 1, 2, 1, std::nullopt, 1.0}};
  options.weightedFraction = 1.0;
  options.minWeight = 1.0;
  options.maxWeight = 3.0;
  options.seed = seed;
  auto generated = generateRandomGraph(options);
  REQUIRE(generated.ok());
  return std::move(generated).value();
}

// p1 -> q1 and p2 -> q2 (ops 0-3), every op 1 cycle, mem 1 on each producer: a value is live
// from its producer's start until its reader starts, so the peak is 1 where the pairs can run
// one after the other (D >= 3) and 2 where both producers must start at 0 (D = 2).
inline Graph twoProducerPairs() {
  GraphBuilder builder("pairs");
  const OpId p1 = builder.addOp("p1", 1);
  const OpId q1 = builder.addOp("q1", 1);
  const OpId p2 = builder.addOp("p2", 1);
  const OpId q2 = builder.addOp("q2", 1);
  builder.setMem(p1, 1.0);
  builder.setMem(p2, 1.0);
  builder.addEdge(p1, q1);
  builder.addEdge(p2, q2);
  auto built = std::move(builder).build();
  REQUIRE(built.ok());
  return std::move(built).value();
}

// A layeredMemoryGraph, its list schedule, and the problem at horizon D = the list schedule's
// latency + `slack`.
struct MemoryCase {
  RandomInstance generated;
  Schedule list;
  Cycle horizon = 0;
  Problem problem;
};

inline MemoryCase memoryCase(std::uint64_t seed, std::int32_t ops, double degree,
                             std::int32_t layers, std::int32_t span, Cycle slack) {
  MemoryCase result{layeredMemoryGraph(seed, ops, degree, layers, span), {}, 0, {}};
  const Graph& graph = result.generated.graph;
  auto list = heuristic::listSchedule(boundedProblem(graph, 1000, result.generated.machine));
  REQUIRE(list.ok());
  result.list = std::move(list).value();
  result.horizon = scheduleLatency(graph, result.list.start) + slack;
  result.problem = boundedProblem(graph, result.horizon, result.generated.machine);
  return result;
}

// A random DAG: edges only from lower to higher ids, each with `edgeProbability`, delays 0-2 (0
// lets a reader start with its producer), latencies 1-2, mems 0-3 with halves on every other op
// when `halves` is set (so that a flow is not always integral).
inline Graph randomDag(std::mt19937_64& random, std::int32_t ops, bool halves,
                       double edgeProbability) {
  GraphBuilder builder;
  std::uniform_int_distribution<int> latency(1, 2);
  std::uniform_int_distribution<int> mem(0, 3);
  std::uniform_int_distribution<int> delay(0, 2);
  std::bernoulli_distribution edge(edgeProbability);
  for (std::int32_t op = 0; op < ops; ++op) {
    const OpId id = builder.addOp("op" + std::to_string(op), latency(random));
    builder.setMem(id, mem(random) + (halves && op % 2 == 0 ? 0.5 : 0.0));
  }
  for (std::int32_t target = 1; target < ops; ++target) {
    for (std::int32_t source = 0; source < target; ++source) {
      if (edge(random)) builder.addEdge(source, target, delay(random));
    }
  }
  auto graph = std::move(builder).build();
  REQUIRE(graph.ok());
  return std::move(graph).value();
}

// Calls `visit` with every legal start vector within the horizon: each op in [ASAP, ALAP], every
// distance-0 edge's delay met.
inline void forEachSchedule(const Graph& graph, Cycle horizon,
                            const std::function<void(const std::vector<Cycle>&)>& visit) {
  const auto order = topologicalOrder(graph);
  REQUIRE(order.ok());
  const std::vector<Cycle> asap = asapTimes(graph, *order);
  const auto alap = alapTimes(graph, *order, horizon);
  REQUIRE(alap.ok());
  std::vector<Cycle> start = asap;
  for (;;) {
    bool ok = true;
    for (EdgeId e = 0; e < graph.numEdges() && ok; ++e) {
      ok = start[graph.edgeTarget(e)] >= start[graph.edgeSource(e)] + graph.edgeDelay(e);
    }
    if (ok) visit(start);
    std::size_t digit = 0;
    while (digit < start.size() && ++start[digit] > (*alap)[digit]) {
      start[digit] = asap[digit];
      ++digit;
    }
    if (digit == start.size()) return;
  }
}

}  // namespace gaus::test
