// Graphs for the expected-violation tests, and every term of the model evaluated on one set of
// parameters.
#pragma once

#include <memory>
#include <optional>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/core/random_graph.hpp>

#include "communication_term.hpp"
#include "horizon_term.hpp"
#include "live_memory_term.hpp"
#include "precedence_term.hpp"
#include "resource_term.hpp"
#include "stage_weight_term.hpp"
#include "toy_graphs.hpp"

namespace gaus::differentiable::fixture {

// Five ops on two unit-capacity resources (ALU, MUL), with multi-cycle reservation blocks (one
// starting one cycle after the op), delays 0..3, one loop-carried edge 4 -> 0 of distance 1, a
// self-loop 3 -> 3 of distance 2 and a parallel edge; every op has a `mem`, `weight`, and two
// edges carry communication.
inline Instance fiveOpGraph() {
  Machine machine;
  machine.name = "two-units";
  const ResourceId alu = machine.addResource("ALU", 1);
  const ResourceId mul = machine.addResource("MUL", 1);
  machine.addResource("WIRE", std::nullopt);
  GraphBuilder builder("five");
  const OpId a = builder.addOp("a", 1);
  builder.addReservation(a, {alu, 0, 1, 1});
  const OpId b = builder.addOp("b", 2);
  builder.addReservation(b, {mul, 0, 2, 1});
  const OpId c = builder.addOp("c", 1);
  builder.addReservation(c, {alu, 0, 1, 1});
  builder.addReservation(c, {2, 0, 1, 1});  // unlimited: not modelled
  const OpId d = builder.addOp("d", 3);
  builder.addReservation(d, {mul, 1, 1, 1});
  const OpId e = builder.addOp("e", 1);
  builder.addReservation(e, {alu, 0, 2, 1});
  builder.addEdge(a, b, 1);
  builder.addEdge(a, c, 0);
  builder.addEdge(b, d, 2);
  builder.addEdge(c, d, 1);
  builder.addEdge(c, d, 3);  // parallel edge with a larger delay
  builder.addEdge(d, e, 3);
  builder.addEdge(c, e, 0);
  builder.addEdge(e, a, 1, 1);  // loop-carried
  builder.addEdge(d, d, 1, 2);  // self-loop, loop-carried
  const double mems[] = {2.0, 1.0, 3.0, 1.5, 0.5};
  const double weights[] = {1.0, 4.0, 2.0, 0.0, 3.0};
  for (OpId op = 0; op < 5; ++op) {
    builder.setMem(op, mems[op]);
    builder.setWeight(op, weights[op]);
  }
  const EdgeId firstComm = 0;
  builder.setEdgeComm(firstComm, 1.0);
  builder.setEdgeComm(5, 2.5);
  return gaus::test::makeInstance(std::move(builder), std::move(machine));
}

// The instance of a generated graph; throws when the options are refused.
inline Instance generatedInstance(const RandomGraphOptions& options) {
  auto generated = generateRandomGraph(options);
  if (!generated) throw std::runtime_error(generated.error());
  return toInstance(std::move(generated).value());
}

// Thirty ops of three types (one two-cycle), average out-degree 2, five loop-carried edges,
// weights and communication on some: the Monte-Carlo graph.
inline Instance thirtyOpGraph() {
  RandomGraphOptions options;
  options.ops = 30;
  options.averageDegree = 2.0;
  options.maxIdSpan = 8;
  options.opTypes = {{"ALU", 1, 2, 1, 2, 2.0}, {"MUL", 2, 3, 2, 1, 1.0}, {"MEM", 1, 1, 1, 1, 1.0}};
  options.backEdges = 5;
  options.maxDistance = 2;
  options.weightedFraction = 0.6;
  options.minWeight = 1.0;
  options.maxWeight = 4.0;
  options.commFraction = 0.5;
  options.seed = 11;
  Instance instance = generatedInstance(options);
  instance.name = "random30";
  return instance;
}

// Every term of the model on one instance, horizon and II.
struct AllTerms {
  PrecedenceTerm precedence;
  HorizonTerm horizon;
  ResourceTerm resources;
  LiveMemoryTerm memory;
  StageWeightTerm stageWeight;
  CommunicationTerm communication;

  AllTerms(const Instance& instance, const WindowGeometry& geometry, std::optional<std::int64_t> ii,
           const TensorSettings& settings)
      : precedence(*instance.graph, ii, settings),
        horizon(*instance.graph, geometry, settings),
        resources(*instance.graph, *instance.machine, geometry, ii, settings),
        memory(*instance.graph, geometry, ii, settings),
        stageWeight(*instance.graph, geometry, settings),
        communication(*instance.graph, settings) {}
};

}  // namespace gaus::differentiable::fixture
