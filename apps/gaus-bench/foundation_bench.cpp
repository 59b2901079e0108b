// gaus-bench foundation: on a generated DAG (default 1,000,000 ops, ~3,000,000 edges) measure
// reading it back from native JSON, the analyses (topological order, ASAP/ALAP, critical path,
// ResMII/RecMII), verify() of the ASAP schedule, and the peak resident memory.

#include <filesystem>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/random_graph.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/io/io.hpp>

#include "bench_main.hpp"

namespace gaus::bench {

namespace {

struct FoundationBenchFlags {
  std::int32_t ops = 1000000;
  double degree = 3.0;
  std::uint64_t seed = 1;
  std::string file;  // native JSON input; generated when missing
  bool regenerate = false;
};

RandomGraphOptions foundationGraphOptions(std::int32_t ops, double degree, std::uint64_t seed) {
  RandomGraphOptions options;
  options.ops = ops;
  options.averageDegree = degree;
  options.maxIdSpan = 2000;  // local edges, like real dataflow graphs: depth in the thousands
  options.opTypes = {{"ALU", 1, 1, 1, std::nullopt, 3.0},
                     {"MUL", 2, 4, 1, std::nullopt, 1.0},
                     {"MEM", 1, 3, 2, std::nullopt, 1.0}};
  options.weightedFraction = 0.5;
  options.seed = seed;
  return options;
}

// Generates the graph and writes it in a child process, so that the memory the generator and
// the writer touch does not count in the peak RSS of the measured phases.
void prepareInput(const std::filesystem::path& file, const RandomGraphOptions& options) {
  std::cerr << fmt::format("generating {} ops into {} ...\n", options.ops, file.string());
  const pid_t child = fork();
  if (child == 0) {
    auto generated = generateRandomGraph(options);
    if (!generated) {
      std::cerr << generated.error() << '\n';
      _exit(1);
    }
    const Instance instance = toInstance(std::move(generated).value());
    const auto written = io::writeInstance(file, instance, io::Format::kNativeJson);
    if (!written) {
      std::cerr << written.error() << '\n';
      _exit(1);
    }
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("generating the benchmark input failed");
  }
}

Report runFoundationBench(const FoundationBenchFlags& flags) {
  Report report("Foundation: load, analysis and verify");
  for (auto& [key, value] : environmentNotes()) report.note(key, value);
  const auto options = foundationGraphOptions(flags.ops, flags.degree, flags.seed);
  const std::filesystem::path file =
      flags.file.empty() ? std::filesystem::temp_directory_path() /
                               fmt::format("gaus-bench-{}-{}.json", flags.ops, flags.seed)
                         : std::filesystem::path(flags.file);
  if (!std::filesystem::exists(file) || flags.regenerate) prepareInput(file, options);
  report.note("input", fmt::format("{} ({:.1f} MB, generated: {} ops, average degree {}, "
                                   "seed {})",
                                   file.string(),
                                   static_cast<double>(std::filesystem::file_size(file)) / 1e6,
                                   flags.ops, flags.degree, flags.seed));

  Stopwatch loadClock;
  auto loaded = io::readInstance(file.string());
  if (!loaded) throw std::runtime_error(loaded.error());
  const double loadSeconds = loadClock.seconds();
  const Graph& graph = *loaded->graph;
  report.note("graph", fmt::format("{} ops, {} edges", graph.numOps(), graph.numEdges()));
  report.add({"load (parse + build)", loadSeconds, "s", 5.0, std::nullopt});

  Stopwatch analysisClock;
  Stopwatch phase;
  const auto order = topologicalOrder(graph);
  if (!order) throw std::runtime_error(order.error());
  const double topoSeconds = phase.seconds();
  phase = Stopwatch();
  const auto asap = asapTimes(graph, *order);
  const Cycle critical = criticalPathLength(graph, asap);
  const auto alap = alapTimes(graph, *order, critical);
  if (!alap) throw std::runtime_error(alap.error());
  const auto path = criticalPath(graph, *order, asap);
  const double timesSeconds = phase.seconds();
  phase = Stopwatch();
  const ResMii resMii = computeResMii(graph, *loaded->machine);
  const RecMii recMii = computeRecMii(graph);
  const double miiSeconds = phase.seconds();
  const double analysisSeconds = analysisClock.seconds();
  report.add({"analysis total", analysisSeconds, "s", 2.0, std::nullopt});
  report.add({"  topological order", topoSeconds, "s", std::nullopt, std::nullopt});
  report.add({"  ASAP, ALAP, critical path", timesSeconds, "s", std::nullopt, std::nullopt});
  report.add({"  ResMII, RecMII", miiSeconds, "s", std::nullopt, std::nullopt});
  report.note("analysis", fmt::format("critical path {} cycles over {} ops, ResMII {}, RecMII {}",
                                      critical, path.size(), resMii.value, recMii.value));

  // Verify the ASAP schedule against limited resources (capacity = |V|, never binding), so the
  // per-cycle resource check runs in full rather than being skipped for unlimited units.
  Machine limited = *loaded->machine;
  for (auto& resource : limited.resources) resource.capacity = graph.numOps();
  Problem problem = loaded->problem(ProblemKind::kLatency);
  problem.machine = std::make_shared<const Machine>(std::move(limited));
  Schedule schedule;
  schedule.start = asap;
  Stopwatch verifyClock;
  const VerificationReport verification = verify(problem, schedule);
  const double verifySeconds = verifyClock.seconds();
  if (!verification.ok())
    throw std::runtime_error("ASAP schedule failed: " + verification.summary());
  report.add({"verify ASAP schedule", verifySeconds, "s", 1.0, std::nullopt});
  report.add({"peak RSS", static_cast<double>(peakRssBytes()) / 1e9, "GB", 2.0, std::nullopt});
  return report;
}

}  // namespace

void addFoundationSuite(CLI::App& app, BenchOptions& options) {
  auto flags = std::make_shared<FoundationBenchFlags>();
  CLI::App* command = app.add_subcommand(
      "foundation", "Load (native JSON), analysis and verify of a generated DAG; peak RSS");
  command->add_option("--ops", flags->ops, "Ops")->capture_default_str();
  command->add_option("--degree", flags->degree, "Average out-degree")->capture_default_str();
  command->add_option("--seed", flags->seed, "Seed")->capture_default_str();
  command->add_option("--file", flags->file, "Native JSON input (generated there when missing)");
  command->add_flag("--regenerate", flags->regenerate, "Generate the input anew");
  command->callback([flags, &options] { emitReport(runFoundationBench(*flags), options); });
}

}  // namespace gaus::bench
