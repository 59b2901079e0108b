// The GauS engine's entry point: resolves the formulation, finds a legal start, and runs the
// searches of GAUS.md "Formulations":
// - L: the horizon is searched from outside. Start at D = (the start's latency) - 1, solve the
//   feasibility problem at D, legalize; on success record the schedule and try (its latency) - 1,
//   on failure stop. The lower bound max(critical path, ResMII) ends the search as optimal.
// - C without a given II: the same search over II, from the iterative modulo scheduler's II
//   down to MinII = max(ResMII, RecMII). With a given II: one attempt at it, minimizing the
//   secondary objective (modulo memory or latency).
// - A and B: one attempt at the given horizon, minimizing the objective. A (also the stage
//   problem's formulation) starts from the better of list scheduling and the greedy balanced cut,
//   and refines every legalized schedule by moves and swaps between stages
//   (heuristic::refineStages); B refines every legalized schedule by single-op moves for peak
//   live memory (live_memory::refine; docs/gaus.md says why).
// The result is never worse than the start it was given (keep-best): the start is the first
// "best" and only strictly better verified schedules replace it.
// Candidates are legalized by the legalization worker (legalization_worker.hpp), beside the
// optimizer or, with legalization=sync, at each multiplier update on the optimizer's thread.
// Each formulation's search is its part (gaus_run.hpp's FormulationPart: latency_search.cpp,
// stage_weight_search.cpp, peak_memory_search.cpp, modulo_search.cpp) and returns its Result as a
// value; what the searches share is the run's fixed setup (RunSetup, read-only) and the
// optimizer's machinery (RunMachinery: budget, trace, random numbers, the worker), gaus_run.hpp.
// The searches over D and II are rounds (descending_search.hpp): each round is a function of the
// setup and of the state the previous round left (the best legal schedule so far), and returns
// the next state, its attempt record and what it reached as a value, so the state the loop
// carries is in plain sight.
// scheduleWithGaus itself reads in steps: the options resolved (threads, batch size), the
// tensors' memory refused before they are built, the setup, the search, how the run ended and
// its figures.

#include <algorithm>
#include <cmath>
#include <thread>

#include <ATen/Parallel.h>
#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/memory_limit.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/core/problem_kinds.hpp>
#include <gaus/differentiable/gaus_figures.hpp>
#include <gaus/differentiable/gaus_scheduler.hpp>
#include <gaus/heuristic/list_scheduler.hpp>

#include "formulation.hpp"
#include "gaus_run.hpp"
#include "window_distribution.hpp"

