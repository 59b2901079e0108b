#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <gaus/core/warp_roles.hpp>

namespace gaus {

std::vector<WarpRole> warpRoles(const Graph& graph, const Machine& machine,
                                const Schedule& schedule) {
  std::vector<WarpRole> roles;
  if (!schedule.warps) return roles;
  std::map<WarpSet, std::size_t> index;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    const WarpSet set = (*schedule.warps)[op];
    auto [it, added] = index.emplace(set, roles.size());
    if (added) {
      roles.push_back({});
      roles.back().warps = set;
    }
    WarpRole& role = roles[it->second];
    role.ops.push_back(op);
    role.variableLatency = role.variableLatency || graph.variableLatency(op);
  }
  for (WarpRole& role : roles) {
    std::set<ResourceId> used;
    for (OpId op : role.ops) {
      for (const auto& block : graph.reservation(op)) used.insert(block.resource);
    }
    std::vector<std::string> names;
    for (ResourceId r : used) names.push_back(machine.resources[r].name);
    role.units = names.empty() ? std::string("-") : fmt::format("{}", fmt::join(names, "+"));
  }
  return roles;
}

std::int32_t ringBuffers(const Graph& graph, const Schedule& schedule, OpId op) {
  if (graph.outEdges(op).empty()) return 0;
  const std::int64_t ii = schedule.ii.value_or(1);
  const LiveInterval live = liveInterval(graph, schedule, op);
  const std::int64_t lifetime = std::max<Cycle>(0, live.end - live.begin);
  return static_cast<std::int32_t>(std::max<std::int64_t>(1, (lifetime + ii - 1) / ii));
}

std::vector<BufferUsage> bufferUsage(const Graph& graph, const Schedule& schedule) {
  std::vector<BufferUsage> usage;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (graph.footprints(op).empty()) continue;
    const std::int32_t buffers = ringBuffers(graph, schedule, op);
    for (const auto& print : graph.footprints(op)) {
      BufferUsage buffer;
      buffer.op = op;
      buffer.memory = print.memory;
      buffer.amount = print.amount;
      buffer.buffers = buffers;
      usage.push_back(buffer);
    }
  }
  return usage;
}

}  // namespace gaus
