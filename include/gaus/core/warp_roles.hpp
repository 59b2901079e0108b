// What a warp-specialized modulo schedule asks of the machine: the roles (ops grouped by the warp
// set they run on) and the buffers each value with a memory footprint needs at the schedule's II
// (buffers x stages, the memory model of the exact engine and of generated code).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus {

// The ops that share one warp set, and what they do.
struct WarpRole {
  WarpSet warps = 0;
  std::vector<OpId> ops;
  std::string units;  // the units its ops use, "TMA", "TC", "EXP+ALU"; "-" for none
  bool variableLatency = false;
};

// Ops grouped by warp set, in order of each set's first op. Empty for a schedule without warps.
std::vector<WarpRole> warpRoles(const Graph& graph, const Machine& machine,
                                const Schedule& schedule);

// A value held in a memory kind, with its buffers x stages.
struct BufferUsage {
  OpId op = 0;
  MemoryId memory = 0;
  std::int64_t amount = 0;   // per buffer
  std::int32_t buffers = 0;  // ringBuffers: max(1, ceil(lifetime / II)) for a consumed value
  std::int64_t total() const { return amount * buffers; }
};

// The ring of buffers the value of `op` holds for the whole loop at the schedule's II: the value
// of one iteration lives from its op's start to its last consumer's start (liveInterval), so
// ceil(lifetime / II) iterations of it are alive at once, and a consumed value needs at least
// one (a streaming load read in the cycle it starts still needs a home for its tile); 0 for a
// value without consumers. The one rule for memory in a warp-specialized loop: the verifier's
// memory capacity of modulo-warp problems, the exact engine's Twill model and the rings of
// generated code all count these buffers.
std::int32_t ringBuffers(const Graph& graph, const Schedule& schedule, OpId op);

// Every value with a memory footprint and its ring (ringBuffers) per memory kind.
std::vector<BufferUsage> bufferUsage(const Graph& graph, const Schedule& schedule);

}  // namespace gaus
