#include <catch2/catch.hpp>

#include <gaus/core/analysis.hpp>
#include <gaus/core/random_circuit.hpp>
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

namespace {

// The figures of a generated circuit the way `gaus info` and scripts/circuit_profile.py count
// them: inputs (ops without fan-in), gates, levels (inputs 0, a gate one above its deeper
// fan-in), outputs (gates no gate reads).
struct CircuitCounts {
  int inputs = 0, gates = 0, unreadInputs = 0, outputs = 0, badGates = 0;
  std::int64_t depth = 0;  // levels
  std::int32_t components = 0;
};

CircuitCounts countCircuit(const Graph& graph) {
  CircuitCounts counts;
  const auto order = topologicalOrder(graph);
  REQUIRE(order.ok());  // acyclic
  std::vector<std::int64_t> level(static_cast<std::size_t>(graph.numOps()), 0);
  for (const OpId op : *order) {
    const auto in = graph.inEdges(op);
    for (const EdgeId e : in) level[op] = std::max(level[op], level[graph.edgeSource(e)] + 1);
    counts.depth = std::max(counts.depth, level[op]);
    const bool read = !graph.outEdges(op).empty();
    if (in.empty()) {
      ++counts.inputs;
      counts.unreadInputs += read ? 0 : 1;
      if (graph.opKind(op) != "PI") ++counts.badGates;
      continue;
    }
    ++counts.gates;
    counts.outputs += read ? 0 : 1;
    // two distinct fan-ins, the AIGER reader's attributes
    const bool twoDistinct = in.size() == 2 && graph.edgeSource(in[0]) != graph.edgeSource(in[1]);
    if (!twoDistinct || graph.opKind(op) != "AND" || graph.latency(op) != 1 ||
        graph.mem(op) != 1.0) {
      ++counts.badGates;
    }
  }
  counts.components = countWeaklyConnectedComponents(graph);
  return counts;
}

}  // namespace

TEST_CASE("a random circuit has exactly the profile asked for", "[core][random][circuit]") {
  struct Profile {
    std::int32_t inputs, ands, depth, outputs, components;
    CircuitFamily family;
  };
  // From one gate on two inputs and a 10-gate chain (every level one gate, eight inputs read
  // only by the chain) to the shapes of the suite: deep arithmetic, wide control with many
  // components, shallow decoder-like (3 levels, most gates outputs), depth 1 (every gate an
  // output, one gate per extra component).
  const Profile profiles[] = {
      {2, 1, 1, 1, 1, CircuitFamily::kEpfl},
      {10, 10, 10, 1, 1, CircuitFamily::kEpfl},
      {32, 1000, 50, 32, 1, CircuitFamily::kEpfl},
      {128, 3000, 300, 64, 1, CircuitFamily::kArithmetic},
      {200, 5000, 40, 300, 20, CircuitFamily::kControl},
      {8, 304, 3, 256, 1, CircuitFamily::kControl},
      {5, 3, 1, 3, 2, CircuitFamily::kEpfl},
  };
  for (const Profile& profile : profiles) {
    RandomCircuitOptions options;
    options.inputs = profile.inputs;
    options.ands = profile.ands;
    options.depth = profile.depth;
    options.outputs = profile.outputs;
    options.components = profile.components;
    options.parameters = circuitFamilyParameters(profile.family);
    for (const std::uint64_t seed : {1, 2, 3}) {
      options.seed = seed;
      INFO("inputs " << profile.inputs << ", ands " << profile.ands << ", depth " << profile.depth
                     << ", seed " << seed);
      const auto generated = generateRandomCircuit(options);
      REQUIRE(generated.ok());
      const Graph& graph = generated->graph;
      const CircuitCounts counts = countCircuit(graph);
      CHECK(counts.inputs == profile.inputs);
      CHECK(counts.unreadInputs == 0);
      CHECK(counts.gates == profile.ands);
      CHECK(graph.numEdges() == 2 * profile.ands);  // two fan-ins per gate
      CHECK(counts.badGates == 0);
      CHECK(counts.depth == profile.depth);
      CHECK(counts.components == profile.components);
      // these profiles are well inside the bound of checkCircuitProfile: every value the
      // outputs leave finds a reader
      CHECK(counts.outputs == profile.outputs);
      // as the AIGER reader maps a circuit: the critical path in cycles is depth + 1
      const auto summary = summarizeGraph(graph, generated->machine);
      REQUIRE(summary.ok());
      CHECK(summary->criticalPath == profile.depth + 1);
      CHECK(summary->weakComponents == profile.components);
    }
  }
}

