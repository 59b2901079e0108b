#include <functional>

#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/core/random_graph.hpp>

#include "toy_graphs.hpp"

using namespace gaus;

TEST_CASE("ASAP, ALAP and critical path of a chain match the hand computation",
          "[core][analysis]") {
  // Latencies 1, 2, 3, 1 along a -> b -> c -> d.
  const auto instance = test::chainOfFour();
  const Graph& graph = *instance.graph;
  const auto order = topologicalOrder(graph);
  REQUIRE(order.ok());
  CHECK(*order == std::vector<OpId>{0, 1, 2, 3});
  const auto asap = asapTimes(graph, *order);
  CHECK(asap == std::vector<Cycle>{0, 1, 3, 6});
  CHECK(criticalPathLength(graph, asap) == 7);
  CHECK(criticalPath(graph, *order, asap) == std::vector<OpId>{0, 1, 2, 3});
  const auto alap = alapTimes(graph, *order, 9);
  REQUIRE(alap.ok());
  CHECK(*alap == std::vector<Cycle>{2, 3, 5, 8});  // d: 9-1; c: 8-3; b: 5-2; a: 3-1
  const auto tooShort = alapTimes(graph, *order, 6);
  REQUIRE_FALSE(tooShort.ok());
  CHECK_THAT(tooShort.error(), Catch::Contains("D=6") && Catch::Contains("7 cycles"));
}

TEST_CASE("a zero-distance cycle is reported with the ops on it", "[core][analysis]") {
  GraphBuilder builder;
  builder.addOp("src", 1);
  builder.addOp("u", 1);
  builder.addOp("v", 1);
  builder.addOp("w", 1);
  builder.addEdge(0, 1);
  builder.addEdge(1, 2);
  builder.addEdge(2, 3);
  builder.addEdge(3, 1);  // u -> v -> w -> u, all distance 0
  auto graph = std::move(builder).build();
  REQUIRE(graph.ok());
  const auto order = topologicalOrder(*graph);
  REQUIRE_FALSE(order.ok());
  CHECK_THAT(order.error(), Catch::Contains("u -> v -> w -> u") ||
                                Catch::Contains("v -> w -> u -> v") ||
                                Catch::Contains("w -> u -> v -> w"));
  CHECK_THAT(order.error(), !Catch::Contains("src"));
}

TEST_CASE("toy Flash-Attention: ResMII 2 on TC, RecMII 1 from O's self edge", "[core][analysis]") {
  const auto toy = test::toyFlashAttention();
  const auto resMii = computeResMii(*toy.graph, *toy.machine);
  CHECK(resMii.value == 2);
  REQUIRE(resMii.binding.has_value());
  CHECK(toy.machine->resources[*resMii.binding].name == "TC");
  const auto recMii = computeRecMii(*toy.graph);
  CHECK(recMii.value == 1);
  CHECK_FALSE(recMii.infeasible.has_value());
  const auto components = stronglyConnectedComponents(*toy.graph);
  CHECK(components.count == 3);
  // Modulo ASAP at II = 2 ignores resources: S 0, P 1, O 2.
  const auto start = moduloAsapTimes(*toy.graph, 2);
  REQUIRE(start.ok());
  CHECK(*start == std::vector<Cycle>{0, 1, 2});
}

TEST_CASE("ResMII counts units times cycles of every block", "[core][analysis]") {
  Machine machine;
  machine.addResource("MEM", 4);
  GraphBuilder builder;
  const OpId a = builder.addOp("a", 3);
  builder.addReservation(a, {0, 0, 3, 2});  // 2 units x 3 cycles = 6
  const OpId b = builder.addOp("b", 1);
  builder.addReservation(b, {0, 0, 1, 1});  // 1
  const auto instance = test::makeInstance(std::move(builder), machine);
  // ceil(7 / 4) = 2
  CHECK(computeResMii(*instance.graph, *instance.machine).value == 2);
}

