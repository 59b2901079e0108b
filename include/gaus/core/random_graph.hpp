// Deterministic random dependence graphs for tests and benchmarks. See docs/random_graphs.md for
// how these compare with the GS-Schedule random workloads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/graph.hpp>
#include <gaus/core/instance.hpp>
#include <gaus/core/machine.hpp>

namespace gaus {

struct RandomOpType {
  std::string name;  // also the resource the op reserves
  std::int32_t minLatency = 1;
  std::int32_t maxLatency = 1;
  std::int32_t occupancy = 1;         // cycles the unit is busy; 0 = the op's latency
  std::optional<std::int32_t> units;  // capacity of the resource; unset: unlimited
  double share = 1.0;                 // relative frequency
};

struct RandomGraphOptions {
  std::int32_t ops = 100;
  // Edges: either an average out-degree (edges ~= ops * averageDegree) or, when
  // edgeProbability > 0, each admissible pair independently (only for small graphs).
  double averageDegree = 2.0;
  double edgeProbability = 0.0;
  // Layered DAGs put ops in `layers` levels and draw edges from earlier to later levels, at most
  // `maxLayerSpan` levels apart (1 = only to the next level); free DAGs draw edges between
  // random pairs in a random topological order, at most `maxIdSpan` apart (0 = unbounded).
  bool layered = false;
  std::int32_t layers = 10;
  std::int32_t maxLayerSpan = 1;
  // Layered DAGs with faninPerOp > 0 ignore averageDegree: every op past the first layer gets
  // exactly that many distinct predecessors (fewer only where the span holds fewer ops), the
  // first in the layer above, the others preferably among ops nothing reads yet (few dangling
  // values, like an and-inverter graph with fan-in 2).
  std::int32_t faninPerOp = 0;
  std::int32_t maxIdSpan = 0;
  std::vector<RandomOpType> opTypes = {{"ALU", 1, 1, 1, std::nullopt, 1.0}};
  // Loop-carried edges from a later op to an earlier one, distance in [1, maxDistance].
  std::int32_t backEdges = 0;
  std::int32_t maxDistance = 1;
  // Node weights (`weight` and `mem`): zero with probability 1 - weightedFraction, else uniform
  // in [minWeight, maxWeight]. Edge `comm`: 1 with probability commFraction.
  double weightedFraction = 0.0;
  double minWeight = 1.0;
  double maxWeight = 1.0;
  double commFraction = 0.0;
  std::uint64_t seed = 1;
};

struct RandomInstance {
  Graph graph;
  Machine machine;
};

// An op type from its text form NAME:MIN-MAX[:OCCUPANCY[:UNITS[:SHARE]]], e.g. "MUL:2-4:1:2:0.5"
// (UNITS "inf": unlimited), as `gaus generate --type` and experiment configs write it. Fails with
// a message saying which field is wrong.
Expected<RandomOpType> parseRandomOpType(std::string_view spec);

// The generated graph and machine as an Instance named after the graph, with nothing else set.
Instance toInstance(RandomInstance&& generated);

// The same options and seed always give the same graph, on every platform (the generator is a
// fixed splitmix64/xoshiro256** stream, not std:: distributions, whose output varies by library).
Expected<RandomInstance> generateRandomGraph(const RandomGraphOptions& options);

}  // namespace gaus
