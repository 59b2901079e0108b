// Small hand-made graphs used by several test suites, each with its expected figures.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

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

// The instance with every latency, reservation length and edge delay multiplied by `factor`:
// costs large enough for the exact engine to normalize.
inline Instance scaledCosts(const Instance& instance, std::int32_t factor) {
  const Graph& graph = *instance.graph;
  GraphBuilder builder(graph.name() + "_scaled");
  for (OpId op = 0; op < graph.numOps(); ++op) {
    OpAttributes attributes = graph.opAttributes(op);
    attributes.latency *= factor;
    for (auto& block : attributes.reservation) block.length *= factor;
    builder.addOp(attributes);
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) {
    EdgeAttributes attributes = graph.edgeAttributes(e);
    attributes.delay = graph.edgeDelay(e) * factor;
    builder.addEdge(attributes);
  }
  return makeInstance(std::move(builder), *instance.machine);
}

// The shape of the cross-method check's seed 3884 on `machine` (which brings the memory): x ->
// cx with delay 0 and y -> cy with delay 2, one unit of memory 0 for x's and y's values. At II 1
// x's value, read as it is made, holds 1 buffer and y's, live 2 cycles, 2: the rings need 3
// while the footprints live at one residue are only 2.
inline Instance ringsOfSeed3884(Machine machine) {
  GraphBuilder builder("rings");
  const OpId x = builder.addOp("x", 1);
  const OpId cx = builder.addOp("cx", 1);
  const OpId y = builder.addOp("y", 1);
  const OpId cy = builder.addOp("cy", 1);
  builder.addFootprint(x, {0, 1});
  builder.addFootprint(y, {0, 1});
  builder.addEdge(x, cx, 0, 0);
  builder.addEdge(y, cy, 2, 0);
  return makeInstance(std::move(builder), std::move(machine));
}

// An input beside a chain: x -> z and y1 -> y2 -> y3 -> z, latency 1, mem 1 (x's `xMem`), no
// resources. At D = 4 (the critical path) only x can move (ASAP 0, ALAP 2); ASAP keeps x's value
// live over cycles 0-2 beside one chain value per cycle, x at 2 only over cycle 2.
inline Graph inputBesideChain(double xMem) {
  GraphBuilder builder("input");
  const OpId x = builder.addOp("x", 1);
  const OpId y1 = builder.addOp("y1", 1);
  const OpId y2 = builder.addOp("y2", 1);
  const OpId y3 = builder.addOp("y3", 1);
  const OpId z = builder.addOp("z", 1);
  for (const OpId op : {y1, y2, y3, z}) builder.setMem(op, 1.0);
  builder.setMem(x, xMem);
  builder.addEdge(x, z);
  builder.addEdge(y1, y2);
  builder.addEdge(y2, y3);
  builder.addEdge(y3, z);
  auto graph = std::move(builder).build();
  if (!graph) throw std::runtime_error(graph.error());
  return std::move(graph).value();
}

// Three 200-register values a, b and c, each read a cycle after it is made by a consumer of its
// own (ra, rb, rc, no registers), on 4 warps of 128 threads (each a warp group), at most 255
// registers per thread (register_limit) and a register file of 65,536: 512 per thread of a warp
// group (core register_file.hpp). No units, so MII = 1.
// - II 1: every value is live at residue 0, and two on one warp hold 400 > 255, so a, b and c
//   take three warps (L 2: producers at 0, consumers at 1): 3 x 200 x 128 = 76,800 registers,
//   more than the file. The free optimum exceeds the file, and no schedule at II 1 fits it.
// - II 2 within the file: a warp holds at most one value per residue, so three values need two
//   warps and two residues, one warp holding two values at different residues: a at 0 and b
//   at 1 (rb at 2, so L 3), c on a second warp: 2 x 200 x 128 = 51,200. At L 2 every producer
//   starts at 0 and all three values share residue 0, so L 3 is the least.
inline Instance registerFileLoop() {
  Machine machine;
  machine.name = "register_file";
  machine.warps = 4;
  machine.threadsPerWarp = 128;
  machine.registerLimit = 255;
  machine.registerFile = 65536;
  GraphBuilder builder("register_file_loop");
  for (const char* name : {"a", "b", "c"}) {
    const OpId value = builder.addOp(name, 1);
    builder.setRegs(value, 200);
    const OpId reader = builder.addOp(std::string("r") + name, 1);
    builder.addEdge(value, reader, 1, 0);
  }
  return makeInstance(std::move(builder), std::move(machine));
}

}  // namespace gaus::test