TEST_CASE("RecMII of hand-made recurrences", "[core][analysis]") {
  SECTION("delay 3 + 2 around a distance-1 cycle: RecMII 5") {
    GraphBuilder builder;
    builder.addOp("a", 3);
    builder.addOp("b", 2);
    builder.addEdge(0, 1, 3, 0);
    builder.addEdge(1, 0, 2, 1);
    auto graph = std::move(builder).build();
    REQUIRE(graph.ok());
    const auto recMii = computeRecMii(*graph);
    CHECK(recMii.value == 5);
    CHECK(recMii.bindingCycle.size() == 2);
  }
  SECTION("delay 3 + 4 around a distance-2 cycle: RecMII ceil(7/2) = 4") {
    GraphBuilder builder;
    builder.addOp("a", 3);
    builder.addOp("b", 4);
    builder.addEdge(0, 1, 3, 0);
    builder.addEdge(1, 0, 4, 2);
    auto graph = std::move(builder).build();
    REQUIRE(graph.ok());
    CHECK(computeRecMii(*graph).value == 4);
    CHECK(recurrencesAllowIi(*graph, 4));
    CHECK_FALSE(recurrencesAllowIi(*graph, 3));
  }
  SECTION("an acyclic graph has RecMII 0") {
    CHECK(computeRecMii(*test::chainOfFour().graph).value == 0);
  }
}

namespace {

// Brute force: the largest ceil(sum delay / sum distance) over all simple cycles, by DFS from
// each op over ops with larger ids (each cycle found once, from its smallest op).
std::int64_t bruteForceRecMii(const Graph& graph) {
  std::int64_t best = 0;
  std::vector<std::uint8_t> onPath(static_cast<std::size_t>(graph.numOps()), 0);
  std::function<void(OpId, OpId, std::int64_t, std::int64_t)> walk =
      [&](OpId start, OpId op, std::int64_t delay, std::int64_t distance) {
        for (EdgeId e : graph.outEdges(op)) {
          const OpId next = graph.edgeTarget(e);
          const std::int64_t d = delay + graph.edgeDelay(e);
          const std::int64_t dist = distance + graph.edgeDistance(e);
          if (next == start) {
            if (dist > 0) best = std::max(best, std::max<std::int64_t>(1, (d + dist - 1) / dist));
          } else if (next > start && !onPath[next]) {
            onPath[next] = 1;
            walk(start, next, d, dist);
            onPath[next] = 0;
          }
        }
      };
  for (OpId start = 0; start < graph.numOps(); ++start) {
    onPath[start] = 1;
    walk(start, start, 0, 0);
    onPath[start] = 0;
  }
  return best;
}

}  // namespace

TEST_CASE("RecMII equals brute-force enumeration of cycles on random small loops",
          "[core][analysis]") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    RandomGraphOptions options;
    options.ops = 7;
    options.averageDegree = 1.5;
    options.opTypes = {{"ALU", 0, 6, 1, std::nullopt, 1.0}};
    options.backEdges = 4;
    options.maxDistance = 3;
    options.seed = seed;
    const auto instance = generateRandomGraph(options);
    REQUIRE(instance.ok());
    INFO("seed " << seed);
    const auto recMii = computeRecMii(instance->graph);
    CHECK(recMii.value == bruteForceRecMii(instance->graph));
    if (recMii.value > 1) {
      CHECK(recurrencesAllowIi(instance->graph, recMii.value));
      CHECK_FALSE(recurrencesAllowIi(instance->graph, recMii.value - 1));
    }
  }
}

TEST_CASE("graph summary counts depth in ops and components", "[core][analysis]") {
  const auto instance = test::chainOfFour();
  const auto summary = summarizeGraph(*instance.graph, *instance.machine);
  REQUIRE(summary.ok());
  CHECK(summary->depth == 4);
  CHECK(summary->criticalPath == 7);
  CHECK(summary->weakComponents == 1);
  CHECK(summary->loopCarriedEdges == 0);
}

