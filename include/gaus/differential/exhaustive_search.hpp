// Exhaustive references for the differential check (docs/benchmarks.md, "Differential check"):
// enumerate start times (and warp sets) of a small problem and let verify() judge every complete
// assignment, so the reference shares no code with the methods it checks. A partial assignment
// is cut off only where verify() would reject every completion of it (a precedence edge between
// placed ops, a resource over capacity in some cycle, the horizon or latency cap), so the cuts
// never hide a legal schedule. Every search counts its nodes and gives up at a budget; an answer
// is a proof only when `complete`.
#pragma once

#include <cstdint>
#include <optional>

#include <gaus/core/problem.hpp>
#include <gaus/core/schedule.hpp>

namespace gaus::differential {

struct SearchBudget {
  std::int64_t nodes = 2'000'000;  // start times (or residues) tried before giving up
};

// Acyclic problems (latency, latency-bounded): schedules with every op done by `latencyCap`
// (and by the problem's horizon).
struct AcyclicOptimum {
  bool complete = false;  // every schedule within the cap was judged
  std::int64_t nodes = 0;
  std::optional<Schedule> best;  // a verified schedule of the smallest latency found
  std::optional<Cycle> minLatency;
  // With enumerateAll: the smallest peak live memory over every legal schedule (else unset).
  std::optional<double> minPeakMemory;
};

// With enumerateAll every legal schedule within the cap is visited (for objectives other than
// latency); without, branch and bound on the latency.
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

}  // namespace gaus::differential
