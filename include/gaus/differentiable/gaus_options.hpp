// Options of the GauS engine (../shared/docs/GAUS.md), one struct with documented defaults.
// Every option has a string name in the method's OptionTable ("lr", "K", "rho0", ...); the result
// of a run echoes every value used. No LibTorch type appears here: the engine's tensors live in
// src/differentiable only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gaus/core/enum_names.hpp>
#include <gaus/core/expected.hpp>
#include <gaus/core/memory_limit.hpp>
#include <gaus/core/option_table.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/milp/milp_model.hpp>

namespace gaus::differentiable {

// What is optimized (GAUS.md "Formulations").
enum class Formulation {
  kAuto,         // L for latency problems, B (memory) or A (stage weight) for latency-bounded
                 // ones, C for modulo problems
  kStageWeight,  // A: peak stage weight + alpha * communication under precedence and horizon
  kPeakMemory,   // B: peak live memory under precedence, horizon and resources
  kModulo,       // C: modulo schedule at an II (searched down to the smallest legal one)
  kLatency,      // L: resource-constrained latency, by an outer search on the horizon D
};
inline constexpr auto kFormulationNames = makeEnumNames<Formulation>({
    {Formulation::kAuto, "auto"},
    {Formulation::kStageWeight, "A"},
    {Formulation::kPeakMemory, "B"},
    {Formulation::kModulo, "C"},
    {Formulation::kLatency, "L"},
});
inline std::string_view toString(Formulation formulation) {
  return kFormulationNames.name(formulation);
}

// Where the means start (GAUS.md "Initialization").
enum class Initialization {
  kAuto,      // the given schedule if any, else list scheduling for L and C, else asap-alap
  kAsapAlap,  // mu = midpoint of [ASAP, ALAP] at the horizon
  kList,      // mu = a list schedule's (or, for C, an iterative modulo schedule's) start times
  kGiven,     // mu = RunContext::initialSchedule (an error when there is none)
};
inline constexpr auto kInitializationNames = makeEnumNames<Initialization>({
    {Initialization::kAuto, "auto"},
    {Initialization::kAsapAlap, "asap-alap"},
    {Initialization::kList, "list"},
    {Initialization::kGiven, "given"},
});
inline std::string_view toString(Initialization initialization) {
  return kInitializationNames.name(initialization);
}

// The secondary objective of formulation C (the II itself is searched from outside).
enum class ModuloObjective {
  kAuto,     // memory when some op has a nonzero `mem`, else latency
  kNone,     // feasibility only
  kLatency,  // smooth maximum of the expected completion times
  kMemory,   // smooth peak of the expected live memory, folded modulo II
};
inline constexpr auto kModuloObjectiveNames = makeEnumNames<ModuloObjective>({
    {ModuloObjective::kAuto, "auto"},
    {ModuloObjective::kNone, "none"},
    {ModuloObjective::kLatency, "latency"},
    {ModuloObjective::kMemory, "peak_memory"},
});
inline std::string_view toString(ModuloObjective objective) {
  return kModuloObjectiveNames.name(objective);
}

// Where candidates are legalized (GAUS.md "On a GPU").
enum class LegalizationMode {
  kAsync,  // a worker thread beside the optimizer, which never waits for it between attempts
  kSync,   // on the optimizer's thread at each multiplier update: a run is a function of its seed
};
inline constexpr auto kLegalizationModeNames = makeEnumNames<LegalizationMode>({
    {LegalizationMode::kAsync, "async"},
    {LegalizationMode::kSync, "sync"},
});
inline std::string_view toString(LegalizationMode mode) {
  return kLegalizationModeNames.name(mode);
}

struct GausOptions {
  Formulation formulation = Formulation::kAuto;

  // ---- model (GAUS.md "Variables", "Windows") ----
  double sigmaMin = 0.2;      // sigma_min: no op's distribution freezes into a point
  double sigmaMax = 8.0;      // sigma_max: bounds the window width
  double windowK = 4.0;       // window k: W = 2 * ceil(k * sigma_max) + 1 steps per op
  bool dense = false;         // W = D: the |V| x D reference model (tests only)
  double kappa = 1.0 / 6.0;   // initial sigma = clamp(kappa * (ALAP - ASAP), min, max)
  double sigmaRestart = 1.0;  // sigma when mu restarts from a schedule
  double restartNoise = 1.0;  // std. dev. (steps) of the noise on mu of the noisy batch rows
  // Std. dev. (steps) of Gaussian noise on mu before a candidate is rounded (A, B, L): 0 rounds
  // the means themselves; more gives the legalization and refinement varied points near them.
  double roundingNoise = 0.0;

