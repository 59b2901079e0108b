// gaus-bench: the benchmark program. Speed and memory figures of docs/benchmarks.md come from
// here, never from timed unit tests; quality figures come from experiments (gaus run,
// configs/experiments). Each suite prints a markdown section (or JSON with --json) and exits
// non-zero when a figure misses its target.

#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench_main.hpp"

int main(int argc, char** argv) {
  CLI::App app{"gaus-bench: measure speed, memory and schedule quality", "gaus-bench"};
  app.require_subcommand(1);
  gaus::bench::BenchOptions options;
  app.add_flag("--json", options.json, "Print JSON instead of markdown");
  // `gaus-bench SUITE ... --json` as well as `gaus-bench --json SUITE ...`.
  app.fallthrough();
  gaus::bench::addFoundationSuite(app, options);
  gaus::bench::addStartupSuite(app, options);
  gaus::bench::addListSuite(app, options);
  gaus::bench::addImsSuite(app, options);
  gaus::bench::addCrossCheckSuite(app, options);
  gaus::bench::addLimitsSuite(app, options);
#ifdef GAUS_HAVE_EXACT
  gaus::bench::addExactKernelsSuite(app, options);
  gaus::bench::addTwillModelCostSuite(app, options);
#endif
#ifdef GAUS_HAVE_GAUS
  gaus::bench::addGausStepSuite(app, options);
  gaus::bench::addGausScaleSuite(app, options);
  gaus::bench::addGausQualitySuite(app, options);
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  } catch (const std::exception& error) {
    std::cerr << fmt::format("gaus-bench: error: {}\n", error.what());
    return 1;
  }
  return options.exitCode;
}
