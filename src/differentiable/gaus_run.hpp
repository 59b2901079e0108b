// What the GauS engine's searches share (internal to src/differentiable): the run's fixed setup,
// read-only; the optimizer's machinery, which every attempt changes; and what each formulation
// of GAUS.md "Formulations" brings (FormulationPart), each in its own file:
// - L: latency_search.cpp, the horizon searched from outside;
// - A: stage_weight_search.cpp and B: peak_memory_search.cpp, each an objective minimized at the
//   given horizon by the shared attempt of at_horizon_search.hpp;
// - C: modulo_search.cpp, the search over II or one attempt at a given II.
// scheduleWithGaus (gaus_scheduler.cpp) picks the part (partOf) and runs its search; the helpers
// the parts share are search_support.hpp's.
#pragma once

#include <memory>
#include <optional>
#include <random>
#include <vector>

#include <gaus/core/graph.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/problem_facts.hpp>
#include <gaus/core/result.hpp>
#include <gaus/core/schedule.hpp>
#include <gaus/differentiable/gaus_options.hpp>
#include <gaus/heuristic/list_scheduler.hpp>

#include "legalization_worker.hpp"
#include "optimization_rounds.hpp"
#include "progress_trace.hpp"
#include "row_order.hpp"
#include "run_budget.hpp"
#include "tensor_support.hpp"

namespace gaus::differentiable {

struct RunSetup;
struct RunMachinery;

// What one formulation brings to the machinery. Adding a formulation adds a part (and its line in
// partOf); the other parts and the shared helpers stay as they are.
struct FormulationPart {
  // The formulation's objective of a legal schedule (C: the secondary objective at its II).
  double (*objective)(const RunSetup& setup, const Schedule& schedule) = nullptr;
  // A horizon fixed by the problem (A and B): release times on by default (option
  // release_times=auto), the first means at the ASAP/ALAP midpoint (init=auto), and legalized
  // schedules refined (option refine).
  bool boundedHorizon = false;
  // The search: its start, scale, bound, incumbent and figures, returned as a Result.
  Result (*search)(const RunSetup& setup, RunMachinery& machinery) = nullptr;
};

const FormulationPart& latencyPart();      // L, latency_search.cpp
const FormulationPart& stageWeightPart();  // A, stage_weight_search.cpp
const FormulationPart& peakMemoryPart();   // B, peak_memory_search.cpp
const FormulationPart& moduloPart();       // C, modulo_search.cpp

// What a run fixes before it optimizes; read-only from then on (the worker's legalizers read it
// from their thread too). Built with designated initializers (gaus_scheduler.cpp).
struct RunSetup {
  const Problem& problem;
  std::shared_ptr<const ProblemFacts> facts;  // the problem's, computed once
  const Graph& graph;
  GausOptions options;
  TensorSettings settings;
  Formulation formulation = Formulation::kLatency;
  const FormulationPart* part = nullptr;  // the formulation's
  ModuloObjective moduloObjective = ModuloObjective::kNone;
  const Schedule* givenSchedule = nullptr;
  const std::vector<OpId>& order;  // the facts' topological order and ASAP times
  const std::vector<Cycle>& asap;
  Cycle criticalPath = 0;
  // The rows of every model's window tables (row_order.hpp): by latest start.
  RowOrder rows;
  // A and B: legalized schedules are refined (option refine, no limited resource reserved).
  bool refine = false;
  // Acyclic formulations: list scheduling prepared once for every candidate's legalization, on
  // the problem's facts.
  std::optional<heuristic::ListScheduler> listScheduler;
};

// The optimizer's machinery, changed by every attempt: the budget, the progress trace, the
// random numbers of the multi-start noise, and the legalization worker.
// The worker is the last member: it stops (joins its thread) before the budget it reads ends.
struct RunMachinery {
  RunMachinery(const GausOptions& options, const RunContext& context, ProgressTrace progress)
      : budget(options, context),
        trace(std::move(progress)),
        random(options.seed),
        worker(options.legalization == LegalizationMode::kAsync, budget, options.refineSliceSeconds,
               std::max<std::int64_t>(options.legalizationThreads, 1)) {}

  RunBudget budget;
  ProgressTrace trace;
  std::mt19937_64 random;
  LegalizationWorker worker;
};

}  // namespace gaus::differentiable