namespace gaus::differentiable {

namespace {

// The formulation that minimizes an objective (kAuto: none does; modulo-warp has no GauS
// formulation).
Formulation formulationFor(ProblemObjective objective) {
  switch (objective) {
    case ProblemObjective::kLatency:
      return Formulation::kLatency;
    case ProblemObjective::kIi:
      return Formulation::kModulo;
    case ProblemObjective::kPeakMemory:
      return Formulation::kPeakMemory;
    case ProblemObjective::kStageCost:
      return Formulation::kStageWeight;
    case ProblemObjective::kMethodDefault:
      break;
  }
  return Formulation::kAuto;
}

// The problem's objective picks the formulation (core's preferredObjectives where nobody named
// one: B where ops have mem, else A, on a latency-bounded problem); a formulation given with
// -O formulation must fit the kind and, when the objective was named, minimize it.
Expected<Formulation> resolveFormulation(const Problem& problem, Formulation requested) {
  const ProblemObjective objective = askedObjective(problem);
  Formulation formulation = requested == Formulation::kAuto ? formulationFor(objective) : requested;
  const bool fits =
      (formulation == Formulation::kLatency && problem.kind == ProblemKind::kLatency) ||
      ((formulation == Formulation::kStageWeight || formulation == Formulation::kPeakMemory) &&
       problem.kind == ProblemKind::kLatencyBounded) ||
      (formulation == Formulation::kStageWeight && problem.kind == ProblemKind::kStages) ||
      (formulation == Formulation::kModulo && problem.kind == ProblemKind::kModulo);
  if (!fits) {
    return Error{
        fmt::format("formulation {} does not fit a {} problem (L: latency, A and B: "
                    "latency-bounded with --horizon, A: stages too, C: modulo)",
                    toString(formulation), toString(problem.kind))};
  }
  if (problem.objectiveNamed && formulation != formulationFor(objective)) {
    return Error{fmt::format(
        "formulation {} does not minimize the objective {} (peak_memory: B, stage_cost: A, "
        "latency: L, ii: C); leave the formulation out to follow the objective",
        toString(formulation), toString(objective))};
  }
  return formulation;
}

// The formulation's part (gaus_run.hpp): the one place that maps a formulation to its search.
const FormulationPart& partOf(Formulation formulation) {
  switch (formulation) {
    case Formulation::kStageWeight:
      return stageWeightPart();
    case Formulation::kPeakMemory:
      return peakMemoryPart();
    case Formulation::kModulo:
      return moduloPart();
    default:
      return latencyPart();
  }
}

// ------------------------------------------------------------------ memory limit, before tensors
// Tensors live at once per window element, estimated from gaus-bench gaus-scale and
// `gaus schedule --method gaus` under /usr/bin/time (docs/benchmarks.md): 100,000 ops and 299,764
// edges at W = 65, batch 1, float32. The fused kernels peaked at 0.43 GB RSS, about 0.35 GB above
// the process without a model, i.e. 3.4 tensors of (|V| + |E|) x W elements; LibTorch's
// operators (the CUDA path), which recompute the window terms chunk by chunk in the backward pass
// (chunked_evaluation.hpp), at 0.85 GB, i.e. 7.2 such tensors. Both rounded up.
constexpr double kFusedTensorCopies = 4.0;
constexpr double kLibTorchTensorCopies = 8.0;
// The most rows an automatic batch takes on a GPU (as on the CPU for small graphs).
constexpr std::int64_t kMaxBatch = 8;

// The longest horizon any attempt may use: the problem's, else a serial schedule's length (ops
// one at a time, each waiting its longest delay), which no start's latency exceeds.
std::int64_t largestHorizon(const Problem& problem) {
  if (problem.horizon) return *problem.horizon;
  const Graph& graph = *problem.graph;
  std::int64_t serial = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    Cycle longest = graph.duration(op);
    for (EdgeId e : graph.outEdges(op)) longest = std::max<Cycle>(longest, graph.edgeDelay(e));
    serial += std::max<Cycle>(longest, 1);
  }
  return std::max<std::int64_t>(serial, 1);
}

// The run's tensors, estimated before any is allocated: per batch row, the windows of ops and
// edges ((|V| + |E|) x W: probabilities, CDF gathers and their gradients) and the resource tables
// (|R| x D), as many copies of each as the kernels keep (GAUS.md, "Windows, not |V| x D
// tensors"), at the longest horizon any attempt may use.
struct TensorFootprint {
  WindowGeometry largest;  // the widest windows of the run
  double rowBytes = 0.0;   // one batch row's tensors

