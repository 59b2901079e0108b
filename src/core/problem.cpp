#include <algorithm>

#include <fmt/format.h>

#include <gaus/core/analysis.hpp>
#include <gaus/core/enum_names.hpp>
#include <gaus/core/option_table.hpp>
#include <gaus/core/problem.hpp>
#include <gaus/core/problem_facts.hpp>

namespace gaus {

// The kinds as --kind and the results files spell them.
constexpr auto kProblemKindNames = makeEnumNames<ProblemKind>({
    {ProblemKind::kLatency, "latency"},
    {ProblemKind::kLatencyBounded, "latency-bounded"},
    {ProblemKind::kModulo, "modulo"},
    {ProblemKind::kModuloWarp, "modulo-warp"},
    {ProblemKind::kStages, "stages"},
});

std::string_view toString(ProblemKind kind) {
  return kProblemKindNames.name(kind);
}

Expected<ProblemObjective> parseProblemObjective(std::string_view text) {
  if (text.empty()) return ProblemObjective::kMethodDefault;
  if (const auto objective = kProblemObjectiveNames.parse(text)) return *objective;
  const std::vector<std::string> names = kProblemObjectiveNames.names();
  return Error{fmt::format("--objective '{}'{}: expected {}", text,
                           option_text::didYouMean(text, names), option_text::listChoices(names))};
}

bool objectiveFits(ProblemObjective objective, ProblemKind kind) {
  switch (objective) {
    case ProblemObjective::kMethodDefault:
      return true;
    case ProblemObjective::kLatency:
      return kind == ProblemKind::kLatency;
    case ProblemObjective::kIi:
      return kind == ProblemKind::kModulo || kind == ProblemKind::kModuloWarp;
    case ProblemObjective::kPeakMemory:
      return kind == ProblemKind::kLatencyBounded;
    case ProblemObjective::kStageCost:
      return kind == ProblemKind::kLatencyBounded || kind == ProblemKind::kStages;
  }
  return false;
}

std::string kindsForObjective(ProblemObjective objective) {
  std::string kinds;
  for (const auto& [kind, name] : kProblemKindNames.entries()) {
    if (!objectiveFits(objective, kind)) continue;
    kinds += (kinds.empty() ? "" : ", ") + std::string(name);
  }
  return kinds;
}

std::optional<ProblemKind> parseProblemKind(std::string_view text) {
  return kProblemKindNames.parse(text);
}

std::vector<std::string> problemKindNames() {
  return kProblemKindNames.names();
}

namespace {

// Every op's reservations and footprints name a resource and a memory of the machine, and no op
// needs more units of a resource than it has.
void checkOpsFitMachine(const Graph& graph, const Machine& machine,
                        std::vector<std::string>& errors) {
  for (OpId op = 0; op < graph.numOps(); ++op) {
    for (const auto& block : graph.reservation(op)) {
      if (block.resource < 0 || block.resource >= machine.numResources()) {
        errors.push_back(
            fmt::format("op {} reserves resource #{}, but machine '{}' has {} "
                        "resources",
                        graph.opName(op), block.resource, machine.name, machine.numResources()));
        continue;
      }
      const Resource& resource = machine.resources[block.resource];
      if (resource.limited() && block.units > *resource.capacity) {
        errors.push_back(fmt::format(
            "op {} needs {} unit(s) of resource {}, whose capacity is {}: no schedule exists; "
            "raise the capacity of {} in the machine description",
            graph.opName(op), block.units, resource.name, *resource.capacity, resource.name));
      }
    }
    for (const auto& print : graph.footprints(op)) {
      if (print.memory < 0 || print.memory >= static_cast<MemoryId>(machine.memories.size())) {
        errors.push_back(
            fmt::format("op {} occupies memory #{}, but machine '{}' has {} "
                        "memories",
                        graph.opName(op), print.memory, machine.name, machine.memories.size()));
      }
    }
  }
}

// A modulo-warp problem's machine has a valid warp count, variable-latency warp and issue width,
// and each op's warp group and variable latency can be placed on it.
void checkWarpMachine(const Graph& graph, const Machine& machine,
                      std::vector<std::string>& errors) {
  if (machine.warps < 1 || machine.warps > kMaxWarps) {
    errors.push_back(fmt::format("machine '{}' has {} warps; need 1..{}", machine.name,
                                 machine.warps, kMaxWarps));
  }
  if (machine.variableLatencyWarp &&
      (*machine.variableLatencyWarp < 0 || *machine.variableLatencyWarp >= machine.warps)) {
    errors.push_back(
        fmt::format("variable-latency warp {} is not among the {} warps of "
                    "machine '{}'",
                    *machine.variableLatencyWarp, machine.warps, machine.name));
  }
  if (machine.warpIssueWidth && *machine.warpIssueWidth < 1) {
    errors.push_back(fmt::format("machine '{}' issues {} ops per warp and cycle; need 1 or more",
                                 machine.name, *machine.warpIssueWidth));
  }
  // Group sizes already found without a warp group that avoids the variable-latency warp.
  std::vector<std::int32_t> homeless;
  for (OpId op = 0; op < graph.numOps(); ++op) {
    const std::int32_t size = graph.minWarps(op);
    if (size > machine.warps) {
      errors.push_back(fmt::format("op {} needs min_warps={}, but machine '{}' has {} warps",
                                   graph.opName(op), size, machine.name, machine.warps));
    } else if (size > 1 && !graph.variableLatency(op) && machine.variableLatencyWarp &&
               std::find(homeless.begin(), homeless.end(), size) == homeless.end()) {
      // An aligned group (core isWarpGroup) that holds the variable-latency warp is closed to
      // every other op: with no other group, the op can run nowhere.
      const std::int32_t vl = *machine.variableLatencyWarp;
      bool open = false;
      for (std::int32_t first = 0; first + size <= machine.warps && !open; first += size) {
        open = vl < first || vl >= first + size;
      }
      if (!open) {
        homeless.push_back(size);
        errors.push_back(fmt::format(
            "op {} needs an aligned group of {} warps ({} consecutive warps, the first a "
            "multiple of {}), and every such group of machine '{}' ({} warps) holds the "
            "variable-latency warp {}; give the machine at least {} warps",
            graph.opName(op), size, size, size, machine.name, machine.warps, vl,
            (vl / size + 1) * size + size));
      }
    }
    if (graph.variableLatency(op) && !machine.variableLatencyWarp) {
      errors.push_back(
          fmt::format("op {} has variable latency, but machine '{}' names no "
                      "variable-latency warp (variable_latency_warp)",
                      graph.opName(op), machine.name));
      break;
    }
    if (graph.variableLatency(op) && graph.minWarps(op) != 1) {
      errors.push_back(
          fmt::format("variable-latency op {} needs min_warps={}, but the "
                      "variable-latency warp is a single warp",
                      graph.opName(op), graph.minWarps(op)));
    }
  }
}

}  // namespace

std::vector<std::string> Problem::check() const {
  std::vector<std::string> errors;
  if (!graph) errors.emplace_back("problem has no graph");
  if (!machine) errors.emplace_back("problem has no machine");
  if (!errors.empty()) return errors;

  if (graph->numOps() == 0) {
    errors.emplace_back(
        fmt::format("graph '{}' is empty: it has no ops to schedule", graph->name()));
  }
  checkOpsFitMachine(*graph, *machine, errors);
  const auto posed = facts();
  if (const auto& order = posed->order(); !order) errors.push_back(order.error());

  if (horizon && *horizon < 0) {
    errors.push_back(fmt::format("horizon D={} must be nonnegative", *horizon));
  }
  if (kind == ProblemKind::kLatencyBounded && !horizon) {
    errors.emplace_back("a latency-bounded problem needs a horizon D (--horizon)");
  }
  if (kind == ProblemKind::kStages) {
    if (!horizon || *horizon < 1) {
      errors.emplace_back("a stage problem needs a number of stages D >= 1 (--horizon)");
    }
    if (!(stageRatio > 0.0)) {
      errors.push_back(fmt::format("stage ratio {} must be positive (--ratio)", stageRatio));
    }
  }
  if (ii && *ii <= 0) errors.push_back(fmt::format("II={} must be positive", *ii));
  if (ii && !isModulo()) {
    errors.push_back(
        fmt::format("II={} is given, but a {} problem has no II", *ii, toString(kind)));
  }
  if (kind == ProblemKind::kModuloWarp) checkWarpMachine(*graph, *machine, errors);
  return errors;
}

}  // namespace gaus
