// Brute-force references for the exact engine's tests: enumerate start times and let the
// independent verifier judge each schedule, so the reference shares nothing with the models.
#pragma once

#include <algorithm>
#include <bit>
#include <compare>
#include <functional>
#include <optional>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/random_graph.hpp>
#include <gaus/core/verify.hpp>

#include "toy_graphs.hpp"

namespace gaus::test {

// Every assignment of starts in [0, latency - duration(v)] (in a topological order of the
// distance-0 edges, pruned by their delays) is handed to `accept` until it returns true.
inline bool anyScheduleWithin(const Problem& problem, Cycle latency, std::optional<std::int32_t> ii,
                              const std::function<bool(const Schedule&)>& accept) {
  const Graph& graph = *problem.graph;
  const auto order = topologicalOrder(graph);
  if (!order) return false;
  Schedule schedule;
  schedule.start.assign(static_cast<std::size_t>(graph.numOps()), 0);
  schedule.ii = ii;
  std::function<bool(std::size_t)> place = [&](std::size_t index) -> bool {
    if (index == order->size()) return accept(schedule);
    const OpId op = (*order)[index];
    Cycle earliest = 0;
    for (EdgeId e : graph.inEdges(op)) {
      if (graph.edgeDistance(e) == 0) {
        earliest = std::max(earliest, schedule.start[graph.edgeSource(e)] + graph.edgeDelay(e));
      }
    }
    for (Cycle t = earliest; t + graph.duration(op) <= latency; ++t) {
      schedule.start[op] = t;
      if (place(index + 1)) return true;
    }
    return false;
  };
  return place(0);
}

// The smallest L <= cap with a schedule that verifies (modulo `ii` when set), or nullopt.
inline std::optional<Cycle> bruteForceMinLatency(const Problem& problem,
                                                 std::optional<std::int32_t> ii, Cycle cap) {
  for (Cycle latency = 0; latency <= cap; ++latency) {
    const bool found = anyScheduleWithin(problem, latency, ii, [&](const Schedule& schedule) {
      return verify(problem, schedule).ok();
    });
    if (found) return latency;
  }
  return std::nullopt;
}

// Three or four ops on two single units, one or two loop-carried edges, two interchangeable
// warps, registers that do not all fit one warp (limit 32, 8 to 24 each) and spill cost 1:
// small enough to enumerate every schedule and warp assignment. `issueWidth`: the machine's
// warp issue width (one instruction stream per warp), none by default.
inline Instance tinyWarpLoop(std::uint64_t seed,
                             std::optional<std::int32_t> issueWidth = std::nullopt) {
  RandomGraphOptions options;
  options.ops = 3 + static_cast<std::int32_t>(seed % 2);
  options.averageDegree = 1.0;
  options.opTypes = {{"ALU", 1, 2, 1, 1, 2.0}, {"MUL", 1, 2, 0, 1, 1.0}};
  options.backEdges = 1 + static_cast<std::int32_t>(seed % 2);
  options.maxDistance = 1;
  options.seed = seed;
  auto generated = generateRandomGraph(options);
  if (!generated) throw std::runtime_error(generated.error());
  Machine machine = generated->machine;
  machine.name = "tiny_warps";
  machine.warps = 2;
  machine.registerLimit = 32;
  machine.warpIssueWidth = issueWidth;
  const Graph& graph = generated->graph;
  GraphBuilder builder(fmt::format("tiny_warp_loop_{}", seed));
  for (OpId op = 0; op < graph.numOps(); ++op) {
    OpAttributes attributes = graph.opAttributes(op);
    attributes.regs =
        8 + static_cast<std::int32_t>((seed + static_cast<std::uint64_t>(op)) % 3) * 8;
    attributes.spillCost = 1;
    builder.addOp(attributes);
  }
  for (EdgeId e = 0; e < graph.numEdges(); ++e) builder.addEdge(graph.edgeAttributes(e));
  return makeInstance(std::move(builder), std::move(machine));
}

// The fewest (warps used, then cross-warp edges) over every verifying schedule with starts in
// [0, latency - duration] at `ii` and every assignment of one warp per op; nullopt when none
// verifies (with `verifyOptions`: a strategy too).
struct WarpCounts {
  std::int32_t warps = 0;
  std::int32_t crossEdges = 0;
  auto operator<=>(const WarpCounts&) const = default;
};
inline std::optional<WarpCounts> bestWarpCounts(const Problem& problem, std::int32_t ii,
                                                Cycle latency,
                                                const VerifyOptions& verifyOptions = {}) {
  const Graph& graph = *problem.graph;
  const auto ops = static_cast<std::size_t>(graph.numOps());
  const std::int32_t warps = problem.machine->warps;
  std::optional<WarpCounts> best;
  anyScheduleWithin(problem, latency, ii, [&](const Schedule& starts) {
    Schedule schedule = starts;
    std::vector<WarpSet> sets(ops, 1);
    std::int64_t assignments = 1;
    for (std::size_t i = 0; i < ops; ++i) assignments *= warps;
    for (std::int64_t code = 0; code < assignments; ++code) {
      std::int64_t rest = code;
      for (std::size_t i = 0; i < ops; ++i) {
        sets[i] = WarpSet{1} << (rest % warps);
        rest /= warps;
      }
      schedule.warps = sets;
      if (!verify(problem, schedule, verifyOptions).ok()) continue;
      WarpSet all = 0;
      for (WarpSet set : sets) all |= set;
      std::int32_t crossing = 0;
      for (EdgeId e = 0; e < graph.numEdges(); ++e) {
        const OpId u = graph.edgeSource(e);
        const OpId v = graph.edgeTarget(e);
        if (u != v && sets[u] != sets[v]) ++crossing;
      }
      const WarpCounts counts{std::popcount(all), crossing};
      if (!best || counts < *best) best = counts;
    }
    return false;  // visit every start assignment
  });
  return best;
}

// Every schedule of one iteration fits in this L: ops one after another, each waiting out its
// duration, its out-delays and its spill cost, plus II - 1 cycles for a free residue (the
// search's goBeyondStages bound, so the brute force covers what the search covers).
inline Cycle generousLatency(const Graph& graph, std::int32_t ii) {
  Cycle total = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    Cycle window = std::max<Cycle>(1, graph.duration(op));
    for (EdgeId e : graph.outEdges(op)) {
      if (graph.edgeDistance(e) == 0) {
        window = std::max<Cycle>(window, graph.edgeDelay(e) + graph.spillCost(op));
      }
    }
    total += window + (ii - 1);
  }
  return total;
}

}  // namespace gaus::test
