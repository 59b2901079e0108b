// One run of an experiment, from both sides of the process boundary:
// - plannedRecord: the results record as far as it is known before the run starts;
// - executeRun (in the run's process): load the graph, pose the problem by the config's policies
//   (kind, machine, horizon, II), run the start method when the run needs one, run the method
//   through the registry (which verifies its schedule), and fill in the record;
// - finishRun (in the runner): the record of a process that ended, from what it wrote, or
//   `crashed`, `out_of_memory` or `timeout` when it ended otherwise.
// The process hands its record and schedule to the runner through files in a scratch folder.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include <gaus/experiment/experiment_config.hpp>
#include <gaus/methods/registry.hpp>
#include <gaus/methods/run_method.hpp>
#include <gaus/report/results.hpp>

#include "child_process.hpp"
#include "run_plan.hpp"

namespace gaus::experiment {

struct RunTask {
  const ExperimentConfig* config = nullptr;
  const RunPlan* plan = nullptr;
  std::size_t run = 0;
  // The schedule (gaus-schedule-0.1 text) of the run this one starts from, with its id.
  std::optional<std::string> startSchedule;
  std::string startRunId;
  std::int64_t jobs = 1;  // runs in parallel while it runs (recorded with the timings)

  const PlannedRun& planned() const { return plan->runs.at(run); }
};

// What a run produced: its record and, when the run writes its schedule, the schedule's text
// and, for a method that traces its convergence (GauS's `trace` option), the trace's text.
struct RunOutput {
  report::ResultRecord record;
  std::optional<std::string> schedule;
  std::optional<std::string> trace;
};

// The task's method with the settings of its run applied and its options parsed
// (prepareMethodCall); with `traceFile`, a method that declares `trace` writes its convergence
// trace there unless its entry names a file.
MethodCall plannedCall(const RunTask& task, const MethodRegistry& registry,
                       const std::optional<std::filesystem::path>& traceFile = std::nullopt);
// The record as far as it is known before the run starts, with the options `call` runs with.
report::ResultRecord plannedRecord(const RunTask& task, const MethodCall& call);

// Runs the task in this process. `posed` is called once the problem is known, so that a process
// that dies later still leaves a record naming its problem. `scratch` is a folder for the
// start schedule's file.
RunOutput executeRun(const RunTask& task, const MethodRegistry& registry,
                     const std::filesystem::path& scratch,
                     const std::function<void(const report::ResultRecord&)>& posed);

// The files of one run's process in its scratch folder.
struct RunFiles {
  std::filesystem::path folder;
  std::filesystem::path posed() const { return folder / "posed.jsonl"; }
  std::filesystem::path output() const { return folder / "output.json"; }
  std::filesystem::path log() const { return folder / "output.log"; }
};

// The body of a run's process: executeRun, writing the posed record and the output to `files`.
int runInChildProcess(const RunTask& task, const MethodRegistry& registry, const RunFiles& files);

// The runner's side, once the process ended.
RunOutput finishRun(const RunTask& task, const MethodRegistry& registry, const ChildEnd& end,
                    const RunFiles& files, std::optional<std::int64_t> memoryLimitBytes);

}  // namespace gaus::experiment
