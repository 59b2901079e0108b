// The figures of the exact engine's methods (core/figures.hpp): declared here, reported by
// "ilp" and "twill" as exactFigureTable() says, read by the CLI and the benchmarks by these
// names.
#pragma once

#include <gaus/core/figures.hpp>

namespace gaus::exact {

namespace figures {
using gaus::figures::kLatency;
using gaus::figures::kStages;

// Cost normalization (cost_normalization.hpp): the answer is in raw cycles, its proofs in units.
inline constexpr Figure kTimeUnit{"time_unit", FigureUnit::kCycles,
                                  "raw cycles per normalized cycle (present when normalized)"};
inline constexpr Figure kNormalizedMii{"normalized_mii", FigureUnit::kCycles,
                                       "MII in normalized units (when normalized)"};
inline constexpr Figure kNormalizedIi{"normalized_ii", FigureUnit::kCycles,
                                      "the II found, in normalized units"};
inline constexpr Figure kNormalizedLowerBound{
    "normalized_lower_bound", FigureUnit::kCycles,
    "the lower bound on the objective, in normalized units"};
inline constexpr Figure kNormalizedIiProven{"normalized_ii_proven", FigureUnit::kFlag,
                                            "II proven minimal in normalized units"};
inline constexpr Figure kNormalizedLatencyProven{"normalized_latency_proven", FigureUnit::kFlag,
                                                 "L proven minimal in normalized units"};

// The latency MILP (latency_milp.hpp).
inline constexpr Figure kListLatency{"list_latency", FigureUnit::kCycles,
                                     "latency of the list schedule (the MIP start's candidate)"};
inline constexpr Figure kInitLatency{"init_latency", FigureUnit::kCycles,
                                     "latency of the start schedule given (--init or init=)"};
// The peak-memory MILP (peak_memory_milp.hpp).
inline constexpr Figure kStartPeakMemory{
    "start_peak_memory", FigureUnit::kValue,
    "peak live memory of the MIP start (list + refinement, or the start given)"};
inline constexpr Figure kCombinatorialBound{
    "combinatorial_bound", FigureUnit::kValue,
    "peak-memory bound from the mandatory lifetimes (live_memory::mandatoryLifetimeBound)"};
inline constexpr Figure kVariables{"variables", FigureUnit::kCount, "columns of the MILP"};
inline constexpr Figure kRows{"rows", FigureUnit::kCount, "rows of the MILP"};

// Twill's warp assignment (twill.hpp).
inline constexpr Figure kWarpsUsed{"warps_used", FigureUnit::kCount,
                                   "warps that run at least one op"};
inline constexpr Figure kWarpsProvenMinimal{"warps_proven_minimal", FigureUnit::kFlag,
                                            "no assignment at (II, L) uses fewer warps"};
inline constexpr Figure kCrossWarpEdges{"cross_warp_edges", FigureUnit::kCount,
                                        "edges between ops on different warp sets"};
inline constexpr Figure kCrossEdgesProvenMinimal{
    "cross_edges_proven_minimal", FigureUnit::kFlag,
    "no assignment at (II, L) with those warps has fewer cross-warp edges"};
inline constexpr Figure kRoles{"roles", FigureUnit::kCount, "warp roles (distinct warp sets)"};
inline constexpr Figure kFirstSmtScheduleSeconds{
    "first_smt_schedule_seconds", FigureUnit::kSeconds,
    "from the call's start to the first schedule of the SMT model"};
// How far Twill's proof of a minimal II reaches (twill.hpp IiProof; docs/exact.md, "II proofs
// for every L"), in the units solved.
inline constexpr Figure kWarpRecMii{
    "warp_rec_mii", FigureUnit::kCycles,
    "RecMII with the spill cost of every edge whose ends can never share a warp set"};
inline constexpr Figure kLatencyLowerBound{
    "latency_lower_bound", FigureUnit::kCycles,
    "no schedule at the answer's II, proven minimal for every L, has a smaller L"};
inline constexpr Figure kIiProvenEveryLength{
    "ii_proven_every_length", FigureUnit::kFlag,
    "every II below the answer's refuted for every schedule length"};
inline constexpr Figure kIiProofLatency{
    "ii_proof_latency", FigureUnit::kCycles,
    "II proven minimal only within this L: every smaller II refuted for L up to it"};
inline constexpr Figure kIiProofStages{
    "ii_proof_stages", FigureUnit::kCount,
    "the stage count ceil(L / II) of ii_proof_latency at the smaller II it limits"};
// Twill's time per phase: the attempt log's seconds summed by phase. The rest of the call is
// set-up, normalization, model building and verification.
inline constexpr Figure kMilpSeconds{"milp_seconds", FigureUnit::kSeconds,
                                     "in the modulo MILP, over every II tried"};
inline constexpr Figure kSmtSeconds{"smt_seconds", FigureUnit::kSeconds,
                                    "in the SMT checks of the (II, L) search, the start's probe "
                                    "included"};
inline constexpr Figure kMinimizeSeconds{"minimize_seconds", FigureUnit::kSeconds,
                                         "minimizing the warps used and the cross-warp edges"};
inline constexpr Figure kExplainSeconds{"explain_seconds", FigureUnit::kSeconds,
                                        "explaining the roles (option explain)"};
}  // namespace figures

// Which of "ilp" and "twill" reports each figure above.
const FigureTable& exactFigureTable();

}  // namespace gaus::exact
