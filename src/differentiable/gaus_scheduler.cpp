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
//   live memory (heuristic::refineLiveMemory; docs/gaus.md says why).
// The result is never worse than the start it was given (keep-best): the start is the first
// "best" and only strictly better verified schedules replace it.
// Candidates are legalized by the legalization worker (legalization_worker.hpp), beside the
// optimizer or, with legalization=sync, at each multiplier update on the optimizer's thread.
// Each search (gaus_searches.cpp) returns its Result as a value; what the searches share is the
// run's fixed setup (RunSetup, read-only) and the optimizer's machinery (Engine: budget, trace,
// random numbers, the worker), gaus_run.hpp. The searches over D and II are rounds
// (descending_search.hpp): each round is a function of the setup and of the state the previous
// round left (the best legal schedule so far), and returns the next state, its attempt record
// and what it reached as a value, so the state the loop carries is in plain sight.

#include <algorithm>
#include <cmath>
#include <thread>

#include <ATen/Parallel.h>
#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/live_memory_bound.hpp>
#include <gaus/core/memory_limit.hpp>
#include <gaus/differentiable/gaus_figures.hpp>
#include <gaus/differentiable/gaus_scheduler.hpp>
#include <gaus/heuristic/list_scheduler.hpp>

#include "formulation.hpp"
#include "gaus_run.hpp"
#include "window_distribution.hpp"

