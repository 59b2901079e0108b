// The figures of the GauS engine (core/figures.hpp): declared here, reported by method "gaus"
// (gausFigureTable()), read by gaus-bench's GauS suites by these names. A new figure is one
// declaration here, one line in gaus_figures.cpp and one `result.figures.set` where it is known.
#pragma once

#include <gaus/core/figures.hpp>
#include <gaus/core/stage_objective.hpp>

namespace gaus::differentiable {

namespace figures {
using gaus::figures::kCommunication;
using gaus::figures::kLatency;
using gaus::figures::kPeakStageWeight;

// Formulation C (modulo).
inline constexpr Figure kIi{"ii", FigureUnit::kCycles, "the II of the schedule returned"};
inline constexpr Figure kMinIi{"min_ii", FigureUnit::kCycles,
                               "the lower bound on II the search went down to (MII)"};
// The engine's work.
inline constexpr Figure kBatchUsed{"batch_used", FigureUnit::kCount,
                                   "starts optimized together (batch rows)"};
inline constexpr Figure kAdamSteps{"adam_steps", FigureUnit::kCount, "Adam steps, every row"};
inline constexpr Figure kOptimizationSeconds{"optimization_seconds", FigureUnit::kSeconds,
                                             "seconds in the optimizer's steps"};
inline constexpr Figure kSecondsPerStep{"seconds_per_step", FigureUnit::kSeconds,
                                        "optimization_seconds / adam_steps"};
inline constexpr Figure kLegalizationSeconds{"legalization_seconds", FigureUnit::kSeconds,
                                             "seconds legalizing candidates"};
inline constexpr Figure kLegalizedCandidates{"legalized_candidates", FigureUnit::kCount,
                                             "candidate schedules legalized"};
inline constexpr Figure kSecondsPerCandidate{"seconds_per_candidate", FigureUnit::kSeconds,
                                             "wall seconds per legalized candidate"};
inline constexpr Figure kCpuSecondsPerCandidate{"cpu_seconds_per_candidate", FigureUnit::kSeconds,
                                                "CPU seconds per legalized candidate"};
inline constexpr Figure kLongestCandidateSeconds{"longest_candidate_seconds", FigureUnit::kSeconds,
                                                 "the longest legalization of one candidate"};
inline constexpr Figure kOptimizerWaitSeconds{
    "optimizer_wait_seconds", FigureUnit::kSeconds,
    "seconds the optimizer's thread waited for the legalization worker"};
inline constexpr Figure kOptimizerWaitShare{"optimizer_wait_share", FigureUnit::kShare,
                                            "optimizer_wait_seconds over the run's seconds"};
inline constexpr Figure kFirstLegalSeconds{
    "first_legal_seconds", FigureUnit::kSeconds,
    "from the run's start to the first legal candidate from offered means"};
inline constexpr Figure kSplicedRegions{
    "spliced_regions", FigureUnit::kCount,
    "B: regions around the best schedule's peak cycles taken from other candidates"};
inline constexpr Figure kSpliceImprovements{
    "splice_improvements", FigureUnit::kCount,
    "B: times splicing and the refinement after it lowered the best schedule's objective"};
inline constexpr Figure kWindowSolves{"window_solves", FigureUnit::kCount,
                                      "B: windows around the best schedule's peak solved exactly"};
inline constexpr Figure kWindowImprovements{
    "window_improvements", FigureUnit::kCount,
    "B: exact windows that lowered the best schedule's peak or its cycles at the peak"};
inline constexpr Figure kCutWindows{
    "cut_windows", FigureUnit::kCount,
    "B: windows around the best schedule's peak re-placed by minimum cuts"};
inline constexpr Figure kCutWindowCuts{"cut_window_cuts", FigureUnit::kCount,
                                       "B: minimum cuts those windows computed"};
inline constexpr Figure kCutWindowImprovements{
    "cut_window_improvements", FigureUnit::kCount,
    "B: cut windows that lowered the best schedule's peak or its cycles at the peak"};
}  // namespace figures

// Which figures method "gaus" reports.
const FigureTable& gausFigureTable();

}  // namespace gaus::differentiable
