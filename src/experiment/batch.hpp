// One batch on the side of the process that records it (the runner on one machine, rank 0
// under MPI): the output folder, the plan, the results store, which runs are left and which
// may start (a run that starts from another waits until that one is recorded), recording what
// finished, and the report at the end. How runs are executed (forked here, or sent to MPI
// ranks) is the caller's business.
#pragma once

#include <csignal>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <vector>

#include <gaus/core/expected.hpp>
#include <gaus/experiment/experiment_config.hpp>
#include <gaus/experiment/experiment_runner.hpp>
#include <gaus/methods/registry.hpp>

#include "progress_display.hpp"
#include "results_store.hpp"
#include "run_execution.hpp"
#include "run_plan.hpp"

namespace gaus::experiment {

// A temporary folder for the files runs hand over (removed with the object).
class ScratchFolder {
 public:
  static Expected<ScratchFolder> create();
  ScratchFolder(ScratchFolder&& other) noexcept : path_(std::move(other.path_)) {
    other.path_.clear();
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  ScratchFolder& operator=(ScratchFolder&&) = delete;
  ~ScratchFolder();
  const std::filesystem::path& path() const { return path_; }

 private:
  ScratchFolder() = default;
  std::filesystem::path path_;
};

// SIGINT and SIGTERM, while it lives, set a flag the batch loop reads, so that an interrupted
// batch stops its runs and keeps every record it made; the previous handlers come back after.
class InterruptGuard {
 public:
  InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  ~InterruptGuard();
  bool interrupted() const;

 private:
  struct sigaction previousInterrupt_ {};
  struct sigaction previousTerminate_ {};
};

// The runs to make of a configuration on this process: the plan from a survey (made here or
// received from MPI rank 0).
Expected<RunPlan> planFromSurvey(const ExperimentConfig& config, const MethodRegistry& registry,
                                 const std::string& surveyText, std::int32_t threadsPerRun);

// Threads per run when the budgets do not fix them: the cores shared by `parallel` runs.
std::int32_t threadsPerRun(std::int32_t parallel);

class Batch {
 public:
  // Surveys the graphs, plans the runs and, unless a dry run, opens the results store.
  static Expected<Batch> prepare(const ExperimentConfig& config, const MethodRegistry& registry,
                                 const RunnerOptions& options, std::int32_t parallel);

  // The dry run's matrix: runs per graph set and method entry, the budgets and the estimate.
  void printMatrix(std::ostream& out, bool listRuns) const;

  // The next run that may start (in plan order), marked as running; nothing when every left
  // run waits for another or none is left.
  std::optional<RunTask> nextReady(std::int64_t jobs);
  // Records a finished run (its schedule file first) and shows it.
  Status record(std::size_t run, RunOutput output);
  // A started run that will not finish here (its MPI rank left): it may start again.
  void release(const RunTask& task);
  bool finished() const { return pending_.empty() && running_ == 0; }
  std::int64_t running() const { return running_; }

  // Writes the report (unless told not to) and the closing summary.
  Expected<BatchOutcome> finish(bool interrupted);

  const ExperimentConfig& config() const { return *config_; }
  const RunPlan& plan() const { return plan_; }
  const std::filesystem::path& scratch() const { return scratch_->path(); }
  ProgressDisplay& progress() { return *progress_; }
  std::ostream& out() const { return *out_; }
  std::optional<std::int64_t> memoryLimitBytes() const { return memoryLimitBytes_; }

 private:
  Batch() = default;
  std::optional<std::string> scheduleOf(std::size_t run) const;

  const ExperimentConfig* config_ = nullptr;
  const MethodRegistry* registry_ = nullptr;
  RunnerOptions options_;
  std::ostream* out_ = nullptr;
  std::filesystem::path output_;
  std::optional<std::int64_t> memoryLimitBytes_;
  std::int32_t parallel_ = 1;
  RunPlan plan_;
  std::unique_ptr<ScratchFolder> scratch_;
  std::optional<ResultsStore> store_;
  std::unique_ptr<ProgressDisplay> progress_;
  std::vector<std::size_t> pending_;  // plan indices not recorded and not running, in order
  std::vector<bool> recorded_;        // per plan index: recorded (before or in this batch)
  std::int64_t running_ = 0;
  std::int64_t alreadyRecorded_ = 0;
  std::int64_t recordedHere_ = 0;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace gaus::experiment
