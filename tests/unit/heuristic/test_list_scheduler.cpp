#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <tuple>

#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/core/random_graph.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/heuristic/list_scheduler.hpp>

#include "heuristic_fixtures.hpp"
#include "list_placement.hpp"
#include "priorities.hpp"

using namespace gaus;
using namespace gaus::heuristic;

namespace {

using test::latencyOf;

// The latency of the trivially serial schedule: ops one after another, each waiting until the
// previous one has completed and its outgoing delays have elapsed, i.e. the sum over ops of
// max(duration, largest distance-0 out-delay). List scheduling never does worse: each op starts
// no later than the end of all those windows of the ops placed before it, since its ready time
// lies inside a predecessor's window and past every window it fits.
Cycle serialLatency(const Graph& graph) {
  Cycle total = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    Cycle window = graph.duration(op);
    for (EdgeId e : graph.outEdges(op)) {
      if (graph.edgeDistance(e) == 0) window = std::max<Cycle>(window, graph.edgeDelay(e));
    }
    total += window;
  }
  return total;
}

// The smallest latency of any legal schedule, by depth-first search over start times in
// topological order (every legal schedule is reachable: each op's start is enumerated from its
// ready time), pruned by the best latency found so far. Only for a handful of ops.
Cycle bruteForceOptimum(const Graph& graph, const Machine& machine, Cycle upperBound) {
  const auto topo = topologicalOrder(graph);
  REQUIRE(topo.ok());
  const auto horizon = static_cast<std::size_t>(upperBound) + 1;
  std::vector<std::vector<std::int64_t>> usage(machine.resources.size(),
                                               std::vector<std::int64_t>(horizon, 0));
  std::vector<Cycle> start(static_cast<std::size_t>(graph.numOps()), 0);
  Cycle best = upperBound;
  std::function<void(std::size_t, Cycle)> place = [&](std::size_t index, Cycle latency) {
    if (index == topo->size()) {
      best = std::min(best, latency);
      return;
    }
    const OpId op = (*topo)[index];
    Cycle ready = 0;
    for (EdgeId e : graph.inEdges(op)) {
      if (graph.edgeDistance(e) != 0) continue;
      ready = std::max(ready, start[graph.edgeSource(e)] + graph.edgeDelay(e));
    }
    for (Cycle t = ready; t + graph.duration(op) < best; ++t) {
      bool fits = true;
      for (const auto& block : graph.reservation(op)) {
        const auto& resource = machine.resources[block.resource];
        if (!resource.limited()) continue;
        for (Cycle c = t + block.begin; c < t + block.begin + block.length && fits; ++c) {
          fits = usage[block.resource][c] + block.units <= *resource.capacity;
        }
      }
      if (!fits) continue;
      for (const auto& block : graph.reservation(op)) {
        for (Cycle c = t + block.begin; c < t + block.begin + block.length; ++c) {
          usage[block.resource][c] += block.units;
        }
      }
      start[op] = t;
      place(index + 1, std::max(latency, t + graph.duration(op)));
      for (const auto& block : graph.reservation(op)) {
        for (Cycle c = t + block.begin; c < t + block.begin + block.length; ++c) {
          usage[block.resource][c] -= block.units;
        }
      }
    }
  };
  place(0, 0);
  return best;
}

// Random DAGs of several shapes: free and layered, HLS-style typed ops with multi-cycle
// occupancy and few units, and one op type with a latency longer than its occupancy.
RandomGraphOptions randomShape(int shape, std::int32_t ops, std::uint64_t seed) {
  RandomGraphOptions options;
  options.ops = ops;
  options.seed = seed;
  switch (shape % 4) {
    case 0:
      options.averageDegree = 2;
      options.opTypes = {{"ALU", 1, 2, 1, 2, 2.0}, {"MUL", 2, 4, 2, 1, 1.0}};
      break;
    case 1:
      options.layered = true;
      options.layers = std::max(2, ops / 8);
      options.maxLayerSpan = 2;
      options.averageDegree = 2.5;
      options.opTypes = {{"ADD", 1, 1, 0, 2, 3.0}, {"MUL", 3, 3, 0, 1, 1.0}};
      break;
    case 2:
      options.averageDegree = 1.5;
      options.maxIdSpan = 6;
      options.opTypes = {
          {"MEM", 2, 5, 1, 1, 1.0}, {"FPU", 4, 8, 0, 2, 1.0}, {"WIRE", 0, 0, 0, std::nullopt, 0.5}};
      break;
    default:
      options.averageDegree = 3;
      options.opTypes = {{"ALU", 1, 1, 1, 1, 1.0}, {"DIV", 6, 12, 6, 1, 0.2}};
      break;
  }
  return options;
}

}  // namespace

