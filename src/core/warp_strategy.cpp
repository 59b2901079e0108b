#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include <gaus/core/warp_strategy.hpp>

namespace gaus {

WarpSet StrategyRole::warpSet() const {
  return warpGroup(firstWarp.value_or(0), warps);
}

bool WarpStrategy::constrainsTimes() const {
  return std::any_of(roles.begin(), roles.end(), [](const StrategyRole& role) {
    return !role.order.empty() || !role.stages.empty();
  });
}

std::int32_t WarpStrategy::warpsHeld() const {
  std::int32_t held = 0;
  for (const auto& role : roles) held += role.warps;
  return held;
}

const StrategyRole* WarpStrategy::roleOf(OpId op) const {
  for (const auto& role : roles) {
    if (std::find(role.ops.begin(), role.ops.end(), op) != role.ops.end()) return &role;
  }
  return nullptr;
}

namespace {

// The alignment of a role's first warp: the largest min_warps of its ops (their aligned groups
// must fit inside the range).
std::int32_t roleAlignment(const Graph& graph, const StrategyRole& role) {
  std::int32_t align = 1;
  for (OpId op : role.ops) align = std::max(align, graph.minWarps(op));
  return align;
}

bool holdsVariableLatencyOp(const Graph& graph, const StrategyRole& role) {
  return std::any_of(role.ops.begin(), role.ops.end(),
                     [&](OpId op) { return graph.variableLatency(op); });
}

std::string roleText(const StrategyRole& role) {
  return fmt::format("role '{}'", role.name);
}

// Each op in one role at most; a role's warps hold each op's min_warps; its order and stages
// name only its own ops.
std::optional<std::string> checkRoleOps(const Graph& graph, const WarpStrategy& strategy) {
  std::vector<const StrategyRole*> owner(static_cast<std::size_t>(graph.numOps()), nullptr);
  for (const auto& role : strategy.roles) {
    if (role.warps < 1)
      return fmt::format("{} has {} warps; a role needs one at least", roleText(role), role.warps);
    for (OpId op : role.ops) {
      if (owner[op] != nullptr) {
        return fmt::format("op '{}' is in {} and in {}; an op belongs to one role",
                           graph.opName(op), roleText(*owner[op]), roleText(role));
      }
      owner[op] = &role;
      if (graph.minWarps(op) > role.warps) {
        return fmt::format("op '{}' needs {} warps (min_warps) and {} has {}", graph.opName(op),
                           graph.minWarps(op), roleText(role), role.warps);
      }
    }
    auto named = [&](OpId op) { return owner[op] == &role; };
    for (OpId op : role.order) {
      if (!named(op)) {
        return fmt::format("the order of {} names op '{}', which is not among its ops",
                           roleText(role), graph.opName(op));
      }
    }
    for (const auto& [op, stage] : role.stages) {
      if (!named(op)) {
        return fmt::format("the stages of {} name op '{}', which is not among its ops",
                           roleText(role), graph.opName(op));
      }
      if (stage < 0) {
        return fmt::format("op '{}' of {} has stage {}; stages count from 0", graph.opName(op),
                           roleText(role), stage);
      }
    }
  }
  return std::nullopt;
}

}  // namespace

Expected<WarpStrategy> placeStrategy(WarpStrategy strategy, const Graph& graph,
                                     const Machine& machine) {
  if (auto problem = checkRoleOps(graph, strategy)) return Error{*problem};
  const std::int32_t warps = machine.warps;
  if (strategy.warpsHeld() > warps) {
    return Error{fmt::format("the roles hold {} warps and machine '{}' has {}",
                             strategy.warpsHeld(), machine.name, warps)};
  }
  const std::optional<std::int32_t> vl = machine.variableLatencyWarp;
  WarpSet taken = 0;
  auto fits = [&](const StrategyRole& role, std::int32_t first) {
    return first >= 0 && first + role.warps <= warps && (warpGroup(first, role.warps) & taken) == 0;
  };
  // The roles that give their first warp, then the others: those with variable-latency ops
  // first (their range must hold that warp), then by decreasing warps, in file order otherwise.
  std::vector<std::size_t> order(strategy.roles.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto rank = [&](std::size_t r) {
    const StrategyRole& role = strategy.roles[r];
    return std::pair{role.firstWarp ? 0 : holdsVariableLatencyOp(graph, role) ? 1 : 2, -role.warps};
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
  for (std::size_t r : order) {
    StrategyRole& role = strategy.roles[r];
    const std::int32_t align = roleAlignment(graph, role);
    const bool variableLatency = holdsVariableLatencyOp(graph, role);
    if (role.firstWarp) {
      const std::int32_t first = *role.firstWarp;
      if (first % align != 0) {
        return Error{
            fmt::format("{} starts at warp {}, and its ops of {} warps need a first "
                        "warp that is a multiple of {}",
                        roleText(role), first, align, align)};
      }
      if (!fits(role, first)) {
        return Error{
            fmt::format("{} on warps {} is outside the machine's {} warps or overlaps "
                        "another role",
                        roleText(role), formatWarpSet(warpGroup(first, role.warps)), warps)};
      }
    } else {
      for (std::int32_t first = 0; first + role.warps <= warps; first += align) {
        const WarpSet range = warpGroup(first, role.warps);
        const bool holdsVl = vl && ((range >> *vl) & 1U) != 0;
        if (fits(role, first) && holdsVl == variableLatency) {
          role.firstWarp = first;
          break;
        }
      }
      if (!role.firstWarp) {
        return Error{fmt::format(
            "{} ({} warps, aligned to {}{}) finds no free range of warps on machine '{}' ({} "
            "warps, the other roles placed first)",
            roleText(role), role.warps, align,
            variableLatency ? ", holding the variable-latency warp" : "", machine.name, warps)};
      }
    }
    taken |= role.warpSet();
  }
  return strategy;
}

std::vector<std::string> strategyViolations(const Graph& graph, const WarpStrategy& strategy,
                                            const Schedule& schedule) {
  std::vector<std::string> broken;
  if (!schedule.warps) {
    broken.emplace_back("the schedule has no warp assignment");
    return broken;
  }
  const auto& sets = *schedule.warps;
  const std::int64_t ii = schedule.ii.value_or(0);
  for (const auto& role : strategy.roles) {
    const WarpSet range = role.warpSet();
    for (OpId op : role.ops) {
      if ((sets[op] & ~range) != 0) {
        broken.push_back(fmt::format("op '{}' of {} runs on warps {}, outside the role's {}",
                                     graph.opName(op), roleText(role), formatWarpSet(sets[op]),
                                     formatWarpSet(range)));
      }
    }
    for (OpId op = 0; op < graph.numOps(); ++op) {
      const StrategyRole* owner = strategy.roleOf(op);
      if (owner != nullptr && owner != &role && (sets[op] & range) != 0) {
        broken.push_back(fmt::format("op '{}' of {} runs on warps {} of {}", graph.opName(op),
                                     roleText(*owner), formatWarpSet(sets[op]), roleText(role)));
      }
      if (role.ops.empty() && (sets[op] & range) != 0) {
        broken.push_back(
            fmt::format("op '{}' runs on warps {} of {}, which holds no op of the loop",
                        graph.opName(op), formatWarpSet(sets[op]), roleText(role)));
      }
    }
    for (const auto& [op, stage] : role.stages) {
      if (ii > 0 && schedule.start[op] / ii != stage) {
        broken.push_back(fmt::format("op '{}' of {} starts at {}, stage {} at II {}, not stage {}",
                                     graph.opName(op), roleText(role), schedule.start[op],
                                     schedule.start[op] / ii, ii, stage));
      }
    }
    for (std::size_t i = 1; i < role.order.size(); ++i) {
      const OpId before = role.order[i - 1], after = role.order[i];
      if (schedule.start[after] <= schedule.start[before]) {
        broken.push_back(fmt::format("op '{}' of {} starts at {}, not after op '{}' at {}",
                                     graph.opName(after), roleText(role), schedule.start[after],
                                     graph.opName(before), schedule.start[before]));
      }
    }
  }
  return broken;
}

void addStrategyViolations(const Graph& graph, const Schedule& schedule,
                           const VerifyOptions& options, VerificationReport& report) {
  if (options.strategy == nullptr) return;
  for (auto& broken : strategyViolations(graph, *options.strategy, schedule)) {
    ++report.totalViolations;
    ++report.countByFamily[static_cast<std::size_t>(ConstraintFamily::kStrategy)];
    if (report.violations.size() < options.maxMessages) {
      report.violations.push_back({ConstraintFamily::kStrategy, std::move(broken)});
    }
  }
}

}  // namespace gaus
