// Warp roles of a pipeline (docs/codegen.md "Warp roles").
// - With warps: a role per warp set of the schedule. Warp sets that share a warp (ops with
//   min_warps > 1 can overlap others) become one role, since one warp runs one program.
// - Without warps (ims, ilp, gaus): variable-latency and streaming ops on a role `producer`,
//   as the exact engine isolates them on the variable-latency warp; every other op on the role
//   of its unit kind, the resource it holds longest (ties: the first resource of the machine);
//   an op that reserves no unit joins the role of its first data predecessor (in topological
//   order), else of its first successor, else a role `other`. That is how warp-specialized
//   compilers split a loop when nothing else decides: a load role, an MMA role, a math role.

#include <algorithm>
#include <bit>
#include <limits>
#include <map>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include <gaus/core/register_file.hpp>
#include <gaus/core/warp_roles.hpp>

#include "identifiers.hpp"
#include "pipeline_steps.hpp"

namespace gaus::codegen::detail {

namespace {

bool producerOp(const Graph& graph, OpId op) {
  return graph.variableLatency(op) || graph.streaming(op);
}

// Warp sets sharing a warp, merged (union-find over the warps).
std::vector<WarpSet> mergedWarpSets(const std::vector<WarpSet>& sets) {
  std::vector<WarpSet> merged;
  for (WarpSet set : sets) {
    WarpSet joined = set;
    std::vector<WarpSet> kept;
    for (WarpSet other : merged) {
      if ((other & joined) != 0) {
        joined |= other;
      } else {
        kept.push_back(other);
      }
    }
    kept.push_back(joined);
    merged = std::move(kept);
  }
  std::sort(merged.begin(), merged.end(),
            [](WarpSet a, WarpSet b) { return std::countr_zero(a) < std::countr_zero(b); });
  return merged;
}

// "wg1" for schedule warp 1 of a machine whose warps are warp groups, "w1_2" for warps 1 and 2
// of 32 threads.
std::string warpSuffix(WarpSet warps, std::int32_t threadsPerWarp) {
  std::string text = threadsPerWarp == kThreadsPerHardwareWarp ? "w" : "wg";
  bool first = true;
  for (int w = 0; w < kMaxWarps; ++w) {
    if (((warps >> w) & 1U) == 0) continue;
    text += fmt::format("{}{}", first ? "" : "_", w);
    first = false;
  }
  return text;
}

Status rolesFromWarps(Pipeline& pipeline) {
  const Graph& graph = *pipeline.graph;
  const std::vector<WarpSet>& warps = *pipeline.schedule.warps;
  std::vector<WarpSet> distinct(warps.begin(), warps.end());
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const std::vector<WarpSet> sets = mergedWarpSets(distinct);
  pipeline.roles.assign(sets.size(), {});
  for (std::size_t r = 0; r < sets.size(); ++r) pipeline.roles[r].warps = sets[r];
  for (OpId op = 0; op < graph.numOps(); ++op) {
    for (std::size_t r = 0; r < sets.size(); ++r) {
      if ((sets[r] & warps[op]) != 0) pipeline.roleOf[op] = static_cast<std::int32_t>(r);
    }
  }
  pipeline.roleSource = RoleSource::kScheduleWarps;
  pipeline.roleRule = sets.size() == distinct.size()
                          ? "the schedule's warp sets, one role each"
                          : "the schedule's warp sets, those sharing a warp merged into one role";
  return Done{};
}

// The unit an op is bound to: the resource it holds for the most unit-cycles.
std::optional<ResourceId> mainUnit(const Graph& graph, OpId op) {
  std::map<ResourceId, std::int64_t> held;
  for (const auto& block : graph.reservation(op)) {
    held[block.resource] += static_cast<std::int64_t>(block.units) * block.length;
  }
  std::optional<ResourceId> best;
  for (const auto& [resource, amount] : held) {
    if (amount > 0 && (!best || amount > held[*best])) best = resource;
  }
  return best;
}

Status defaultRoles(Pipeline& pipeline) {
  const Graph& graph = *pipeline.graph;
  const Machine& machine = *pipeline.machine;
  // Role keys: -1 the producer, a resource id, or kOther; roles come in that order.
  constexpr std::int64_t kProducer = -1;
  constexpr std::int64_t kUnassigned = std::numeric_limits<std::int64_t>::min();
  const std::int64_t kOther = machine.numResources();
  std::vector<std::int64_t> key(static_cast<std::size_t>(graph.numOps()), kUnassigned);
  std::vector<OpId> order(static_cast<std::size_t>(graph.numOps()));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](OpId a, OpId b) {
    return pipeline.topologicalPosition[a] < pipeline.topologicalPosition[b];
  });
  for (OpId op : order) {
    if (producerOp(graph, op)) {
      key[op] = kProducer;
    } else if (const auto unit = mainUnit(graph, op)) {
      key[op] = *unit;
    } else {
      for (EdgeId e : graph.inEdges(op)) {
        const OpId source = graph.edgeSource(e);
        if (graph.edgeDistance(e) == 0 && key[source] != kUnassigned && key[source] != kProducer) {
          key[op] = key[source];
          break;
        }
      }
    }
  }
  // Unit-less ops without a placed predecessor follow a successor; repeat until nothing
  // changes (chains of such ops), the rest go to `other`.
  for (bool changed = true; changed;) {
    changed = false;
    for (OpId op : order) {
      if (key[op] != kUnassigned) continue;
      for (EdgeId e : graph.outEdges(op)) {
        const std::int64_t successor = key[graph.edgeTarget(e)];
        if (successor != kUnassigned && successor != kProducer) {
          key[op] = successor;
          changed = true;
          break;
        }
      }
    }
  }
  std::set<std::int64_t> used;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    if (key[op] == kUnassigned) key[op] = kOther;
    used.insert(key[op]);
  }
  // Each role gets as many warps as its widest op needs (min_warps), the next ones in order.
  std::map<std::int64_t, std::int32_t> warpsOfRole;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    std::int32_t& warps = warpsOfRole[key[op]];
    warps = std::max({warps, 1, graph.minWarps(op)});
  }
  std::int32_t warpsUsed = 0;
  for (const auto& [k, warps] : warpsOfRole) warpsUsed += warps;
  if (warpsUsed > kMaxWarps) {
    return Error{fmt::format(
        "the default role assignment gives {} roles on {} warps, more than the {} warps a "
        "schedule can name",
        used.size(), warpsUsed, kMaxWarps)};
  }
  std::map<std::int64_t, std::int32_t> roleIndex;
  std::int32_t nextWarp = 0;
  for (std::int64_t k : used) {
    const auto index = static_cast<std::int32_t>(roleIndex.size());
    roleIndex[k] = index;
    PipelineRole role;
    const std::int32_t warps = warpsOfRole[k];
    role.warps = ((warps == kMaxWarps ? ~WarpSet{0} : (WarpSet{1} << warps) - 1)) << nextWarp;
    nextWarp += warps;
    role.name = k == kProducer ? "producer"
                : k == kOther  ? "other"
                               : machine.resources[static_cast<std::size_t>(k)].name;
    pipeline.roles.push_back(role);
  }
  for (OpId op = 0; op < graph.numOps(); ++op) pipeline.roleOf[op] = roleIndex[key[op]];
  pipeline.roleSource = RoleSource::kDefaultAssignment;
  pipeline.roleRule =
      "default assignment (the schedule has no warps): variable-latency and streaming ops on "
      "role producer, every other op on the role of the unit it holds longest, ops without a "
      "unit with their first data predecessor";
  return Done{};
}

