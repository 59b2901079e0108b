// gaus-bench exact-triton: the exact II of each loop of Triton's dependence-graph dumps
// (shared/benchmarks/triton-ddg), beside the dump's own min II, the II Triton's heuristic chose
// (both carried by the dump as reference figures) and the II of iterative modulo scheduling.
// Three exact answers per loop, each within --time-limit seconds (default 60):
// - "ilp" on the modulo problem with cost normalization (Twill section 5.2; on for these costs):
//   the II is minimal in normalized units and mapped back to raw cycles by the time unit, so it
//   is an upper bound on the raw min II, not a proof;
// - "ilp" in raw cycles (normalization off): proven minimal when it says so, a proof about the
//   raw costs of the dump;
// - "twill" (modulo schedule and warp assignment, normalized), the engine's full answer, on each
//   loop's default machine (triton_blackwell or triton_hopper with the warps of Triton's own warp
//   groups from the companion file): I, L, warps used and cross-warp edges.
// Every schedule goes through the method catalog, which verifies it against the raw problem.

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/exact/cost_normalization.hpp>

#include "bench_main.hpp"
#include "shared_benchmarks.hpp"

namespace gaus::bench {

namespace {

struct ExactTritonFlags {
  std::string shared = GAUS_SHARED_DIR;
  std::string filter;
  double timeLimit = 60.0;
  bool twill = true;
};

// One exact answer: the II of its schedule and what is proven about it.
struct ExactAnswer {
  std::string status = "error";    // Result::statusText()
  std::optional<std::int64_t> ii;  // raw cycles
  bool proven = false;             // minimal (in normalized units for a normalized answer)
  std::optional<double> lowerBound;
  double seconds = 0;
  std::optional<double> warps;       // warps used (twill)
  std::optional<double> latency;     // L in raw cycles (twill)
  std::optional<double> crossEdges;  // edges between warps (twill)
  std::string error;  // why the method gave no answer (a refused model, an input it cannot take)

