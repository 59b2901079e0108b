// Helpers shared by the heuristic tests.
#pragma once

#include <algorithm>
#include <memory>

#include <catch2/catch.hpp>

#include <gaus/core/problem.hpp>
#include <gaus/core/random_graph.hpp>
#include <gaus/core/schedule.hpp>

#include "toy_graphs.hpp"

namespace gaus::test {

inline Problem problemOf(const Graph& graph, const Machine& machine, ProblemKind kind) {
  Problem problem;
  problem.graph = std::make_shared<const Graph>(graph);
  problem.machine = std::make_shared<const Machine>(machine);
  problem.kind = kind;
  return problem;
}

// A generated graph as a problem; the generator's options are valid in every test that uses it.
inline Problem randomProblem(const RandomGraphOptions& options, ProblemKind kind) {
  auto instance = generateRandomGraph(options);
  REQUIRE(instance.ok());
  return problemOf(instance->graph, instance->machine, kind);
}

// One ALU and one MUL, each with a single unit.
inline Machine aluMulMachine() {
  Machine machine;
  machine.name = "alu_mul";
  machine.addResource("ALU", 1);
  machine.addResource("MUL", 1);
  return machine;
}

inline Cycle latencyOf(const Graph& graph, const Schedule& schedule) {
  return scheduleLatency(graph, schedule.start);
}

// One op x on resource NONE of capacity 0, with a self-edge of distance 1: no schedule exists at
// any II. Problem::check reports it as "op x needs 1 unit(s) of resource NONE, whose capacity
// is 0".
inline Instance zeroCapacityLoop() {
  Machine machine;
  machine.name = "broken";
  const ResourceId none = machine.addResource("NONE", 0);
  GraphBuilder builder("zero");
  const OpId x = builder.addOp("x", 1);
  builder.addReservation(x, {none, 0, 1, 1});
  builder.addEdge(x, x, 1, 1);
  return makeInstance(std::move(builder), std::move(machine));
}

}  // namespace gaus::test
