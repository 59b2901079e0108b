// The register split of the warp roles (docs/codegen.md "Registers").
//
// A role's live registers per thread are the peak of the `regs` of the values live on its
// warps, folded modulo II (the verifier's rule; ScheduleMetrics::peakRegistersPerWarp). On a
// GPU each warp group asks for its share with setmaxnreg (PTX ISA: 24 to 256 registers per
// thread, multiples of 8), the way FA3 gives its producer 24 and each consumer 240:
// - every role needs max(24, its live registers rounded up to 8);
// - the roles' needs times their threads (128 per warp group) must fit the register file,
//   otherwise the split over-subscribes the SM and the generator refuses it;
// - what is left goes in equal parts per warp group to the roles that hold registers, up to
//   the machine's per-thread limit (register_limit), rounded down to 8. Roles without live
//   registers (TMA producers) keep 24.
// Without any `regs` in the graph nothing is known and no role gets a setmaxnreg.

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include <gaus/core/schedule.hpp>

#include "pipeline_steps.hpp"

namespace gaus::codegen::detail {

namespace {

constexpr std::int64_t kThreadsPerWarpGroup = 128;
constexpr std::int32_t kFewestRegisters = 24;  // setmaxnreg's range [24, 256], step 8
constexpr std::int32_t kMostRegisters = 256;
constexpr std::int32_t kRegisterStep = 8;

std::int64_t roundUp(std::int64_t value, std::int64_t step) {
  return (value + step - 1) / step * step;
}
std::int64_t roundDown(std::int64_t value, std::int64_t step) {
  return value / step * step;
}

// Peak live registers per role: the schedule with each op on its role's warp set.
std::vector<std::int64_t> liveRegistersPerRole(const Pipeline& pipeline) {
  const Graph& graph = *pipeline.graph;
  Schedule byRole = pipeline.schedule;
  byRole.warps.emplace(static_cast<std::size_t>(graph.numOps()));
  for (OpId op = 0; op < graph.numOps(); ++op) {
    (*byRole.warps)[op] = pipeline.roles[pipeline.roleOf[op]].warps;
  }
  Machine machine = *pipeline.machine;
  for (const PipelineRole& role : pipeline.roles) {
    machine.warps = std::max(machine.warps, 64 - std::countl_zero(role.warps));
  }
  const ScheduleMetrics metrics = computeMetrics(graph, machine, byRole);
  std::vector<std::int64_t> live;
  for (const PipelineRole& role : pipeline.roles) {
    std::int64_t peak = 0;
    for (int w = 0; w < kMaxWarps; ++w) {
      if ((role.warps >> w) & 1U) peak = std::max(peak, metrics.peakRegistersPerWarp[w]);
    }
    live.push_back(peak);
  }
  return live;
}

}  // namespace

Status splitRegisters(Pipeline& pipeline) {
  const Graph& graph = *pipeline.graph;
  const Machine& machine = *pipeline.machine;
  RegisterSplit& split = pipeline.registers;
  split.registerFile = machine.registerFile;
  bool known = false;
  for (OpId op = 0; op < graph.numOps() && !known; ++op) known = graph.regs(op) > 0;
  if (!known) {
    split.text = "registers per role unknown (no op has regs): no setmaxnreg";
    return Done{};
  }
  const std::vector<std::int64_t> live = liveRegistersPerRole(pipeline);
  std::int64_t needed = 0;  // registers per thread slot of a warp group, summed
  std::int64_t holdingGroups = 0;
  std::int64_t groups = 0;
  std::string needs;
  for (std::size_t r = 0; r < pipeline.roles.size(); ++r) {
    PipelineRole& role = pipeline.roles[r];
    role.liveRegisters = live[r];
    const std::int64_t need =
        std::max<std::int64_t>(kFewestRegisters, roundUp(live[r], kRegisterStep));
    if (need > kMostRegisters) {
      return Error{fmt::format(
          "role {} holds {} live registers per thread, more than setmaxnreg can give a warp "
          "group ({})",
          role.name, live[r], kMostRegisters)};
    }
    role.maxRegisters = static_cast<std::int32_t>(need);
    needed += need * role.warpGroups();
    groups += role.warpGroups();
    if (live[r] > 0) holdingGroups += role.warpGroups();
    needs += fmt::format("{}{} {} x {}", needs.empty() ? "" : " + ", role.name, need,
                         kThreadsPerWarpGroup * role.warpGroups());
  }
  split.total = needed * kThreadsPerWarpGroup;
  if (!split.registerFile) {
    split.text = fmt::format(
        "{} = {} registers; the machine gives no register file, so the split is not checked", needs,
        split.total);
    return Done{};
  }
  const std::int64_t file = *split.registerFile;
  if (split.total > file) {
    return Error{fmt::format(
        "the register split over-subscribes the SM: the roles need {} = {} registers, the "
        "register file of machine {} has {}",
        needs, split.total, machine.name, file)};
  }
  split.launchRegisters = static_cast<std::int32_t>(std::min<std::int64_t>(
      kMostRegisters, roundDown(file / (kThreadsPerWarpGroup * groups), kRegisterStep)));
  if (holdingGroups > 0) {
    const std::int64_t perThreadSlot = file / kThreadsPerWarpGroup;
    const std::int64_t extra = roundDown((perThreadSlot - needed) / holdingGroups, kRegisterStep);
    const std::int64_t limit = std::min<std::int64_t>(
        kMostRegisters, roundDown(machine.registerLimit.value_or(kMostRegisters), kRegisterStep));
    needed = 0;
    for (PipelineRole& role : pipeline.roles) {
      if (*role.liveRegisters > 0) {
        role.maxRegisters = static_cast<std::int32_t>(std::max<std::int64_t>(
            *role.maxRegisters, std::min(limit, *role.maxRegisters + extra)));
      }
      needed += static_cast<std::int64_t>(*role.maxRegisters) * role.warpGroups();
    }
    split.total = needed * kThreadsPerWarpGroup;
  }
  std::string given;
  for (const PipelineRole& role : pipeline.roles) {
    given += fmt::format("{}{} {}", given.empty() ? "" : ", ", role.name, *role.maxRegisters);
  }
  split.text = fmt::format(
      "setmaxnreg per thread: {} (from {} registers at launch); {} of {} registers of the SM",
      given, split.launchRegisters, split.total, file);
  return Done{};
}

}  // namespace gaus::codegen::detail
