// The exact engine's methods in the registry ("ilp", "twill") and their options.

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/exact/latency_milp.hpp>
#include <gaus/exact/methods.hpp>
#include <gaus/exact/modulo_milp.hpp>

namespace gaus::exact {

namespace {

constexpr double kDefaultTimeLimit = 60.0;

std::vector<OptionDoc> normalizationDocs() {
  return {
      {"normalize", "auto",
       "cost normalization (Twill section 5.2): on, off, or auto = on when the largest cost "
       "exceeds normalize-threshold cycles"},
      {"normalize-sum", "300", "bound U on the sum of the normalized costs"},
      {"normalize-threshold", "64", "auto normalizes when the largest cost exceeds this"},
  };
}

std::vector<OptionDoc> moduloMilpDocs() {
  return {
      {"formulation", "auto", "modulo MILP form: stage-residue, time-indexed, or auto"},
      {"windows", "true", "bound each op's start by ASAP/ALAP at the current II"},
      {"residue-links", "true",
       "link the residues of ops whose start difference a recurrence confines (stage-residue)"},
      {"start", "true", "start CBC from a heuristic schedule (also bounds L)"},
      {"start-heuristic", "best", "where the start comes from: greedy, ims, or best (both)"},
      {"symmetry", "true", "order interchangeable ops"},
      {"max-nonzeros", std::to_string(kDefaultMaxNonzeros),
       "refuse a MILP above this many nonzeros (memory: about 470 bytes each at CBC's root)"},
  };
}

// Fails with the reader's message when an option was unknown or did not parse.
Status finishOptions(const OptionReader& reader) {
  const std::string problems = reader.finish();
  if (!problems.empty()) return Error{problems};
  return Done{};
}

Expected<NormalizationOptions> readNormalization(OptionReader& reader) {
  NormalizationOptions normalization;
  const std::string mode = reader.getString("normalize", "auto");
  const auto parsed = parseNormalizationMode(mode);
  if (!parsed) {
    return Error{fmt::format("option 'normalize' expects on, off or auto, got '{}'", mode)};
  }
  normalization.mode = *parsed;
  normalization.sumBound = reader.getInt("normalize-sum", normalization.sumBound);
  normalization.largeCostThreshold =
      reader.getInt("normalize-threshold", normalization.largeCostThreshold);
  return normalization;
}

Expected<ModuloMilpOptions> readModuloMilp(OptionReader& reader, double timeLimit) {
  ModuloMilpOptions milp;
  const std::string formulation = reader.getString("formulation", "auto");
  const auto parsed = parseModuloFormulation(formulation);
  if (!parsed) {
    return Error{fmt::format(
        "option 'formulation' expects stage-residue, time-indexed or auto, got '{}'", formulation)};
  }
  milp.formulation = *parsed;
  milp.useWindows = reader.getBool("windows", true);
  milp.linkResidues = reader.getBool("residue-links", true);
  milp.useStart = reader.getBool("start", true);
  const std::string heuristic = reader.getString("start-heuristic", "best");
  const auto parsedHeuristic = parseStartHeuristic(heuristic);
  if (!parsedHeuristic) {
    return Error{
        fmt::format("option 'start-heuristic' expects greedy, ims or best, got '{}'", heuristic)};
  }
  milp.startHeuristic = *parsedHeuristic;
  milp.breakSymmetry = reader.getBool("symmetry", true);
  milp.maxNonzeros = reader.getInt("max-nonzeros", kDefaultMaxNonzeros);
  milp.timeLimitSeconds = timeLimit;
  return milp;
}

std::optional<double> combinedLimit(std::optional<double> option, std::optional<double> context) {
  if (option && context) return std::min(*option, *context);
  return option ? option : context;
}

Result runIlp(const Problem& problem, const MethodOptions& options, const RunContext& context) {
  OptionReader reader("ilp", options);
  const double timeLimit = reader.getDouble("time-limit", kDefaultTimeLimit);
  auto normalization = readNormalization(reader);
  if (problem.kind == ProblemKind::kLatency) {
    LatencyMilpOptions latency;
    latency.timeLimitSeconds = combinedLimit(timeLimit, context.timeLimitSeconds).value();
    latency.latencyBound = reader.getOptionalInt("latency-bound");
    latency.useStart = reader.getBool("start", true);
    latency.breakSymmetry = reader.getBool("symmetry", true);
    latency.maxNonzeros = reader.getInt("max-nonzeros", kDefaultMaxNonzeros);
    if (auto status = finishOptions(reader); !status) return errorResult(status.error());
    if (!normalization) return errorResult(normalization.error());
    latency.normalization = *normalization;
    Result result = solveLatencyMilp(problem, latency);
    result.options = reader.used();
    return result;
  }
  ModuloSearchOptions search;
  auto milp = readModuloMilp(reader, timeLimit);
  const auto maxIi = reader.getOptionalInt("max-ii");
  const std::string from = reader.getString("search-from", "mii");
  if (auto status = finishOptions(reader); !status) return errorResult(status.error());
  if (!normalization) return errorResult(normalization.error());
  if (!milp) return errorResult(milp.error());
  if (from != "mii" && from != "1") {
    return errorResult(
        fmt::format("method ilp: option 'search-from' expects mii or 1, got '{}'", from));
  }
  search.milp = *milp;
  search.normalization = *normalization;
  if (maxIi) search.maxIi = static_cast<std::int32_t>(*maxIi);
  search.startFromOne = from == "1";
  search.totalTimeLimitSeconds = context.timeLimitSeconds;
  search.progress = context.progress;
  Result result = searchModulo(problem, search);
  result.options = reader.used();
  return result;
}

Result runTwill(const Problem& problem, const MethodOptions& options, const RunContext& context) {
  std::vector<std::pair<std::string, std::string>> echo;
  auto twill = readTwillOptions(options, &echo);
  if (!twill) return errorResult(twill.error());
  twill->totalTimeLimitSeconds =
      combinedLimit(twill->totalTimeLimitSeconds, context.timeLimitSeconds);
  twill->progress = context.progress;
  TwillSolution solution = solveTwill(problem, *twill);
  solution.options = std::move(echo);
  Result result = toResult(solution);
  if (!result.bounds.lowerBound) {
    result.bounds.lowerBound =
        static_cast<double>(std::max(computeResMii(*problem.graph, *problem.machine).value,
                                     computeRecMii(*problem.graph).value));
  }
  if (result.status == SolveStatus::kError && result.message.empty()) {
    result.message = "twill failed";
  }
  return result;
}

}  // namespace

std::vector<OptionDoc> ilpOptionDocs() {
  std::vector<OptionDoc> docs = {
      {"time-limit", "60",
       "seconds per solve, heuristics and model building included (per II for modulo problems)"},
      {"latency-bound", "-", "latency problems: upper bound on L (default: list schedule)"},
      {"max-ii", "-", "modulo problems: largest II tried (default: non-overlapped II)"},
      {"search-from", "mii", "modulo problems: first II tried, mii or 1"},
  };
  for (auto& doc : moduloMilpDocs()) docs.push_back(std::move(doc));
  for (auto& doc : normalizationDocs()) docs.push_back(std::move(doc));
  return docs;
}

std::vector<OptionDoc> twillOptionDocs() {
  std::vector<OptionDoc> docs = {
      {"time-limit", "-", "seconds for the whole search (default: none)"},
      {"milp-time-limit", "60", "seconds per modulo MILP (one per II)"},
      {"smt-time-limit", "60", "seconds per SMT check (one per II and L)"},
      {"max-ii", "-", "largest II tried, raw cycles (default: non-overlapped II)"},
      {"warps", "-", "warps (warp groups) available; default: the machine's"},
      {"extra-stages", "0", "stages beyond the MILP's tried at one II (0: Algorithm 1)"},
      {"memory-model", "buffers",
       "memory capacity: buffers (ring of ceil(lifetime/II) buffers per value) or cycles "
       "(footprints live at each residue)"},
      {"minimize-warps", "true", "after SAT, minimize the warps used"},
      {"minimize-cross-edges", "true", "then minimize the cross-warp edges"},
      {"minimize-time-limit", "10", "seconds per minimization step"},
      {"explain", "false", "explain what binds II and why ops were split across warps"},
      {"explain-time-limit", "10", "seconds per explanation query"},
      {"disable", "", "constraint families to switch off, comma-separated (ablations)"},
      {"symmetry", "true", "break symmetries between interchangeable ops and warps"},
  };
  for (auto& doc : moduloMilpDocs()) {
    if (doc.name != "symmetry") docs.push_back(std::move(doc));
  }
  for (auto& doc : normalizationDocs()) docs.push_back(std::move(doc));
  return docs;
}

Expected<TwillOptions> readTwillOptions(const MethodOptions& options,
                                        std::vector<std::pair<std::string, std::string>>* echo) {
  OptionReader reader("twill", options);
  TwillOptions twill;
  twill.totalTimeLimitSeconds = reader.getOptionalDouble("time-limit");
  const double milpLimit = reader.getDouble("milp-time-limit", kDefaultTimeLimit);
  twill.smtTimeLimitSeconds = reader.getDouble("smt-time-limit", twill.smtTimeLimitSeconds);
  if (const auto maxIi = reader.getOptionalInt("max-ii")) {
    twill.maxIi = static_cast<std::int32_t>(*maxIi);
  }
  if (const auto warps = reader.getOptionalInt("warps")) {
    twill.warps = static_cast<std::int32_t>(*warps);
  }
  twill.extraStages = static_cast<std::int32_t>(reader.getInt("extra-stages", 0));
  const std::string memory = reader.getString("memory-model", "buffers");
  twill.minimizeWarps = reader.getBool("minimize-warps", true);
  twill.minimizeCrossWarpEdges = reader.getBool("minimize-cross-edges", true);
  twill.minimizeTimeLimitSeconds =
      reader.getDouble("minimize-time-limit", twill.minimizeTimeLimitSeconds);
  twill.explain = reader.getBool("explain", false);
  twill.explainTimeLimitSeconds =
      reader.getDouble("explain-time-limit", twill.explainTimeLimitSeconds);
  const std::string disable = reader.getString("disable", "");
  twill.breakSymmetry = reader.getBool("symmetry", true);
  auto milp = readModuloMilp(reader, milpLimit);
  auto normalization = readNormalization(reader);
  if (echo != nullptr) *echo = reader.used();
  if (auto status = finishOptions(reader); !status) return Error{status.error()};
  if (!milp) return Error{"method twill: " + milp.error()};
  if (!normalization) return Error{"method twill: " + normalization.error()};
  twill.milp = *milp;
  twill.milp.breakSymmetry = twill.breakSymmetry;
  twill.normalization = *normalization;
  const auto model = parseMemoryModel(memory);
  if (!model) {
    return Error{fmt::format(
        "method twill: option 'memory-model' expects buffers or cycles, got '{}'", memory)};
  }
  twill.memoryModel = *model;
  std::stringstream names(disable);
  std::string name;
  while (std::getline(names, name, ',')) {
    if (name.empty()) continue;
    const auto family = parseTwillFamily(name);
    if (!family) {
      std::string known;
      for (TwillFamily f : kAllTwillFamilies) {
        if (!known.empty()) known += ", ";
        known += toString(f);
      }
      return Error{
          fmt::format("method twill: option 'disable' names unknown family '{}' "
                      "(known: {})",
                      name, known)};
    }
    twill.families = twill.families.without(*family);
  }
  return twill;
}

}  // namespace gaus::exact

namespace gaus {

void registerExactMethods(MethodRegistry& registry) {
  registry.add({"ilp",
                "exact MILP on CBC: latency minimization (time-indexed) or modulo scheduling "
                "(min II, then min L at that II)",
                {ProblemKind::kLatency, ProblemKind::kModulo},
                exact::ilpOptionDocs(),
                exact::runIlp});
  registry.add({"twill",
                "joint software pipelining and warp specialization (Twill, OSDI'26): CBC modulo "
                "MILP + Z3 SMT per (II, L)",
                {ProblemKind::kModuloWarp},
                exact::twillOptionDocs(),
                exact::runTwill});
}

}  // namespace gaus