TEST_CASE("list: hand-computed schedule with a two-block op", "[heuristic][list]") {
  // ALU and MUL with one unit each. a (ALU, 1 cycle) feeds c (MUL for 2 cycles, latency 2) and
  // f (ALU at its first cycle, MUL at its second, latency 2); c feeds d (ALU) with delay 2.
  // Heights: d = 1, c = 2 + 1 = 3, f = 2, a = 1 + 3 = 4, so the order is a, c, f, d.
  //   a at 0.
  //   c ready at 1, MUL free at 1 and 2: c at 1.
  //   f ready at 1: start 1 needs MUL at 2 (held by c), so the search moves past cycle 2 to
  //     start 2 (ALU at 2, MUL at 3): f at 2.
  //   d ready at 1 + 2 = 3, ALU free at 3: d at 3.
  // Latency max(0+1, 1+2, 2+2, 3+1) = 4 = the critical path a -> c -> d (1 + 2 + 1).
  Machine machine = test::aluMulMachine();
  const ResourceId alu = 0;
  const ResourceId mul = 1;
  GraphBuilder builder("two_block");
  const OpId a = builder.addOp("a", 1);
  builder.addReservation(a, {alu, 0, 1, 1});
  const OpId c = builder.addOp("c", 2);
  builder.addReservation(c, {mul, 0, 2, 1});
  const OpId f = builder.addOp("f", 2);
  builder.addReservation(f, {alu, 0, 1, 1});
  builder.addReservation(f, {mul, 1, 1, 1});
  const OpId d = builder.addOp("d", 1);
  builder.addReservation(d, {alu, 0, 1, 1});
  builder.addEdge(a, c);
  builder.addEdge(a, f);
  builder.addEdge(c, d);
  const auto instance = test::makeInstance(std::move(builder), std::move(machine));
  const Problem problem = instance.problem(ProblemKind::kLatency);
  const auto schedule = listSchedule(problem);
  REQUIRE(schedule.ok());
  CHECK(schedule->start == std::vector<Cycle>{0, 1, 2, 3});
  CHECK(verify(problem, *schedule).ok());
  CHECK(latencyOf(*instance.graph, *schedule) == 4);
}

TEST_CASE("list: the chain of four runs back to back (latency = critical path 7)",
          "[heuristic][list]") {
  // chainOfFour: latencies 1, 2, 3, 1 on an unlimited ALU: ASAP {0, 1, 3, 6}, latency 7.
  const auto chain = test::chainOfFour();
  const auto schedule = listSchedule(chain.problem(ProblemKind::kLatency));
  REQUIRE(schedule.ok());
  CHECK(schedule->start == std::vector<Cycle>{0, 1, 3, 6});
}

TEST_CASE("list: a custom key and release times steer the order (GauS legalization)",
          "[heuristic][list]") {
  // Three independent 2-cycle ops on one unit. By height they tie and go by id: 0, 2, 4.
  // With keys {2, 0, 1} the order is op1, op2, op0: op1 at 0, op2 at 2, op0 at 4.
  // Release times {0, 3, 0} with the same keys: op1 may not start before 3, so op1 at 3; op2
  // then fits at 0 (its block [0, 2) ends before op1 starts); op0 last, first free 2-cycle
  // window from 0 is [5, 7).
  Machine machine;
  machine.name = "one_unit";
  const ResourceId unit = machine.addResource("U", 1);
  GraphBuilder builder("three");
  for (int i = 0; i < 3; ++i) {
    const OpId op = builder.addOp("op" + std::to_string(i), 2);
    builder.addReservation(op, {unit, 0, 2, 1});
  }
  const auto instance = test::makeInstance(std::move(builder), std::move(machine));
  const Problem problem = instance.problem(ProblemKind::kLatency);

  const auto byHeight = listSchedule(problem);
  REQUIRE(byHeight.ok());
  CHECK(byHeight->start == std::vector<Cycle>{0, 2, 4});

  ListSchedulerOptions options;
  options.priority = ListPriority::kCustom;
  options.customKey = {2.0, 0.0, 1.0};
  const auto byKey = listSchedule(problem, options);
  REQUIRE(byKey.ok());
  CHECK(byKey->start == std::vector<Cycle>{4, 0, 2});

  options.releaseTime = {0, 3, 0};
  const auto released = listSchedule(problem, options);
  REQUIRE(released.ok());
  CHECK(released->start == std::vector<Cycle>{5, 3, 0});
  CHECK(verify(problem, *released).ok());

  options.customKey = {1.0};
  const auto wrongSize = listSchedule(problem, options);
  REQUIRE_FALSE(wrongSize.ok());
  CHECK_THAT(wrongSize.error(), Catch::Contains("1 keys for 3 ops"));
}

