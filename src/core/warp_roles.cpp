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

std::vector<BufferUsage> bufferUsage(const Graph& graph, const Schedule& schedule) {
  std::vector<BufferUsage> usage;
  const std::int64_t ii = schedule.ii.value_or(1);
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (graph.footprints(op).empty()) continue;
    const LiveInterval live = liveInterval(graph, schedule, op);
    const std::int64_t length = std::max<Cycle>(0, live.end - live.begin);
    for (const auto& print : graph.footprints(op)) {
      BufferUsage buffer;
      buffer.op = op;
      buffer.memory = print.memory;
      buffer.amount = print.amount;
      // The ring the memory model allocates: at least one buffer when the value is consumed.
      const std::int64_t least = graph.outEdges(op).empty() ? 0 : 1;
      buffer.buffers = static_cast<std::int32_t>(std::max(least, (length + ii - 1) / ii));
      usage.push_back(buffer);
    }
  }
  return usage;
}

}  // namespace gaus
