// gaus-bench gaus-quality: issue 4's quality tables for method "gaus", one per family of the
// shared benchmarks (--family heurigym|machsuite|epfl|gs|all):
// - HeuriGym operator scheduling, formulation L: latency per instance vs the ILP baseline
//   (baseline.json) and list scheduling; targets: geometric mean GauS / baseline <= 1.02 and at
//   or below the baseline on at least 17 of the 21 instances.
// - MachSuite (HatScheT), formulation C's min-II search: II per loop vs MinII = max(ResMII,
//   RecMII) and iterative modulo scheduling (GauS's start, so never above it).
// - EPFL combinational circuits up to sin (5,440 ops), formulation B: peak live memory vs list
//   scheduling at the same horizon D = list scheduling's latency (the critical path: the
//   circuits' gates have unlimited units).
// - GS-Schedule random workloads, formulation A with D = 10 stages and weight ratio 100 (alpha
//   0.01), as the folder's README states the problem: vs the README's GS-Schedule figures, the
//   greedy balanced baseline it describes (heuristic::greedyBalancedStages) and 100 x LB10
//   (core's stage_objective.hpp computes the objective and LB10 from the schedules).
// Every schedule goes through the method catalog, which verifies it; an unverified one stops the
// suite. Each row prints the engine's status (timeout: the per-instance limit ended the run).

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
  std::string family = "all";
  std::string filter;
  std::optional<int> limit;
  double heurigymSeconds = 5.0;
  double machsuiteSeconds = 10.0;
  double epflSeconds = 30.0;
  double gsSeconds = 30.0;
  std::int32_t epflMaxOps = 5440;  // sin, the largest circuit of the folder
  bool allRows = false;
  std::vector<std::string> gausOptions;  // KEY=VALUE options of method gaus, over the suite's

  bool wants(std::string_view name) const { return family == "all" || family == name; }
  // The targets hold for whole families only.
  bool wholeFamilies() const { return filter.empty() && !limit; }
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
    if (file.filename() == "baseline.json") continue;
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

void addHeuriGym(Report& report, const GausQualityFlags& flags,
                 const std::filesystem::path& benchmarks) {
  auto instances = selectInstances(flags, benchmarks / "heurigym-operator-scheduling", ".json");
  std::stable_sort(instances.begin(), instances.end(), [](const Instance& a, const Instance& b) {
    return a.graph->numOps() < b.graph->numOps();
  });
  int atOrBelow = 0, listAtOrBelow = 0, belowList = 0;
  double seconds = 0;
  GeometricMean mean;
  std::vector<std::vector<std::string>> cells;
  for (const Instance& instance : instances) {
    progress("heurigym", instance.name);
    const Problem problem = instance.problem(ProblemKind::kLatency);
    const Result list = runVerified("list", instance.name, problem);
    const Result gaus =
        runVerified("gaus", instance.name, problem, gausOptions(flags, {}), flags.heurigymSeconds);
    seconds += gaus.stats.seconds;
    const double baseline = referenceFigure(instance, "baseline_latency");
    const auto listLatency = static_cast<double>(list.verification->metrics.latency);
    const auto latency = static_cast<double>(gaus.verification->metrics.latency);
    mean.add(latency / baseline);
    atOrBelow += latency <= baseline;
    listAtOrBelow += listLatency <= baseline;
    belowList += latency < listLatency;
    cells.push_back({instance.name, std::to_string(instance.graph->numOps()),
                     fmt::format("{}", gaus.bounds.lowerBound.value_or(0.0)),
                     fmt::format("{}", listLatency), fmt::format("{}", latency),
                     fmt::format("{}", baseline), ratioText(latency / baseline), statusText(gaus),
                     fmt::format("{:.1f}", gaus.stats.seconds)});
  }
  const bool targets = flags.wholeFamilies();
  report.add("HeuriGym instances", static_cast<double>(instances.size()));
  report.add({"  GauS latency <= baseline", static_cast<double>(atOrBelow), "instances",
              std::nullopt, targets ? std::optional<double>(17) : std::nullopt});
  report.add({"  geometric mean GauS / baseline", mean.value(), "",
              targets ? std::optional<double>(1.02) : std::nullopt, std::nullopt});
  report.add("  list latency <= baseline", static_cast<double>(listAtOrBelow), "instances");
  report.add("  GauS latency < list", static_cast<double>(belowList), "instances");
  report.add("  GauS time, all instances", seconds, "s");
  report.addTable(fmt::format("HeuriGym, formulation L ({} s per instance): latency; lower bound "
                              "= max(critical path, ResMII); baseline = baseline.json's ILP",
                              flags.heurigymSeconds),
                  {"instance", "ops", "lower bound", "list", "GauS", "baseline", "GauS / baseline",
                   "status", "s"},
                  std::move(cells));
}