TEST_CASE("list: invalid inputs are errors that name the op, not hangs", "[heuristic][list]") {
  Machine machine;
  machine.name = "narrow";
  const ResourceId alu = machine.addResource("ALU", 1);
  const ResourceId none = machine.addResource("NONE", 0);
  SECTION("a resource of capacity 0") {
    GraphBuilder builder("zero");
    const OpId op = builder.addOp("x", 1);
    builder.addReservation(op, {none, 0, 1, 1});
    const auto instance = test::makeInstance(std::move(builder), machine);
    const auto schedule = listSchedule(instance.problem(ProblemKind::kLatency));
    REQUIRE_FALSE(schedule.ok());
    CHECK_THAT(schedule.error(), Catch::Contains("op x needs 1 units of resource NONE"));
  }
  SECTION("overlapping blocks that need more units than exist") {
    GraphBuilder builder("overlap");
    const OpId op = builder.addOp("y", 3);
    builder.addReservation(op, {alu, 0, 2, 1});
    builder.addReservation(op, {alu, 1, 2, 1});
    const auto instance = test::makeInstance(std::move(builder), machine);
    const auto schedule = listSchedule(instance.problem(ProblemKind::kLatency));
    REQUIRE_FALSE(schedule.ok());
    CHECK_THAT(schedule.error(), Catch::Contains("op y needs 2 units of resource ALU"));
  }
}

TEST_CASE("list: random DAGs verify and sit between the lower bounds and the serial schedule",
          "[heuristic][list][property]") {
  // Lower bounds: the critical path, and ceil(unit-cycles / capacity) per limited resource.
  int cases = 0;
  for (int shape = 0; shape < 4; ++shape) {
    for (std::uint64_t seed = 1; seed <= 25; ++seed) {
      const Problem problem =
          test::randomProblem(randomShape(shape, 20 + 12 * shape, seed), ProblemKind::kLatency);
      for (ListPriority priority : {ListPriority::kHeight, ListPriority::kAlap,
                                    ListPriority::kMobility, ListPriority::kSuccessors}) {
        ListSchedulerOptions options;
        options.priority = priority;
        options.tieBreak = ListPriority::kMobility;
        const auto schedule = listSchedule(problem, options);
        INFO("shape " << shape << " seed " << seed << " priority " << toString(priority));
        REQUIRE(schedule.ok());
        const auto report = verify(problem, *schedule);
        INFO(report.summary());
        REQUIRE(report.ok());
        const Graph& graph = *problem.graph;
        const Cycle latency = latencyOf(graph, *schedule);
        const auto topo = topologicalOrder(graph);
        CHECK(latency >= criticalPathLength(graph, asapTimes(graph, *topo)));
        const ResMii resources = computeResMii(graph, *problem.machine);
        if (resources.binding) CHECK(latency >= resources.value);
        CHECK(latency <= serialLatency(graph));
        ++cases;
      }
    }
  }
  CHECK(cases == 400);
}

