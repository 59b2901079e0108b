// The matrix of an experiment: every run (graph x method entry x seed x repeat), each with a
// stable id, the settings it gets, and the run whose schedule starts it. Every rank of an MPI
// batch makes the same plan from the same configuration and survey, so that a run is named by
// its index alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/experiment/experiment_config.hpp>
#include <gaus/methods/registry.hpp>

#include "graph_survey.hpp"

namespace gaus::experiment {

struct PlannedRun {
  std::string id;  // "heurigym/small/ewf~gaus~s1~r0": graph id, label, seed (when seeded), repeat
  std::size_t graph = 0;        // index into RunPlan::graphs
  std::size_t methodEntry = 0;  // index into ExperimentConfig::methods
  // The settings of this run (the experiment's settings, the time limit, the seed, the thread
  // count), typed, applied to the method where it declares them.
  Settings settings;
  ProblemSpec problem;  // the graph entry's with the method entry's on top
  std::optional<std::uint64_t> seed;
  std::int32_t repeat = 0;
  std::optional<double> reference;
  // The run of this experiment whose schedule starts this one, or the method run first in the
  // same process when the experiment has no such run.
  std::optional<std::size_t> startRun;
  std::optional<StartSpec> startInProcess;
  bool writeSchedule = false;  // the config asks for schedules, or a later run starts from it
  // Stopped after this long: the time limit for each method the process runs (the start and
  // the run that sets the horizon included) plus the grace; unset without a time limit.
  std::optional<double> deadlineSeconds;
  // The time it may take at most, for the dry run's estimate (unset: unknown).
  std::optional<double> budgetSeconds;
};

struct RunPlan {
  std::vector<SurveyedGraph> graphs;
  std::vector<PlannedRun> runs;  // in the order they are started (dependencies first)
};

// Expands the configuration over its surveyed graphs. `threadsPerRun` is the setting threads
// when the budgets do not fix it.
Expected<RunPlan> planRuns(const ExperimentConfig& config, std::vector<SurveyedGraph> graphs,
                           const MethodRegistry& registry, std::int32_t threadsPerRun);

// The memory limit of the batch (--memory-limit over budgets.memory_limit) bounds each run's
// address space from outside; it is also the setting memory_limit of every run, so that a method
// that estimates its model (the exact MILPs, the GauS tensors) refuses one too large before
// building it instead of being stopped at the limit. Nothing changes without a limit.
void applyMemoryLimit(RunPlan& plan, std::optional<std::int64_t> bytes);

}  // namespace gaus::experiment
