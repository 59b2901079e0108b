#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include <gaus/core/schedule.hpp>

#include "usage_profile.hpp"

namespace gaus {

LiveInterval liveInterval(const Graph& graph, const Schedule& schedule, OpId op) {
  return liveInterval(graph, schedule.start, schedule.ii.value_or(0), op);
}

LiveInterval liveInterval(const Graph& graph, std::span<const Cycle> start, std::int64_t ii,
                          OpId op) {
  const Cycle begin = start[op];
  Cycle end = begin;
  for (EdgeId e : graph.outEdges(op)) {
    const std::int32_t distance = graph.edgeDistance(e);
    // Without an II a loop-carried consumer belongs to another iteration: it does not extend
    // the value's life within this one.
    if (distance > 0 && ii == 0) continue;
    end = std::max(end, start[graph.edgeTarget(e)] + distance * ii);
  }
  return {begin, end};
}

Cycle scheduleLatency(const Graph& graph, std::span<const Cycle> start) {
  Cycle latency = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    latency = std::max(latency, start[static_cast<std::size_t>(op)] + graph.duration(op));
  }
  return latency;
}

std::int32_t stageCount(std::span<const Cycle> start, Cycle latency, std::int64_t ii) {
  const Cycle byLatency = (latency + ii - 1) / ii;
  if (start.empty()) return static_cast<std::int32_t>(byLatency);
  const Cycle lastStart = *std::max_element(start.begin(), start.end());
  return static_cast<std::int32_t>(std::max<Cycle>(byLatency, lastStart / ii + 1));
}

ScheduleMetrics computeMetrics(const Graph& graph, const Machine& machine,
                               const Schedule& schedule) {
  ScheduleMetrics metrics;
  const OpId opCount = graph.numOps();
  metrics.latency = scheduleLatency(graph, schedule.start);
  std::optional<std::int64_t> ii;
  if (schedule.ii && *schedule.ii > 0) {
    ii = *schedule.ii;
    metrics.stages = stageCount(schedule.start, metrics.latency, *ii);
  }

  std::vector<detail::UsageProfile<std::int64_t>> usage(machine.resources.size(),
                                                        detail::UsageProfile<std::int64_t>(ii));
  for (OpId op = 0; op < opCount; ++op) {
    for (const auto& block : graph.reservation(op)) {
      if (block.resource >= machine.numResources()) continue;
      usage[block.resource].add(schedule.start[op] + block.begin, block.length, block.units);
    }
  }
  metrics.peakUsage.reserve(usage.size());
  for (auto& profile : usage) metrics.peakUsage.push_back(profile.peak());

  detail::UsageProfile<double> live(ii);
  std::vector<detail::UsageProfile<std::int64_t>> footprint(machine.memories.size(),
                                                            detail::UsageProfile<std::int64_t>(ii));
  for (OpId op = 0; op < opCount; ++op) {
    const bool hasFootprint = !graph.footprints(op).empty();
    if (graph.mem(op) == 0.0 && !hasFootprint) continue;
    const LiveInterval interval = liveInterval(graph, schedule, op);
    const Cycle length = interval.end - interval.begin;
    live.add(interval.begin, length, graph.mem(op));
    for (const auto& print : graph.footprints(op)) {
      if (print.memory < static_cast<MemoryId>(footprint.size())) {
        footprint[print.memory].add(interval.begin, length, print.amount);
      }
    }
  }
  metrics.peakLiveMemory = live.peak();
  for (auto& profile : footprint) metrics.peakMemoryFootprint.push_back(profile.peak());

  if (schedule.warps) {
    std::vector<detail::UsageProfile<std::int64_t>> registers(
        static_cast<std::size_t>(std::max(0, machine.warps)),
        detail::UsageProfile<std::int64_t>(ii));
    for (OpId op = 0; op < opCount; ++op) {
      if (graph.regs(op) == 0) continue;
      const LiveInterval interval = liveInterval(graph, schedule, op);
      for (std::size_t w = 0; w < registers.size(); ++w) {
        if (((*schedule.warps)[op] >> w) & 1U) {
          registers[w].add(interval.begin, interval.end - interval.begin, graph.regs(op));
        }
      }
    }
    for (auto& profile : registers) metrics.peakRegistersPerWarp.push_back(profile.peak());
  }
  return metrics;
}

WarpSet warpGroup(std::int32_t first, std::int32_t size) {
  const WarpSet run = size >= kMaxWarps ? ~WarpSet{0} : (WarpSet{1} << size) - 1;
  return run << first;
}

bool isWarpGroup(WarpSet set, std::int32_t size) {
  if (size <= 0 || size > kMaxWarps || std::popcount(set) != size) return false;
  const int first = std::countr_zero(set);
  return first % size == 0 && set == warpGroup(first, size);
}

std::string formatWarpSet(WarpSet set) {
  std::string text = "{";
  bool first = true;
  for (int w = 0; w < kMaxWarps; ++w) {
    if ((set >> w) & 1U) {
      if (!first) text += ",";
      text += std::to_string(w);
      first = false;
    }
  }
  return text + "}";
}

}  // namespace gaus
