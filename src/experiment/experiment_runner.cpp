// A batch on one machine (experiment_runner.hpp): up to `jobs` runs at a time, each forked into
// a process of its own, polled until it ends. The runner's process only plans, forks, waits and
// records: it never runs a method (LibTorch's and OpenMP's threads would not survive a fork),
// so every child starts from a clean single-threaded copy.

#include <thread>

#include <fmt/format.h>

#include <gaus/experiment/experiment_runner.hpp>

#include "batch.hpp"

namespace gaus::experiment {

namespace {

namespace fs = std::filesystem;

// A run in progress: its task, its process and the files it hands over.
struct RunningSlot {
  RunTask task;
  ChildProcess process;
  RunFiles files;
};

Expected<RunningSlot> startRun(const Batch& batch, const MethodRegistry& registry, RunTask task,
                               std::size_t slot) {
  RunFiles files{batch.scratch() / fmt::format("slot-{}", slot)};
  std::error_code ignored;
  fs::remove_all(files.folder, ignored);
  fs::create_directories(files.folder, ignored);
  const ChildLimits limits{batch.memoryLimitBytes(), task.planned().deadlineSeconds};
  auto process = ChildProcess::start([&] { return runInChildProcess(task, registry, files); },
                                     limits, files.log());
  if (!process) return Error{process.error()};
  return RunningSlot{std::move(task), std::move(process).value(), std::move(files)};
}

}  // namespace

Expected<BatchOutcome> runExperiment(const ExperimentConfig& config, const MethodRegistry& registry,
                                     const RunnerOptions& options) {
  const std::int32_t jobs = options.jobs.value_or(config.budgets.jobs);
  auto prepared = Batch::prepare(config, registry, options, jobs);
  if (!prepared) return Error{prepared.error()};
  Batch& batch = *prepared;
  if (options.dryRun) {
    batch.printMatrix(batch.out(), options.listRuns);
    BatchOutcome outcome;
    outcome.runs = static_cast<std::int64_t>(batch.plan().runs.size());
    return outcome;
  }

  const InterruptGuard guard;
  std::vector<std::optional<RunningSlot>> slots(static_cast<std::size_t>(jobs));
  const auto stopAll = [&] {
    for (auto& slot : slots) {
      if (slot) slot->process.stop();
      slot.reset();
    }
  };
  bool interrupted = false;
  while (!batch.finished()) {
    if (guard.interrupted()) {
      interrupted = true;
      break;
    }
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (slots[i]) continue;
      auto task = batch.nextReady(jobs);
      if (!task) break;
      auto started = startRun(batch, registry, std::move(*task), i);
      if (!started) {
        stopAll();
        return Error{started.error()};
      }
      slots[i].emplace(std::move(started).value());
    }
    bool ended = false;
    bool anyRunning = false;
    for (auto& slot : slots) {
      if (!slot) continue;
      anyRunning = true;
      const auto end = slot->process.poll();
      if (!end) continue;
      RunOutput output =
          finishRun(slot->task, registry, *end, slot->files, batch.memoryLimitBytes());
      const std::size_t run = slot->task.run;
      slot.reset();
      ended = true;
      if (auto recorded = batch.record(run, std::move(output)); !recorded) {
        stopAll();
        return Error{recorded.error()};
      }
    }
    if (!anyRunning && !batch.finished()) {
      return Error{fmt::format("{}: runs are left but none can start (a start that never ends)",
                               config.path.string())};
    }
    batch.progress().tick();
    if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (interrupted) stopAll();
  return batch.finish(interrupted);
}

}  // namespace gaus::experiment