  std::int64_t bytes(std::int64_t batch) const {
    return static_cast<std::int64_t>(std::min(rowBytes * static_cast<double>(batch), 9.0e18));
  }
};

TensorFootprint tensorFootprint(const Problem& problem, const GausOptions& options,
                                const TensorSettings& settings) {
  const Graph& graph = *problem.graph;
  TensorFootprint footprint;
  footprint.largest = makeWindowGeometry(largestHorizon(problem), options);
  const double elementBytes = options.dtype == "float64" ? 8.0 : 4.0;
  const double copies = settings.fused ? kFusedTensorCopies : kLibTorchTensorCopies;
  const double elements = static_cast<double>(graph.numOps() + graph.numEdges()) *
                              static_cast<double>(footprint.largest.width) +
                          static_cast<double>(problem.machine->numResources()) *
                              static_cast<double>(footprint.largest.horizon);
  footprint.rowBytes = copies * elementBytes * elements;
  return footprint;
}

// Option threads: LibTorch's threads, set for the process.
void setLibTorchThreads(const GausOptions& options, const TensorSettings& settings) {
  if (options.threads > 0) {
    at::set_num_threads(static_cast<int>(options.threads));
  } else if (settings.device.is_cpu() && options.legalization == LegalizationMode::kAsync) {
    // The worker thread legalizes beside the steps: LibTorch's pool on every core would share
    // one with it, and its parallel loops wait for their slowest thread. On 16 cores of the GPU
    // machine, 15 threads stepped 1.3x faster than 16 (100k ops, fused; docs/benchmarks.md).
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    at::set_num_threads(static_cast<int>(std::max(1u, cores - 1)));
  }
}

// The options as the run uses them: the stage problem's alpha, and "0" (automatic) batch size and
// legalization threads resolved.
GausOptions resolveRunOptions(const Problem& problem, const GausOptions& options,
                              const TensorSettings& settings, const TensorFootprint& footprint,
                              std::optional<std::int64_t> deviceFreeBytes) {
  GausOptions resolved = options;
  // The stage problem carries its objective: alpha is 1 / its ratio.
  if (problem.kind == ProblemKind::kStages) resolved.alpha = 1.0 / problem.stageRatio;
  if (resolved.batch == 0) {
    const std::int64_t ops = std::max<std::int64_t>(problem.graph->numOps(), 1);
    resolved.batch = std::clamp<std::int64_t>(10000 / ops, 1, 8);
    if (deviceFreeBytes) {
      // A GPU step costs about as much for 8 rows as for one (3.8 ms per step at 100k ops on an
      // H200, docs/benchmarks.md): take the rows that half the free device memory holds, at most
      // kMaxBatch, and leave the other half to LibTorch's caching allocator and other processes.
      const std::int64_t rowBytes = std::max<std::int64_t>(footprint.bytes(1), 1);
      resolved.batch = std::clamp<std::int64_t>(*deviceFreeBytes / 2 / rowBytes, 1, kMaxBatch);
    }
  }
  if (resolved.legalizationThreads == 0) {
    // On a GPU the host's cores are idle but for the optimizer's thread: the rows of an offer
    // are legalized side by side, as many at once as the cores allow. On the CPU LibTorch's threads
    // have those cores.
    const auto cores = static_cast<std::int64_t>(std::max(1u, std::thread::hardware_concurrency()));
    resolved.legalizationThreads =
        settings.device.is_cpu() ? 1 : std::clamp<std::int64_t>(cores - 1, 1, resolved.batch);
  }
  return resolved;
}

// The refusal of tensors above the memory limit or the device's free memory, before they are
// built; nullopt when they fit.
std::optional<std::string> refuseTensorMemory(const Problem& problem, const GausOptions& resolved,
                                              const TensorFootprint& footprint,
                                              std::optional<std::int64_t> deviceFreeBytes) {
  const Graph& graph = *problem.graph;
  const WindowGeometry& largest = footprint.largest;
  const std::int64_t needed = footprint.bytes(resolved.batch);
  if (auto refused = refuseAboveMemoryLimit(
          fmt::format("method gaus: the tensors of {} ops and {} edges (window W = {}, horizon up "
                      "to {}, batch {}, {})",
                      graph.numOps(), graph.numEdges(), largest.width, largest.horizon,
                      resolved.batch, resolved.dtype),
          needed, resolved.memoryLimitBytes,
          resolved.dense ? "leave the dense model (-O dense=false), lower -O batch"
                         : "lower -O batch, or -O sigma_max or -O window_k (W = 2 ceil(k "
                           "sigma_max) + 1), or use float32",
          "list, ims or balanced")) {
    return refused;
  }
  if (deviceFreeBytes && needed > *deviceFreeBytes) {
    return fmt::format(
        "method gaus: the tensors of {} ops and {} edges (window W = {}, batch {}) would take "
        "about {} of GPU memory (estimated before they are built), but the device has {} free: "
        "lower -O batch, -O sigma_max or -O window_k, or run on the CPU (-O device=cpu)",
        graph.numOps(), graph.numEdges(), largest.width, resolved.batch, formatBytes(needed),
        formatBytes(*deviceFreeBytes));
  }
  return std::nullopt;
}

// C's secondary objective: "auto" is peak memory where ops have mem, else latency.
ModuloObjective resolveModuloObjective(const ProblemFacts& facts, ModuloObjective requested) {
  if (requested != ModuloObjective::kAuto) return requested;
  return facts.hasLiveMemory() ? ModuloObjective::kMemory : ModuloObjective::kLatency;
}

// The run's fixed setup, but for list scheduling (prepareListScheduler): the problem's facts
// (its order and ASAP times among them) read, not computed again.
RunSetup makeSetup(const Problem& problem, const GausOptions& resolved,
                   const TensorSettings& settings, Formulation formulation,
                   const RunContext& context, std::shared_ptr<const ProblemFacts> facts) {
  const FormulationPart& part = partOf(formulation);
  const ProblemFacts& known = *facts;
  return RunSetup{
      .problem = problem,
      .facts = std::move(facts),
      .graph = *problem.graph,
      .options = resolved,
      .settings = settings,
      .formulation = formulation,
      .part = &part,
      .moduloObjective = formulation == Formulation::kModulo
                             ? resolveModuloObjective(known, resolved.moduloObjective)
                             : ModuloObjective::kNone,
      .givenSchedule = context.initialSchedule,
      .order = *known.order(),
      .asap = known.asap(),
      .criticalPath = known.criticalPath(),
      .rows = RowOrder::byLatestStart(*problem.graph, *known.order()),
      .refine = resolved.refine && part.boundedHorizon && !known.usesLimitedResource(),
      .listScheduler = std::nullopt,
  };
}

// Acyclic problems: list scheduling prepared once, on the problem's order and ASAP times.
std::optional<std::string> prepareListScheduler(RunSetup& setup) {
  if (setup.problem.isModulo()) return std::nullopt;
  auto scheduler = heuristic::ListScheduler::prepare(setup.problem);
  if (!scheduler) return "method gaus: " + scheduler.error();
  setup.listScheduler = std::move(scheduler).value();
  return std::nullopt;
}

Result runSearch(const RunSetup& setup, RunMachinery& machinery) {
  if (setup.graph.numOps() == 0) {
    Result result;
    result.status = ModelStatus::kOptimal;
    result.schedule = Schedule{};
    if (setup.problem.isModulo()) result.schedule->ii = setup.problem.ii.value_or(1);
    return result;
  }
  return setup.part->search(setup, machinery);
}

// What ended a run that no proof ended: the time limit (or a cancel), or the step budget.
void judgeEnd(const RunSetup& setup, const RunMachinery& machinery, Result& result) {
  const RunBudget& budget = machinery.budget;
  // A proof (optimal, infeasible) stands whatever ended the run.
  if (result.failed() || !budget.exhausted() || result.status == ModelStatus::kOptimal ||
      result.status == ModelStatus::kInfeasible) {
    return;
  }
  if (budget.outOfTime()) {
    result.status = ModelStatus::kTimeout;
    if (result.message.empty()) {
      result.message =
          fmt::format("{} after {:.1f}s and {} Adam steps; the best schedule found is returned",
                      budget.cancelled() ? "cancelled" : "time limit reached",
                      budget.elapsedSeconds(), budget.steps());
    }
    return;
  }
  // The step budget the user set ended the run: the run did what it was asked, which is not a
  // time-out. A schedule is then a feasible answer; without one nothing is established.
  const bool saidTimeout = result.status == ModelStatus::kTimeout;
  result.status = result.hasSchedule() ? ModelStatus::kFeasible : ModelStatus::kUnknown;
  if (saidTimeout || result.message.empty()) {
    result.message =
        fmt::format("step budget reached: {} of max_steps={} Adam steps in {:.1f}s; {}",
                    budget.steps(), setup.options.maxSteps.value_or(0), budget.elapsedSeconds(),
                    result.hasSchedule() ? "the best schedule found is returned"
                                         : "no legal schedule found; raise max_steps or patience");
  }
}

// What "auto" resolved to (the options themselves are echoed by the method's table), and the
// run's figures: the optimizer's and the legalization worker's.
void reportRun(const RunSetup& setup, const RunMachinery& machinery, Result& result) {
  result.notes.emplace_back("formulation used", std::string(toString(setup.formulation)));
  result.notes.emplace_back("device used", setup.settings.device.str());
  result.notes.emplace_back("kernels used", setup.settings.fused ? "fused" : "torch");
  const LegalizationFigures legalization = machinery.worker.figures();
  const RunBudget& budget = machinery.budget;
  const double runSeconds = budget.elapsedSeconds();
  result.figures.set(figures::kBatchUsed, static_cast<double>(setup.options.batch));
  result.stats.iterations = budget.steps();
  result.stats.solverCalls = legalization.legalizedCandidates;
  result.figures.set(figures::kAdamSteps, static_cast<double>(budget.steps()));
  result.figures.set(figures::kOptimizationSeconds, budget.optimizationSeconds);
  result.figures.set(figures::kLegalizationSeconds, legalization.legalizationSeconds);
  result.figures.set(figures::kLegalizedCandidates,
                     static_cast<double>(legalization.legalizedCandidates));
  if (legalization.legalizedCandidates > 0) {
    const auto candidates = static_cast<double>(legalization.legalizedCandidates);
    result.figures.set(figures::kSecondsPerCandidate, legalization.candidateSeconds / candidates);
    result.figures.set(figures::kCpuSecondsPerCandidate,
                       legalization.candidateCpuSeconds / candidates);
    result.figures.set(figures::kLongestCandidateSeconds, legalization.longestCandidateSeconds);
  }
  result.figures.set(figures::kOptimizerWaitSeconds, legalization.optimizerWaitSeconds);
  if (runSeconds > 0) {
    result.figures.set(figures::kOptimizerWaitShare,
                       legalization.optimizerWaitSeconds / runSeconds);
  }
  if (budget.steps() > 0) {
    result.figures.set(figures::kSecondsPerStep,
                       budget.optimizationSeconds / static_cast<double>(budget.steps()));
  }
  if (legalization.firstLegalSeconds) {
    result.figures.set(figures::kFirstLegalSeconds, *legalization.firstLegalSeconds);
  }
}

}  // namespace

