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
#include <gaus/core/memory_limit.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/exact/cost_normalization.hpp>
#include <gaus/exact/model_limits.hpp>
#include <gaus/milp/milp_model.hpp>

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
  bool useStart = true;  // a heuristic schedule as CBC's first incumbent and bound on L
  StartHeuristic startHeuristic = StartHeuristic::kBest;
  // Starts of a verified schedule at this II (`gaus schedule --init`): CBC's first incumbent
  // instead of the heuristics' when its latency is smaller.
  std::optional<std::vector<Cycle>> initialStart;
  bool breakSymmetry = true;  // order interchangeable ops (twins, one sub-tile automorphism)
  // Per II, wall clock, for the whole attempt: start heuristics, building the model and CBC.
  double timeLimitSeconds = 60.0;
  // Refuse (a failed call, saying what to change) a model above this many nonzeros, or whose
  // estimated memory exceeds memoryLimitBytes (core/memory_limit.hpp).
  std::int64_t maxNonzeros = kDefaultMaxNonzeros;
  std::int64_t memoryLimitBytes = defaultMemoryLimitBytes();
  // Upper bound on L (e.g. from a heuristic); tightens the windows like the greedy start does.
  std::optional<Cycle> latencyBound;
  // The MILP solver (`-O solver`); ilp and twill carry it into the cost normalization and the
  // latency MILP too.
  milp::MilpSolver solver = milp::kDefaultMilpSolver;
  // Set from another thread to stop a solve promptly (RunContext::cancel; not owned, may be
  // null): the attempt then ends as a timeout.
  const std::atomic<bool>* cancel = nullptr;
};

// One MILP at a fixed II, in the one status model (core/result.hpp): call kError when the model
// was refused or CBC failed; else kOptimal (a schedule, L proven minimal at this II), kTimeout
// (the limit stopped it: a schedule when CBC or the start heuristic found one, L not proven
// minimal), kInfeasible (proven: no modulo schedule at this II) or, rarely, kFeasible (CBC
// stopped before the limit without proving L minimal).
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

// One MILP at a fixed II. Infeasible without a solve when II is below RecMII or a reservation
// does not fit in II cycles.
ModuloAttempt solveModuloAtIi(const Problem& problem, std::int32_t ii,
                              const ModuloMilpOptions& options = {});

struct ModuloSearchOptions {
  ModuloMilpOptions milp;
  // Search from II = 1 instead of MII (values below MII are infeasible; tests compare the two).
  bool startFromOne = false;
  // Largest II tried. Unset: the length of a non-overlapped schedule (one iteration after the
  // other, always modulo-feasible), see serialNonOverlappedIi().
  std::optional<std::int32_t> maxIi;
  std::optional<double> totalTimeLimitSeconds;
  NormalizationOptions normalization;
  // Receives each line of the attempt log (II, verdict, formulation, L, seconds) as the attempt
  // ends, for a progress display. May be empty.
  std::function<void(std::string_view)> progress;
  // A start to improve on (`gaus schedule --init`; not owned). When it verifies for the problem,
  // its II caps the search and its starts are a MIP start at that II; otherwise it is ignored
  // with a note in Result::notes.
  const Schedule* initialSchedule = nullptr;
  std::string initialScheduleOrigin = "--init";  // where it came from, for the notes
};

// Upper bound of the II search: core's nonOverlappedIi of the serial schedule (ops one at a time
// in topological order, each once its predecessors' delays have passed), at which one iteration
// runs alone; capped at kMaxInputValue. It needs no heuristic and holds on any machine.
std::int32_t serialNonOverlappedIi(const Graph& graph);

// Tries II = MII (or 1), MII + 1, ... and returns the first II with a schedule, at its minimal L.
// Status kOptimal when every smaller II was proven infeasible (or is below MII) and L is proven
// minimal; kFeasible or kTimeout otherwise, with the message saying which attempt was not
// conclusive. Result::attempts has one record per II, Result::extra "latency", "mii", "res_mii",
// "rec_mii" and, when normalized, "time_unit" and "normalized_ii" (normalized_solve.hpp).
// Bounds::lowerBound is the smallest II not proven infeasible (MII, or one above the last II of
// an unbroken run of infeasibility proofs from MII), in raw cycles: the raw MII when normalized.
Result searchModulo(const Problem& problem, const ModuloSearchOptions& options = {});

}  // namespace gaus::exact
