#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/core/random_graph.hpp>

using namespace gaus;

TEST_CASE("random graphs are deterministic for a seed and differ across seeds", "[core][random]") {
  RandomGraphOptions options;
  options.ops = 500;
  options.averageDegree = 3;
  options.opTypes = {{"ADD", 1, 2, 0, 2, 2.0}, {"MUL", 2, 4, 1, 1, 1.0}};
  options.backEdges = 5;
  options.maxDistance = 2;
  options.weightedFraction = 0.4;
  options.minWeight = 1000;
  options.maxWeight = 5000;
  options.commFraction = 0.4;
  options.seed = 42;
  const auto first = generateRandomGraph(options);
  const auto second = generateRandomGraph(options);
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  const Graph& a = first->graph;
  const Graph& b = second->graph;
  REQUIRE(a.numOps() == b.numOps());
  REQUIRE(a.numEdges() == b.numEdges());
  CHECK(a.edgeSources() == b.edgeSources());
  CHECK(a.edgeTargets() == b.edgeTargets());
  CHECK(a.latencies() == b.latencies());
  for (OpId op = 0; op < a.numOps(); ++op) REQUIRE(a.weight(op) == b.weight(op));

  options.seed = 43;
  const auto other = generateRandomGraph(options);
  REQUIRE(other.ok());
  CHECK(other->graph.edgeSources() != a.edgeSources());
}

TEST_CASE("a fixed fan-in gives every gate two inputs, few dangling values and slack",
          "[core][random]") {
  RandomGraphOptions options;
  options.ops = 400;
  options.layered = true;
  options.layers = 50;  // 8 ops per layer: 400 * l / 50 = 8 l
  options.maxLayerSpan = 4;
  options.faninPerOp = 2;
  options.averageDegree = 9;  // ignored with a fixed fan-in
  options.seed = 3;
  const auto instance = generateRandomGraph(options);
  REQUIRE(instance.ok());
  const Graph& graph = instance->graph;
  // Every op past the first layer has exactly two distinct predecessors: (400 - 8) * 2 edges.
  CHECK(graph.numEdges() == 784);
  int inputs = 0;
  int sinks = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    const auto fanin = graph.inEdges(op).size();
    CHECK((fanin == 0 || fanin == 2));
    inputs += fanin == 0 ? 1 : 0;
    sinks += graph.outEdges(op).empty() ? 1 : 0;
  }
  CHECK(inputs == 8);
  // Unread values are the last layer's 8 and those promised a reader past the last layer (from
  // the last three layers at most, span 4): at most 8 + 3 * 8. Uniform draws would leave about
  // e^-2 = 13 % of the ops (52) unread.
  CHECK(sinks >= 8);
  CHECK(sinks <= 32);
  const auto order = topologicalOrder(graph);
  REQUIRE(order.ok());
  const auto asap = asapTimes(graph, *order);
  CHECK(criticalPathLength(graph, asap) == 50);  // the first fan-in is one layer up
  const auto alap = alapTimes(graph, *order, 50);
  REQUIRE(alap.ok());
  // An op the next layer does not read (each of the 8 below draws uniformly: (7/8)^8 = 34 %) is
  // read at least two layers down, so it can move: a good part of the ops has slack.
  int withSlack = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) withSlack += (*alap)[op] > asap[op] ? 1 : 0;
  CHECK(withSlack > 100);

  options.layered = false;
  CHECK_FALSE(generateRandomGraph(options).ok());  // a fixed fan-in needs layers
}

TEST_CASE("random graph options shape the graph as documented", "[core][random]") {
  RandomGraphOptions options;
  options.ops = 2000;
  options.averageDegree = 3;
  options.layered = true;
  options.layers = 12;
  options.maxLayerSpan = 2;
  options.opTypes = {{"ALU", 1, 1, 1, std::nullopt, 1.0}};
  options.weightedFraction = 0.4;
  options.commFraction = 0.4;
  options.seed = 7;
  const auto instance = generateRandomGraph(options);
  REQUIRE(instance.ok());
  const Graph& graph = instance->graph;
  CHECK(graph.numOps() == 2000);
  // Duplicates are removed, so a little under ops * degree.
  CHECK(graph.numEdges() > 5500);
  CHECK(graph.numEdges() <= 6000);
  const auto summary = summarizeGraph(graph, instance->machine);
  REQUIRE(summary.ok());
  CHECK(summary->depth == 12);  // every op past layer 0 has a predecessor one layer up
  CHECK_FALSE(graph.hasLoopCarriedEdges());
  int weighted = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) weighted += graph.weight(op) > 0 ? 1 : 0;
  CHECK(weighted > 700);  // 40% of 2000 = 800, with sampling noise
  CHECK(weighted < 900);
  int comm = 0;
  for (EdgeId e = 0; e < graph.numEdges(); ++e) comm += graph.edgeComm(e) > 0 ? 1 : 0;
  CHECK(comm > 0.35 * graph.numEdges());
  CHECK(comm < 0.45 * graph.numEdges());
}

TEST_CASE("back edges make loop-carried recurrences but never distance-0 cycles",
          "[core][random]") {
  RandomGraphOptions options;
  options.ops = 300;
  options.averageDegree = 2;
  options.backEdges = 20;
  options.maxDistance = 3;
  options.seed = 9;
  const auto instance = generateRandomGraph(options);
  REQUIRE(instance.ok());
  CHECK(instance->graph.hasLoopCarriedEdges());
  CHECK(topologicalOrder(instance->graph).ok());
  CHECK(computeRecMii(instance->graph).value >= 1);
}

TEST_CASE("invalid random graph options are rejected with the reason", "[core][random]") {
  RandomGraphOptions options;
  options.ops = 0;
  auto result = generateRandomGraph(options);
  REQUIRE_FALSE(result.ok());
  CHECK_THAT(result.error(), Catch::Contains("ops must be >= 1"));
  options.ops = 10;
  options.opTypes = {{"X", 3, 1, 1, std::nullopt, 1.0}};
  result = generateRandomGraph(options);
  REQUIRE_FALSE(result.ok());
  CHECK_THAT(result.error(), Catch::Contains("latency range [3, 1]"));
}

TEST_CASE("op types read from their text form NAME:MIN-MAX[:OCCUPANCY[:UNITS[:SHARE]]]",
          "[core][random]") {
  const auto full = parseRandomOpType("MUL:2-4:1:2:0.5");
  REQUIRE(full.ok());
  CHECK(full->name == "MUL");
  CHECK(full->minLatency == 2);
  CHECK(full->maxLatency == 4);
  CHECK(full->occupancy == 1);
  CHECK(full->units == 2);
  CHECK(full->share == 0.5);
  // A single latency is both bounds; the fields left out keep their defaults, "inf" units are
  // unlimited.
  const auto short_ = parseRandomOpType("ALU:3");
  REQUIRE(short_.ok());
  CHECK(short_->minLatency == 3);
  CHECK(short_->maxLatency == 3);
  CHECK_FALSE(short_->units.has_value());
  CHECK_FALSE(parseRandomOpType("MEM:1-3:2:inf")->units.has_value());
  // Each wrong field is named.
  CHECK_THAT(parseRandomOpType("ALU").error(), Catch::Contains("a name and a latency range"));
  CHECK_THAT(parseRandomOpType("ALU:x").error(), Catch::Contains("found 'x'"));
  CHECK_THAT(parseRandomOpType("ALU:1:1:many").error(), Catch::Contains("a unit count or inf"));
  CHECK_THAT(parseRandomOpType("ALU:1:1:1:0").error(), Catch::Contains("a positive share"));
}
