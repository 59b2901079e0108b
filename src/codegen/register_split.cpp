// The register split of the warp roles (docs/codegen.md "Registers").
//
// A role's live registers per thread are the peak of the `regs` of the values live on its
// warps, folded modulo II (the verifier's rule; ScheduleMetrics::peakRegistersPerWarp). On a
// GPU each warp group asks for its share with setmaxnreg (PTX ISA: 24 to 256 registers per
// thread, multiples of 8, executed by all warps of the warp group alike), the way FA3 gives its
// producer 24 and each consumer 240 and FA4 gives its softmax warp groups 192, its correction
// warp group 80 and the warp group of its load and MMA warps 48:
// - every role needs max(24, its live registers rounded up to 8); a warp group needs the most
//   any role on its warps needs (roles sharing a warp group share one count), an idle one 24;
// - the warp groups' needs times 128 threads must fit the register file, otherwise the split
//   over-subscribes the SM and the generator refuses it. A schedule with warps that the verifier
//   accepts fits: its register-file rule (core register_file.hpp) counts, per warp group of the
//   schedule, the values of every op on its warps, at least what any role there holds, and
//   placeRoles keeps the schedule's warp groups apart;
// - what is left goes in equal parts to the warp groups that hold registers, up to the
//   machine's per-thread limit (register_limit), rounded down to 8. Warp groups without live
//   registers (TMA producers) keep 24.
// Without any `regs` in the graph nothing is known and no warp group gets a setmaxnreg.

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include <gaus/core/register_file.hpp>
#include <gaus/core/schedule.hpp>

#include "pipeline_steps.hpp"

namespace gaus::codegen::detail {

namespace {

constexpr std::int64_t kThreadsPerWarpGroup = kWarpsPerWarpGroup * kThreadsPerHardwareWarp;
// setmaxnreg's range [24, 256], step 8 (core register_file.hpp, whose rule the verifier checks).
constexpr std::int32_t kFewestRegisters = kFewestGroupRegisters;
constexpr std::int32_t kMostRegisters = kMostGroupRegisters;
constexpr std::int32_t kRegisterStep = kGroupRegisterStep;

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

// "wg1 240 (consumer_wg1)": each warp group's count and the roles on it.
std::string describeWarpGroups(const Pipeline& pipeline, const std::vector<std::int64_t>& counts) {
  std::string text;
  for (std::size_t g = 0; g < counts.size(); ++g) {
    std::string roles;
    for (const PipelineRole& role : pipeline.roles) {
      const auto group = static_cast<std::int32_t>(g);
      if (role.firstWarpGroup() <= group && group <= role.lastWarpGroup()) {
        roles += (roles.empty() ? "" : ", ") + role.name;
      }
    }
    text += fmt::format("{}wg{} {} ({})", text.empty() ? "" : ", ", g, counts[g],
                        roles.empty() ? "idle" : roles);
  }
  return text;
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
  const auto groups = static_cast<std::size_t>(pipeline.blockWarps / kWarpsPerWarpGroup);
  std::vector<std::int64_t> need(groups, kFewestRegisters);
  std::vector<bool> holds(groups, false);
  for (std::size_t r = 0; r < pipeline.roles.size(); ++r) {
    PipelineRole& role = pipeline.roles[r];
    role.liveRegisters = live[r];
    const std::int64_t roleNeed =
        std::max<std::int64_t>(kFewestRegisters, roundUp(live[r], kRegisterStep));
    if (roleNeed > kMostRegisters) {
      return Error{fmt::format(
          "role {} holds {} live registers per thread, more than setmaxnreg can give a warp "
          "group ({})",
          role.name, live[r], kMostRegisters)};
    }
    for (std::int32_t g = role.firstWarpGroup(); g <= role.lastWarpGroup(); ++g) {
      need[static_cast<std::size_t>(g)] = std::max(need[static_cast<std::size_t>(g)], roleNeed);
      if (live[r] > 0) holds[static_cast<std::size_t>(g)] = true;
    }
  }
  std::int64_t needed = 0;  // registers per thread slot of a warp group, summed
  for (std::int64_t n : need) needed += n;
  split.total = needed * kThreadsPerWarpGroup;
  std::vector<std::int64_t> given = need;
  if (split.registerFile) {
    const std::int64_t file = *split.registerFile;
    if (split.total > file) {
      std::string sum;
      for (std::int64_t n : need) sum += fmt::format("{}{}", sum.empty() ? "" : " + ", n);
      return Error{fmt::format(
          "the register split over-subscribes the SM: the warp groups need {} = ({}) x {} = {} "
          "registers, the register file of machine {} has {}; each needs the most any role on "
          "its warps holds, at least 24 (setmaxnreg)",
          describeWarpGroups(pipeline, need), sum, kThreadsPerWarpGroup, split.total, machine.name,
          file)};
    }
    split.launchRegisters = static_cast<std::int32_t>(std::min<std::int64_t>(
        kMostRegisters, roundDown(file / (kThreadsPerWarpGroup * static_cast<std::int64_t>(groups)),
                                  kRegisterStep)));
    const auto holding = static_cast<std::int64_t>(std::count(holds.begin(), holds.end(), true));
    if (holding > 0) {
      const std::int64_t perThreadSlot = file / kThreadsPerWarpGroup;
      const std::int64_t extra = roundDown((perThreadSlot - needed) / holding, kRegisterStep);
      const std::int64_t limit = std::min<std::int64_t>(
          kMostRegisters, roundDown(machine.registerLimit.value_or(kMostRegisters), kRegisterStep));
      for (std::size_t g = 0; g < groups; ++g) {
        if (holds[g]) given[g] = std::max(need[g], std::min(limit, need[g] + extra));
      }
    }
    split.total = 0;
    for (std::int64_t n : given) split.total += n * kThreadsPerWarpGroup;
  }
  split.warpGroupRegisters.assign(given.begin(), given.end());
  for (PipelineRole& role : pipeline.roles) {
    role.maxRegisters = split.warpGroupRegisters[static_cast<std::size_t>(role.firstWarpGroup())];
  }
  if (!split.registerFile) {
    split.text = fmt::format(
        "setmaxnreg per warp group: {} = {} registers; the machine gives no register file, so "
        "the split is not checked",
        describeWarpGroups(pipeline, given), split.total);
    return Done{};
  }
  split.text = fmt::format(
      "setmaxnreg per warp group: {} (from {} registers at launch); {} of {} registers of the "
      "SM",
      describeWarpGroups(pipeline, given), split.launchRegisters, split.total, *split.registerFile);
  return Done{};
}

}  // namespace gaus::codegen::detail