// Where each role's warps run in the thread block (docs/codegen.md "Warp roles"): a schedule
// warp is threadsPerWarp / 32 hardware warps. A role holding an op that needs a warp group
// (min_warps x threads per warp >= 128: a wgmma, a tcgen05.ld of 128 lanes) or four warps or
// more starts on a warp group of its own; a smaller role goes to the next free warps of the
// current warp group, or of the next one when it would straddle two. Roles keep their order, so
// a machine whose warps are warp groups gets one warp group per schedule warp, in order.
void placeRoles(Pipeline& pipeline) {
  const Graph& graph = *pipeline.graph;
  const std::int32_t perScheduleWarp = pipeline.threadsPerWarp / kThreadsPerHardwareWarp;
  const auto roundUpToGroup = [](std::int32_t warp) {
    return (warp + kWarpsPerWarpGroup - 1) / kWarpsPerWarpGroup * kWarpsPerWarpGroup;
  };
  // A schedule's warp groups (core register_file.hpp: the warps that fill one warp group of 128
  // threads) stay warp groups, so that the register split never gives a warp group more than
  // the register-file rule the schedule was verified by counts for it: a role whose first warp
  // is in another warp group of the schedule than the previous role's last warp starts a warp
  // group of its own. (The default assignment's warps are the generator's own.)
  const bool keepGroups = pipeline.roleSource != RoleSource::kDefaultAssignment;
  const std::int32_t scheduleGroup = warpsPerRegisterGroup(*pipeline.machine);
  std::optional<std::int32_t> lastGroup;
  std::int32_t next = 0;
  for (std::size_t r = 0; r < pipeline.roles.size(); ++r) {
    PipelineRole& role = pipeline.roles[r];
    role.hardwareWarps = std::popcount(role.warps) * perScheduleWarp;
    bool needsGroup = role.hardwareWarps >= kWarpsPerWarpGroup;
    for (OpId op : role.ops) {
      needsGroup = needsGroup || graph.minWarps(op) * pipeline.threadsPerWarp >=
                                     kWarpsPerWarpGroup * kThreadsPerHardwareWarp;
    }
    const std::int32_t group = std::countr_zero(role.warps) / scheduleGroup;
    const bool newGroup = keepGroups && lastGroup && group != *lastGroup;
    lastGroup = (kMaxWarps - 1 - std::countl_zero(role.warps)) / scheduleGroup;
    const bool straddles = next % kWarpsPerWarpGroup + role.hardwareWarps > kWarpsPerWarpGroup;
    if (needsGroup || straddles || newGroup) next = roundUpToGroup(next);
    role.firstWarp = next;
    next += role.hardwareWarps;
    if (needsGroup) next = roundUpToGroup(next);
  }
  pipeline.blockWarps = roundUpToGroup(next);
}

}  // namespace