Result scheduleWithGaus(const Problem& problem, const GausOptions& options,
                        const RunContext& context) {
  auto settings = resolveTensorSettings(options.device, options.dtype, options.kernels);
  if (!settings) return errorResult("method gaus: " + settings.error());
  auto formulation = resolveFormulation(problem, options.formulation);
  if (!formulation) return errorResult("method gaus: " + formulation.error());
  if (options.initialization == Initialization::kGiven && context.initialSchedule == nullptr) {
    return errorResult(
        "method gaus: init=given needs an initial schedule (RunContext::initialSchedule)");
  }
  auto trace = ProgressTrace::open(context, options.tracePath, options.progressIntervalSeconds);
  if (!trace) return errorResult("method gaus: " + trace.error());
  auto facts = problem.facts();
  if (!facts->order()) return errorResult(facts->order().error());
  setLibTorchThreads(options, *settings);
  const std::optional<std::int64_t> deviceFreeBytes = freeDeviceBytes(*settings);
  // The footprint depends on the window options and the dtype, none of which is resolved.
  const TensorFootprint footprint = tensorFootprint(problem, options, *settings);
  const GausOptions resolved =
      resolveRunOptions(problem, options, *settings, footprint, deviceFreeBytes);
  if (auto refused = refuseTensorMemory(problem, resolved, footprint, deviceFreeBytes)) {
    return errorResult(*refused);
  }

  RunSetup setup = makeSetup(problem, resolved, *settings, *formulation, context, std::move(facts));
  if (auto failed = prepareListScheduler(setup)) return errorResult(*failed);
  RunMachinery machinery(resolved, context, std::move(trace).value());
  Result result = runSearch(setup, machinery);
  if (auto failure = machinery.worker.failure()) {
    return errorResult("method gaus: legalization failed: " + *failure);
  }
  judgeEnd(setup, machinery, result);
  reportRun(setup, machinery, result);
  return result;
}

}  // namespace gaus::differentiable
