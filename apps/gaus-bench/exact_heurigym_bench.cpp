// gaus-bench exact-heurigym: the acyclic latency MILP of the exact engine (method "ilp" on the
// latency problem, a time-indexed MILP on CBC) on every HeuriGym operator-scheduling instance,
// beside list scheduling and the benchmark's reference latency (baseline.json, found by a
// commercial MILP solver). Each MILP gets --time-limit seconds (default 60); the status says
// whether CBC proved the latency optimal or stopped on the limit. Every schedule goes through
// the method catalog, which verifies it.

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "bench_main.hpp"
#include "shared_benchmarks.hpp"

namespace gaus::bench {

namespace {

struct ExactHeuriGymFlags {
  std::string shared = GAUS_SHARED_DIR;
  std::string filter;
  double timeLimit = 60.0;
};

struct InstanceRow {
  std::string name;
  OpId ops = 0;
  EdgeId edges = 0;
  std::optional<double> lowerBound;  // list scheduling's max(critical path, resource bound)
  Cycle list = 0;
  std::optional<Cycle> milp;
  std::string status = "error";  // Result::statusText()
  std::optional<double> milpBound;  // CBC's bound when the limit stopped it
  double baseline = 0;
  double seconds = 0;
};

InstanceRow solveInstance(std::string name, const Instance& instance, double timeLimit) {
  InstanceRow row;
  row.name = std::move(name);
  row.ops = instance.graph->numOps();
  row.edges = instance.graph->numEdges();
  row.baseline = referenceFigure(instance, "baseline_latency");
  const Result list = runCatalogMethod("list", instance, ProblemKind::kLatency);
  if (!list.verified()) {
    throw std::runtime_error(fmt::format("list on {}: no verified schedule", instance.name));
  }
  row.list = list.verification->metrics.latency;
  row.lowerBound = list.bounds.lowerBound;
  const Result milp = runCatalogMethod("ilp", instance, ProblemKind::kLatency,
                                       {{"milp_time_limit", fmt::format("{}", timeLimit)}});
  row.status = std::string(milp.statusText());
  row.seconds = milp.stats.seconds;
  if (milp.verified()) row.milp = milp.verification->metrics.latency;
  if (milp.status != ModelStatus::kOptimal) row.milpBound = milp.bounds.lowerBound;
  return row;
}

Report runExactHeuriGym(const ExactHeuriGymFlags& flags) {
  Report report("Exact engine: latency MILP on HeuriGym");
  for (auto& [key, value] : environmentNotes()) report.note(key, value);
  const auto folder =
      std::filesystem::path(flags.shared) / "benchmarks" / "heurigym-operator-scheduling";
  report.note("data", folder.string());
  report.note("method", fmt::format("ilp (time-indexed latency MILP, CBC, one thread), {} s per "
                                    "instance; list with its defaults; through the method "
                                    "catalog (every schedule verified)",
                                    flags.timeLimit));
  std::vector<InstanceRow> rows;
  for (const auto& file : benchmarkFiles(folder, ".json")) {
    if (file.filename() == "baseline.json") continue;
    for (const Instance& instance : readBenchmarkInstances(file)) {
      std::string name =
          fmt::format("{}/{}", file.parent_path().filename().string(), instance.name);
      if (!matchesFilter(name, flags.filter)) continue;
      rows.push_back(solveInstance(std::move(name), instance, flags.timeLimit));
    }
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const InstanceRow& a, const InstanceRow& b) { return a.ops < b.ops; });

  int proven = 0, atMostList = 0, provenAtBaseline = 0, provenOffBaseline = 0, belowBaseline = 0;
  double seconds = 0;
  std::vector<std::vector<std::string>> cells;
  for (const InstanceRow& row : rows) {
    const bool optimal = row.status == "optimal";
    proven += optimal;
    seconds += row.seconds;
    if (row.milp && *row.milp <= row.list) ++atMostList;
    if (optimal && row.milp) {
      if (static_cast<double>(*row.milp) == row.baseline) {
        ++provenAtBaseline;
      } else {
        ++provenOffBaseline;
      }
    }
    if (row.milp && static_cast<double>(*row.milp) < row.baseline) ++belowBaseline;
    cells.push_back(
        {row.name, std::to_string(row.ops), std::to_string(row.edges),
         row.lowerBound ? fmt::format("{}", *row.lowerBound) : "-", std::to_string(row.list),
         row.milp ? std::to_string(*row.milp) : "-", row.status,
         row.milpBound ? fmt::format("{}", *row.milpBound) : "-", fmt::format("{}", row.baseline),
         row.milp ? ratioText(static_cast<double>(*row.milp) / row.baseline) : "-",
         fmt::format("{:.2f}", row.seconds)});
  }
  const auto count = static_cast<double>(rows.size());
  report.add("HeuriGym instances", count);
  report.add({"  MILP latency <= list latency", static_cast<double>(atMostList), "instances",
              std::nullopt, count});
  report.add(fmt::format("  proven optimal within {} s", flags.timeLimit),
             static_cast<double>(proven), "instances");
  report.add("  proven optimal and = baseline", static_cast<double>(provenAtBaseline), "instances");
  report.add({"  proven optimal and != baseline", static_cast<double>(provenOffBaseline),
              "instances", 0.0, std::nullopt});
  report.add("  MILP latency < baseline", static_cast<double>(belowBaseline), "instances");
  report.add("  MILP time, all instances", seconds, "s");
  report.addTable(
      "HeuriGym operator scheduling: MILP latency vs list scheduling and the baseline; lower "
      "bound = max(critical path, resource bound); CBC bound where the limit stopped it",
      {"instance", "ops", "edges", "lower bound", "list", "MILP", "status", "CBC bound", "baseline",
       "MILP / baseline", "MILP s"},
      std::move(cells));
  return report;
}

}  // namespace

void addExactHeuriGymSuite(CLI::App& app, BenchOptions& options) {
  auto flags = std::make_shared<ExactHeuriGymFlags>();
  CLI::App* command = app.add_subcommand(
      "exact-heurigym", "Latency MILP on HeuriGym: proven optimal, vs list and baseline.json");
  command->add_option("--shared", flags->shared, "Folder holding benchmarks/")
      ->capture_default_str();
  command->add_option("--filter", flags->filter, "Only instances whose set/name contains this");
  command->add_option("--time-limit", flags->timeLimit, "Seconds per MILP")->capture_default_str();
  command->callback([flags, &options] { emitReport(runExactHeuriGym(*flags), options); });
}

}  // namespace gaus::bench