TEST_CASE("a random circuit keeps slack off its critical chain", "[core][random][circuit]") {
  RandomCircuitOptions options;
  options.inputs = 32;
  options.ands = 2000;
  options.depth = 100;
  options.outputs = 32;
  options.seed = 4;
  const auto generated = generateRandomCircuit(options);
  REQUIRE(generated.ok());
  const Graph& graph = generated->graph;
  const auto order = topologicalOrder(graph);
  REQUIRE(order.ok());
  const auto asap = asapTimes(graph, *order);
  const auto alap = alapTimes(graph, *order, options.depth + 1);
  REQUIRE(alap.ok());
  // Zero slack at D = depth + 1: the chain of one critical gate per level (99 below the last),
  // the last level's gates (round(0.14 * 32) = 4 outputs) and the two inputs of the chain's
  // first gate; a value no gate taller than it was left to read adds a few more. The rest,
  // over 90 % of the 2,032 ops, can move.
  int critical = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) critical += (*alap)[op] == asap[op] ? 1 : 0;
  CHECK(critical >= 99 + 4 + 2);
  CHECK(critical <= 0.1 * graph.numOps());
}

TEST_CASE("random circuits are deterministic for a seed and the same on every machine",
          "[core][random][circuit]") {
  RandomCircuitOptions options;
  options.inputs = 16;
  options.ands = 300;
  options.depth = 30;
  options.components = 3;
  options.seed = 11;
  const auto first = generateRandomCircuit(options);
  const auto second = generateRandomCircuit(options);
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  CHECK(first->graph.edgeSources() == second->graph.edgeSources());
  CHECK(first->graph.edgeTargets() == second->graph.edgeTargets());
  // FNV-1a over the edge list: the generator draws from its own xoshiro256** stream and real
  // functions written with basic IEEE operations (src/core/random_stream.hpp), so this value
  // is the same with every compiler and standard library; it changes only with the generator.
  std::uint64_t hash = 1469598103934665603ULL;
  for (EdgeId e = 0; e < first->graph.numEdges(); ++e) {
    for (const OpId op : {first->graph.edgeSource(e), first->graph.edgeTarget(e)}) {
      hash = (hash ^ static_cast<std::uint64_t>(op)) * 1099511628211ULL;
    }
  }
  CHECK(hash == 0xadcc96e5e6519918ULL);
  options.seed = 12;
  const auto other = generateRandomCircuit(options);
  REQUIRE(other.ok());
  CHECK(other->graph.edgeSources() != first->graph.edgeSources());
}

TEST_CASE("impossible circuit profiles are refused with the bound", "[core][random][circuit]") {
  const auto refused = [](std::int32_t inputs, std::int32_t ands, std::int32_t depth,
                          std::optional<std::int32_t> outputs, std::int32_t components) {
    RandomCircuitOptions options;
    options.inputs = inputs;
    options.ands = ands;
    options.depth = depth;
    options.outputs = outputs;
    options.components = components;
    const auto result = generateRandomCircuit(options);
    REQUIRE_FALSE(result.ok());
    return result.error();
  };
  // one gate per level: 5 gates cannot make 6 levels
  CHECK_THAT(refused(10, 5, 6, std::nullopt, 1), Catch::Contains("ands must be >= depth"));
  // 6 components need 12 inputs of their own
  CHECK_THAT(refused(10, 50, 6, std::nullopt, 6),
             Catch::Contains("inputs must be >= 2 * components = 12"));
  // 50 gates read at most 51 inputs
  CHECK_THAT(refused(100, 50, 6, std::nullopt, 1),
             Catch::Contains("at most ands + components = 51"));
  // each of 3 components ends in an output
  CHECK_THAT(refused(10, 50, 6, 2, 3), Catch::Contains("outputs must be >= components = 3"));
  // levels 1..5 keep a gate each: at most 50 - 6 + 1 = 45 outputs
  CHECK_THAT(refused(10, 50, 6, 50, 1), Catch::Contains("ands - depth + 1 = 45"));
  // at depth 1 every gate is an output
  CHECK_THAT(refused(10, 50, 1, 20, 1), Catch::Contains("outputs must be ands = 50"));
  // one output at depth 2 takes at most 1 + 2 gates
  CHECK_THAT(refused(3, 8, 2, 1, 1), Catch::Contains("can take at most 3 gates"));
  CHECK_THAT(refused(1, 1, 1, 1, 1), Catch::Contains("inputs must be >= 2"));

  RandomCircuitOptions options;
  options.parameters.inputReads = 1.5;
  CHECK_THAT(generateRandomCircuit(options).error(), Catch::Contains("fractions in [0, 1]"));
  CHECK(kCircuitFamilyNames.parse("control") == CircuitFamily::kControl);
  CHECK_FALSE(kCircuitFamilyNames.parse("random").has_value());
}