TEST_CASE("list: tiny DAGs against the brute-force optimum", "[heuristic][list][property]") {
  // List scheduling is a heuristic: it may be worse than the optimum, never better. How often it
  // is optimal is reported (with -s), not asserted.
  int equal = 0;
  int total = 0;
  for (std::uint64_t seed = 1; seed <= 120; ++seed) {
    RandomGraphOptions options;
    options.ops = 4 + static_cast<std::int32_t>(seed % 3);
    options.edgeProbability = 0.3;
    options.seed = seed;
    options.opTypes = {{"ALU", 1, 2, 1, 1, 2.0}, {"MUL", 2, 3, 2, 1, 1.0}};
    const Problem problem = test::randomProblem(options, ProblemKind::kLatency);
    ListSchedulerOptions listOptions;  // the defaults of the "list" method
    listOptions.tieBreak = ListPriority::kSuccessors;
    const auto schedule = listSchedule(problem, listOptions);
    REQUIRE(schedule.ok());
    REQUIRE(verify(problem, *schedule).ok());
    const Cycle latency = latencyOf(*problem.graph, *schedule);
    const Cycle optimum = bruteForceOptimum(*problem.graph, *problem.machine, latency);
    INFO("seed " << seed);
    CHECK(latency >= optimum);
    equal += latency == optimum ? 1 : 0;
    ++total;
  }
  WARN("list scheduling matched the brute-force optimum on " << equal << " of " << total
                                                             << " tiny DAGs");
}

TEST_CASE("list: zero-latency ops and unlimited resources start at their ready time",
          "[heuristic][list]") {
  // Ops on an unlimited resource never wait for units: the schedule is ASAP.
  RandomGraphOptions options;
  options.ops = 200;
  options.averageDegree = 2;
  options.opTypes = {{"WIRE", 0, 3, 0, std::nullopt, 1.0}};
  options.seed = 5;
  const Problem problem = test::randomProblem(options, ProblemKind::kLatency);
  const auto schedule = listSchedule(problem);
  REQUIRE(schedule.ok());
  const auto topo = topologicalOrder(*problem.graph);
  CHECK(schedule->start == asapTimes(*problem.graph, *topo));
}

TEST_CASE("list: large DAGs of every shape verify within the bounds",
          "[heuristic][list][property][.slow]") {
  for (int shape = 0; shape < 4; ++shape) {
    const Problem problem =
        test::randomProblem(randomShape(shape, 200000, 11), ProblemKind::kLatency);
    ListSchedulerOptions options;
    options.tieBreak = ListPriority::kSuccessors;
    const auto schedule = listSchedule(problem, options);
    REQUIRE(schedule.ok());
    const auto report = verify(problem, *schedule);
    INFO("shape " << shape << ": " << report.summary());
    REQUIRE(report.ok());
    const Graph& graph = *problem.graph;
    const auto topo = topologicalOrder(graph);
    CHECK(report.metrics.latency >= criticalPathLength(graph, asapTimes(graph, *topo)));
    CHECK(report.metrics.latency <= serialLatency(graph));
  }
}

namespace {

// The serial list scheduling the scheduler implements, written plainly as a reference: ops in
// order of (key, ALAP, id), each placed once its distance-0 predecessors are, at the first cycle
// from its ready time (and release time) where its units fit a per-cycle usage table. No ready
// heap, no union-find over full cycles, no renumbering: the same schedule, computed slowly.
std::vector<Cycle> referenceListStarts(const Problem& problem, const std::vector<double>& key,
                                       const std::vector<Cycle>& release) {
  const Graph& graph = *problem.graph;
  const Machine& machine = *problem.machine;
  const auto opCount = static_cast<std::size_t>(graph.numOps());
  const auto topo = topologicalOrder(graph);
  const auto height = heightsToEnd(graph, *topo);
  const Cycle criticalPath =
      height->empty() ? 0 : *std::max_element(height->begin(), height->end());
  std::vector<OpId> order(opCount);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](OpId a, OpId b) {
    const Cycle alapA = criticalPath - (*height)[a];
    const Cycle alapB = criticalPath - (*height)[b];
    return std::tie(key[a], alapA, a) < std::tie(key[b], alapB, b);
  });
  std::vector<std::int32_t> rank(opCount);
  for (std::size_t k = 0; k < opCount; ++k) rank[order[k]] = static_cast<std::int32_t>(k);
  std::vector<std::int32_t> pending(opCount, 0);
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    if (graph.edgeDistance(e) == 0) ++pending[graph.edgeTarget(e)];
  }
  std::set<std::int32_t> eligible;
  for (std::size_t op = 0; op < opCount; ++op) {
    if (pending[op] == 0) eligible.insert(rank[op]);
  }
  std::map<std::pair<ResourceId, Cycle>, std::int64_t> used;
  std::vector<Cycle> start(opCount, 0);
  while (!eligible.empty()) {
    const OpId op = order[*eligible.begin()];
    eligible.erase(eligible.begin());
    Cycle ready = release.empty() ? 0 : release[op];
    for (EdgeId e : graph.inEdges(op)) {
      if (graph.edgeDistance(e) != 0) continue;
      ready = std::max<Cycle>(ready, start[graph.edgeSource(e)] + graph.edgeDelay(e));
    }
    const auto demandAt = [&](Cycle at) {
      std::map<std::pair<ResourceId, Cycle>, std::int64_t> demand;
      for (const ReservationBlock& block : graph.reservation(op)) {
        if (!machine.resources[block.resource].limited()) continue;
        for (Cycle c = at + block.begin; c < at + block.begin + block.length; ++c) {
          demand[{block.resource, c}] += block.units;
        }
      }
      return demand;
    };
    const auto fits = [&](Cycle at) {
      for (const auto& [cell, units] : demandAt(at)) {
        if (used[cell] + units > *machine.resources[cell.first].capacity) return false;
      }
      return true;
    };
    Cycle at = ready;
    while (!fits(at)) ++at;
    for (const auto& [cell, units] : demandAt(at)) used[cell] += units;
    start[op] = at;
    for (EdgeId e : graph.outEdges(op)) {
      if (graph.edgeDistance(e) == 0 && --pending[graph.edgeTarget(e)] == 0) {
        eligible.insert(rank[graph.edgeTarget(e)]);
      }
    }
  }
  return start;
}

}  // namespace