void addMachSuite(Report& report, const GausQualityFlags& flags,
                  const std::filesystem::path& benchmarks) {
  const auto instances = selectInstances(flags, benchmarks / "hatschet-machsuite", ".graphml");
  int gausAtMinIi = 0, imsAtMinIi = 0, belowIms = 0, aboveIms = 0;
  double seconds = 0;
  GeometricMean mean;
  std::vector<std::vector<std::string>> cells;
  for (const Instance& instance : instances) {
    progress("machsuite", instance.name);
    const Graph& graph = *instance.graph;
    const Problem problem = instance.problem(ProblemKind::kModulo);
    const std::int64_t resMii = computeResMii(graph, *instance.machine).value;
    const std::int64_t recMii = computeRecMii(graph).value;
    const std::int64_t minIi = std::max<std::int64_t>({1, resMii, recMii});
    const Result ims = runVerified("ims", instance.name, problem);
    const Result gaus =
        runVerified("gaus", instance.name, problem, gausOptions(flags, {}), flags.machsuiteSeconds);
    seconds += gaus.stats.seconds;
    const std::int64_t imsIi = *ims.schedule->ii;
    const std::int64_t ii = *gaus.schedule->ii;
    gausAtMinIi += ii == minIi;
    imsAtMinIi += imsIi == minIi;
    belowIms += ii < imsIi;
    aboveIms += ii > imsIi;
    mean.add(static_cast<double>(ii) / static_cast<double>(minIi));
    if (!flags.allRows && ii == minIi && imsIi == minIi) continue;
    cells.push_back({instance.name, std::to_string(graph.numOps()), std::to_string(resMii),
                     std::to_string(recMii), std::to_string(minIi), std::to_string(imsIi),
                     std::to_string(ii), statusText(gaus),
                     fmt::format("{:.1f}", gaus.stats.seconds)});
  }
  report.add("MachSuite loops", static_cast<double>(instances.size()));
  report.add("  GauS at II = MinII", static_cast<double>(gausAtMinIi), "loops");
  report.add("  IMS at II = MinII", static_cast<double>(imsAtMinIi), "loops");
  report.add("  GauS II < IMS II", static_cast<double>(belowIms), "loops");
  report.add({"  GauS II > IMS II (keep-best: never)", static_cast<double>(aboveIms), "loops", 0.0,
              std::nullopt});
  report.add("  geometric mean GauS II / MinII", mean.value());
  report.add("  GauS time, all loops", seconds, "s");
  report.addTable(
      fmt::format("MachSuite, formulation C min-II search ({} s per loop): {}; MinII = max(ResMII, "
                  "RecMII)",
                  flags.machsuiteSeconds,
                  flags.allRows ? "every loop" : "the loops where IMS or GauS is above MinII"),
      {"loop", "ops", "ResMII", "RecMII", "MinII", "IMS II", "GauS II", "status", "s"},
      std::move(cells));
}

