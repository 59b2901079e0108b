// The "list" and "ims" methods: option parsing, bounds and the result each returns.

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/registry.hpp>
#include <gaus/heuristic/iterative_modulo_scheduler.hpp>
#include <gaus/heuristic/list_scheduler.hpp>
#include <gaus/heuristic/methods.hpp>

namespace gaus {

namespace {

using heuristic::ListPriority;

constexpr const char* kPriorityChoices = "height, alap, mobility, successors";

std::optional<ListPriority> readPriority(OptionReader& reader, std::string_view name,
                                         ListPriority defaultValue, std::string& errors) {
  const std::string text = reader.getString(name, std::string(heuristic::toString(defaultValue)));
  const auto parsed = heuristic::parseListPriority(text);
  if (!parsed || *parsed == ListPriority::kCustom) {
    errors += fmt::format("{}option '{}' expects one of {}, got '{}'", errors.empty() ? "" : "; ",
                          name, kPriorityChoices, text);
    return std::nullopt;
  }
  return parsed;
}

Result runList(const Problem& problem, const MethodOptions& options, const RunContext&) {
  OptionReader reader("list", options);
  std::string errors;
  heuristic::ListSchedulerOptions listOptions;
  const auto priority = readPriority(reader, "priority", ListPriority::kHeight, errors);
  const auto tieBreak = readPriority(reader, "tie_break", ListPriority::kSuccessors, errors);
  if (const std::string unknown = reader.finish(); !unknown.empty()) {
    errors = unknown + (errors.empty() ? "" : "; " + errors);
  } else if (!errors.empty()) {
    errors = "method list: " + errors;
  }
  if (!errors.empty()) return errorResult(errors);
  listOptions.priority = *priority;
  listOptions.tieBreak = *tieBreak;

  auto schedule = heuristic::listSchedule(problem, listOptions);
  if (!schedule) return errorResult(schedule.error());
  const Graph& graph = *problem.graph;
  Result result;
  result.options = reader.used();
  result.objectiveName = "latency";

  Cycle latency = 0;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    latency = std::max(latency, schedule->start[op] + graph.duration(op));
  }
  // Lower bounds: the critical path, and per limited resource its total reserved unit-cycles
  // over its capacity (all of which must fit in [0, latency)), which is ResMII's formula.
  const auto topo = topologicalOrder(graph);
  const Cycle criticalPath = criticalPathLength(graph, asapTimes(graph, *topo));
  const ResMii resourceBound = computeResMii(graph, *problem.machine);
  const Cycle resourceLowerBound = resourceBound.binding ? resourceBound.value : 0;
  const Cycle lowerBound = std::max(criticalPath, resourceLowerBound);
  result.extra = {{"latency", static_cast<double>(latency)},
                  {"critical_path", static_cast<double>(criticalPath)},
                  {"resource_bound", static_cast<double>(resourceLowerBound)}};
  result.bounds.lowerBound = static_cast<double>(lowerBound);

  if (problem.horizon && latency > *problem.horizon) {
    result.status = SolveStatus::kInfeasible;
    result.message =
        *problem.horizon < criticalPath
            ? fmt::format(
                  "list schedule latency {} exceeds the horizon D={}, which is shorter "
                  "than the critical path ({} cycles): no schedule exists",
                  latency, *problem.horizon, criticalPath)
            : fmt::format(
                  "list schedule latency {} exceeds the horizon D={} (critical path {}); "
                  "list scheduling is a heuristic, an exact method may still meet D",
                  latency, *problem.horizon, criticalPath);
    return result;
  }
  result.objective = static_cast<double>(latency);
  result.bounds.latencyProvenOptimal = latency == lowerBound;
  result.status = latency == lowerBound ? SolveStatus::kOptimal : SolveStatus::kFeasible;
  result.schedule = std::move(schedule).value();
  return result;
}

std::optional<std::int32_t> readOptionalIi(
    OptionReader& reader, std::string_view name, std::string& errors,
    std::vector<std::pair<std::string, std::string>>& unset) {
  const auto value = reader.getOptionalInt(name);
  if (!value) {
    unset.emplace_back(std::string(name), "none");
    return std::nullopt;
  }
  if (*value < 1 || *value > std::numeric_limits<std::int32_t>::max()) {
    errors +=
        fmt::format("{}option '{}' expects an II in [1, {}], got {}", errors.empty() ? "" : "; ",
                    name, std::numeric_limits<std::int32_t>::max(), *value);
    return std::nullopt;
  }
  return static_cast<std::int32_t>(*value);
}

Result runIms(const Problem& problem, const MethodOptions& options, const RunContext& context) {
  OptionReader reader("ims", options);
  std::string errors;
  std::vector<std::pair<std::string, std::string>> unset;
  heuristic::ImsOptions imsOptions;
  imsOptions.ii = readOptionalIi(reader, "ii", errors, unset);
  imsOptions.budgetFactor = reader.getDouble("budget_factor", imsOptions.budgetFactor);
  imsOptions.maxIi = readOptionalIi(reader, "max_ii", errors, unset);
  const std::string placement =
      reader.getString("placement", std::string(heuristic::toString(imsOptions.placement)));
  if (const auto parsed = heuristic::parseImsPlacement(placement)) {
    imsOptions.placement = *parsed;
  } else {
    errors += fmt::format("{}option 'placement' expects one of rau, bounded, both, got '{}'",
                          errors.empty() ? "" : "; ", placement);
  }
  if (!(imsOptions.budgetFactor > 0)) {
    errors += fmt::format("{}option 'budget_factor' must be positive, got {}",
                          errors.empty() ? "" : "; ", imsOptions.budgetFactor);
  }
  if (const std::string unknown = reader.finish(); !unknown.empty()) {
    return errorResult(unknown + (errors.empty() ? "" : "; " + errors));
  }
  if (!errors.empty()) return errorResult("method ims: " + errors);

  Result result = heuristic::iterativeModuloSchedule(problem, imsOptions, context);
  result.options = reader.used();
  result.options.insert(result.options.end(), unset.begin(), unset.end());
  return result;
}

}  // namespace

void registerHeuristicMethods(MethodRegistry& registry) {
  registry.add({"list",
                "resource-constrained list scheduling over reservation tables (minimizes latency)",
                {ProblemKind::kLatency, ProblemKind::kLatencyBounded},
                {{"priority", "height",
                  "order of the ready ops: height (longest path to the end, larger first), alap "
                  "(same order as height), mobility (ALAP - ASAP, smaller first), successors "
                  "(more successors first)"},
                 {"tie_break", "successors",
                  "rule among ops of equal priority (same choices); the op id breaks what is "
                  "left"}},
                runList});
  registry.add({"ims",
                "iterative modulo scheduling (Rau, MICRO 1994): smallest II it can place, from "
                "max(ResMII, RecMII) up",
                {ProblemKind::kModulo},
                {{"ii", "none", "fixed II to schedule at; none: search from max(ResMII, RecMII)"},
                 {"budget_factor", "6",
                  "placements allowed per II attempt, as a multiple of the number of ops"},
                 {"max_ii", "none",
                  "largest II tried; none: the II of the non-overlapped schedule, where a "
                  "schedule always exists (it is returned when every attempt runs out of "
                  "budget)"},
                 {"placement", "both",
                  "slot rule of an attempt: rau (the paper: first free slot after Estart), "
                  "bounded (also before the scheduled successors, else forced at Estart), both "
                  "(rau, then bounded at the same II)"}},
                runIms});
}

}  // namespace gaus
