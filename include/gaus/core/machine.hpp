// The target machine: functional units with capacities, memories with capacities, and the warp
// (warp group) layout used by warp specialization. Machines are read from YAML
// (configs/machines/*.yaml, see docs/formats.md) or built by the graph readers from the resource
// description a format carries.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/core/types.hpp>

namespace gaus {

struct Resource {
  std::string name;
  std::optional<std::int32_t> capacity;  // unset: unlimited

  bool limited() const { return capacity.has_value(); }
  friend bool operator==(const Resource&, const Resource&) = default;
};

struct Memory {
  std::string name;
  std::int64_t capacity = 0;
  friend bool operator==(const Memory&, const Memory&) = default;
};

class Machine {
 public:
  std::string name;
  std::vector<Resource> resources;
  std::vector<Memory> memories;
  std::int32_t warps = 1;                           // warps (warp groups) available to a kernel
  std::optional<std::int32_t> registerLimit;        // per warp; unset: unchecked
  std::optional<std::int32_t> variableLatencyWarp;  // W_vl; unset: no isolation required
  // Ops one warp executes per cycle: a warp runs one instruction stream, so the ops on it (on
  // each warp of their warp set) share its issue slots at every cycle they execute (their
  // reservation's length, at least 1), modulo II. Unset:
  // unchecked, as in Twill's paper, where the ops of a warp overlap freely unless an edge or
  // blocking synchronization orders them. Machine file key warp_issue_width; method twill's
  // option warp_issue sets 1 where the file names none (docs/exact.md "Why not five").
  std::optional<std::int32_t> warpIssueWidth;
  // 32-bit registers of the SM that the warps share (65,536 on Hopper and Blackwell); code
  // generation checks the per-role register split (setmaxnreg) against it. Unset: unknown.
  std::optional<std::int64_t> registerFile;
  // Threads of one warp of the schedule: 128 (a warp group, as the Hopper and Blackwell machines
  // of configs/machines count) or 32 (a hardware warp, as Triton's min_warps count). Code
  // generation runs each warp on that many threads (docs/codegen.md "Warp roles").
  std::int32_t threadsPerWarp = 128;

  std::optional<ResourceId> findResource(std::string_view resourceName) const;
  std::optional<MemoryId> findMemory(std::string_view memoryName) const;
  ResourceId numResources() const { return static_cast<ResourceId>(resources.size()); }

  // Adds a resource, or returns the existing one of that name.
  ResourceId addResource(std::string_view resourceName, std::optional<std::int32_t> capacity);

  // Capacity as a number for hot loops: unlimited resources read as the largest int64.
  std::int64_t capacityOrMax(ResourceId r) const;

  friend bool operator==(const Machine&, const Machine&) = default;
};

}  // namespace gaus