  std::string iiText() const {
    if (!error.empty()) return "error";
    if (!ii) return "-";
    return fmt::format("{}{}", *ii, proven ? "" : "?");
  }
};

ExactAnswer answerOf(const Result& result, bool normalized) {
  ExactAnswer answer;
  answer.status = std::string(result.statusText());
  answer.seconds = result.stats.seconds;
  if (result.verified()) answer.ii = *result.schedule->ii;
  answer.proven = normalized ? result.extraValue("normalized_ii_proven").value_or(0) > 0
                             : result.bounds.iiProvenOptimal;
  answer.lowerBound = result.bounds.lowerBound;
  answer.warps = result.extraValue("warps_used");
  answer.latency = result.extraValue("latency");
  answer.crossEdges = result.extraValue("cross_warp_edges");
  return answer;
}

// One exact call; an error (e.g. a model refused by max-nonzeros, or an input the method cannot
// take) becomes a cell of the table instead of ending the suite.
ExactAnswer runExact(std::string_view method, const Instance& instance, ProblemKind kind,
                     const MethodOptions& options, double timeLimit, bool normalized) {
  try {
    return answerOf(runCatalogMethod(method, instance, kind, options, timeLimit), normalized);
  } catch (const std::runtime_error& error) {
    ExactAnswer answer;
    answer.error = error.what();
    return answer;
  }
}

// "timeout, 60.2 s", or the error's first words.
std::string statusText(const ExactAnswer& answer) {
  if (!answer.error.empty()) {
    constexpr std::size_t kShown = 90;
    return "error: " +
           (answer.error.size() > kShown ? answer.error.substr(0, kShown) + "..." : answer.error);
  }
  return fmt::format("{}, {:.1f} s", answer.status, answer.seconds);
}

struct TritonRow {
  std::string name;
  OpId ops = 0;
  double dumpMinIi = 0, dumpResMii = 0, dumpRecMii = 0, tritonIi = 0, tritonWarps = 0;
  std::string machine;
  std::int32_t warps = 0;  // the machine's, for twill
  std::int64_t resMii = 0, recMii = 0, mii = 0;
  std::int64_t imsIi = 0;
  std::optional<exact::CostNormalization> normalization;
  std::int64_t timeUnit = 1;
  std::optional<double> normalizedMii;
  ExactAnswer normalized, raw, twill;
};

TritonRow solveLoop(const Instance& instance, const ExactTritonFlags& flags) {
  const Graph& graph = *instance.graph;
  TritonRow row;
  row.name = instance.name;
  row.ops = graph.numOps();
  row.dumpMinIi = referenceFigure(instance, "min_ii");
  row.dumpResMii = referenceFigure(instance, "res_mii");
  row.dumpRecMii = referenceFigure(instance, "rec_mii");
  row.tritonIi = referenceFigure(instance, "heuristic_ii");
  row.tritonWarps = referenceFigure(instance, "heuristic_warps");
  row.machine = instance.machine->name;
  row.warps = instance.machine->warps;
  row.resMii = computeResMii(graph, *instance.machine).value;
  row.recMii = computeRecMii(graph).value;
  row.mii = std::max(row.resMii, row.recMii);
  const Result ims = runCatalogMethod("ims", instance, ProblemKind::kModulo);
  if (!ims.verified()) {
    throw std::runtime_error(fmt::format("ims on {}: no verified schedule", instance.name));
  }
  row.imsIi = *ims.schedule->ii;

  // The mapping the exact methods use (the same options as their defaults), for the table.
  exact::NormalizationOptions normalizationOptions;
  normalizationOptions.mode = exact::NormalizationMode::kOn;
  if (auto normalized =
          exact::normalizeProblem(instance.problem(ProblemKind::kModulo), normalizationOptions)) {
    row.normalization = normalized->normalization;
    row.timeUnit = normalized->timeUnit;
    const Graph& units = *normalized->problem.graph;
    row.normalizedMii = static_cast<double>(std::max(
        computeResMii(units, *normalized->problem.machine).value, computeRecMii(units).value));
  }

  const std::string limit = fmt::format("{}", flags.timeLimit);
  row.normalized =
      runExact("ilp", instance, ProblemKind::kModulo,
               {{"milp_time_limit", limit}, {"normalize", "on"}}, flags.timeLimit, true);
  row.raw = runExact("ilp", instance, ProblemKind::kModulo,
                     {{"milp_time_limit", limit}, {"normalize", "off"}}, flags.timeLimit, false);
  if (flags.twill) {
    row.twill = runExact("twill", instance, ProblemKind::kModuloWarp,
                         {{"milp_time_limit", limit}, {"normalize", "on"}}, flags.timeLimit, true);
  }
  return row;
}

Report runExactTriton(const ExactTritonFlags& flags) {
  Report report("Exact engine: II of the Triton loops");
  for (auto& [key, value] : environmentNotes()) report.note(key, value);
  const auto folder = std::filesystem::path(flags.shared) / "benchmarks" / "triton-ddg";
  report.note("data", folder.string());
  report.note("method",
              fmt::format("ilp on the modulo problem, normalized (U = 300) and in raw cycles; "
                          "{}ims with its defaults; {} s per exact call; through the method "
                          "catalog (every schedule verified in raw cycles)",
                          flags.twill ? "twill (normalized); " : "", flags.timeLimit));
  std::vector<TritonRow> rows;
  for (const auto& file : benchmarkFiles(folder, ".ddg.json")) {
    for (const Instance& instance : readBenchmarkInstances(file)) {
      if (!matchesFilter(instance.name, flags.filter)) continue;
      rows.push_back(solveLoop(instance, flags));
    }
  }

  int rawProven = 0, rawAtMii = 0, normalizedBelowTriton = 0, rawBelowTriton = 0;
  std::vector<std::vector<std::string>> iis, details;
  for (const TritonRow& row : rows) {
    rawProven += row.raw.ii && row.raw.proven;
    rawAtMii += row.raw.ii && row.raw.proven && *row.raw.ii == row.mii;
    normalizedBelowTriton +=
        row.normalized.ii && static_cast<double>(*row.normalized.ii) < row.tritonIi;
    rawBelowTriton += row.raw.ii && static_cast<double>(*row.raw.ii) < row.tritonIi;
    iis.push_back({row.name, std::to_string(row.ops),
                   fmt::format("{} ({}, {})", row.dumpMinIi, row.dumpResMii, row.dumpRecMii),
                   fmt::format("{}", row.tritonIi),
                   fmt::format("{} ({}, {})", row.mii, row.resMii, row.recMii),
                   std::to_string(row.imsIi), row.normalized.iiText(), row.raw.iiText(),
                   flags.twill ? row.twill.iiText() : "not run"});
    const auto& mapping = row.normalization;
    details.push_back(
        {row.name, std::to_string(row.timeUnit),
         mapping ? fmt::format("{:.1f}%", 100.0 * mapping->worstRatioError) : "-",
         row.normalizedMii ? fmt::format("{}", *row.normalizedMii) : "-",
         row.normalized.ii ? fmt::format("{}", *row.normalized.ii / row.timeUnit) : "-",
         statusText(row.normalized), statusText(row.raw),
         row.raw.lowerBound ? fmt::format("{}", *row.raw.lowerBound) : "-",
         flags.twill ? statusText(row.twill) : "not run",
         row.twill.warps ? fmt::format("{}", *row.twill.warps) : "-"});
  }
  std::vector<std::vector<std::string>> twill;
  for (const TritonRow& row : rows) {
    const auto figure = [](const std::optional<double>& value) {
      return value ? fmt::format("{}", *value) : std::string("-");
    };
    twill.push_back({row.name, fmt::format("{} ({} warps)", row.machine, row.warps),
                     fmt::format("{} ({} warps)", row.tritonIi, row.tritonWarps), row.raw.iiText(),
                     row.twill.iiText(), figure(row.twill.latency),
                     row.twill.ii ? (row.twill.proven ? "yes, normalized" : "no") : "-",
                     figure(row.twill.warps), figure(row.twill.crossEdges), statusText(row.twill)});
  }
  report.add("Triton loops", static_cast<double>(rows.size()));
  report.add("  raw II proven minimal", static_cast<double>(rawProven), "loops");
  report.add("    at gaus's MII", static_cast<double>(rawAtMii), "loops");
  report.add("  normalized exact II < Triton's II", static_cast<double>(normalizedBelowTriton),
             "loops");
  report.add("  raw exact II < Triton's II", static_cast<double>(rawBelowTriton), "loops");
  report.addTable(
      "II in raw cycles (\"?\": not proven minimal; the normalized II is minimal in normalized "
      "units only, times the time unit); MII (ResMII, RecMII)",
      {"loop", "ops", "dump min II (res, rec)", "Triton II", "gaus MII (res, rec)", "IMS II",
       "exact II, normalized", "exact II, raw", "twill II"},
      std::move(iis));
  report.addTable(
      "Details: normalization (time unit in raw cycles, worst ratio error), normalized MII and II "
      "(units), status and time of each exact call, the raw search's proven lower bound",
      {"loop", "time unit", "ratio error", "MII'", "II'", "normalized ilp", "raw ilp",
       "raw lower bound", "twill", "twill warps"},
      std::move(details));
  if (flags.twill) {
    report.addTable(
        "Twill (joint modulo schedule and warp assignment) on each loop's default machine: I and "
        "L in raw cycles, I proven minimal in normalized units or not, warps used and edges "
        "between warps, beside Triton's II (and the warps of its warp groups) and the exact "
        "modulo II in raw cycles",
        {"loop", "machine", "Triton II (warps)", "exact modulo II", "twill I", "twill L",
         "I proven", "warps used", "cross-warp edges", "twill status"},
        std::move(twill));
  }
  return report;
}

}  // namespace

void addExactTritonSuite(CLI::App& app, BenchOptions& options) {
  auto flags = std::make_shared<ExactTritonFlags>();
  CLI::App* command = app.add_subcommand(
      "exact-triton", "Exact II of the Triton loops (normalized and raw) vs the dump and IMS");
  command->add_option("--shared", flags->shared, "Folder holding benchmarks/")
      ->capture_default_str();
  command->add_option("--filter", flags->filter, "Only loops whose name contains this");
  command->add_option("--time-limit", flags->timeLimit, "Seconds per exact call")
      ->capture_default_str();
  command->add_option("--twill", flags->twill, "Also run twill (true/false)")
      ->capture_default_str();
  command->callback([flags, &options] { emitReport(runExactTriton(*flags), options); });
}

}  // namespace gaus::bench
