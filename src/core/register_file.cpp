// The register file rule (register_file.hpp).

#include <algorithm>

#include <gaus/core/register_file.hpp>

#include "usage_profile.hpp"

namespace gaus {

std::int32_t warpsPerRegisterGroup(const Machine& machine) {
  return std::max(1, kThreadsPerRegisterGroup / std::max(1, machine.threadsPerWarp));
}

std::int64_t threadsPerRegisterGroup(const Machine& machine) {
  return static_cast<std::int64_t>(warpsPerRegisterGroup(machine)) * machine.threadsPerWarp;
}

std::int64_t groupRegisterNeed(std::int64_t registers) {
  const std::int64_t rounded =
      (registers + kGroupRegisterStep - 1) / kGroupRegisterStep * kGroupRegisterStep;
  return std::max<std::int64_t>(kFewestGroupRegisters, rounded);
}

std::int64_t RegisterFileUse::total() const {
  std::int64_t sum = 0;
  for (std::int64_t n : need) sum += n * threadsPerGroup;
  return sum;
}

bool RegisterFileUse::fitsIn(std::int64_t registerFile) const {
  const bool eachFits = std::all_of(peak.begin(), peak.end(),
                                    [](std::int64_t p) { return p <= kMostGroupRegisters; });
  return eachFits && total() <= registerFile;
}

std::optional<RegisterFileUse> registerFileUse(const Graph& graph, const Machine& machine,
                                               const Schedule& schedule) {
  if (!machine.registerFile || !schedule.warps) return std::nullopt;
  bool holds = false;
  for (OpId op = 0; op < graph.numOps() && !holds; ++op) holds = graph.regs(op) > 0;
  if (!holds) return std::nullopt;
  RegisterFileUse use;
  use.warpsPerGroup = warpsPerRegisterGroup(machine);
  use.threadsPerGroup = threadsPerRegisterGroup(machine);
  const std::int32_t groups = (machine.warps + use.warpsPerGroup - 1) / use.warpsPerGroup;
  std::optional<std::int64_t> ii;
  if (schedule.ii) ii = *schedule.ii;
  std::vector<detail::UsageProfile<std::int64_t>> profiles(static_cast<std::size_t>(groups),
                                                           detail::UsageProfile<std::int64_t>(ii));
  std::vector<bool> used(static_cast<std::size_t>(groups), false);
  const auto& warps = *schedule.warps;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    const LiveInterval interval = liveInterval(graph, schedule, op);
    for (std::int32_t g = 0; g < groups; ++g) {
      const WarpSet group = warpGroup(g * use.warpsPerGroup, use.warpsPerGroup);
      if ((warps[op] & group) == 0) continue;
      used[static_cast<std::size_t>(g)] = true;
      profiles[static_cast<std::size_t>(g)].add(interval.begin, interval.end - interval.begin,
                                                graph.regs(op));
    }
  }
  for (std::int32_t g = 0; g < groups; ++g) {
    const std::int64_t peak = profiles[static_cast<std::size_t>(g)].peak();
    use.peak.push_back(peak);
    use.need.push_back(used[static_cast<std::size_t>(g)] ? groupRegisterNeed(peak) : 0);
  }
  return use;
}

}  // namespace gaus