TEST_CASE("list: custom keys give the plain serial list schedule (whole and fractional keys)",
          "[heuristic][list][property]") {
  // The scheduler orders whole-number keys of a narrow range by counting and other keys by
  // comparison, renumbers the ops into ALAP order for its walk and keeps the eligible ops in a
  // bitmap tree; none of that may change a start. Reference: referenceListStarts above.
  int cases = 0;
  for (int shape = 0; shape < 4; ++shape) {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      const Problem problem =
          test::randomProblem(randomShape(shape, 30 + 10 * shape, seed), ProblemKind::kLatency);
      const auto opCount = static_cast<std::size_t>(problem.graph->numOps());
      std::mt19937_64 random(seed * 31 + static_cast<std::uint64_t>(shape));
      for (int keys = 0; keys < 3; ++keys) {
        // 0: whole keys in a narrow range (counting, many ties); 1: whole keys spread far
        // (comparison); 2: fractional keys (comparison), with release times.
        ListSchedulerOptions options;
        options.priority = ListPriority::kCustom;
        options.tieBreak = ListPriority::kAlap;
        for (std::size_t op = 0; op < opCount; ++op) {
          const auto draw = static_cast<double>(random() % 8);
          options.customKey.push_back(keys == 0   ? draw
                                      : keys == 1 ? draw * 1.0e9 - 3.0
                                                  : draw / 3.0);
        }
        if (keys == 2) {
          for (std::size_t op = 0; op < opCount; ++op) {
            options.releaseTime.push_back(static_cast<Cycle>(random() % 6));
          }
        }
        INFO("shape " << shape << " seed " << seed << " keys " << keys);
        const auto schedule = listSchedule(problem, options);
        REQUIRE(schedule.ok());
        CHECK(schedule->start ==
              referenceListStarts(problem, options.customKey, options.releaseTime));
        ++cases;
      }
    }
  }
  CHECK(cases == 144);
}

TEST_CASE("list placement: the rank queue pops the smallest rank, as an ordered set does",
          "[heuristic][list]") {
  // An empty universe (a graph without ops) is empty. Universes around the tree's word
  // boundaries (1-64 ranks: one level; 65-4,096: two; 4,097: three) and one of 300,000 ranks
  // (four levels), with pushes and pops interleaved at random.
  CHECK(detail::RankQueue(0).empty());
  for (const std::size_t universe :
       {std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{65}, std::size_t{4096},
        std::size_t{4097}, std::size_t{300000}}) {
    detail::RankQueue queue(universe);
    std::set<std::int32_t> reference;
    std::mt19937_64 random(universe);
    CHECK(queue.empty());
    for (int step = 0; step < 20000; ++step) {
      if (random() % 3 != 0) {
        const auto rank = static_cast<std::int32_t>(random() % universe);
        if (reference.insert(rank).second) queue.push(rank);
      } else if (!reference.empty()) {
        INFO("universe " << universe << " step " << step);
        REQUIRE(queue.popSmallest() == *reference.begin());
        reference.erase(reference.begin());
      }
      REQUIRE(queue.empty() == reference.empty());
    }
    while (!reference.empty()) {
      REQUIRE(queue.popSmallest() == *reference.begin());
      reference.erase(reference.begin());
    }
    CHECK(queue.empty());
  }
}

