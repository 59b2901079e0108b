// gaus-bench: the benchmark program. Speed and memory figures of docs/benchmarks.md come from
// here, never from timed unit tests; quality figures come from experiments (gaus run,
// configs/experiments). Each suite prints a markdown section (or JSON with --json) and exits
// non-zero when a figure misses its target.

#include <array>
#include <iostream>
#include <string_view>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench_main.hpp"

namespace {

// Suites renamed, by their old name: the old name still runs the suite, after a line saying it
// is deprecated, for a while after the rename.
struct RenamedSuite {
  std::string_view old;
  const char* now;
};
constexpr std::array kRenamedSuites{RenamedSuite{"differential", "crosscheck"}};

// The first argument that is not an option names the suite; an old name becomes the new one.
void renameOldSuite(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (argument.starts_with("-")) continue;
    for (const RenamedSuite& renamed : kRenamedSuites) {
      if (argument != renamed.old) continue;
      std::cerr << fmt::format(
          "gaus-bench: \"{}\" is deprecated and will be removed: it is now \"gaus-bench {}\"\n",
          renamed.old, renamed.now);
      argv[i] = const_cast<char*>(renamed.now);
    }
    return;
  }
}

}  // namespace

int main(int argc, char** argv) {
  renameOldSuite(argc, argv);
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
