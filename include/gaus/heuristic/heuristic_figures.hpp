// The figures of the heuristic methods (core/figures.hpp): declared here, reported by "list",
// "ims", "balanced" and "fds" as heuristicFigureTable() says.
#pragma once

#include <gaus/core/figures.hpp>
#include <gaus/core/stage_objective.hpp>

namespace gaus::heuristic {

namespace figures {
using gaus::figures::kCommunication;
using gaus::figures::kLatency;
using gaus::figures::kPeakStageWeight;
using gaus::figures::kStages;

// List scheduling's lower bounds on the latency.
inline constexpr Figure kCriticalPath{"critical_path", FigureUnit::kCycles,
                                      "the longest dependence path (a lower bound on L)"};
inline constexpr Figure kResourceBound{
    "resource_bound", FigureUnit::kCycles,
    "the busiest unit's reserved cycles over its capacity (a lower bound on L; 0 unlimited)"};
// Iterative modulo scheduling (Rau).
inline constexpr Figure kNonOverlappedIi{
    "non_overlapped_ii", FigureUnit::kCycles,
    "the II of one list-scheduled iteration after another: the answer of last resort"};
inline constexpr Figure kAttempts{"attempts", FigureUnit::kCount, "IIs tried"};
inline constexpr Figure kEvictions{"evictions", FigureUnit::kCount,
                                   "ops unscheduled to make room, over every II tried"};
// Force-directed scheduling ("fds").
inline constexpr Figure kForceEvaluations{
    "force_evaluations", FigureUnit::kCount,
    "ops whose forces were evaluated (each over its whole frame), over the whole run"};
inline constexpr Figure kBoundedPicks{
    "bounded_picks", FigureUnit::kCount,
    "fixes of the least of max_recomputations recomputed forces, a stale force in the heap "
    "being lower (0: every fix had the least force in the heap)"};
inline constexpr Figure kOpsPlacedAtLimit{
    "ops_placed_at_limit", FigureUnit::kCount,
    "ops placed without forces because the time limit ran out (0: every op by force)"};
// The stage refinement of "balanced" (refine=true) and the memory refinement of "fds"
// (refine=true).
inline constexpr Figure kRefinementMoves{"refinement_moves", FigureUnit::kCount,
                                         "ops moved to another stage (balanced) or cycle (fds)"};
inline constexpr Figure kRefinementSwaps{"refinement_swaps", FigureUnit::kCount,
                                         "pairs of ops that swapped stages"};
}  // namespace figures

// Which of "list", "ims", "balanced" and "fds" reports each figure above.
const FigureTable& heuristicFigureTable();

}  // namespace gaus::heuristic
