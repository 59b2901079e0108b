// gaus-bench exact-machsuite: the smallest II of each MachSuite loop (HatScheT's 91 graphs) that
// the exact engine proves within --time-limit seconds per loop (default 60): method "ilp" on the
// modulo problem searches II = MinII, MinII + 1, ... with a modulo MILP per II (CBC), beside
// MinII = max(ResMII, RecMII) and the II of iterative modulo scheduling. An II is proven minimal
// when a schedule exists at it and every smaller II from MinII was proven infeasible; when the
// limit stops the search, the loop is "open" between the smallest II not proven infeasible and
// the best II known (the engine's or IMS's). Every schedule goes through the method catalog,
// which verifies it.

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>

#include "bench_main.hpp"
#include "shared_benchmarks.hpp"

namespace gaus::bench {

namespace {

struct ExactMachSuiteFlags {
  std::string shared = GAUS_SHARED_DIR;
  std::string filter;
  std::optional<int> limit;
  double timeLimit = 60.0;
  bool allRows = false;
};

struct LoopRow {
  std::string name;
  OpId ops = 0;
  std::int64_t resMii = 0, recMii = 0, minIi = 0;
  std::int64_t imsIi = 0;
  std::string status = "error";  // Result::statusText()
  std::optional<std::int64_t> exactIi;  // the II of the engine's schedule
  std::int64_t provenLower = 0;         // every II below is proven infeasible (or below MinII)
  bool proven = false;                  // exactIi is proven minimal
  double seconds = 0;

  std::int64_t bestKnown() const { return exactIi ? std::min(*exactIi, imsIi) : imsIi; }
};

LoopRow solveLoop(const Instance& instance, double timeLimit) {
  const Graph& graph = *instance.graph;
  LoopRow row;
  row.name = instance.name;
  row.ops = graph.numOps();
  row.resMii = computeResMii(graph, *instance.machine).value;
  row.recMii = computeRecMii(graph).value;
  row.minIi = std::max(row.resMii, row.recMii);
  const Result ims = runCatalogMethod("ims", instance, ProblemKind::kModulo);
  if (!ims.verified()) {
    throw std::runtime_error(fmt::format("ims on {}: no verified schedule", instance.name));
  }
  row.imsIi = *ims.schedule->ii;
  const std::string limit = fmt::format("{}", timeLimit);
  const Result exact =
      runCatalogMethod("ilp", instance, ProblemKind::kModulo, {{"milp_time_limit", limit}}, timeLimit);
  row.status = std::string(exact.statusText());
  row.seconds = exact.stats.seconds;
  if (exact.verified()) row.exactIi = *exact.schedule->ii;
  row.proven = row.exactIi && exact.bounds.iiProvenOptimal;
  row.provenLower = static_cast<std::int64_t>(exact.bounds.lowerBound.value_or(row.minIi));
  if (row.proven) row.provenLower = *row.exactIi;
  return row;
}

// "16" when proven, "[16, 20]" when open.
std::string minIiText(const LoopRow& row) {
  if (row.proven) return std::to_string(*row.exactIi);
  return fmt::format("[{}, {}]", row.provenLower, row.bestKnown());
}

Report runExactMachSuite(const ExactMachSuiteFlags& flags) {
  Report report("Exact engine: proven min II on the MachSuite loops");
  for (auto& [key, value] : environmentNotes()) report.note(key, value);
  const auto folder = std::filesystem::path(flags.shared) / "benchmarks" / "hatschet-machsuite";
  report.note("data", folder.string());
  report.note("method",
              fmt::format("ilp on the modulo problem (search from MinII, one CBC modulo MILP per "
                          "II, one thread), {} s per loop in all; ims with its defaults; through "
                          "the method catalog (every schedule verified)",
                          flags.timeLimit));
  Stopwatch wall;
  std::vector<LoopRow> rows;
  for (const auto& file : benchmarkFiles(folder, ".graphml")) {
    for (const Instance& instance : readBenchmarkInstances(file)) {
      if (!matchesFilter(instance.name, flags.filter)) continue;
      if (flags.limit && static_cast<int>(rows.size()) >= *flags.limit) break;
      rows.push_back(solveLoop(instance, flags.timeLimit));
    }
  }

  int proven = 0, provenAtMinIi = 0, minIiInfeasible = 0, open = 0, belowIms = 0, imsAbove = 0;
  double seconds = 0;
  std::vector<std::vector<std::string>> cells;
  for (const LoopRow& row : rows) {
    seconds += row.seconds;
    proven += row.proven;
    provenAtMinIi += row.proven && *row.exactIi == row.minIi;
    minIiInfeasible += row.provenLower > row.minIi;
    open += !row.proven;
    belowIms += row.exactIi && *row.exactIi < row.imsIi;
    imsAbove += row.imsIi > row.minIi;
    const bool interesting = !row.proven || *row.exactIi != row.minIi || row.imsIi != row.minIi;
    if (!flags.allRows && !interesting) continue;
    cells.push_back({row.name, std::to_string(row.ops), std::to_string(row.resMii),
                     std::to_string(row.recMii), std::to_string(row.minIi),
                     std::to_string(row.imsIi), row.exactIi ? std::to_string(*row.exactIi) : "-",
                     row.status, minIiText(row),
                     row.provenLower > row.minIi ? "yes" : "no",
                     fmt::format("{:.2f}", row.seconds)});
  }
  const auto count = static_cast<double>(rows.size());
  report.add("MachSuite loops", count);
  report.add("  II proven minimal", static_cast<double>(proven), "loops");
  report.add("    at MinII", static_cast<double>(provenAtMinIi), "loops");
  report.add("  MinII proven infeasible", static_cast<double>(minIiInfeasible), "loops");
  report.add("  open (time limit)", static_cast<double>(open), "loops");
  report.add("  IMS above MinII", static_cast<double>(imsAbove), "loops");
  report.add("  exact II < IMS II", static_cast<double>(belowIms), "loops");
  report.add("  exact search time, all loops", seconds, "s");
  report.add("  suite wall time", wall.seconds(), "s");
  report.addTable(
      fmt::format("{}: min II is the proven value, or [smallest II not proven infeasible, best "
                  "II known] when the limit stopped the search",
                  flags.allRows ? "Every loop"
                                : "Loops where IMS or the exact engine is above MinII, or the "
                                  "exact II is not proven"),
      {"loop", "ops", "ResMII", "RecMII", "MinII", "IMS II", "exact II", "status", "min II",
       "MinII infeasible", "exact s"},
      std::move(cells));
  return report;
}

}  // namespace

void addExactMachSuiteSuite(CLI::App& app, BenchOptions& options) {
  auto flags = std::make_shared<ExactMachSuiteFlags>();
  CLI::App* command = app.add_subcommand(
      "exact-machsuite", "Proven min II per MachSuite loop (modulo MILP) vs MinII and IMS");
  command->add_option("--shared", flags->shared, "Folder holding benchmarks/")
      ->capture_default_str();
  command->add_option("--filter", flags->filter,
                      "Only loops whose name (app/graphN) contains this");
  command->add_option("--limit", flags->limit, "At most this many loops (after --filter)");
  command->add_option("--time-limit", flags->timeLimit, "Seconds per loop (the whole II search)")
      ->capture_default_str();
  command->add_flag("--all", flags->allRows, "List every loop, not only those above MinII");
  command->callback([flags, &options] { emitReport(runExactMachSuite(*flags), options); });
}

}  // namespace gaus::bench
