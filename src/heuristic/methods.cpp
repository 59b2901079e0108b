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

// Values that parsed but are out of range, beside what OptionReader reports itself (unknown
// options, unparsable values).
class OptionProblems {
 public:
  void add(std::string problem) {
    problems_ += (problems_.empty() ? "" : "; ") + std::move(problem);
  }
  // Empty when every option was understood; otherwise one message naming the method.
  std::string finish(const OptionReader& reader, std::string_view method) const {
    const std::string fromReader = reader.finish();  // already names the method
    if (problems_.empty()) return fromReader;
    if (fromReader.empty()) return fmt::format("method {}: {}", method, problems_);
    return fromReader + "; " + problems_;
  }

 private:
  std::string problems_;
};

std::optional<ListPriority> readPriority(OptionReader& reader, std::string_view name,
                                         ListPriority defaultValue, OptionProblems& problems) {
  const std::string text = reader.getString(name, std::string(heuristic::toString(defaultValue)));
  const auto parsed = heuristic::parseListPriority(text);
  if (!parsed || *parsed == ListPriority::kCustom) {
    problems.add(
        fmt::format("option '{}' expects one of {}, got '{}'", name, kPriorityChoices, text));
    return std::nullopt;
  }
  return parsed;
}

Result runList(const Problem& problem, const MethodOptions& options, const RunContext&) {
  OptionReader reader("list", options);
  OptionProblems problems;
  heuristic::ListSchedulerOptions listOptions;
  const auto priority = readPriority(reader, "priority", ListPriority::kHeight, problems);
  const auto tieBreak = readPriority(reader, "tie_break", ListPriority::kSuccessors, problems);
  if (std::string message = problems.finish(reader, "list"); !message.empty()) {
    return errorResult(std::move(message));
  }
  listOptions.priority = *priority;
  listOptions.tieBreak = *tieBreak;

  auto schedule = heuristic::listSchedule(problem, listOptions);
  if (!schedule) return errorResult(schedule.error());
  const Graph& graph = *problem.graph;
  Result result;
  result.options = reader.used();
  result.objectiveName = "latency";

  const Cycle latency = scheduleLatency(graph, schedule->start);
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
    OptionReader& reader, std::string_view name, OptionProblems& problems,
    std::vector<std::pair<std::string, std::string>>& unset) {
  const auto value = reader.getOptionalInt(name);
  if (!value) {
    unset.emplace_back(std::string(name), "none");
    return std::nullopt;
  }
  if (*value < 1 || *value > std::numeric_limits<std::int32_t>::max()) {
    problems.add(fmt::format("option '{}' expects an II in [1, {}], got {}", name,
                             std::numeric_limits<std::int32_t>::max(), *value));
    return std::nullopt;
  }
  return static_cast<std::int32_t>(*value);
}

Result runIms(const Problem& problem, const MethodOptions& options, const RunContext& context) {
  OptionReader reader("ims", options);
  OptionProblems problems;
  std::vector<std::pair<std::string, std::string>> unset;
  heuristic::ImsOptions imsOptions;
  imsOptions.ii = readOptionalIi(reader, "ii", problems, unset);
  imsOptions.budgetFactor = reader.getDouble("budget_factor", imsOptions.budgetFactor);
  imsOptions.maxIi = readOptionalIi(reader, "max_ii", problems, unset);
  const std::string placement =
      reader.getString("placement", std::string(heuristic::toString(imsOptions.placement)));
  if (const auto parsed = heuristic::parseImsPlacement(placement)) {
    imsOptions.placement = *parsed;
  } else {
    problems.add(
        fmt::format("option 'placement' expects one of rau, bounded, both, got '{}'", placement));
  }
  if (!(imsOptions.budgetFactor > 0)) {
    problems.add(
        fmt::format("option 'budget_factor' must be positive, got {}", imsOptions.budgetFactor));
  }
  if (std::string message = problems.finish(reader, "ims"); !message.empty()) {
    return errorResult(std::move(message));
  }

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