Status assignRoles(Pipeline& pipeline) {
  const Graph& graph = *pipeline.graph;
  pipeline.threadsPerWarp = pipeline.machine->threadsPerWarp;
  pipeline.roleOf.assign(static_cast<std::size_t>(graph.numOps()), 0);
  const Status status = pipeline.schedule.warps ? rolesFromWarps(pipeline) : defaultRoles(pipeline);
  if (!status) return status;
  // The units of each role as core's warpRoles reports them for the schedule with each op on
  // its role's warp set.
  Schedule byRole = pipeline.schedule;
  byRole.warps.emplace(static_cast<std::size_t>(graph.numOps()));
  for (OpId op = 0; op < graph.numOps(); ++op) {
    (*byRole.warps)[op] = pipeline.roles[static_cast<std::size_t>(pipeline.roleOf[op])].warps;
  }
  for (const WarpRole& grouped : warpRoles(graph, *pipeline.machine, byRole)) {
    for (PipelineRole& role : pipeline.roles) {
      if (role.warps == grouped.warps) role.units = grouped.units;
    }
  }
  IdentifierSet names;
  for (std::size_t r = 0; r < pipeline.roles.size(); ++r) {
    PipelineRole& role = pipeline.roles[r];
    for (OpId op = 0; op < graph.numOps(); ++op) {
      if (pipeline.roleOf[op] == static_cast<std::int32_t>(r)) role.ops.push_back(op);
    }
    std::stable_sort(role.ops.begin(), role.ops.end(), [&](OpId a, OpId b) {
      return pipeline.schedule.start[a] < pipeline.schedule.start[b];
    });
    role.producer = std::all_of(role.ops.begin(), role.ops.end(),
                                [&](OpId op) { return producerOp(graph, op); });
    if (pipeline.roleSource == RoleSource::kScheduleWarps) {
      role.name = fmt::format("{}_{}", role.producer ? "producer" : "consumer",
                              warpSuffix(role.warps, pipeline.threadsPerWarp));
    }
    role.name = names.claim(identifierFor(role.name), "role_");
  }
  placeRoles(pipeline);
  return Done{};
}

}  // namespace gaus::codegen::detail
