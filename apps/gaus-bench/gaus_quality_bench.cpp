// gaus-bench gaus-quality: method "gaus" on the GS-Schedule random workloads, formulation A with
// D = 10 stages and weight ratio 100 (alpha 0.01), as the folder's README states the problem:
// vs the README's GS-Schedule figures, the greedy balanced baseline it describes
// (heuristic::greedyBalancedStages, with the
// objective and LB10 from core's stage_objective.hpp) and 100 x LB10. The other quality tables
// (HeuriGym, MachSuite, EPFL, the exact engine's, the heuristics') are experiments now
// (configs/experiments, docs/ experiments.md); this one follows once the stage problem and the
// greedy balanced cut are a problem kind and a method of the registry
// (configs/experiments/gs_schedule.yaml is written against them). Every schedule goes through the
// method catalog, which verifies it.

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/stage_objective.hpp>
#include <gaus/core/verify.hpp>
#include <gaus/heuristic/balanced_stages.hpp>
#include <gaus/io/gs_schedule.hpp>

#include "bench_main.hpp"
#include "gaus_workload.hpp"
#include "shared_benchmarks.hpp"

namespace gaus::bench {

namespace {

struct GausQualityFlags {
  std::string shared = GAUS_SHARED_DIR;
  std::string filter;
  std::optional<int> limit;
  double gsSeconds = 30.0;
  std::vector<std::string> gausOptions;  // KEY=VALUE options of method gaus, over the suite's
};

// The options of method gaus for one table: the table's own, then --option's KEY=VALUE pairs.
MethodOptions gausOptions(const GausQualityFlags& flags, MethodOptions options) {
  options["progress_interval"] = "1000";
  for (const std::string& pair : flags.gausOptions) {
    const auto equals = pair.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw std::runtime_error(fmt::format("--option {}: write KEY=VALUE, e.g. lr=0.01", pair));
    }
    options[pair.substr(0, equals)] = pair.substr(equals + 1);
  }
  return options;
}

std::string statusText(const Result& result) {
  return std::string(toString(result.status));
}

// Instances of the files below `folder` (sorted), after --filter and --limit.
std::vector<Instance> selectInstances(const GausQualityFlags& flags,
                                      const std::filesystem::path& folder,
                                      std::string_view suffix) {
  std::vector<Instance> selected;
  for (const auto& file : benchmarkFiles(folder, suffix)) {
    for (Instance& instance : readBenchmarkInstances(file)) {
      if (!matchesFilter(instance.name, flags.filter)) continue;
      if (flags.limit && static_cast<int>(selected.size()) >= *flags.limit) return selected;
      selected.push_back(std::move(instance));
    }
  }
  return selected;
}

Result runVerified(std::string_view method, const std::string& name, const Problem& problem,
                   const MethodOptions& options = {},
                   std::optional<double> timeLimit = std::nullopt,
                   const Schedule* initialSchedule = nullptr) {
  Result result = runCatalogMethod(method, name, problem, options, timeLimit, initialSchedule);
  requireVerified(result, method, name);
  return result;
}

void progress(std::string_view family, const std::string& name) {
  std::cerr << fmt::format("gaus-quality {}: {}\n", family, name);
}

// GS-Schedule's own figures from the folder's README (measured there with its README settings),
// for the graphs it was run on.
const std::map<std::string, double, std::less<>> kGsScheduleReadme = {
    {"rand_graph_1000_1", 17209356}, {"rand_graph_sparse_1000_1", 10359383}};

void addGsSchedule(Report& report, const GausQualityFlags& flags,
                   const std::filesystem::path& benchmarks) {
  constexpr Cycle kStages = 10;
  constexpr double kRatio = 100;
  const auto instances = selectInstances(flags, benchmarks / "gs-schedule-icml24-rw", ".gml");
  int belowGreedy = 0, belowGsSchedule = 0, withGsSchedule = 0, improvedGreedy = 0;
  double seconds = 0;
  GeometricMean overBound;
  GeometricMean greedyOverBound;
  std::vector<std::vector<std::string>> cells;
  for (const Instance& instance : instances) {
    progress("gs", instance.name);
    auto built = io::gsScheduleProblem(instance, kStages);
    if (!built) throw std::runtime_error(built.error());
    const Problem problem = std::move(built).value();
    const Graph& graph = *problem.graph;
    const MethodOptions options = gausOptions(flags, {{"formulation", "A"}, {"alpha", "0.01"}});
    const Result gaus = runVerified("gaus", instance.name, problem, options, flags.gsSeconds);
    auto balanced = heuristic::greedyBalancedStages(graph, kStages);
    if (!balanced) throw std::runtime_error(instance.name + ": " + balanced.error());
    const Schedule greedy = std::move(balanced).value();
    const VerificationReport greedyCheck = verify(problem, greedy);
    if (!greedyCheck.ok()) {
      throw std::runtime_error(
          fmt::format("greedy balanced on {}: {}", instance.name, greedyCheck.summary()));
    }
    // GauS again, started from the greedy cut (init=given): keep-best never returns worse.
    const Result fromGreedy =
        runVerified("gaus", instance.name, problem, options, flags.gsSeconds, &greedy);
    seconds += gaus.stats.seconds + fromGreedy.stats.seconds;
    const StageFigures ours = stageFigures(graph, *gaus.schedule);
    const StageFigures theirs = stageFigures(graph, greedy);
    const double oursValue = gsScheduleObjective(ours, kRatio);
    const double theirsValue = gsScheduleObjective(theirs, kRatio);
    const double improvedValue =
        gsScheduleObjective(stageFigures(graph, *fromGreedy.schedule), kRatio);
    improvedGreedy += improvedValue < theirsValue;
    const double bound = kRatio * peakStageWeightLowerBound(graph, kStages);
    belowGreedy += oursValue < theirsValue;
    overBound.add(oursValue / bound);
    greedyOverBound.add(theirsValue / bound);
    std::string gsSchedule = "-";
    if (const auto it = kGsScheduleReadme.find(instance.name); it != kGsScheduleReadme.end()) {
      ++withGsSchedule;
      belowGsSchedule += oursValue < it->second;
      gsSchedule = fmt::format("{}", it->second);
    }
    cells.push_back(
        {instance.name, std::to_string(graph.numOps()), std::to_string(graph.numEdges()),
         fmt::format("{} ({} / {})", oursValue, ours.peakStageWeight, ours.communication),
         fmt::format("{} ({} / {})", theirsValue, theirs.peakStageWeight, theirs.communication),
         gsSchedule, fmt::format("{}", bound), ratioText(oursValue / bound),
         ratioText(theirsValue / bound), fmt::format("{}", improvedValue), statusText(gaus),
         fmt::format("{:.1f}", gaus.stats.seconds)});
  }
  report.add("GS-Schedule graphs", static_cast<double>(instances.size()));
  report.add("  GauS < greedy balanced", static_cast<double>(belowGreedy), "graphs");
  report.add("  GauS from the greedy cut < greedy balanced", static_cast<double>(improvedGreedy),
             "graphs");
  report.add("  GauS < GS-Schedule (README figure)", static_cast<double>(belowGsSchedule),
             fmt::format("of {} graphs", withGsSchedule));
  report.add("  geometric mean GauS / (100 x LB10)", overBound.value());
  report.add("  geometric mean greedy / (100 x LB10)", greedyOverBound.value());
  report.add("  GauS time, all graphs (both runs)", seconds, "s");
  report.addTable(
      fmt::format("GS-Schedule, formulation A, D = {} stages, objective = {} x peak stage weight + "
                  "comm-edge stage crossings (as its README states the problem; edges rebuilt "
                  "with delay 0), {} s per GauS run; cells: objective (peak / crossings); GauS "
                  "from greedy: started from the greedy cut",
                  kStages, kRatio, flags.gsSeconds),
      {"graph", "nodes", "edges", "GauS", "greedy balanced", "GS-Schedule (README)", "100 x LB10",
       "GauS / LB", "greedy / LB", "GauS from greedy", "status", "s"},
      std::move(cells));
}

Report runGausQuality(const GausQualityFlags& flags) {
  Report report("GauS on the GS-Schedule random workloads");
  for (auto& [key, value] : environmentNotes()) report.note(key, value);
  const auto benchmarks = std::filesystem::path(flags.shared) / "benchmarks";
  report.note("data", benchmarks.string());
  report.note("method",
              "gaus with its defaults (float32, CPU, seed 1) but formulation A and the time "
              "limit; through the method catalog (every schedule verified)");
  if (!flags.gausOptions.empty()) {
    report.note("gaus options", fmt::format("{}", fmt::join(flags.gausOptions, " ")));
  }
  Stopwatch wall;
  addGsSchedule(report, flags, benchmarks);
  report.add("suite wall time", wall.seconds(), "s");
  return report;
}

}  // namespace

void addGausQualitySuite(CLI::App& app, BenchOptions& options) {
  auto flags = std::make_shared<GausQualityFlags>();
  CLI::App* command = app.add_subcommand(
      "gaus-quality", "GauS quality on the GS-Schedule workloads (formulation A, 10 stages)");
  command->add_option("--shared", flags->shared, "Folder holding benchmarks/")
      ->capture_default_str();
  command->add_option("--filter", flags->filter, "Only graphs whose name contains this");
  command->add_option("--limit", flags->limit, "At most this many graphs");
  command->add_option("--gs-time", flags->gsSeconds, "Seconds per GauS run")->capture_default_str();
  command->add_option("-O,--option", flags->gausOptions,
                      "Option of method gaus, KEY=VALUE (repeatable; over the suite's own)");
  command->callback([flags, &options] { emitReport(runGausQuality(*flags), options); });
}

}  // namespace gaus::bench
