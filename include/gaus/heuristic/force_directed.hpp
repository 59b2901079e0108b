// Force-directed scheduling (Paulin and Knight 1989): the time-constrained form for
// latency-bounded problems and force-directed list scheduling for latency problems under
// resources; method "fds". The file src/heuristic/force_directed.cpp says what it implements and
// where it departs from the paper.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <gaus/core/enum_names.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/methods/run_context.hpp>

namespace gaus::heuristic {

// What the distribution graphs measure, and so what the forces balance; the names are the
// objectives results report (the problem's peak_memory; resource_units, the units in use).
enum class ForceObjective {
  kAuto,       // the problem's objective: memory where it is peak_memory, else resources
  kMemory,     // expected live memory per cycle (formulation B's peak live memory)
  kResources,  // expected units in use per resource and cycle (the paper's distribution graphs)
};
inline constexpr auto kForceObjectiveNames = makeEnumNames<ForceObjective>({
    {ForceObjective::kAuto, "auto"},
    {ForceObjective::kMemory, "peak_memory"},
    {ForceObjective::kResources, "resource_units"},
});
inline std::string_view toString(ForceObjective objective) {
  return kForceObjectiveNames.name(objective);
}

struct ForceDirectedOptions {
  ForceObjective objective = ForceObjective::kAuto;
  // Graphs with more ops are refused, naming the methods to use instead. None: no limit (the
  // lazy search costs about (ops + edges) x frame width, force_directed.cpp).
  std::optional<std::int64_t> maxOps;
  // Latency-bounded: true takes the op of least force from a heap whose entries are recomputed
  // when they reach the top with stale inputs; false recomputes every stale force after each
  // fix (the paper's order, O(n^2 D)).
  bool lazyForces = true;
  // Lazy: after this many recomputations without a fix, the least force among them is fixed,
  // so a fix costs at most this many evaluations (ops in many identical components otherwise
  // recompute each other's forces after every fix). None: recompute until a fresh force is on
  // top.
  std::optional<std::int64_t> maxRecomputations = kDefaultMaxRecomputations;
  static constexpr std::int64_t kDefaultMaxRecomputations = 64;
  // Memory objective without limited resources: the FDS schedule is then refined by
  // live_memory::refine's moves (the "start + refinement" of the GauS paper's comparison).
  bool refine = false;
  // Memory objective: report formulation B's lower bound (live_memory::reportBound, a tenth of
  // the time) beside the peak; off where the caller reports its own (GauS, which takes FDS's
  // schedule as one of its starts).
  bool reportBound = true;
  // Seconds for the whole call; past it the ops not yet fixed take their earliest start in
  // their current frames (latency-bounded) or the height priority (latency), and the result
  // says so. None: no limit.
  std::optional<double> timeLimitSeconds;
};

// The method "fds": kLatencyBounded (time-constrained FDS at the horizon, legalized by list
// scheduling where the machine limits resources) and kLatency (force-directed list scheduling).
Result forceDirectedSchedule(const Problem& problem, const ForceDirectedOptions& options,
                             const RunContext& context = {});

}  // namespace gaus::heuristic