  // ---- augmented Lagrangian with Adam (GAUS.md "Augmented Lagrangian") ----
  double learningRate = 0.01;   // lr, in time steps (the paper's setting)
  std::int64_t adamSteps = 50;  // K: Adam steps between multiplier updates
  double rho0 = 1.0e-4;         // initial penalty (the paper's setting)
  double gamma = 2.0;           // rho growth factor
  double eta = 0.75;            // grow rho when the violation fell by less than this factor
  double rhoMax = 1.0e4;        // penalty cap
  double tau = 1.0e-2;          // logsumexp temperature of smooth maxima (normalized units)
  // A: weight of communication (GS-Schedule's weight ratio 100); on a stage problem the
  // problem's ratio sets it (1 / stageRatio).
  double alpha = 1.0e-2;
  double harden = 1.0e-3;  // weight of sum(sigma): pulls distributions toward points

  // ---- outer loop (GAUS.md "Legalization") ----
  // B: independent starts optimized together; 0 = auto: clamp(10000 / |V|, 1, 8), i.e. 8 rows
  // for graphs up to 1,250 ops (cheap there, and it finds more) down to 1 from 10,000 ops on;
  // on a GPU, up to 8 rows as half its free memory holds (a step of 8 rows costs about one's).
  std::int64_t batch = 0;
  // Odd batch rows start from the ASAP/ALAP midpoint when the others start from a schedule (and
  // from the schedule when the others start from the midpoint): two kinds of start per batch.
  bool mixedStarts = true;
  std::int64_t updatesPerRound = 20;  // multiplier updates before a restart from the best
  std::int64_t patience = 3;          // rounds without improvement before giving up
  std::optional<double> timeLimitSeconds = 60.0;  // unset: no limit
  std::optional<std::int64_t> maxSteps;           // Adam step budget over the whole run
  std::optional<double> target;                   // stop once the objective is <= target
  Initialization initialization = Initialization::kAuto;
  // Legalize never before round(mu): "auto" uses it for A and B (whose horizons the means must
  // keep), not for L and C (whose list priority round(mu) is enough).
  std::string releaseTimes = "auto";  // auto | on | off
  // A: refine every legalized schedule by moving single ops and swapping pairs between stages
  // (heuristic::refineStages) where no op reserves a limited resource.
  bool refine = true;
  // B with refine: the attempt's best schedule takes the regions around its peak cycles from
  // every other candidate where they are lower there (docs/gaus.md, "Splicing candidates").
  bool splice = true;
  // B with refine: windows around the best schedule's peak clusters re-placed at each local
  // optimum of its refinement, by minimum cuts and then exactly (a MILP) where those stop
  // (docs/gaus.md, "Cut windows" and "Exact windows").
  bool windows = true;
  // B: more starts beside list scheduling's (docs/gaus.md, "Starts of B"): the least-peak
  // schedule of the Lagrangian bound's minimum cuts over the whole horizon, and force-directed
  // scheduling's, each within a share of the time.
  bool lagrangianStart = true;
  bool fdsStart = true;
  // The MILP solver of those windows.
  milp::MilpSolver solver = milp::kDefaultMilpSolver;
  ModuloObjective moduloObjective = ModuloObjective::kAuto;
  // L and C's outer search: linear (D - 1 after each success, stop at the first failure),
  // bisect, or auto (bisect when the gap to the lower bound exceeds 32).
  std::string horizonSearch = "auto";
  LegalizationMode legalization = LegalizationMode::kAsync;
  // Async: seconds of refinement (A, B) per piece of the worker's work, so that it takes new
  // means at least this often; a refinement the slice cut goes on in later slices while its
  // candidate is the best.
  double refineSliceSeconds = 1.0;
  // Async: threads that legalize the rows of one offer side by side (each row is independent).
  // 0: on a GPU, as many as the rows and the cores less one (the optimizer's) allow; on the CPU,
  // one (LibTorch's threads have the other cores).
  std::int64_t legalizationThreads = 0;
  double horizonSlack = 0.5;  // C without a horizon: D = (1 + slack) * the start's latency

  // ---- runtime (GAUS.md "Engineering") ----
  std::string device = "auto";    // auto | cpu | cuda
  std::string dtype = "float32";  // float32 | float64
  std::string kernels = "auto";   // auto (fused on CPU, LibTorch on CUDA) | fused | torch
  std::int64_t threads = 0;       // CPU threads for LibTorch and the fused kernels; 0: default
  // Refuse a run whose tensors are estimated above this many bytes before they are allocated
  // (gaus_scheduler.cpp, tensorFootprint; core/memory_limit.hpp).
  std::int64_t memoryLimitBytes = defaultMemoryLimitBytes();
  std::uint64_t seed = 1;
  std::string tracePath;                 // CSV (.csv) or JSON lines (other) trace of each update
  double progressIntervalSeconds = 1.0;  // at most one progress line per interval
};

// The table that parses, checks, echoes and documents GausOptions (method "gaus").
const OptionTable<GausOptions>& gausOptionTable();

}  // namespace gaus::differentiable
