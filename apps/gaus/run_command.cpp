// gaus run CONFIG [--resume] [--jobs N] [--dry-run]: runs an experiment (docs/experiments.md):
// the runs of its matrix, each in a process of its own, their records in results.jsonl and the
// report at the end. Under mpirun (or srun), the ranks share the runs; MPI is initialized only
// then, and only here.

#include <iostream>

#include <fmt/format.h>

#include <gaus/experiment/experiment_config.hpp>
#include <gaus/experiment/experiment_runner.hpp>
#include <gaus/methods/method_catalog.hpp>

#include "command.hpp"

namespace gaus::cli {

namespace {

// The exit code of a batch stopped by SIGINT or SIGTERM (128 + SIGINT, as shells report it).
constexpr int kExitInterrupted = 130;

struct RunFlags {
  std::string config;
  bool resume = false;
  bool dryRun = false;
  bool listRuns = false;
  std::optional<std::int32_t> jobs;
  std::string memoryLimit;
  std::string output;
  std::string progress = "auto";
  bool noReport = false;
};

experiment::RunnerOptions runnerOptions(const RunFlags& flags) {
  experiment::RunnerOptions options;
  options.resume = flags.resume;
  options.dryRun = flags.dryRun || flags.listRuns;
  options.listRuns = flags.listRuns;
  options.jobs = flags.jobs;
  if (!flags.memoryLimit.empty()) {
    const auto bytes = parseByteSize(flags.memoryLimit);
    if (!bytes) throw CommandError("--memory-limit: " + bytes.error());
    options.memoryLimitBytes = *bytes;
  }
  if (!flags.output.empty()) options.output = flags.output;
  if (flags.progress == "bar") {
    options.progress = experiment::ProgressStyle::kBar;
  } else if (flags.progress == "lines") {
    options.progress = experiment::ProgressStyle::kLines;
  } else if (flags.progress == "quiet") {
    options.progress = experiment::ProgressStyle::kQuiet;
  }
  options.report = !flags.noReport;
  return options;
}

void runExperimentCommand(const RunFlags& flags) {
  const experiment::RunnerOptions options = runnerOptions(flags);
  const MethodRegistry& catalog = methodCatalog();
  Expected<experiment::BatchOutcome> outcome = Error{""};
  if (experiment::launchedByMpi()) {
    outcome = experiment::runExperimentOverMpi(flags.config, catalog, options);
  } else {
    auto config = experiment::readExperimentConfig(flags.config, catalog);
    if (!config) throw CommandError(config.error());
    outcome = experiment::runExperiment(*config, catalog, options);
  }
  if (!outcome) throw CommandError(outcome.error());
  if (outcome->interrupted) exitCode() = kExitInterrupted;
}

}  // namespace

void addRunCommand(CLI::App& app) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* command = app.add_subcommand(
      "run",
      "Run an experiment: the runs of a YAML config, each in its own process, recorded in "
      "results.jsonl, with a report at the end (docs/experiments.md); under mpirun the ranks "
      "share the runs");
  command->add_option("config", flags->config, "Experiment configuration (YAML)")->required();
  command->add_flag("--resume", flags->resume,
                    "Go on with the results file: skip the runs it holds (a half-written last "
                    "line is cut off and its run runs again)");
  command
      ->add_option("-j,--jobs", flags->jobs,
                   "Runs at a time on this machine (over the config's budgets.jobs)")
      ->check(CLI::Range(1, 4096));
  command->add_flag("--dry-run", flags->dryRun,
                    "Print the matrix (runs per graph set and method) and the time it may take; "
                    "run nothing");
  command->add_flag("--list", flags->listRuns, "With --dry-run: every run, one per line");
  command->add_option("--memory-limit", flags->memoryLimit,
                      "Memory of each run, e.g. 8G (over budgets.memory_limit): its address "
                      "space, and the setting memory_limit, under which the exact engine and "
                      "GauS refuse a model estimated too large; a run beyond it is recorded as "
                      "out_of_memory");
  command->add_option("-o,--output", flags->output,
                      "Output folder (over budgets.output; default out/NAME)");
  command->add_option("--progress", flags->progress, "auto, bar, lines or quiet")
      ->check(CLI::IsMember({"auto", "bar", "lines", "quiet"}))
      ->capture_default_str();
  command->add_flag("--no-report", flags->noReport, "Do not write the report at the end");
  command->callback([flags] { runExperimentCommand(*flags); });
}

}  // namespace gaus::cli