namespace gaus::differentiable {

namespace {

Expected<Formulation> resolveFormulation(const Problem& problem, Formulation requested) {
  const Graph& graph = *problem.graph;
  Formulation formulation = requested;
  if (formulation == Formulation::kAuto) {
    switch (problem.kind) {
      case ProblemKind::kLatency:
        formulation = Formulation::kLatency;
        break;
      case ProblemKind::kLatencyBounded: {
        // The stated objective picks the formulation; unset, B where ops have mem.
        if (problem.objective == ProblemObjective::kPeakMemory) {
          formulation = Formulation::kPeakMemory;
          break;
        }
        if (problem.objective == ProblemObjective::kStageCost) {
          formulation = Formulation::kStageWeight;
          break;
        }
        formulation = hasLiveMemory(graph) ? Formulation::kPeakMemory : Formulation::kStageWeight;
        break;
      }
      case ProblemKind::kModulo:
        formulation = Formulation::kModulo;
        break;
      case ProblemKind::kModuloWarp:
        return Error{"gaus does not solve modulo-warp problems; use method twill"};
      case ProblemKind::kStages:
        formulation = Formulation::kStageWeight;
        break;
    }
  }
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
  // A formulation given beside an objective must minimize it.
  const bool minimizes =
      problem.objective == ProblemObjective::kMethodDefault ||
      (problem.objective == ProblemObjective::kPeakMemory &&
       formulation == Formulation::kPeakMemory) ||
      (problem.objective == ProblemObjective::kStageCost &&
       formulation == Formulation::kStageWeight) ||
      (problem.objective == ProblemObjective::kLatency && formulation == Formulation::kLatency) ||
      (problem.objective == ProblemObjective::kIi && formulation == Formulation::kModulo);
  if (!minimizes) {
    return Error{fmt::format(
        "formulation {} does not minimize the objective {} (peak_memory: B, stage_cost: A, "
        "latency: L, ii: C); leave the formulation out to follow the objective",
        toString(formulation), toString(problem.objective))};
  }
  return formulation;
}

bool reservesLimitedResource(const Problem& problem) {
  for (OpId op = 0; op < problem.graph->numOps(); ++op) {
    for (const auto& block : problem.graph->reservation(op)) {
      if (problem.machine->resources[block.resource].limited()) return true;
    }
  }
  return false;
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

// Bytes the run's tensors may take, before any is allocated: per batch row, the windows of ops
// and edges ((|V| + |E|) x W: probabilities, CDF gathers and their gradients) and the resource
// tables (|R| x D), as many copies of each as the kernels keep (GAUS.md, "Windows, not |V| x D
// tensors").
std::int64_t estimatedTensorBytes(const Problem& problem, const GausOptions& options,
                                  const TensorSettings& settings, const WindowGeometry& geometry) {
  const Graph& graph = *problem.graph;
  const double elementBytes = options.dtype == "float64" ? 8.0 : 4.0;
  const double copies = settings.fused ? kFusedTensorCopies : kLibTorchTensorCopies;
  const double elements =
      static_cast<double>(graph.numOps() + graph.numEdges()) * static_cast<double>(geometry.width) +
      static_cast<double>(problem.machine->numResources()) * static_cast<double>(geometry.horizon);
  return static_cast<std::int64_t>(
      std::min(copies * static_cast<double>(options.batch) * elementBytes * elements, 9.0e18));
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
  auto order = topologicalOrder(*problem.graph);
  if (!order) return errorResult(order.error());
  if (options.threads > 0) {
    at::set_num_threads(static_cast<int>(options.threads));
  } else if (settings->device.is_cpu() && options.legalization == LegalizationMode::kAsync) {
    // The worker thread legalizes beside the steps: LibTorch's pool on every core would share
    // one with it, and its parallel loops wait for their slowest thread. On 16 cores of the GPU
    // machine, 15 threads stepped 1.3x faster than 16 (100k ops, fused; docs/benchmarks.md).
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    at::set_num_threads(static_cast<int>(std::max(1u, cores - 1)));
  }
  GausOptions resolved = options;
  // The stage problem carries its objective: alpha is 1 / its ratio.
  if (problem.kind == ProblemKind::kStages) resolved.alpha = 1.0 / problem.stageRatio;
  const WindowGeometry largest = makeWindowGeometry(largestHorizon(problem), resolved);
  const std::optional<std::int64_t> deviceFreeBytes = freeDeviceBytes(*settings);
  if (resolved.batch == 0) {
    const std::int64_t ops = std::max<std::int64_t>(problem.graph->numOps(), 1);
    resolved.batch = std::clamp<std::int64_t>(10000 / ops, 1, 8);
    if (deviceFreeBytes) {
      // A GPU step costs about as much for 8 rows as for one (3.8 ms per step at 100k ops on an
      // H200, docs/benchmarks.md): take the rows that half the free device memory holds, at most
      // kMaxBatch, and leave the other half to LibTorch's caching allocator and other processes.
      GausOptions oneRow = resolved;
      oneRow.batch = 1;
      const std::int64_t rowBytes =
          std::max<std::int64_t>(estimatedTensorBytes(problem, oneRow, *settings, largest), 1);
      resolved.batch = std::clamp<std::int64_t>(*deviceFreeBytes / 2 / rowBytes, 1, kMaxBatch);
    }
  }
  if (resolved.legalizationThreads == 0) {
    // On a GPU the host's cores are idle but for the optimizer's thread: the rows of an offer
    // are legalized side by side, as many at once as the cores allow. On the CPU LibTorch's threads
    // have those cores.
    const auto cores = static_cast<std::int64_t>(std::max(1u, std::thread::hardware_concurrency()));
    resolved.legalizationThreads =
        settings->device.is_cpu() ? 1 : std::clamp<std::int64_t>(cores - 1, 1, resolved.batch);
  }
  if (auto refused = refuseAboveMemoryLimit(
          fmt::format("method gaus: the tensors of {} ops and {} edges (window W = {}, horizon up "
                      "to {}, batch {}, {})",
                      problem.graph->numOps(), problem.graph->numEdges(), largest.width,
                      largest.horizon, resolved.batch, resolved.dtype),
          estimatedTensorBytes(problem, resolved, *settings, largest), resolved.memoryLimitBytes,
          resolved.dense ? "leave the dense model (-O dense=false), lower -O batch"
                         : "lower -O batch, or -O sigma_max or -O window_k (W = 2 ceil(k "
                           "sigma_max) + 1), or use float32",
          "list, ims or balanced")) {
    return errorResult(*refused);
  }
  if (const std::int64_t needed = estimatedTensorBytes(problem, resolved, *settings, largest);
      deviceFreeBytes && needed > *deviceFreeBytes) {
    return errorResult(fmt::format(
        "method gaus: the tensors of {} ops and {} edges (window W = {}, batch {}) would take "
        "about {} of GPU memory (estimated before they are built), but the device has {} free: "
        "lower -O batch, -O sigma_max or -O window_k, or run on the CPU (-O device=cpu)",
        problem.graph->numOps(), problem.graph->numEdges(), largest.width, resolved.batch,
        formatBytes(needed), formatBytes(*deviceFreeBytes)));
  }

  RunSetup setup{problem,
                 *problem.graph,
                 resolved,
                 *settings,
                 *formulation,
                 ModuloObjective::kNone,
                 context.initialSchedule,
                 std::move(order).value(),
                 {},
                 0,
                 false,
                 std::nullopt};
  setup.asap = asapTimes(setup.graph, setup.order);
  setup.criticalPath = criticalPathLength(setup.graph, setup.asap);
  setup.refine = resolved.refine &&
                 (setup.formulation == Formulation::kStageWeight ||
                  setup.formulation == Formulation::kPeakMemory) &&
                 !reservesLimitedResource(problem);
  if (!problem.isModulo()) {
    auto scheduler = heuristic::ListScheduler::prepare(problem, {&setup.order, &setup.asap});
    if (!scheduler) return errorResult("method gaus: " + scheduler.error());
    setup.listScheduler = std::move(scheduler).value();
  }
  if (setup.formulation == Formulation::kModulo) {
    setup.moduloObjective = options.moduloObjective;
    if (setup.moduloObjective == ModuloObjective::kAuto) {
      bool hasMem = false;
      for (OpId op = 0; op < setup.graph.numOps() && !hasMem; ++op) {
        hasMem = setup.graph.mem(op) != 0;
      }
      setup.moduloObjective = hasMem ? ModuloObjective::kMemory : ModuloObjective::kLatency;
    }
  }

  Engine engine(resolved, context, std::move(trace).value());
  Result result;
  if (setup.graph.numOps() == 0) {
    result.status = ModelStatus::kOptimal;
    result.schedule = Schedule{};
    if (problem.isModulo()) result.schedule->ii = problem.ii.value_or(1);
  } else if (setup.formulation == Formulation::kLatency) {
    result = searchLatency(setup, engine);
  } else if (setup.formulation == Formulation::kModulo) {
    result = searchModulo(setup, engine);
  } else {
    result = optimizeAtHorizon(setup, engine);
  }
  if (auto failure = engine.worker.failure()) {
    return errorResult("method gaus: legalization failed: " + *failure);
  }
  // A proof (optimal, infeasible) stands whatever ended the run.
  if (!result.failed() && engine.state.exhausted() && result.status != ModelStatus::kOptimal &&
      result.status != ModelStatus::kInfeasible) {
    if (engine.state.outOfTime()) {
      result.status = ModelStatus::kTimeout;
      if (result.message.empty()) {
        result.message =
            fmt::format("{} after {:.1f}s and {} Adam steps; the best schedule found is returned",
                        engine.state.cancelled() ? "cancelled" : "time limit reached",
                        engine.state.elapsedSeconds(), engine.state.steps());
      }
    } else {
      // The step budget the user set ended the run: the run did what it was asked, which is
      // not a time-out. A schedule is then a feasible answer; without one nothing is established.
      const bool saidTimeout = result.status == ModelStatus::kTimeout;
      result.status = result.hasSchedule() ? ModelStatus::kFeasible : ModelStatus::kUnknown;
      if (saidTimeout || result.message.empty()) {
        result.message = fmt::format(
            "step budget reached: {} of max_steps={} Adam steps in {:.1f}s; {}",
            engine.state.steps(), resolved.maxSteps.value_or(0), engine.state.elapsedSeconds(),
            result.hasSchedule() ? "the best schedule found is returned"
                                 : "no legal schedule found; raise max_steps or patience");
      }
    }
  }
  // What "auto" resolved to; the options themselves are echoed by the method's table.
  result.notes.emplace_back("formulation used", std::string(toString(setup.formulation)));
  result.notes.emplace_back("device used", setup.settings.device.str());
  result.notes.emplace_back("kernels used", setup.settings.fused ? "fused" : "torch");
  const LegalizationFigures legalization = engine.worker.figures();
  const double runSeconds = engine.state.elapsedSeconds();
  result.figures.set(figures::kBatchUsed, static_cast<double>(resolved.batch));
  result.stats.iterations = engine.state.steps();
  result.stats.solverCalls = legalization.legalizedCandidates;
  result.figures.set(figures::kAdamSteps, static_cast<double>(engine.state.steps()));
  result.figures.set(figures::kOptimizationSeconds, engine.state.optimizationSeconds);
  result.figures.set(figures::kLegalizationSeconds, legalization.legalizationSeconds);
  result.figures.set(figures::kLegalizedCandidates,
                     static_cast<double>(legalization.legalizedCandidates));
  if (legalization.legalizedCandidates > 0) {
    result.figures.set(
        figures::kSecondsPerCandidate,
        legalization.candidateSeconds / static_cast<double>(legalization.legalizedCandidates));
    result.figures.set(
        figures::kCpuSecondsPerCandidate,
        legalization.candidateCpuSeconds / static_cast<double>(legalization.legalizedCandidates));
    result.figures.set(figures::kLongestCandidateSeconds, legalization.longestCandidateSeconds);
  }
  result.figures.set(figures::kOptimizerWaitSeconds, legalization.optimizerWaitSeconds);
  if (runSeconds > 0) {
    result.figures.set(figures::kOptimizerWaitShare,
                       legalization.optimizerWaitSeconds / runSeconds);
  }
  if (engine.state.steps() > 0) {
    result.figures.set(figures::kSecondsPerStep, engine.state.optimizationSeconds /
                                                     static_cast<double>(engine.state.steps()));
  }
  if (legalization.firstLegalSeconds) {
    result.figures.set(figures::kFirstLegalSeconds, *legalization.firstLegalSeconds);
  }
  return result;
}

}  // namespace gaus::differentiable
