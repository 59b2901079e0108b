// gaus-bench: the benchmark program. Speed, memory and quality figures of docs/benchmarks.md
// come from here, never from timed unit tests. Each suite prints a markdown section (or JSON
// with --json) and exits non-zero when a figure misses its target.

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>

#include "bench_main.hpp"

namespace {

int emit(const gaus::bench::Report& report, bool json) {
  if (json) {
    std::cout << report.json().dump(2) << '\n';
  } else {
    std::cout << report.markdown();
  }
  return report.allPass() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gaus-bench: measure speed, memory and schedule quality", "gaus-bench"};
  app.require_subcommand(1);
  bool json = false;
  app.add_flag("--json", json, "Print JSON instead of markdown");
  int exitCode = 0;

  gaus::bench::FoundationBenchFlags foundation;
  CLI::App* foundationCommand = app.add_subcommand(
      "foundation", "Load (native JSON), analysis and verify of a generated DAG; peak RSS");
  foundationCommand->add_option("--ops", foundation.ops, "Ops")->capture_default_str();
  foundationCommand->add_option("--degree", foundation.degree, "Average out-degree")
      ->capture_default_str();
  foundationCommand->add_option("--seed", foundation.seed, "Seed")->capture_default_str();
  foundationCommand->add_option("--file", foundation.file,
                                "Native JSON input (generated there when missing)");
  foundationCommand->add_flag("--regenerate", foundation.regenerate, "Generate the input anew");
  foundationCommand->callback(
      [&] { exitCode = emit(gaus::bench::runFoundationBench(foundation), json); });

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  } catch (const std::exception& error) {
    std::cerr << fmt::format("gaus-bench: error: {}\n", error.what());
    return 1;
  }
  return exitCode;
}
