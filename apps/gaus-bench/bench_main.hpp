// The suites of the benchmark program. Each suite file defines one add...Suite function that
// adds its subcommand; the callback measures, prints the report through emitReport
// (bench_support.hpp) and sets the exit code (non-zero when a figure misses its target).
#pragma once

#include <CLI/CLI.hpp>

#include "bench_support.hpp"

namespace gaus::bench {

void addFoundationSuite(CLI::App& app, BenchOptions& options);
void addStartupSuite(CLI::App& app, BenchOptions& options);
void addListSuite(CLI::App& app, BenchOptions& options);
void addImsSuite(CLI::App& app, BenchOptions& options);
// Every method of the catalog against the others and exhaustive enumeration.
void addCrossCheckSuite(CLI::App& app, BenchOptions& options);
// Wall time of every method and command against its time limit.
void addLimitsSuite(CLI::App& app, BenchOptions& options);
// The exact engine's suites (builds with it only).
void addExactKernelsSuite(CLI::App& app, BenchOptions& options);
// Twill's SMT models: build, load and teardown seconds against the estimate the search uses.
void addTwillModelCostSuite(CLI::App& app, BenchOptions& options);
// The GauS engine's suites (builds with it only).
void addGausStepSuite(CLI::App& app, BenchOptions& options);
void addGausScaleSuite(CLI::App& app, BenchOptions& options);
void addGausQualitySuite(CLI::App& app, BenchOptions& options);

}  // namespace gaus::bench
