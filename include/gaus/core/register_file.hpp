// The SM's register file as a warp-specialized loop takes it (docs/exact.md, "The register
// file"): the one rule the verifier checks for modulo-warp schedules, Twill's SMT model encodes
// (family register-file) and code generation's register split stays within.
//
// Registers are given per warp group of 128 threads: setmaxnreg (PTX ISA: 24 to 256 per
// thread, multiples of 8) acts on a whole warp group. The warps of a schedule fill the SM's
// warp groups in order, 128 / threads_per_warp of them to a group (four warps of 32 threads,
// one warp of 128), and code generation keeps that grouping. A warp group holding an op needs
// the most registers per thread that the values of the ops on any of its warps hold live at
// once (modulo II), rounded up to 8, at least 24 and at most 256; the needs times the threads
// of a group must fit the register file.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus {

// setmaxnreg's range and step (PTX ISA), per thread.
inline constexpr std::int32_t kFewestGroupRegisters = 24;
inline constexpr std::int32_t kMostGroupRegisters = 256;
inline constexpr std::int32_t kGroupRegisterStep = 8;
inline constexpr std::int32_t kThreadsPerRegisterGroup = 128;

// Schedule warps per warp group: 128 / threads_per_warp, at least 1.
std::int32_t warpsPerRegisterGroup(const Machine& machine);
// Threads of one such group: warpsPerRegisterGroup x threads_per_warp.
std::int64_t threadsPerRegisterGroup(const Machine& machine);
// max(24, registers rounded up to 8): what setmaxnreg gives a group whose peak is `registers`.
std::int64_t groupRegisterNeed(std::int64_t registers);

struct RegisterFileUse {
  std::int32_t warpsPerGroup = 1;
  std::int64_t threadsPerGroup = kThreadsPerRegisterGroup;
  // Per warp group: the peak per thread of the registers of the values of the ops on its warps.
  std::vector<std::int64_t> peak;
  // Per warp group: groupRegisterNeed(peak), or 0 when no op is on its warps.
  std::vector<std::int64_t> need;

  // The registers of the SM the groups take: sum of need x threadsPerGroup.
  std::int64_t total() const;
  // Whether setmaxnreg can give every group its peak (at most 256) and the total fits
  // `registerFile`: the rule itself, which the verifier reports piece by piece.
  bool fitsIn(std::int64_t registerFile) const;
};

// The register file's use of a schedule with warps, when the rule applies: the machine names
// its register file and some op holds registers (without `regs` nothing is known, and code
// generation sets no setmaxnreg). Nothing otherwise.
std::optional<RegisterFileUse> registerFileUse(const Graph& graph, const Machine& machine,
                                               const Schedule& schedule);

}  // namespace gaus
