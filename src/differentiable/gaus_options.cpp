// The option table of the "gaus" method: one entry per field of GausOptions, which parses,
// checks, echoes and documents them.
#include <fmt/format.h>

#include <gaus/differentiable/gaus_options.hpp>

namespace gaus::differentiable {

namespace {

// A rule across two fields, as the table's require() takes it.
OptionTable<GausOptions>::Rule ordered(const char* rule, bool (*holds)(const GausOptions&)) {
  return [rule, holds](const GausOptions& options) -> std::optional<std::string> {
    if (holds(options)) return std::nullopt;
    return std::string(rule);
  };
}

OptionTable<GausOptions> makeTable() {
  using O = GausOptions;
  const auto positive = NumericRange::above(0);
  const auto nonNegative = NumericRange::atLeast(0);
  OptionTable<O> table("gaus");
  table
      .add("formulation", &O::formulation, kFormulationNames,
           "A (stage weight), B (peak memory), C (modulo), L (latency search) or auto")
      .add("lr", &O::learningRate, "Adam learning rate, in time steps", positive)
      .add("K", &O::adamSteps, "Adam steps between multiplier updates", NumericRange::atLeast(1))
      .add("rho0", &O::rho0, "initial penalty rho", positive)
      .add("gamma", &O::gamma, "rho growth factor", NumericRange::atLeast(1))
      .add("eta", &O::eta, "grow rho when the violation fell by less than this factor",
           NumericRange::aboveUpTo(0, 1))
      .add("rho_max", &O::rhoMax, "cap on rho", positive)
      .add("sigma_min", &O::sigmaMin, "smallest sigma", positive)
      .add("sigma_max", &O::sigmaMax, "largest sigma (sets the window width)", positive)
      .add("kappa", &O::kappa,
           "initial sigma = kappa * (ALAP - ASAP), clamped to [sigma_min, sigma_max]", positive)
      .add("sigma_restart", &O::sigmaRestart, "sigma when mu restarts from a schedule", positive)
      .add("rounding_noise", &O::roundingNoise,
           "std. dev. (steps) of noise on mu before a candidate is rounded (A, B, L); 0: round "
           "the means",
           nonNegative)
      .add("restart_noise", &O::restartNoise, "std. dev. of the noise on mu of batch rows 1..B-1",
           nonNegative)
      .add("tau", &O::tau, "temperature of the smooth maxima (normalized units)", positive)
      .add("alpha", &O::alpha,
           "A: weight of communication (a stage problem uses 1 / its ratio instead)", nonNegative)
      .add("harden", &O::harden, "weight of sum(sigma) in the loss", nonNegative)
      .add("window_k", &O::windowK, "window W = 2 * ceil(k * sigma_max) + 1", positive)
      .add("dense", &O::dense, "use the |V| x D model (W = D; for tests)")
      .add("batch", &O::batch,
           "B: independent starts optimized as one batch (0: 8 up to 1,250 ops, 1 from 10,000 "
           "on; on a GPU up to 8, as half its free memory holds)",
           nonNegative)
      .add("mixed_starts", &O::mixedStarts,
           "odd batch rows start from the ASAP/ALAP midpoint, the others from a schedule")
      .add("updates_per_round", &O::updatesPerRound,
           "multiplier updates per round before mu restarts from the best schedule",
           NumericRange::atLeast(1))
      .add("patience", &O::patience, "rounds without improvement before an attempt stops",
           NumericRange::atLeast(1))
      .add("time_limit", &O::timeLimitSeconds, "seconds for the whole run; none: no limit",
           positive)
      .add("max_steps", &O::maxSteps, "Adam step budget; none: no budget", nonNegative)
      .add("target", &O::target, "stop once the objective is <= target; none: no target")
      .add("init", &O::initialization, kInitializationNames,
           "auto, asap-alap, list or given (the caller's start schedule, e.g. --init)")
      .add("refine", &O::refine,
           "A: refine each legalized schedule by single-op moves and pair swaps between stages; "
           "B: by single-op moves for peak live memory (problems without limited resources)")
      .add("splice", &O::splice,
           "B with refine: the best schedule takes, from every other candidate, the ops around "
           "its peak cycles where the candidate's are lower there")
      .add("windows", &O::windows,
           "B with refine: windows around the best schedule's peak clusters re-placed at each "
           "local optimum of its refinement, by minimum cuts, then exactly (MILP)")
      .add("lagrangian_start", &O::lagrangianStart,
           "B: a start from the Lagrangian bound's minimum cuts over the whole horizon")
      .add("fds_start", &O::fdsStart, "B: a start from force-directed scheduling")
      .add("solver", &O::solver, milp::kMilpSolverNames,
           "B with windows: the MILP solver of the windows, highs or cbc")
      .add("release", &O::releaseTimes, {"auto", "on", "off"},
           "legalize never before round(mu): auto (A and B), on, off")
      .add("objective", &O::moduloObjective, kModuloObjectiveNames,
           "C's objective at its II, named as the problem's: auto (peak_memory where some op has "
           "mem, else latency), none, latency or peak_memory")
      .add("horizon_search", &O::horizonSearch, {"auto", "linear", "bisect"},
           "L and C: linear, bisect, or auto (bisect gaps over 32)")
      .add("legalization", &O::legalization, kLegalizationModeNames,
           "async: a worker legalizes the latest means while the optimizer steps; sync: at each "
           "multiplier update, on the optimizer's thread (a run is then a function of its seed)")
      .add("refine_slice", &O::refineSliceSeconds,
           "async: seconds of refinement (A, B) per piece of the worker's work; a cut refinement "
           "goes on later while its candidate is the best",
           positive)
      .add("legalization_threads", &O::legalizationThreads,
           "async: threads legalizing the rows of one offer side by side (0: on a GPU the "
           "cores less one, up to the batch; on the CPU one)",
           nonNegative)
      .add("horizon_slack", &O::horizonSlack,
           "C without a horizon: D = (1 + slack) * the start's latency", nonNegative)
      .add("device", &O::device, {"auto", "cpu", "cuda"}, "where the tensors live")
      .add("dtype", &O::dtype, {"float32", "float64"}, "floating-point type of the model")
      .add("kernels", &O::kernels, {"auto", "fused", "torch"},
           "auto (fused on CPU, LibTorch on CUDA), fused or torch")
      .add("threads", &O::threads,
           "CPU threads (0: LibTorch's default; on the CPU with legalization=async, one fewer "
           "than the cores, which the worker takes)",
           nonNegative)
      .add("memory_limit", &O::memoryLimitBytes,
           "bytes: refuse a run whose tensors are estimated above this before they are "
           "allocated; default 90 % of physical memory",
           NumericRange::atLeast(1))
      .defaultFrom(std::string(kDefaultMemoryLimitRule))
      .add("seed", &O::seed, "seed of the multi-start noise")
      .add("trace", &O::tracePath,
           "trace file: CSV when it ends in .csv, else JSON lines; empty: none")
      .add("progress_interval", &O::progressIntervalSeconds, "seconds between progress lines",
           nonNegative)
      .require(ordered("option 'sigma_max' must exceed 'sigma_min'",
                       [](const O& o) { return o.sigmaMax > o.sigmaMin; }))
      .require(ordered("option 'rho_max' must be at least 'rho0'",
                       [](const O& o) { return o.rhoMax >= o.rho0; }));
  return table;
}

}  // namespace

const OptionTable<GausOptions>& gausOptionTable() {
  static const OptionTable<GausOptions> table = makeTable();
  return table;
}

}  // namespace gaus::differentiable
