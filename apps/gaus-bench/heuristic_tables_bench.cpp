// gaus-bench heuristic-tables: the heuristic baselines on the shared benchmarks, as three tables:
// - HeuriGym operator scheduling: list latency per instance against the ILP baseline
//   (baseline.json);
// - Triton ddg dumps: IMS II per loop against the dump's min II and the II Triton's own
//   heuristic chose, with gaus's ResMII and RecMII;
// - HatScheT MachSuite: how many of the 91 loops IMS schedules at II = MinII, the geometric mean
//   of II / MinII, and the loops above MinII.
// Every schedule goes through the method catalog, which verifies it; an unverified schedule
// stops the suite. The data is found through --shared (default: the build's GAUS_SHARED_DIR).

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/experiment/method_catalog.hpp>
#include <gaus/io/io.hpp>

#include "bench_main.hpp"

namespace gaus::bench {

namespace {

struct HeuristicTablesFlags {
  std::string shared = GAUS_SHARED_DIR;
};

// The files below `folder` whose name ends with `suffix`, sorted by path.
std::vector<std::filesystem::path> benchmarkFiles(const std::filesystem::path& folder,
                                                  std::string_view suffix) {
  if (!std::filesystem::is_directory(folder)) {
    throw std::runtime_error(
        fmt::format("no benchmark folder {}: pass the folder holding benchmarks/ with --shared",
                    folder.string()));
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
    if (entry.is_regular_file() && entry.path().filename().string().ends_with(suffix)) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<Instance> readAll(const std::filesystem::path& file) {
  auto instances = io::readInstances(file);
  if (!instances) throw std::runtime_error(instances.error());
  return std::move(instances).value();
}

// Runs a method of the catalog; anything but a verified schedule stops the suite.
Result runVerified(std::string_view method, const Instance& instance, ProblemKind kind) {
  Result result = methodCatalog().run(method, instance.problem(kind), {});
  if (!result.schedule || !result.verified()) {
    throw std::runtime_error(fmt::format("{} on {}: no verified schedule ({}: {})", method,
                                         instance.name, toString(result.status), result.message));
  }
  return result;
}

// IMS on one loop, with gaus's bounds on its II.
struct LoopOutcome {
  Result result;
  std::int64_t resMii = 0;
  std::int64_t recMii = 0;
  std::int64_t mii = 0;  // max(ResMII, RecMII), the MinII of HatScheT's papers
  std::int64_t ii = 0;
  double iiOverMii() const { return static_cast<double>(ii) / static_cast<double>(mii); }
};

LoopOutcome scheduleLoop(const Instance& instance) {
  LoopOutcome outcome{runVerified("ims", instance, ProblemKind::kModulo)};
  outcome.resMii = computeResMii(*instance.graph, *instance.machine).value;
  outcome.recMii = computeRecMii(*instance.graph).value;
  outcome.mii = std::max(outcome.resMii, outcome.recMii);
  outcome.ii = *outcome.result.schedule->ii;
  return outcome;
}

double referenceFigure(const Instance& instance, std::string_view name) {
  const auto it = instance.reference.find(name);
  if (it == instance.reference.end()) {
    throw std::runtime_error(
        fmt::format("{} ({}) carries no reference {}", instance.name, instance.sourcePath, name));
  }
  return it->second;
}

std::string ratioText(double ratio) {
  return fmt::format("{:.3f}", ratio);
}

// Geometric mean of positive ratios (1 for none).
class GeometricMean {
 public:
  void add(double ratio) {
    logSum_ += std::log(ratio);
    ++count_;
  }
  double value() const { return count_ == 0 ? 1.0 : std::exp(logSum_ / count_); }

 private:
  double logSum_ = 0;
  int count_ = 0;
};

void addHeuriGymTable(Report& report, const std::filesystem::path& benchmarks) {
  struct Row {
    std::string instance;
    OpId ops;
    EdgeId edges;
    Cycle lowerBound;
    Cycle latency;
    double baseline;
  };
  std::vector<Row> rows;
  double seconds = 0;
  const auto folder = benchmarks / "heurigym-operator-scheduling";
  for (const auto& file : benchmarkFiles(folder, ".json")) {
    if (file.filename() == "baseline.json") continue;
    for (const Instance& instance : readAll(file)) {
      const Result result = runVerified("list", instance, ProblemKind::kLatency);
      seconds += result.stats.seconds;
      const Graph& graph = *instance.graph;
      rows.push_back({fmt::format("{}/{}", file.parent_path().filename().string(), instance.name),
                      graph.numOps(), graph.numEdges(),
                      static_cast<Cycle>(result.bounds.lowerBound.value_or(0)),
                      result.verification->metrics.latency,
                      referenceFigure(instance, "baseline_latency")});
    }
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row& a, const Row& b) { return a.ops < b.ops; });
  int atOrBelow = 0;
  double largest = 0;
  GeometricMean mean;
  std::vector<std::vector<std::string>> cells;
  for (const Row& row : rows) {
    const double ratio = static_cast<double>(row.latency) / row.baseline;
    mean.add(ratio);
    largest = std::max(largest, ratio);
    if (static_cast<double>(row.latency) <= row.baseline) ++atOrBelow;
    cells.push_back({row.instance, std::to_string(row.ops), std::to_string(row.edges),
                     std::to_string(row.lowerBound), std::to_string(row.latency),
                     fmt::format("{}", row.baseline), ratioText(ratio)});
  }
  report.add(
      {"HeuriGym instances", static_cast<double>(rows.size()), "", std::nullopt, std::nullopt});
  report.add({"  list latency <= baseline", static_cast<double>(atOrBelow), "instances",
              std::nullopt, std::nullopt});
  report.add({"  geometric mean list / baseline", mean.value(), "", std::nullopt, std::nullopt});
  report.add({"  largest list / baseline", largest, "", std::nullopt, std::nullopt});
  report.add({"  list time, all instances", seconds, "s", std::nullopt, std::nullopt});
  report.addTable(
      "HeuriGym operator scheduling: list latency vs the ILP baseline (baseline.json); lower "
      "bound = max(critical path, resource bound)",
      {"instance", "ops", "edges", "lower bound", "list", "baseline", "list / baseline"},
      std::move(cells));
}

void addTritonTable(Report& report, const std::filesystem::path& benchmarks) {
  std::vector<std::vector<std::string>> cells;
  int loops = 0;
  int atMii = 0;
  int atOrBelowTriton = 0;
  for (const auto& file : benchmarkFiles(benchmarks / "triton-ddg", ".ddg.json")) {
    for (const Instance& instance : readAll(file)) {
      const LoopOutcome loop = scheduleLoop(instance);
      const double tritonIi = referenceFigure(instance, "heuristic_ii");
      ++loops;
      if (loop.ii == loop.mii) ++atMii;
      if (static_cast<double>(loop.ii) <= tritonIi) ++atOrBelowTriton;
      cells.push_back(
          {instance.name, std::to_string(instance.graph->numOps()), std::to_string(loop.resMii),
           std::to_string(loop.recMii),
           fmt::format("{} ({}, {})", referenceFigure(instance, "min_ii"),
                       referenceFigure(instance, "res_mii"), referenceFigure(instance, "rec_mii")),
           fmt::format("{}", tritonIi), std::to_string(loop.ii), ratioText(loop.iiOverMii()),
           fmt::format("{:.3f}", loop.result.stats.seconds)});
    }
  }
  report.add({"Triton loops", static_cast<double>(loops), "", std::nullopt, std::nullopt});
  report.add(
      {"  IMS at II = MII", static_cast<double>(atMii), "loops", std::nullopt, std::nullopt});
  report.add({"  IMS II <= Triton's II", static_cast<double>(atOrBelowTriton), "loops",
              std::nullopt, std::nullopt});
  report.addTable(
      "Triton ddg dumps: IMS II vs the dump's min II (its ResMII, RecMII) vs Triton's heuristic "
      "II; ResMII and RecMII are gaus's",
      {"loop", "ops", "ResMII", "RecMII", "dump min II (res, rec)", "Triton II", "IMS II",
       "IMS / MII", "IMS s"},
      std::move(cells));
}

void addMachSuiteTable(Report& report, const std::filesystem::path& benchmarks) {
  std::vector<std::vector<std::string>> above;
  int loops = 0;
  int atMinIi = 0;
  int recurrenceBound = 0;
  double largest = 0;
  double seconds = 0;
  GeometricMean mean;
  for (const auto& file : benchmarkFiles(benchmarks / "hatschet-machsuite", ".graphml")) {
    for (const Instance& instance : readAll(file)) {
      const LoopOutcome loop = scheduleLoop(instance);
      seconds += loop.result.stats.seconds;
      const double ratio = loop.iiOverMii();
      ++loops;
      if (loop.recMii > loop.resMii) ++recurrenceBound;
      mean.add(ratio);
      largest = std::max(largest, ratio);
      if (loop.ii == loop.mii) {
        ++atMinIi;
        continue;
      }
      const Graph& graph = *instance.graph;
      EdgeId loopCarried = 0;
      for (EdgeId e = 0; e < graph.numEdges(); ++e) loopCarried += graph.edgeDistance(e) > 0;
      above.push_back({instance.name, std::to_string(graph.numOps()),
                       std::to_string(graph.numEdges()), std::to_string(loopCarried),
                       std::to_string(loop.resMii), std::to_string(loop.recMii),
                       std::to_string(loop.mii), std::to_string(loop.ii), ratioText(ratio)});
    }
  }
  report.add({"MachSuite loops", static_cast<double>(loops), "", std::nullopt, std::nullopt});
  report.add({"  RecMII > ResMII", static_cast<double>(recurrenceBound), "loops", std::nullopt,
              std::nullopt});
  report.add(
      {"  IMS at II = MinII", static_cast<double>(atMinIi), "loops", std::nullopt, std::nullopt});
  report.add({"  geometric mean II / MinII", mean.value(), "", std::nullopt, std::nullopt});
  report.add({"  largest II / MinII", largest, "", std::nullopt, std::nullopt});
  report.add({"  IMS time, all loops", seconds, "s", std::nullopt, std::nullopt});
  report.addTable(
      "MachSuite (HatScheT): the loops IMS schedules above MinII = max(ResMII, RecMII)",
      {"loop", "ops", "edges", "loop-carried", "ResMII", "RecMII", "MinII", "IMS II", "II / MinII"},
      std::move(above));
}

Report runHeuristicTables(const HeuristicTablesFlags& flags) {
  Report report("Heuristic baselines on the shared benchmarks");
  for (auto& [key, value] : environmentNotes()) report.note(key, value);
  const auto benchmarks = std::filesystem::path(flags.shared) / "benchmarks";
  report.note("data", benchmarks.string());
  report.note("methods",
              "list and ims with their default options, through the method catalog "
              "(every schedule verified)");
  addHeuriGymTable(report, benchmarks);
  addTritonTable(report, benchmarks);
  addMachSuiteTable(report, benchmarks);
  return report;
}

}  // namespace

void addHeuristicTablesSuite(CLI::App& app, BenchOptions& options) {
  auto flags = std::make_shared<HeuristicTablesFlags>();
  CLI::App* command = app.add_subcommand(
      "heuristic-tables",
      "List and IMS on the shared benchmarks: HeuriGym latency, Triton II, MachSuite II");
  command->add_option("--shared", flags->shared, "Folder holding benchmarks/")
      ->capture_default_str();
  command->callback([flags, &options] { emitReport(runHeuristicTables(*flags), options); });
}

}  // namespace gaus::bench
