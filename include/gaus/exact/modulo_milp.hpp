// Modulo scheduling at a fixed II minimizing the latency L (the stage/residue MILP of Twill,
// Soi et al., OSDI'26, arXiv 2512.18134, phase 1; TWILL.md section 2), and the search over II
// from MII = max(ResMII, RecMII) upward.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gaus/core/enum_names.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/exact/cost_normalization.hpp>
#include <gaus/milp/milp_call.hpp>

namespace gaus::exact {

enum class ModuloFormulation {
  kStageResidue,  // binary residue rho[v][r], integer stage: the paper's model
  kTimeIndexed,   // binary x[v][t] over each op's window (needs an upper bound on L)
  kAuto,          // time-indexed when an upper bound on L is known and the windows are small
};
inline constexpr auto kModuloFormulationNames = makeEnumNames<ModuloFormulation>({
    {ModuloFormulation::kStageResidue, "stage-residue"},
    {ModuloFormulation::kTimeIndexed, "time-indexed"},
    {ModuloFormulation::kAuto, "auto"},
});
inline std::string_view toString(ModuloFormulation formulation) {
  return kModuloFormulationNames.name(formulation);
}

// Where the first schedule of a modulo MILP comes from (incumbent and bound on L).
enum class StartHeuristic {
  kGreedy,  // list placement with a folded reservation table (start_schedule.cpp)
  kIms,     // iterative modulo scheduling at the fixed II (heuristic module)
  kBest,    // both; the one with the smaller latency
};
inline constexpr auto kStartHeuristicNames = makeEnumNames<StartHeuristic>({
    {StartHeuristic::kGreedy, "greedy"},
    {StartHeuristic::kIms, "ims"},
    {StartHeuristic::kBest, "best"},
});
inline std::string_view toString(StartHeuristic heuristic) {
  return kStartHeuristicNames.name(heuristic);
}

struct ModuloMilpOptions {
  ModuloFormulation formulation = ModuloFormulation::kAuto;
  // kAuto picks the time-indexed form when the average window width is at most this many
  // times II (it then has at most that many times the stage/residue model's binaries; the
  // default is measured in docs/benchmarks.md, "Exact engine").
  double timeIndexedWindowFactor = 2.0;
  bool useWindows = true;  // bound each op's start from ASAP/ALAP at the current II
  // Stage/residue form: link the residues of ops of one recurrence whose start difference it
  // confines to fewer than II values (residue_links.hpp).
  bool linkResidues = true;
  StartHeuristic startHeuristic = StartHeuristic::kBest;  // the heuristic start (call.useStart)
  // Starts of a verified schedule at this II (`gaus schedule --init`): the solver's first
  // incumbent instead of the heuristics' when its latency is smaller.
  std::optional<std::vector<Cycle>> initialStart;
  bool breakSymmetry = true;  // order interchangeable ops (twins, one sub-tile automorphism)
  // Upper bound on L (e.g. from a heuristic); tightens the windows like the greedy start does.
  std::optional<Cycle> latencyBound;
  // Seconds for one attempt at one II at most (option milp_time_limit): the start heuristics,
  // building the model and the solve, cut to what is left of the call's deadline.
  double attemptSeconds = 60.0;
  // The call (milp/milp_call.hpp): its deadline is the whole search's (none: no limit), its
  // `useStart` hands the solver a heuristic schedule as its first incumbent and bound on L, its
  // start schedule (--init) caps the search and is a start at its II; ilp and twill hand its
  // solver and cancel flag to the cost normalization and the latency MILP too.
  milp::MilpCall call;
};

// One MILP at a fixed II, in the one status model (core/result.hpp): call kError when the model
// was refused or the solver failed; else kOptimal (a schedule, L proven minimal at this II),
// kTimeout (the limit stopped it: a schedule when the solver or the start heuristic found one, L
// not proven minimal), kInfeasible (proven: no modulo schedule at this II) or, rarely, kFeasible
// (the solver stopped before the limit without proving L minimal).
struct ModuloAttempt {
  std::int32_t ii = 0;
  CallStatus call = CallStatus::kOk;
  ModelStatus status = ModelStatus::kUnknown;
  std::optional<Schedule> schedule;  // with II set
  std::optional<Cycle> latency;      // of the schedule
  std::optional<Cycle> latencyLowerBound;
  double seconds = 0.0;
  std::string formulation;  // "stage-residue" | "time-indexed" | "recurrence" (no solve needed)
  std::int64_t variables = 0;
  std::int64_t rows = 0;
  std::string detail;  // why infeasible, what timed out, why the call failed

  bool hasSchedule() const { return schedule.has_value(); }
  // The attempt log's record: phase "milp", the status, L and its bound, and as detail the
  // formulation and the model's size.
  Attempt record() const;
};

// One MILP at a fixed II, within attemptSeconds and the call's deadline. Infeasible without a
// solve when II is below RecMII or a reservation does not fit in II cycles.
ModuloAttempt solveModuloAtIi(const Problem& problem, std::int32_t ii,
                              const ModuloMilpOptions& options = {});

struct ModuloSearchOptions {
  // Each attempt's options; milp.call is the search's: its deadline covers every phase (the cost
  // normalization, each II's MILP, a fixed II's one MILP), and its start schedule (--init), when
  // it verifies for the problem, caps the search at its II and is a MIP start there (otherwise it
  // is ignored with a note in Result::notes).
  ModuloMilpOptions milp;
  // Search from II = 1 instead of MII (values below MII are infeasible; tests compare the two).
  bool startFromOne = false;
  // Largest II tried. Unset: the length of a non-overlapped schedule (one iteration after the
  // other, always modulo-feasible), see serialNonOverlappedIi().
  std::optional<std::int32_t> maxIi;
  NormalizationOptions normalization;  // its call block is milp.call
  // Receives each line of the attempt log (II, verdict, formulation, L, seconds) as the attempt
  // ends, for a progress display. May be empty.
  std::function<void(std::string_view)> progress;
};

// Upper bound of the II search: core's nonOverlappedIi of the serial schedule (ops one at a time
// in the problem's topological order, each once its predecessors' delays have passed), at which one iteration
// runs alone; capped at kMaxInputValue. It needs no heuristic and holds on any machine.
std::int32_t serialNonOverlappedIi(const Problem& problem);

// Tries II = MII (or 1), MII + 1, ... and returns the first II with a schedule, at its minimal L.
// Status kOptimal when every smaller II was proven infeasible (or is below MII) and L is proven
// minimal; kFeasible or kTimeout otherwise, with the message saying which attempt was not
// conclusive. Result::attempts has one record per II, Result::extra "latency" and, when
// normalized, "time_unit" and "normalized_ii" (normalized_solve.hpp); Bounds::mii the problem's
// MII in raw cycles. Bounds::lowerBound is the smallest II not proven infeasible (MII, or one
// above the last II of an unbroken run of infeasibility proofs from MII), in raw cycles: the raw
// MII when normalized.
Result searchModulo(const Problem& problem, const ModuloSearchOptions& options = {});

}  // namespace gaus::exact
