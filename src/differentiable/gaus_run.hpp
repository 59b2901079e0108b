// What the GauS engine's searches share (internal to src/differentiable): the run's fixed setup,
// read-only, and the optimizer's machinery, which every attempt changes; and the searches of
// GAUS.md "Formulations" (gaus_searches.cpp) that scheduleWithGaus (gaus_scheduler.cpp) runs.
#pragma once

#include <optional>
#include <random>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/result.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/differentiable/gaus_options.hpp>
#include <gaus/heuristic/list_scheduler.hpp>

#include "legalization_worker.hpp"
#include "optimization_rounds.hpp"
#include "progress_trace.hpp"
#include "tensor_support.hpp"

namespace gaus::differentiable {

// What a run fixes before it optimizes; read-only from then on (the worker's legalizers read it
// from their thread too).
struct RunSetup {
  const Problem& problem;
  const Graph& graph;
  GausOptions options;
  TensorSettings settings;
  Formulation formulation = Formulation::kLatency;
  ModuloObjective moduloObjective = ModuloObjective::kNone;
  const Schedule* givenSchedule = nullptr;
  std::vector<OpId> order;
  std::vector<Cycle> asap;
  Cycle criticalPath = 0;
  // A and B: legalized schedules are refined (option refine, no limited resource reserved).
  bool refine = false;
  // Acyclic formulations: list scheduling prepared once for every candidate's legalization.
  std::optional<heuristic::ListScheduler> listScheduler;
};

// The optimizer's machinery, changed by every attempt: the budget, the progress trace, the
// random numbers of the multi-start noise, and the legalization worker.
// The worker is the last member: it stops (joins its thread) before the state it reads ends.
struct Engine {
  Engine(const GausOptions& options, const RunContext& context, ProgressTrace progress)
      : state(options, context),
        trace(std::move(progress)),
        random(options.seed),
        worker(options.legalization == LegalizationMode::kAsync, state, options.refineSliceSeconds,
               std::max<std::int64_t>(options.legalizationThreads, 1)) {}

  RunState state;
  ProgressTrace trace;
  std::mt19937_64 random;
  LegalizationWorker worker;
};

// L: the horizon searched from outside (gaus_scheduler.cpp's overview).
Result searchLatency(const RunSetup& setup, Engine& engine);
// A and B: one attempt at the problem's horizon, minimizing the objective.
Result optimizeAtHorizon(const RunSetup& setup, Engine& engine);
// C: the search over II, or one attempt at a given II.
Result searchModulo(const RunSetup& setup, Engine& engine);

}  // namespace gaus::differentiable
