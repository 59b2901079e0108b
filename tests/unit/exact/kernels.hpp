// The built-in kernels of configs/kernels/ and machines of configs/machines/, constructed in C++
// until the YAML reader (io module) is available to the tests. The numbers and their derivation
// are in the YAML files; this file must mirror them.
#pragma once

#include <map>
#include <string>

#include <gaus/core/graph.hpp>
#include <gaus/core/instance.hpp>
#include <gaus/core/machine.hpp>

#include "toy_graphs.hpp"

namespace gaus::test {

struct KernelOp {
  KernelOp(std::string opName, std::string opUnit, std::int32_t opCycles, std::int32_t opLatency,
           std::int32_t opRegs = 0, std::map<std::string, std::int64_t> opFootprints = {},
           bool opVariableLatency = false, bool opStreaming = false, std::int32_t opSpillCost = 0)
      : name(std::move(opName)),
        unit(std::move(opUnit)),
        cycles(opCycles),
        latency(opLatency),
        regs(opRegs),
        footprints(std::move(opFootprints)),
        variableLatency(opVariableLatency),
        streaming(opStreaming),
        spillCost(opSpillCost) {}
  std::string name;
  std::string unit;      // resource it reserves ("" for none)
  std::int32_t cycles;   // occupancy of the unit
  std::int32_t latency;  // default out-edge delay
  std::int32_t regs;
  std::map<std::string, std::int64_t> footprints;
  bool variableLatency;
  bool streaming;
  std::int32_t spillCost;
};

struct KernelEdge {
  KernelEdge(std::string edgeFrom, std::string edgeTo,
             std::optional<std::int32_t> edgeDelay = std::nullopt, std::int32_t edgeDistance = 0,
             bool edgeBlocking = false)
      : from(std::move(edgeFrom)),
        to(std::move(edgeTo)),
        delay(edgeDelay),
        distance(edgeDistance),
        blocking(edgeBlocking) {}
  std::string from, to;
  std::optional<std::int32_t> delay;
  std::int32_t distance;
  bool blocking;
};

inline Instance buildKernel(const std::string& name, const Machine& machine,
                            const std::vector<KernelOp>& ops,
                            const std::vector<KernelEdge>& edges) {
  GraphBuilder builder(name);
  std::map<std::string, OpId> index;
  for (const auto& op : ops) {
    const OpId id = builder.addOp(op.name, op.latency);
    if (!op.unit.empty()) {
      builder.addReservation(id, {*machine.findResource(op.unit), 0, op.cycles, 1});
    }
    builder.setRegs(id, op.regs);
    for (const auto& [memory, amount] : op.footprints) {
      builder.addFootprint(id, {*machine.findMemory(memory), amount});
    }
    builder.setVariableLatency(id, op.variableLatency);
    builder.setStreaming(id, op.streaming);
    builder.setSpillCost(id, op.spillCost);
    index[op.name] = id;
  }
  for (const auto& edge : edges) {
    const EdgeId id =
        builder.addEdge(index.at(edge.from), index.at(edge.to), edge.delay, edge.distance);
    builder.setEdgeBlocking(id, edge.blocking);
  }
  return makeInstance(std::move(builder), machine);
}

// configs/machines/hopper.yaml: one H100 SM in units of 128 cycles.
inline Machine hopperMachine() {
  Machine machine;
  machine.name = "hopper";
  machine.addResource("TC", 1);
  machine.addResource("EXP", 1);
  machine.addResource("ALU", 1);
  machine.addResource("TMA", 1);
  machine.memories.push_back({"smem", 232448});
  machine.warps = 4;
  machine.registerLimit = 240;
  machine.variableLatencyWarp = 0;
  return machine;
}

// configs/machines/blackwell.yaml: one B200 SM in units of 128 cycles.
inline Machine blackwellMachine() {
  Machine machine;
  machine.name = "blackwell";
  machine.addResource("TC", 1);
  machine.addResource("EXP", 1);
  machine.addResource("ALU", 1);
  machine.addResource("TMA", 1);
  machine.addResource("TMEM", 1);
  machine.memories.push_back({"smem", 232448});
  machine.memories.push_back({"tmem", 262144});
  machine.warps = 6;
  machine.registerLimit = 192;
  machine.variableLatencyWarp = 0;
  return machine;
}

// configs/kernels/gemm_hopper.yaml: a 128x128 output tile, K step 64.
inline Instance gemmHopper() {
  const std::vector<KernelOp> ops = {
      {"load_a", "TMA", 1, 4, 0, {{"smem", 16384}}, true, true},
      {"load_b", "TMA", 1, 4, 0, {{"smem", 16384}}, true, true},
      {"mma", "TC", 4, 4, 128},
  };
  const std::vector<KernelEdge> edges = {
      {"load_a", "mma"}, {"load_b", "mma"}, {"mma", "mma", 4, 1}};
  return buildKernel("gemm_hopper", hopperMachine(), ops, edges);
}

// configs/kernels/fa_fwd_hopper.yaml: FA3-style forward, two 64-row query sub-tiles.
inline Instance flashAttentionHopper() {
  std::vector<KernelOp> ops = {
      {"load_k", "TMA", 1, 4, 0, {{"smem", 32768}}, true, true},
      {"load_v", "TMA", 1, 4, 0, {{"smem", 32768}}, true, true},
  };
  std::vector<KernelEdge> edges;
  for (const std::string i : {"0", "1"}) {
    ops.push_back({"s" + i, "TC", 4, 4, 64, {}, false, false, 2});
    ops.push_back({"max" + i, "ALU", 1, 1, 1, {}, false, false, 1});
    ops.push_back({"exp" + i, "EXP", 4, 4, 32, {}, false, false, 1});
    ops.push_back({"sum" + i, "ALU", 1, 1, 1, {}, false, false, 1});
    ops.push_back({"rescale" + i, "ALU", 1, 1, 0, {}, false, false, 0});
    ops.push_back({"pv" + i, "TC", 4, 4, 64, {}, false, false, 2});
    const std::vector<KernelEdge> perTile = {
        {"load_k", "s" + i},
        {"load_v", "pv" + i},
        {"s" + i, "max" + i, std::nullopt, 0, true},
        {"s" + i, "exp" + i, std::nullopt, 0, true},
        {"max" + i, "exp" + i},
        {"max" + i, "rescale" + i},
        {"exp" + i, "sum" + i},
        {"exp" + i, "pv" + i},
        {"rescale" + i, "pv" + i},
        {"pv" + i, "rescale" + i, 4, 1, true},
        {"max" + i, "max" + i, 1, 1},
        {"sum" + i, "sum" + i, 1, 1},
    };
    edges.insert(edges.end(), perTile.begin(), perTile.end());
  }
  return buildKernel("fa_fwd_hopper", hopperMachine(), ops, edges);
}

// configs/kernels/fa_fwd_blackwell.yaml: FA4-style forward, two 128-row query sub-tiles, S, P
// and O in tensor memory.
inline Instance flashAttentionBlackwell() {
  std::vector<KernelOp> ops = {
      {"load_k", "TMA", 1, 4, 0, {{"smem", 32768}}, true, true},
      {"load_v", "TMA", 1, 4, 0, {{"smem", 32768}}, true, true},
  };
  std::vector<KernelEdge> edges;
  for (const std::string i : {"0", "1"}) {
    ops.push_back({"s" + i, "TC", 4, 4, 0, {{"tmem", 65536}}});
    ops.push_back({"lds" + i, "TMEM", 1, 1, 128, {}, false, false, 4});
    ops.push_back({"max" + i, "ALU", 1, 1, 1, {}, false, false, 1});
    ops.push_back({"exp" + i, "EXP", 8, 8, 64, {}, false, false, 2});
    ops.push_back({"sum" + i, "ALU", 1, 1, 1, {}, false, false, 1});
    ops.push_back({"stp" + i, "TMEM", 1, 1, 0});
    ops.push_back({"ldo" + i, "TMEM", 1, 1, 128, {}, false, false, 4});
    ops.push_back({"rescale" + i, "ALU", 1, 1, 128, {}, false, false, 4});
    ops.push_back({"sto" + i, "TMEM", 1, 1, 0});
    ops.push_back({"pv" + i, "TC", 4, 4, 0, {{"tmem", 65536}}});
    const std::vector<KernelEdge> perTile = {
        {"load_k", "s" + i, std::nullopt, 0, true},
        {"load_v", "pv" + i, std::nullopt, 0, true},
        {"s" + i, "lds" + i, 4, 0, true},
        {"lds" + i, "max" + i},
        {"lds" + i, "exp" + i},
        {"max" + i, "exp" + i},
        {"max" + i, "rescale" + i},
        {"exp" + i, "sum" + i},
        {"exp" + i, "stp" + i},
        {"stp" + i, "pv" + i, std::nullopt, 0, true},
        {"pv" + i, "ldo" + i, 4, 1, true},
        {"ldo" + i, "rescale" + i},
        {"rescale" + i, "sto" + i},
        {"sto" + i, "pv" + i, std::nullopt, 0, true},
        {"max" + i, "max" + i, 1, 1},
        {"sum" + i, "sum" + i, 1, 1},
    };
    edges.insert(edges.end(), perTile.begin(), perTile.end());
  }
  return buildKernel("fa_fwd_blackwell", blackwellMachine(), ops, edges);
}

}  // namespace gaus::test