TEST_CASE("list ordering: counted and compared orders are (primary, secondary, id)",
          "[heuristic][list]") {
  // Expected: std::sort with the three-key comparison, the order's definition. Narrow whole
  // keys (with -0.0 beside 0.0, equal keys) take the counting path; keys spread past 4x the
  // count, fractional keys (thirds: no offset between them is whole) and infinities take the
  // comparison.
  std::mt19937_64 random(7);
  const auto expectedOrder = [](const std::vector<double>& primary,
                                const std::vector<double>& secondary) {
    std::vector<OpId> order(primary.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](OpId a, OpId b) {
      return std::tie(primary[a], secondary[a], a) < std::tie(primary[b], secondary[b], b);
    });
    return order;
  };
  for (int variant = 0; variant < 4; ++variant) {
    std::vector<double> primary;
    std::vector<double> secondary;
    for (int op = 0; op < 2000; ++op) {
      const auto draw = static_cast<double>(random() % 50) - 20.0;
      primary.push_back(variant == 0   ? (draw == 0.0 && op % 2 == 0 ? -0.0 : draw)
                        : variant == 1 ? draw * 1000.0
                        : variant == 2 ? draw / 3.0
                                       : (op == 5 ? INFINITY : draw));
      secondary.push_back(static_cast<double>(random() % 7));
    }
    INFO("variant " << variant);
    CHECK(detail::orderByKeys(primary, secondary) == expectedOrder(primary, secondary));
  }
  CHECK(detail::orderByKeys({}, {}).empty());
  // Fractional keys whose offsets from the smallest are whole or round to whole: -1000.5, the
  // double just above 0.5, and 0.5 give offsets 1001, 1001 (rounded) and 1001. The keys differ,
  // so the order is by key: 0, 2, 1.
  const std::vector<double> nearlyTied{-1000.5, std::nextafter(0.5, 1.0), 0.5};
  CHECK(detail::orderByKeys(nearlyTied, {0.0, 0.0, 0.0}) == std::vector<OpId>{0, 2, 1});
  // A graph without ops schedules to an empty schedule.
  GraphBuilder builder("empty");
  Machine machine;
  machine.name = "none";
  const auto instance = test::makeInstance(std::move(builder), std::move(machine));
  const auto empty = listSchedule(instance.problem(ProblemKind::kLatency));
  REQUIRE(empty.ok());
  CHECK(empty->start.empty());
}

TEST_CASE(
    "list: a prepared scheduler reading a posed problem's facts schedules as one that "
    "computed them",
    "[heuristic][list]") {
  // A posed problem carries its topological order and ASAP times (core/problem_facts.hpp), which
  // GauS's setup and its legalization share; the schedules must be those of a scheduler whose
  // problem carries none (it computes its own), for the default priority and for custom keys.
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    Problem bare =
        test::randomProblem(randomShape(static_cast<int>(seed), 60, seed), ProblemKind::kLatency);
    bare.posedFacts.reset();
    const Problem posed = withFacts(bare);
    REQUIRE(posed.facts()->order().ok());
    auto own = ListScheduler::prepare(bare);
    auto given = ListScheduler::prepare(posed);
    REQUIRE(own.ok());
    REQUIRE(given.ok());
    ListSchedulerOptions byKey;
    byKey.priority = ListPriority::kCustom;
    byKey.tieBreak = ListPriority::kAlap;
    for (OpId op = 0; op < bare.graph->numOps(); ++op) {
      byKey.customKey.push_back(static_cast<double>((op * 7919) % 13));
    }
    for (const ListSchedulerOptions& options : {ListSchedulerOptions{}, byKey}) {
      INFO("seed " << seed);
      const auto a = own->schedule(options);
      const auto b = given->schedule(options);
      REQUIRE(a.ok());
      REQUIRE(b.ok());
      CHECK(a->start == b->start);
    }
  }
}
