// Small hand-made graphs used by several test suites, each with its expected figures.
#pragma once

#include <memory>

#include <gaus/core/graph.hpp>
#include <gaus/core/instance.hpp>
#include <gaus/core/machine.hpp>

namespace gaus::test {

inline Instance makeInstance(GraphBuilder&& builder, Machine machine) {
  auto graph = std::move(builder).build();
  if (!graph) throw std::runtime_error(graph.error());
  Instance instance;
  instance.name = graph->name();
  instance.graph = std::make_shared<const Graph>(std::move(graph).value());
  instance.machine = std::make_shared<const Machine>(std::move(machine));
  return instance;
}

// The toy Flash-Attention loop of TWILL.md (paper Fig. 1): S = QK^T on the tensor core, P =
// exp(S) on the exp unit, O += PV on the tensor core; O carries to the next iteration.
// Expected: ResMII = 2 (two 1-cycle TC ops, one TC), RecMII = 1 (O -> O: delay 1, distance 1),
// I* = 2, min L = 4 with S:0, P:2, O:3.
inline Instance toyFlashAttention() {
  Machine machine;
  machine.name = "toy";
  const ResourceId tc = machine.addResource("TC", 1);
  const ResourceId exp = machine.addResource("EXP", 1);
  GraphBuilder builder("toy_fa");
  const OpId s = builder.addOp("S", 1);
  builder.addReservation(s, {tc, 0, 1, 1});
  const OpId p = builder.addOp("P", 1);
  builder.addReservation(p, {exp, 0, 1, 1});
  const OpId o = builder.addOp("O", 1);
  builder.addReservation(o, {tc, 0, 1, 1});
  builder.addEdge(s, p, 1, 0);
  builder.addEdge(p, o, 1, 0);
  builder.addEdge(o, o, 1, 1);
  return makeInstance(std::move(builder), std::move(machine));
}

// A chain a -> b -> c -> d with latencies 1, 2, 3, 1 on one unlimited ALU: critical path 7,
// ASAP {0, 1, 3, 6}; at horizon 9, ALAP {2, 3, 5, 8}.
inline Instance chainOfFour() {
  Machine machine;
  machine.name = "unlimited";
  const ResourceId alu = machine.addResource("ALU", std::nullopt);
  GraphBuilder builder("chain4");
  const int latencies[] = {1, 2, 3, 1};
  const char* names[] = {"a", "b", "c", "d"};
  for (int i = 0; i < 4; ++i) {
    const OpId op = builder.addOp(names[i], latencies[i]);
    builder.addReservation(op, {alu, 0, 1, 1});
  }
  for (OpId i = 0; i < 3; ++i) builder.addEdge(i, i + 1);
  return makeInstance(std::move(builder), std::move(machine));
}

}  // namespace gaus::test
