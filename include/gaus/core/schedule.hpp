// A schedule (start time per op, optional II and warp sets) and the metrics derived from it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/machine.hpp>
#include <gaus/core/types.hpp>

namespace gaus {

struct Schedule {
  std::vector<Cycle> start;                   // start cycle per op (>= 0)
  std::optional<std::int32_t> ii;             // initiation interval of a modulo schedule
  std::optional<std::vector<WarpSet>> warps;  // warp set per op (warp specialization)

  friend bool operator==(const Schedule&, const Schedule&) = default;
};

struct ScheduleMetrics {
  Cycle latency = 0;                    // L = max over ops of start + duration (0 when empty)
  std::optional<std::int32_t> stages;   // stageCount, for modulo schedules
  std::vector<std::int64_t> peakUsage;  // per resource: peak units in use in any cycle (mod II)
  // Peak of the summed `mem` of live values; a value is live from its op's start until its last
  // consumer starts (consumer start + distance * II for loop-carried edges; GAUS.md "Memory").
  double peakLiveMemory = 0.0;
  // Peak summed footprint per memory kind of the machine, same liveness.
  std::vector<std::int64_t> peakMemoryFootprint;
  // With warps: per warp of the machine, the peak summed `regs` of the values live on it (an op
  // on several warps holds its registers on each), same liveness. Empty without warps.
  std::vector<std::int64_t> peakRegistersPerWarp;
};

// L = max over ops of start + duration (0 for a graph without ops), duration = max(latency,
// reservation length) (contributing.md): the length of one iteration, which every module measures
// with this one function. `start` holds one start per op.
Cycle scheduleLatency(const Graph& graph, std::span<const Cycle> start);

// The stages of a modulo schedule at `ii` whose latency is `latency`: ceil(L / II), or one more
// when an op of duration 0 starts on the last cycle (its stage is start / II, at least 1). The
// one stage count of the metrics, Twill's answer and code generation.
std::int32_t stageCount(std::span<const Cycle> start, Cycle latency, std::int64_t ii);

// Computes the metrics of a schedule whose shape matches the graph (one start per op). It does
// not judge legality; verify() does.
ScheduleMetrics computeMetrics(const Graph& graph, const Machine& machine,
                               const Schedule& schedule);

// Live interval [begin, end) of the value op `op` produces, following the rule above; empty
// (end <= begin) for an op without consumers.
struct LiveInterval {
  Cycle begin = 0;
  Cycle end = 0;
};
LiveInterval liveInterval(const Graph& graph, const Schedule& schedule, OpId op);
// The same from start times alone: `ii` 0 for a schedule without one.
LiveInterval liveInterval(const Graph& graph, std::span<const Cycle> start, std::int64_t ii,
                          OpId op);

std::string formatWarpSet(WarpSet set);  // "{0,2}"

// The warp sets an op of `size` warps may run on: one warp anywhere, or for size k > 1 an aligned
// warp group, k consecutive warps whose first is a multiple of k. A warp group is aligned on the
// hardware (PTX ISA: a warpgroup is four contiguous warps, the first one's rank a multiple of
// four), and the rule keeps the exact search from telling apart warp sets that overlap partially
// (docs/exact.md, "Warp groups and warp symmetry").
bool isWarpGroup(WarpSet set, std::int32_t size);
// The aligned group of `size` warps that starts at warp `first` (a multiple of size).
WarpSet warpGroup(std::int32_t first, std::int32_t size);

}  // namespace gaus
