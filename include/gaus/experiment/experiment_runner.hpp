// Running an experiment (`gaus run`, docs/experiments.md): the runs of its matrix, each in a
// process of its own under its time and memory limits, their records appended to results.jsonl
// as they finish, and the report at the end. One machine runs `jobs` runs at a time; under
// mpirun, rank 0 hands runs to the other ranks as they become free and writes every record.
// The runner never switches on method names: every method of the registry runs the same way.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>

#include <gaus/core/expected.hpp>
#include <gaus/experiment/experiment_config.hpp>
#include <gaus/methods/registry.hpp>

namespace gaus::experiment {

enum class ProgressStyle {
  kAuto,   // a bar on a terminal, a line per finished run elsewhere
  kBar,    // the bar
  kLines,  // a line per finished run
  kQuiet,  // nothing
};

struct RunnerOptions {
  bool resume =
      false;  // skip the runs results.jsonl holds; without it, a non-empty file is an error
  bool dryRun = false;               // print the matrix and the time it may take; run nothing
  bool listRuns = false;             // with dryRun: every run, one per line
  std::optional<std::int32_t> jobs;  // over the budgets' jobs
  std::optional<std::int64_t> memoryLimitBytes;  // over the budgets' memory_limit
  std::optional<std::filesystem::path> output;   // over the budgets' output
  ProgressStyle progress = ProgressStyle::kAuto;
  bool report = true;           // write the report at the end
  std::ostream* out = nullptr;  // unset: std::cout
};

struct BatchOutcome {
  std::int64_t runs = 0;             // in the matrix
  std::int64_t alreadyRecorded = 0;  // skipped (resume)
  std::int64_t recorded = 0;         // by this batch
  std::int64_t failed = 0;           // of those: an error, a crash, out of memory, no schedule
  bool interrupted = false;          // stopped by SIGINT or SIGTERM: resume to finish
  bool worker = false;               // an MPI rank other than 0 (it records nothing itself)
  std::filesystem::path resultsFile;
  std::filesystem::path reportFile;  // empty without a report
};

// Runs the experiment on this machine.
Expected<BatchOutcome> runExperiment(const ExperimentConfig& config, const MethodRegistry& registry,
                                     const RunnerOptions& options);

// True when this process was started by an MPI launcher (mpirun, srun): the environment of the
// launcher is checked, so that nothing initializes MPI in a process that was not.
bool launchedByMpi();

// True when the build has the MPI component (OpenMPI found at configure time).
bool hasMpiSupport();

// Runs the experiment over the ranks of MPI_COMM_WORLD: every rank calls it with the same
// configuration file. Rank 0 reads it, surveys the graphs and hands out runs; the other ranks
// run them. With one rank it is runExperiment. Fails in a build without MPI.
Expected<BatchOutcome> runExperimentOverMpi(const std::filesystem::path& configPath,
                                            const MethodRegistry& registry,
                                            const RunnerOptions& options);

}  // namespace gaus::experiment