void addEpfl(Report& report, const GausQualityFlags& flags,
             const std::filesystem::path& benchmarks) {
  auto instances = selectInstances(flags, benchmarks / "epfl-combinational", ".aig");
  std::erase_if(instances, [&](const Instance& i) { return i.graph->numOps() > flags.epflMaxOps; });
  std::stable_sort(instances.begin(), instances.end(), [](const Instance& a, const Instance& b) {
    return a.graph->numOps() < b.graph->numOps();
  });
  int below = 0, above = 0;
  double seconds = 0;
  GeometricMean mean;
  std::vector<std::vector<std::string>> cells;
  for (const Instance& instance : instances) {
    progress("epfl", instance.name);
    const Result list = runVerified("list", instance.name, instance.problem(ProblemKind::kLatency));
    const Cycle horizon = list.verification->metrics.latency;
    const Result gaus =
        runVerified("gaus", instance.name, instance.problem(ProblemKind::kLatencyBounded, horizon),
                    gausOptions(flags, {{"formulation", "B"}}), flags.epflSeconds);
    seconds += gaus.stats.seconds;
    const double listPeak = list.verification->metrics.peakLiveMemory;
    const double peak = gaus.verification->metrics.peakLiveMemory;
    below += peak < listPeak;
    above += peak > listPeak;
    mean.add(peak / listPeak);
    cells.push_back({instance.name, std::to_string(instance.graph->numOps()),
                     std::to_string(instance.graph->numEdges()), std::to_string(horizon),
                     fmt::format("{}", listPeak), fmt::format("{}", peak),
                     ratioText(peak / listPeak), statusText(gaus),
                     fmt::format("{:.1f}", gaus.stats.seconds)});
  }
  report.add("EPFL circuits", static_cast<double>(instances.size()));
  report.add("  GauS peak memory < list", static_cast<double>(below), "circuits");
  report.add({"  GauS peak memory > list (keep-best: never)", static_cast<double>(above),
              "circuits", 0.0, std::nullopt});
  report.add("  geometric mean GauS / list", mean.value());
  report.add("  GauS time, all circuits", seconds, "s");
  report.addTable(
      fmt::format("EPFL up to {} ops, formulation B ({} s per circuit): peak live memory at D = "
                  "list scheduling's latency (= the critical path: unlimited gates)",
                  flags.epflMaxOps, flags.epflSeconds),
      {"circuit", "ops", "edges", "D", "list", "GauS", "GauS / list", "status", "s"},
      std::move(cells));
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
  if (!(flags.family == "all" || flags.family == "heurigym" || flags.family == "machsuite" ||
        flags.family == "epfl" || flags.family == "gs")) {
    throw std::runtime_error(
        fmt::format("--family {}: use heurigym, machsuite, epfl, gs or all", flags.family));
  }
  Report report(fmt::format("GauS on the shared benchmarks ({})", flags.family));
  for (auto& [key, value] : environmentNotes()) report.note(key, value);
  const auto benchmarks = std::filesystem::path(flags.shared) / "benchmarks";
  report.note("data", benchmarks.string());
  report.note("method",
              "gaus with its defaults (float32, CPU, seed 1) but the formulation and time limit "
              "named per table; list and ims with theirs; through the method catalog (every "
              "schedule verified)");
  if (!flags.gausOptions.empty()) {
    report.note("gaus options", fmt::format("{}", fmt::join(flags.gausOptions, " ")));
  }
  if (!flags.wholeFamilies()) report.note("selection", "--filter/--limit: targets not applied");
  Stopwatch wall;
  if (flags.wants("heurigym")) addHeuriGym(report, flags, benchmarks);
  if (flags.wants("machsuite")) addMachSuite(report, flags, benchmarks);
  if (flags.wants("epfl")) addEpfl(report, flags, benchmarks);
  if (flags.wants("gs")) addGsSchedule(report, flags, benchmarks);
  report.add("suite wall time", wall.seconds(), "s");
  return report;
}

}  // namespace

void addGausQualitySuite(CLI::App& app, BenchOptions& options) {
  auto flags = std::make_shared<GausQualityFlags>();
  CLI::App* command = app.add_subcommand(
      "gaus-quality",
      "GauS quality tables: HeuriGym (L), MachSuite (C min II), EPFL (B), GS-Schedule (A)");
  command->add_option("--shared", flags->shared, "Folder holding benchmarks/")
      ->capture_default_str();
  command->add_option("--family", flags->family, "heurigym, machsuite, epfl, gs or all")
      ->capture_default_str();
  command->add_option("--filter", flags->filter, "Only instances whose name contains this");
  command->add_option("--limit", flags->limit, "At most this many instances per family");
  command->add_option("--heurigym-time", flags->heurigymSeconds, "Seconds per HeuriGym instance")
      ->capture_default_str();
  command->add_option("--machsuite-time", flags->machsuiteSeconds, "Seconds per MachSuite loop")
      ->capture_default_str();
  command->add_option("--epfl-time", flags->epflSeconds, "Seconds per EPFL circuit")
      ->capture_default_str();
  command->add_option("--gs-time", flags->gsSeconds, "Seconds per GS-Schedule graph")
      ->capture_default_str();
  command->add_option("--epfl-max-ops", flags->epflMaxOps, "Largest EPFL circuit (ops)")
      ->capture_default_str();
  command->add_option("-O,--option", flags->gausOptions,
                      "Option of method gaus, KEY=VALUE (repeatable; over the suite's own)");
  command->add_flag("--all", flags->allRows,
                    "MachSuite: list every loop, not only those above MinII");
  command->callback([flags, &options] { emitReport(runGausQuality(*flags), options); });
}

}  // namespace gaus::bench