TEST_CASE("heights: D - height is ALAP, with an II loop-carried edges count, below RecMII fails",
          "[core][analysis]") {
  // Chain of four: heights 7, 6, 4, 1 (each op's latency plus the path after it), and at D = 9
  // ALAP = 9 - height = {2, 3, 5, 8}, the hand computation of the first test case.
  const auto chain = test::chainOfFour();
  const auto chainOrder = topologicalOrder(*chain.graph);
  REQUIRE(chainOrder.ok());
  const auto chainHeights = heightsToEnd(*chain.graph, *chainOrder);
  REQUIRE(chainHeights.ok());
  CHECK(*chainHeights == std::vector<Cycle>{7, 6, 4, 1});
  // Toy FA at II 2: O -> O (delay 1, distance 1) weighs 1 - 2 < 0 and adds nothing, so the
  // heights are those of S -> P -> O: 3, 2, 1. At II 0 the self edge weighs 1 per lap: no height.
  const auto toy = test::toyFlashAttention();
  const auto toyOrder = topologicalOrder(*toy.graph);
  REQUIRE(toyOrder.ok());
  const auto atTwo = heightsToEnd(*toy.graph, *toyOrder, 2);
  REQUIRE(atTwo.ok());
  CHECK(*atTwo == std::vector<Cycle>{3, 2, 1});
  CHECK_FALSE(heightsToEnd(*toy.graph, *toyOrder, 0).ok());
}

TEST_CASE("topological order: first ready first, or smallest ready id first", "[core][analysis]") {
  // Sources 1 and 2, edge 1 -> 0: first come is [1, 2, 0] (0 is freed after 2 was queued),
  // smallest id is [1, 0, 2] (once 1 is taken, 0 is the smallest ready id).
  GraphBuilder builder;
  builder.addOp("a", 1);
  builder.addOp("b", 1);
  builder.addOp("c", 1);
  builder.addEdge(1, 0);
  auto graph = std::move(builder).build();
  REQUIRE(graph.ok());
  CHECK(*topologicalOrder(*graph) == std::vector<OpId>{1, 2, 0});
  CHECK(*topologicalOrder(*graph, ReadyOrder::kSmallestId) == std::vector<OpId>{1, 0, 2});
  CHECK(zeroDistanceCycle(*graph).empty());
}

TEST_CASE("zeroDistanceCycle lists the cycle topologicalOrder names, in edge order",
          "[core][analysis]") {
  // a -> b -> c -> b: the walk from b (the smallest op left unordered) closes at b; the cycle in
  // edge order from c is c -> b, the message's "c -> b -> c".
  GraphBuilder builder;
  builder.addOp("a", 1);
  builder.addOp("b", 1);
  builder.addOp("c", 1);
  builder.addEdge(0, 1);
  builder.addEdge(1, 2);
  builder.addEdge(2, 1);
  auto graph = std::move(builder).build();
  REQUIRE(graph.ok());
  CHECK(zeroDistanceCycle(*graph) == std::vector<OpId>{2, 1});
  CHECK_THAT(topologicalOrder(*graph).error(), Catch::Contains("c -> b -> c"));
}

TEST_CASE("nonOverlappedIi: one iteration's latency, or what a loop-carried edge needs",
          "[core][analysis]") {
  // Toy FA serialized as S:0, P:1, O:2: latency 3; O -> O needs (2 + 1 - 2) / 1 = 1. II 3.
  const auto toy = test::toyFlashAttention();
  CHECK(nonOverlappedIi(*toy.graph, std::vector<Cycle>{0, 1, 2}) == 3);
  // a (latency 1) at 0 and b (latency 1) at 1 with b -> a of delay 9, distance 2: latency 2, but
  // the edge needs ceil((1 + 9 - 0) / 2) = 5.
  GraphBuilder builder;
  builder.addOp("a", 1);
  builder.addOp("b", 1);
  builder.addEdge(0, 1);
  builder.addEdge(1, 0, 9, 2);
  auto graph = std::move(builder).build();
  REQUIRE(graph.ok());
  CHECK(nonOverlappedIi(*graph, std::vector<Cycle>{0, 1}) == 5);
  // No ops: at least 1.
  CHECK(nonOverlappedIi(Graph{}, std::vector<Cycle>{}) == 1);
}
