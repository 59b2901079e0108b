// Exhaustive references for the cross-method check (docs/benchmarks.md, "Cross-method check"):
// enumerate start times (and warp sets) of a small problem and let verify() judge every complete
// assignment, so the reference shares no search code with the methods it checks (the objectives
// are the verifier's metrics and core's stage objective, the definitions every method reports). A
// partial assignment is cut off only where verify() would reject every completion of it (a
// precedence edge between placed ops, a resource over capacity in some cycle, the horizon or
// latency cap), so the cuts never hide a legal schedule. Every search counts its nodes and gives up
// at a budget; an answer is a proof only when `complete`.
#pragma once

#include <cstdint>
#include <optional>

#include <gaus/core/problem.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus::crosscheck {

struct SearchBudget {
  std::int64_t nodes = 2'000'000;  // start times (or residues) tried before giving up
};

// The smallest value of one objective over every legal schedule a search visited, and a
// verified schedule that has it.
struct ObjectiveOptimum {
  double value = 0;
  Schedule witness;
};

// Acyclic problems (latency, latency-bounded, stages): schedules with every op done by
// `latencyCap` (and by the problem's horizon; a stage problem's starts are its stages).
struct AcyclicOptimum {
  bool complete = false;  // every schedule within the cap was judged
  std::int64_t nodes = 0;
  std::optional<Schedule> best;  // a verified schedule of the smallest latency found
  std::optional<Cycle> minLatency;
  // With enumerateAll: the smallest peak live memory over every legal schedule (formulation B's
  // objective; else unset).
  std::optional<ObjectiveOptimum> minPeakMemory;
  // With enumerateAll on a stage problem: the smallest stage objective over every legal stage
  // assignment, on GS-Schedule's scale (core/stage_objective.hpp: stageRatio x peak stage
  // weight + communication; formulation A's objective); else unset.
  std::optional<ObjectiveOptimum> minStageObjective;
};

// With enumerateAll every legal schedule within the cap is visited (for objectives other than
// latency: peak memory, the stage objective); without, branch and bound on the latency.
AcyclicOptimum searchAcyclic(const Problem& problem, Cycle latencyCap, bool enumerateAll,
                             const SearchBudget& budget = {});

// Modulo problems: the smallest II in [1, iiLimit] at which a schedule exists, and the smallest
// latency at that II (the problem's fixed II only, when it has one). Residues modulo II are
// enumerated; for each assignment that fits the modulo reservation table the least start times
// with those residues follow from the difference constraints t(v) - t(u) >= delay - distance II
// (longest paths), and the least solution has the least latency, so the search is complete.
struct ModuloOptimum {
  bool complete = false;  // every II up to minIi (or iiLimit when none) was searched in full
  std::int64_t nodes = 0;
  std::optional<std::int32_t> minIi;
  std::optional<Cycle> minLatency;  // at minIi
  std::optional<Schedule> best;     // verified, at minIi with minLatency
};
ModuloOptimum searchModulo(const Problem& problem, std::int32_t iiLimit,
                           const SearchBudget& budget = {});

// Modulo problems with warps: a schedule with a warp set per op at some II < iiBelow with every
// op done by `latencyCap`, found by a depth-first search over (start, warp set) per op. Register
// and memory limits depend on lifetimes, which the least start times do not minimize, so starts
// are enumerated in [0, latencyCap) and the answer covers that window only.
struct WarpScheduleSearch {
  bool complete = false;  // every II below iiBelow and every start within the cap was judged
  std::int64_t nodes = 0;
  std::optional<Schedule> found;  // verified
};
WarpScheduleSearch searchModuloWarp(const Problem& problem, std::int32_t iiBelow, Cycle latencyCap,
                                    const SearchBudget& budget = {});

}  // namespace gaus::crosscheck
