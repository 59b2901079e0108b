// The steps of buildPipeline (pipeline.cpp), one file each. Internal to the codegen module.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gaus/codegen/pipeline.hpp>
#include <gaus/core/expected.hpp>

namespace gaus::codegen::detail {

// Fills roles, roleOf, roleSource and roleRule: the schedule's warp sets (overlapping sets
// merged into one role), or the default assignment for a schedule without warps
// (role_assignment.cpp).
Status assignRoles(Pipeline& pipeline);

// How many iterations of the value of `op` are in flight, and why (rings.cpp).
struct ValueDepth {
  Cycle lifetime = 0;
  std::int32_t liveBuffers = 1;
  std::int32_t depth = 1;
  std::string note;  // set when depth > liveBuffers
};
ValueDepth valueDepth(const Pipeline& pipeline, OpId op);

// Fills rings, ringOf and valueCopies: one ring per value read by another role or held in a
// memory with a footprint, with its depth; copies for the values kept in registers (rings.cpp).
void buildRings(Pipeline& pipeline);

// Fills layout: every ring's placement in shared and tensor memory and the channels'
// mbarriers; sets each ring's txBytes and asyncFill from it (memory_layout.cpp). Fails on a
// footprint in a memory the kernel does not have.
Status layOutMemory(Pipeline& pipeline);
// Fails, with the figures and the largest rings, when a memory of the layout is over capacity.
Status layoutFitsMemories(const Pipeline& pipeline);

// Fills programs: each role's steady-state blocks with their waits and releases, its drains
// and its producer tail (role_programs.cpp).
void buildRolePrograms(Pipeline& pipeline);

// Fills the registers of each role and the split (setmaxnreg); fails when the split
// over-subscribes the register file (register_split.cpp).
Status splitRegisters(Pipeline& pipeline);

// The order in which one role issues op instances: start cycle, then iteration, then
// topological position. Shift-invariant: comparing instances of fills j and j - d reduces to
// comparing these keys with cycle = start + (iteration offset) * II.
struct IssueKey {
  Cycle cycle = 0;
  std::int64_t iteration = 0;
  std::int32_t position = 0;
  friend auto operator<=>(const IssueKey&, const IssueKey&) = default;
};

}  // namespace gaus::codegen::detail
